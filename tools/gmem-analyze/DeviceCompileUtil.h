//===- DeviceCompileUtil.h - helpers of the device compile ------*- C++ -*-===//
//
// Part of gmem. Errors, environment, files and command-line flags, shared by
// DeviceCompile.cpp and DeviceCompileToolchain.cpp. Not part of the
// DeviceCompile.h interface.
//
//===----------------------------------------------------------------------===//

#ifndef GMEM_TOOLS_GMEM_ANALYZE_DEVICECOMPILEUTIL_H
#define GMEM_TOOLS_GMEM_ANALYZE_DEVICECOMPILEUTIL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace gmem {
namespace tool {
namespace detail {

llvm::Error makeError(const llvm::Twine &Msg);

/// $Name, unless unset or empty.
std::optional<std::string> getEnv(const char *Name);

bool isFile(const llvm::Twine &P);

/// Quote an argument for display as a shell command (Verbose only).
std::string shellQuote(llvm::StringRef A);

/// Value of "--flag=value" (or "--flag value") in Args, if present.
std::optional<std::string> findFlagValue(llvm::ArrayRef<std::string> Args,
                                         llvm::StringRef Flag);

bool hasFlagPrefix(llvm::ArrayRef<std::string> Args, llvm::StringRef Prefix);

/// Include directories named by -I/-isystem/-idirafter/-iquote in Args.
std::vector<std::string> userIncludeDirs(llvm::ArrayRef<std::string> Args);

llvm::Error writeFile(const llvm::Twine &P, llvm::StringRef Contents);

} // namespace detail
} // namespace tool
} // namespace gmem

#endif // GMEM_TOOLS_GMEM_ANALYZE_DEVICECOMPILEUTIL_H
