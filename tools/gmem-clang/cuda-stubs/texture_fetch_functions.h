// gmem-clang++: empty stand-in for a CUDA header that clang 19's CUDA
// wrapper (__clang_cuda_runtime_wrapper.h) still includes but newer toolkits
// (CUDA 13) no longer ship. The driver adds this directory with -idirafter,
// so it is only reached when the toolkit lacks the header: a toolkit that
// has it keeps using the real one.
#pragma once
