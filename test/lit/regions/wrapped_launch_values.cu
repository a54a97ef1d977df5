// Values that wrap on the GPU without undefined behaviour: unsigned
// arithmetic read as int, and 64-bit values truncated to 32. Their
// mathematical values are not the machine's, so every bound built on them
// needs a launch check, and those checks are never assumed for the static
// class (only a wrap of signed arithmetic, C's overflow, is). Found by an
// adversarial round in session 48:
// - a signed division or remainder of launch values took their
//   mathematical values (`(int)(ua + ub) / d` with ua + ub = 2^31 is
//   INT_MIN / d on the GPU);
// - the sign of an int converted to float took its mathematical value;
// - the static class called kernels idempotent on checks that such a wrap
//   fails ("assumed", as if the wrap were UB).
// RUN: %gmem-analyze %s | FileCheck %s
//
// At launches where the values wrap, the regions are the whole allocation
// and the launches that read what they write are not idempotent:
// RUN: %gmem-analyze %s --kernel div_of_sum --grid 1 --block 4 --alloc 0x100000000:4096 \
// RUN:   --arg ptr:0x100000800 --arg i32:2147483647 --arg i32:1 --arg i32:16777216 \
// RUN:   | FileCheck %s --check-prefix=DIV
// DIV: #0 p  write [0x100000000, 0x100001000)  (launch fails the no-wrap check on ua + ub
// RUN: %gmem-analyze %s --kernel rem_of_product --grid 1 --block 4 --alloc 0x100000000:4096 \
// RUN:   --arg ptr:0x100000800 --arg i32:65536 --arg i32:65537 --arg i32:100 \
// RUN:   | FileCheck %s --check-prefix=REM
// REM: #0 p  write [0x100000000, 0x100001000)  (launch fails
// RUN: %gmem-analyze %s --kernel div_read_write --grid 1 --block 64 --alloc 0x100000000:8192 \
// RUN:   --arg ptr:0x100000000 --arg i32:2147483647 --arg i32:1 --arg i32:4194304 \
// RUN:   | FileCheck %s --check-prefix=DIVRW
// DIVRW: idempotent: no
// RUN: %gmem-analyze %s --kernel float_of_wrapped --grid 1 --block 8 --alloc 0x100000000:4096 \
// RUN:   --arg ptr:0x100000800 --arg i32:2147483647 | FileCheck %s --check-prefix=FLT
// FLT: #0 p  write [0x100000000, 0x100001000)  (launch fails
// At launches where nothing wraps the regions stay exact:
// RUN: %gmem-analyze %s --kernel div_of_sum --grid 1 --block 4 --alloc 0x100000000:4096 \
// RUN:   --arg ptr:0x100000800 --arg i32:100 --arg i32:28 --arg i32:16 \
// RUN:   | FileCheck %s --check-prefix=DIVOK
// DIVOK: #0 p  write [0x100000820, 0x100000830){{$}}

// CHECK-LABEL: kernel div_of_sum(float*, unsigned int, unsigned int, int)
// CHECK:         write: [4*((ua + ub) /s d), 4*((ua + ub) /s d) + 4*blockDim.x)
__global__ void div_of_sum(float *p, unsigned ua, unsigned ub, int d) {
  int x = (int)(ua + ub);
  p[x / d + (int)threadIdx.x] = 1.0f;
}

__global__ void rem_of_product(float *p, unsigned ua, unsigned ub, int d) {
  int x = (int)(ua * ub);
  p[x % d + (int)threadIdx.x] = 1.0f;
}

__global__ void div_read_write(float *a, unsigned ua, unsigned ub, int d) {
  unsigned t = threadIdx.x;
  int x = (int)(ua + ub);
  float v = a[x / d + 512 + (int)t];
  __syncthreads();
  a[t] = v + 1.0f;
}

// (float)x >= 0 only where x's machine value is: (int)(2u * t * u) with
// u = 2^31 - 1 is -2t on the GPU.
__global__ void float_of_wrapped(float *p, unsigned u) {
  unsigned t = threadIdx.x;
  int x = (int)((2u * t) * u);
  int j = (int)((float)x * 0.5f);
  if (j < 64)
    p[j] = 1.0f;
}

// (int)(u * 4u) wraps for u >= 2^29 without UB: the disjointness of the
// read and the write is decided per launch, not assumed.
// CHECK-LABEL: kernel unsigned_product_read(float*, unsigned int)
// CHECK:         class:  conditional -- reads and writes of 'a' are proven apart only while 4*u stays in
__global__ void unsigned_product_read(float *a, unsigned u) {
  unsigned t = threadIdx.x;
  bool ok = t < 512 && (int)u >= 1024;
  float v = 0.0f;
  if (ok)
    v = a[(int)(u * 4u)];
  __syncthreads();
  if (ok)
    a[t] = v + 1.0f;
}

// (int)(L + t) truncates a 64-bit value: L = 2^32 reads a[t] itself.
// CHECK-LABEL: kernel truncated_index(float*, long long)
// CHECK:         class:  conditional -- reads and writes of 'a' are proven apart only while L stays in
__global__ void truncated_index(float *a, long long L) {
  int t = threadIdx.x;
  if (t < 512 && L >= 1024) {
    int j = (int)(L + t);
    a[t] = a[j] + 1.0f;
  }
}

// Control: the same shape in int arithmetic, whose overflow is UB, keeps
// its static class.
// CHECK-LABEL: kernel signed_offset_read(float*, int)
// CHECK:         class:  idempotent
__global__ void signed_offset_read(float *a, int n) {
  int t = threadIdx.x;
  if (t < 512 && n >= 1024) {
    int j = n + t;
    a[t] = a[j] + 1.0f;
  }
}
