// Binary encoding of KernelDescriptor (format: include/gmem/descriptor_abi.h).
#pragma once

#include "gmem/compiler/KernelDescriptor.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gmem {

std::vector<uint8_t> encodeDescriptor(const KernelDescriptor &K);

/// Decodes one blob. On a malformed blob or another version, returns false
/// and says why in *Error; never reads past Size.
bool decodeDescriptor(const uint8_t *Data, size_t Size, KernelDescriptor &Out,
                      std::string *Error = nullptr);

} // namespace gmem
