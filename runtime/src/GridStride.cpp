// See GridStride.h.
#include "GridStride.h"

#include <algorithm>
#include <cstring>

namespace gmem {
namespace rt {
namespace sched {

uint32_t gridStrideX(const GridStrideBound &B, const void *N, size_t ParamBytes,
                     const unsigned Grid[3], const unsigned Block[3], uint32_t MaxX,
                     unsigned Trips) {
  using u128 = unsigned __int128;
  if (!N || Block[0] == 0 || (ParamBytes != 4 && ParamBytes != 8) || (ParamBytes == 8 && !B.Wide))
    return 0;
  // n as the loop compares it: extended to the index's width, then read
  // signed or unsigned.
  uint64_t Raw = 0;
  if (ParamBytes == 4) {
    uint32_t V;
    std::memcpy(&V, N, 4);
    Raw = B.ParamSigned ? uint64_t(int64_t(int32_t(V))) : uint64_t(V);
  } else {
    std::memcpy(&Raw, N, 8);
  }
  const unsigned Bits = B.Wide ? 64 : 32;
  if (Bits == 32)
    Raw &= 0xffffffffull;
  // The last index the loop runs, or none.
  u128 Last;
  if (B.Unsigned) {
    if (!B.Inclusive && Raw == 0)
      return 0;
    Last = B.Inclusive ? u128(Raw) : u128(Raw) - 1;
  } else {
    const int64_t S = Bits == 32 ? int64_t(int32_t(uint32_t(Raw))) : int64_t(Raw);
    if (S < 0 || (!B.Inclusive && S == 0))
      return 0;
    Last = B.Inclusive ? u128(S) : u128(S) - 1;
  }
  const u128 Limit = B.Unsigned ? (u128(1) << Bits) - 1 : (u128(1) << (Bits - 1)) - 1;
  const u128 X = Block[0];
  // Last + X * G <= Limit, and X * G < 2^31 (the stride is a 32-bit
  // product in the source: blockDim.x * gridDim.x).
  const u128 PerCta = X * std::max(Trips, 1u);
  u128 G = (Last + 1 + PerCta - 1) / PerCta; // Trips trips per virtual CTA
  G = std::min(G, (Limit - Last) / X);
  G = std::min(G, ((u128(1) << 31) - 1) / X);
  G = std::min(G, u128(MaxX));
  return G > Grid[0] ? uint32_t(G) : 0;
}

} // namespace sched
} // namespace rt
} // namespace gmem
