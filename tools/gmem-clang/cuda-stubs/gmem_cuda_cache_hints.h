// CUDA's cache-operator loads and stores (__ldcs, __stcs, __ldcg, ...),
// which nvcc declares in sm_32_intrinsics.h and clang 19's CUDA headers do
// not provide (llm.c-style code would not compile). gmem-clang++ and
// gmem-analyze include this after clang's CUDA wrapper.
//
// The cache hints (.ca, .cs, .lu on loads; .wb, .cg, .cs on stores) change
// only where a line is kept, not what a weak access may observe, so they
// are plain accesses here: the analysis sees ordinary loads and stores
// (precise regions; the hint itself is dropped). __ldcg (L2 only), __ldcv
// and __stwt, which code may use to see other CTAs' or the host's writes,
// are volatile accesses: at least as strong (never served from L1), and the
// analysis treats them as it treats volatile accesses.
#pragma once
#if defined(__CUDA__) && defined(__clang__) && __clang_major__ <= 19 && !defined(GMEM_NO_CACHE_HINTS)
#define GMEM_CH_ATTR static __device__ __forceinline__
#define GMEM_CH_PLAIN(T)                                                     \
  GMEM_CH_ATTR T __ldca(const T *p) { return *p; }                           \
  GMEM_CH_ATTR T __ldcs(const T *p) { return *p; }                           \
  GMEM_CH_ATTR T __ldlu(const T *p) { return *p; }                           \
  GMEM_CH_ATTR void __stwb(T *p, T v) { *p = v; }                            \
  GMEM_CH_ATTR void __stcg(T *p, T v) { *p = v; }                            \
  GMEM_CH_ATTR void __stcs(T *p, T v) { *p = v; }
#define GMEM_CH_SCALAR(T)                                                    \
  GMEM_CH_PLAIN(T)                                                           \
  GMEM_CH_ATTR T __ldcg(const T *p) { return *(const volatile T *)p; }       \
  GMEM_CH_ATTR T __ldcv(const T *p) { return *(const volatile T *)p; }       \
  GMEM_CH_ATTR void __stwt(T *p, T v) { *(volatile T *)p = v; }
#define GMEM_CH_VEC2(T, E)                                                   \
  GMEM_CH_PLAIN(T)                                                           \
  GMEM_CH_ATTR T __ldcg(const T *p) {                                        \
    const volatile E *q = (const volatile E *)p;                             \
    T r; r.x = q[0]; r.y = q[1]; return r;                                   \
  }                                                                          \
  GMEM_CH_ATTR T __ldcv(const T *p) { return __ldcg(p); }                    \
  GMEM_CH_ATTR void __stwt(T *p, T v) {                                      \
    volatile E *q = (volatile E *)p; q[0] = v.x; q[1] = v.y;                 \
  }
#define GMEM_CH_VEC4(T, E)                                                   \
  GMEM_CH_PLAIN(T)                                                           \
  GMEM_CH_ATTR T __ldcg(const T *p) {                                        \
    const volatile E *q = (const volatile E *)p;                             \
    T r; r.x = q[0]; r.y = q[1]; r.z = q[2]; r.w = q[3]; return r;          \
  }                                                                          \
  GMEM_CH_ATTR T __ldcv(const T *p) { return __ldcg(p); }                    \
  GMEM_CH_ATTR void __stwt(T *p, T v) {                                      \
    volatile E *q = (volatile E *)p;                                         \
    q[0] = v.x; q[1] = v.y; q[2] = v.z; q[3] = v.w;                          \
  }
GMEM_CH_SCALAR(char)
GMEM_CH_SCALAR(signed char)
GMEM_CH_SCALAR(short)
GMEM_CH_SCALAR(int)
GMEM_CH_SCALAR(long)
GMEM_CH_SCALAR(long long)
GMEM_CH_SCALAR(unsigned char)
GMEM_CH_SCALAR(unsigned short)
GMEM_CH_SCALAR(unsigned int)
GMEM_CH_SCALAR(unsigned long)
GMEM_CH_SCALAR(unsigned long long)
GMEM_CH_SCALAR(float)
GMEM_CH_SCALAR(double)
GMEM_CH_VEC2(char2, signed char)
GMEM_CH_VEC4(char4, signed char)
GMEM_CH_VEC2(short2, short)
GMEM_CH_VEC4(short4, short)
GMEM_CH_VEC2(int2, int)
GMEM_CH_VEC4(int4, int)
GMEM_CH_VEC2(longlong2, long long)
GMEM_CH_VEC2(uchar2, unsigned char)
GMEM_CH_VEC4(uchar4, unsigned char)
GMEM_CH_VEC2(ushort2, unsigned short)
GMEM_CH_VEC4(ushort4, unsigned short)
GMEM_CH_VEC2(uint2, unsigned int)
GMEM_CH_VEC4(uint4, unsigned int)
GMEM_CH_VEC2(ulonglong2, unsigned long long)
GMEM_CH_VEC2(float2, float)
GMEM_CH_VEC4(float4, float)
GMEM_CH_VEC2(double2, double)
#undef GMEM_CH_VEC4
#undef GMEM_CH_VEC2
#undef GMEM_CH_SCALAR
#undef GMEM_CH_PLAIN
#undef GMEM_CH_ATTR
#endif
