// A module global reached through a generic pointer: atomicAdd takes a
// generic address, so NVPTX's IR adds at `addrspacecast (@g to ptr)` plus the
// offset. The cast keeps the address, so offsets from it are offsets from
// the global (AccessCollector): each region below holds exactly the bytes
// the kernel touches. Before, such an access was the whole global
// ("pointer arithmetic the analysis cannot follow"), which is also sound but
// says nothing about which counter a launch touches.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel bump --grid 4 --block 32 --global counters:0x90000:64 \
// RUN:   --global hits:0x91000:8 | FileCheck %s --check-prefix=INST

// CHECK-LABEL: kernel bump()
// CHECK:       global @counters  RWA
// CHECK-NEXT:      read:  [0, 8*min(gridDim.x - 1, 7) + 8)
// CHECK-NEXT:      write: [0, 8*min(gridDim.x - 1, 7) + 8)
// CHECK:       global @hits  RWA
// CHECK-NEXT:      read:  [0, 8)
// CHECK-NEXT:      write: [0, 8)

// Blocks 0..3 add to counters 0..3: the conflict is bytes [0, 32) of the 64.
// INST: idempotent: no -- write of counters overlaps read of counters
// INST-NEXT: conflict: bytes [0x90000, 0x90020)
__device__ unsigned long long counters[8];
__device__ unsigned long long hits;

__global__ void bump() {
  unsigned b = blockIdx.x < 8 ? blockIdx.x : 7;
  atomicAdd(&counters[b], 1ull);
  if (threadIdx.x == 0)
    atomicAdd(&hits, 1ull);
}
