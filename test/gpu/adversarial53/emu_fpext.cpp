// Emulates the fpext kernels of adversarial53/fc_nan_fpext.cu applied twice,
// under three models of a NaN's widening: the folder's (quiet, payload kept:
// what x86 cvtss2sd does), NVIDIA-style canonical NaN (all ones), and a
// default NaN without payload (0x7ff8...).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cmath>
enum Model { KEEP, CANON, DEFAULT };
static const char *mname[] = {"payload-kept(folder)", "canonical-0x7fff..", "default-0x7ff8.."};
static uint64_t ext32(uint32_t v, Model m) {  // float bits -> double bits
  float f; memcpy(&f, &v, 4);
  if (std::isnan(f) && m != KEEP) return m == CANON ? 0x7fffffffffffffffull : 0x7ff8000000000000ull;
  double d = (double)f; uint64_t b; memcpy(&b, &d, 8); return b;
}
static uint32_t ext16(uint16_t h, Model m) {  // half bits -> float bits (exact for non-NaN)
  uint32_t s = (h >> 15) & 1, e = (h >> 10) & 31, f = h & 1023;
  if (e == 31 && f) {
    if (m == CANON) return 0x7fffffffu;
    if (m == DEFAULT) return 0x7fc00000u;
    return (s << 31) | 0x7f800000u | 0x400000u | (f << 13);
  }
  float r;
  if (e == 0) r = std::ldexp((float)f, -24);
  else if (e == 31) r = INFINITY;
  else r = std::ldexp((float)(f | 1024), (int)e - 25);
  if (s) r = -r;
  uint32_t b; memcpy(&b, &r, 4); return b;
}
static uint32_t k_u32(uint32_t v, Model m) {
  uint64_t b = ext32(v, m);
  return v == 0 ? 0u : ((((b >> 29) & 1) == 1 && (b & 0x1fffffffull) == 0) ? 0x7fc00001u : 0u);
}
static uint32_t k_f32xor(uint32_t v, Model m) {
  float fv; memcpy(&fv, &v, 4);
  uint64_t b = ext32(v ^ 0x40400000u, m);
  return (fv == 0.f) ? 0u : ((((b >> 29) & 1) == 1 && (b & 0x1fffffffull) == 0) ? 0x3f800001u : 0u);
}
static uint16_t k_half(uint16_t v, Model m) {
  uint32_t b = ext16(v, m);
  return v == 0 ? 0 : (((b & 0x1fffu) == 0 && ((b >> 13) & 1) == 1) ? 0x7e01 : 0);
}
static uint32_t k_fneg(uint32_t v, Model m) {
  uint64_t b = ext32(v, m) ^ 0x8000000000000000ull;
  return v == 0 ? 0u : ((((b >> 29) & 1) == 1 && (b & 0x1fffffffull) == 0) ? 0x7fc00001u : 0u);
}
static uint32_t k_exact(uint32_t v, Model m) {
  uint64_t b = ext32(v, m);
  return (v == 7u || b == 0x7ff8000020000000ull) ? 0x7fc00001u : 5u;
}
template <class T, class F> static void run(const char *name, T in, F f) {
  for (int m = 0; m < 3; ++m) {
    T s1 = f(in, (Model)m), s2 = f(s1, (Model)m);
    printf("%-24s %-22s in=0x%08x S1=0x%08x S2=0x%08x %s\n", name, mname[m], (unsigned)in,
           (unsigned)s1, (unsigned)s2, s1 == s2 ? "same" : "DIFFERS (not idempotent)");
  }
}
int main() {
  run("fx_u32_fpext_payload", 1065353217u, k_u32);
  run("fx_f32_xor_nan", 2134900737u, k_f32xor);
  run<uint16_t>("fx_half_fpext_payload", (uint16_t)0x3c01, k_half);
  run("fx_fneg_fpext", 1065353217u, k_fneg);
  run("fx_fpext_exact_pattern", 7u, k_exact);
  // the randint RUN of fx_u32_fpext_payload: every value in [0x3f800000, 0x3f800020)
  for (int m = 0; m < 3; ++m) {
    int diff = 0;
    for (uint32_t v = 0x3f800000u; v < 0x3f800020u; ++v) { uint32_t a = k_u32(v, (Model)m); diff += a != k_u32(a, (Model)m); }
    printf("fx_u32_fpext_payload randint range, %s: %d of 32 values differ\n", mname[m], diff);
  }
}
