//===- DeviceCompileTest.cpp - tests for tools/gmem-analyze/DeviceCompile -===//
//
// Needs clang (19) and a CUDA toolkit for the CUDA tests; the HIP tests need
// only clang (they use the bundled HIP shim). Tests whose toolchain is missing
// are skipped, not failed.
//
//===----------------------------------------------------------------------===//

#include "DeviceCompile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <optional>
#include <string>

using namespace llvm;
using namespace gmem::tool;

namespace {

/// Sets (or, with nullptr, unsets) an environment variable for a scope.
class ScopedEnv {
public:
  ScopedEnv(const char *Name, const char *Value) : Name(Name) {
    if (const char *Old = std::getenv(Name))
      Saved = std::string(Old);
    if (Value)
      ::setenv(Name, Value, 1);
    else
      ::unsetenv(Name);
  }
  ~ScopedEnv() {
    if (Saved)
      ::setenv(Name, Saved->c_str(), 1);
    else
      ::unsetenv(Name);
  }

private:
  const char *Name;
  std::optional<std::string> Saved;
};

/// A fresh temporary directory per test, removed afterwards.
class DeviceCompileTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("gmem-devcc-test", Dir));
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }

  std::string write(StringRef Name, StringRef Text) {
    SmallString<256> P(Dir);
    sys::path::append(P, Name);
    sys::fs::create_directories(sys::path::parent_path(P));
    std::error_code EC;
    raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC) << EC.message();
    OS << Text;
    return std::string(P);
  }

  static bool haveClang() {
    Expected<std::string> C = findClang();
    if (!C) {
      consumeError(C.takeError());
      return false;
    }
    return true;
  }
  static bool haveCuda() {
    for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
      if (const char *V = std::getenv(Var); V && *V)
        return sys::fs::exists(Twine(V) + "/include/cuda.h");
    return sys::fs::exists("/usr/local/cuda/include/cuda.h");
  }

  std::unique_ptr<Module> parse(MemoryBuffer &Buf) {
    Expected<std::unique_ptr<Module>> M =
        parseBitcodeFile(Buf.getMemBufferRef(), Ctx);
    if (!M) {
      ADD_FAILURE() << toString(M.takeError());
      return nullptr;
    }
    return std::move(*M);
  }

  SmallString<128> Dir;
  LLVMContext Ctx;
};

#define REQUIRE_CLANG()                                                        \
  do {                                                                         \
    if (!haveClang())                                                          \
      GTEST_SKIP() << "no clang found (set GMEM_CLANG)";                       \
  } while (0)
#define REQUIRE_CUDA()                                                         \
  do {                                                                         \
    REQUIRE_CLANG();                                                           \
    if (!haveCuda())                                                           \
      GTEST_SKIP() << "no CUDA toolkit found";                                 \
  } while (0)

const char CudaKernel[] = R"(
__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

const char HipKernel[] = R"(
#include <hip/hip_runtime.h>
__global__ void blocksum(const float *in, float *out, int *count, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? sqrtf(fabsf(in[i])) : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) tile[threadIdx.x] += tile[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd(out, tile[0]);
    atomicAdd(count, (int)gridDim.x);
  }
}
int main() {
  float *d = nullptr;
  hipMalloc(&d, 1024 * sizeof(float));
  hipLaunchKernelGGL(blocksum, dim3(4), dim3(256), 0, 0, d, d, nullptr, 1024);
  hipDeviceSynchronize();
  return 0;
}
)";

TEST(DeviceCompileClassify, ByExtension) {
  EXPECT_EQ(classifySource("a/b/k.cu"), SourceKind::CUDA);
  EXPECT_EQ(classifySource("k.cuh"), SourceKind::CUDA);
  EXPECT_EQ(classifySource("K.CU"), SourceKind::CUDA);
  EXPECT_EQ(classifySource("k.hip"), SourceKind::HIP);
  EXPECT_EQ(classifySource("k.ll"), SourceKind::LLVMIR);
  EXPECT_EQ(classifySource("k.bc"), SourceKind::Bitcode);
  EXPECT_EQ(classifySource("k.cpp"), SourceKind::Unknown);
  EXPECT_EQ(classifySource("cu"), SourceKind::Unknown);
}

TEST_F(DeviceCompileTest, CudaToNVPTXBitcode) {
  REQUIRE_CUDA();
  std::string Src = write("saxpy.cu", CudaKernel);
  auto Buf = compileDeviceBitcode(Src, DeviceCompileOptions());
  ASSERT_TRUE(bool(Buf)) << toString(Buf.takeError());
  std::unique_ptr<Module> M = parse(**Buf);
  ASSERT_TRUE(M);
  EXPECT_TRUE(StringRef(M->getTargetTriple()).starts_with("nvptx64"))
      << M->getTargetTriple();
  bool Found = false;
  for (const Function &F : *M)
    Found |= F.getName().contains("saxpy") && !F.isDeclaration();
  EXPECT_TRUE(Found);
}

TEST_F(DeviceCompileTest, CudaPathWithSpacesAndLocalInclude) {
  REQUIRE_CUDA();
  write("my dir/helper.cuh", "#define SCALE 2.0f\n");
  std::string Src = write("my dir/k with space.cu",
                          "#include \"helper.cuh\"\n"
                          "__global__ void k(float *p) { p[threadIdx.x] *= "
                          "SCALE; }\n");
  auto Buf = compileDeviceBitcode(Src, DeviceCompileOptions());
  ASSERT_TRUE(bool(Buf)) << toString(Buf.takeError());
  std::unique_ptr<Module> M = parse(**Buf);
  ASSERT_TRUE(M);
  EXPECT_EQ((*Buf)->getBufferIdentifier(), Src);
}

TEST_F(DeviceCompileTest, CudaExtraArgsPassedThrough) {
  REQUIRE_CUDA();
  std::string Src = write(
      "def.cu", "#ifndef GMEM_TEST_N\n#error GMEM_TEST_N not defined\n#endif\n"
                "__global__ void k(int *p) { p[0] = GMEM_TEST_N; }\n");
  DeviceCompileOptions Opts;
  Opts.ExtraArgs = {"-DGMEM_TEST_N=7", "-std=c++17"};
  auto Buf = compileDeviceBitcode(Src, Opts);
  ASSERT_TRUE(bool(Buf)) << toString(Buf.takeError());
}

TEST_F(DeviceCompileTest, CudaCooperativeGroupsAndCub) {
  // cooperative_groups.h needs <cuda/std/...> and cub lives in CCCL, which
  // CUDA 13 moved to include/cccl (added automatically).
  REQUIRE_CUDA();
  std::string Src = write("cg.cu", R"(
#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
namespace cg = cooperative_groups;
__global__ void k(const int *in, int *out) {
  using BR = cub::BlockReduce<int, 128>;
  __shared__ typename BR::TempStorage tmp;
  cg::thread_block b = cg::this_thread_block();
  int v = BR(tmp).Sum(in[b.thread_rank()]);
  b.sync();
  if (b.thread_rank() == 0) atomicAdd(out, v);
}
)");
  auto Buf = compileDeviceBitcode(Src, DeviceCompileOptions());
  ASSERT_TRUE(bool(Buf)) << toString(Buf.takeError());
  EXPECT_TRUE(parse(**Buf));
}

TEST_F(DeviceCompileTest, CudaToPTX) {
  REQUIRE_CUDA();
  std::string Src = write("saxpy.cu", CudaKernel);
  SmallString<256> Out(Dir);
  sys::path::append(Out, "out dir", "saxpy.ptx");
  ASSERT_FALSE(sys::fs::create_directories(sys::path::parent_path(Out)));
  DeviceCompileOptions Opts;
  Opts.CudaArch = "sm_80";
  Error E = compileDevicePTX(Src, Out, Opts);
  ASSERT_FALSE(bool(E)) << toString(std::move(E));
  auto Text = MemoryBuffer::getFile(Out);
  ASSERT_TRUE(bool(Text));
  StringRef PTX = (*Text)->getBuffer();
  EXPECT_TRUE(PTX.contains(".entry")) << PTX.str();
  EXPECT_TRUE(PTX.contains("sm_80"));
}

TEST_F(DeviceCompileTest, PTXRejectsHip) {
  std::string Src = write("k.hip", HipKernel);
  SmallString<256> Out(Dir);
  sys::path::append(Out, "k.ptx");
  Error E = compileDevicePTX(Src, Out, DeviceCompileOptions());
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("CUDA"), std::string::npos);
}

TEST_F(DeviceCompileTest, HipShimToAMDGCN) {
  REQUIRE_CLANG();
  ScopedEnv NoHip("GMEM_HIP_PATH", nullptr), NoRocm("ROCM_PATH", nullptr);
  std::string Src = write("blocksum.hip", HipKernel);
  auto Buf = compileDeviceBitcode(Src, DeviceCompileOptions());
  ASSERT_TRUE(bool(Buf)) << toString(Buf.takeError());
  std::unique_ptr<Module> M = parse(**Buf);
  ASSERT_TRUE(M);
  EXPECT_TRUE(StringRef(M->getTargetTriple()).starts_with("amdgcn"))
      << M->getTargetTriple();
  const Function *K = nullptr;
  for (const Function &F : *M)
    if (F.getName().contains("blocksum") && !F.isDeclaration())
      K = &F;
  ASSERT_TRUE(K);
  EXPECT_EQ(K->getCallingConv(), CallingConv::AMDGPU_KERNEL);
  // The shim's atomics and barrier made it into the IR.
  unsigned RMW = 0, Barriers = 0;
  for (const Instruction &I : instructions(*K)) {
    if (isa<AtomicRMWInst>(I))
      ++RMW;
    if (const auto *CI = dyn_cast<CallInst>(&I))
      if (const Function *Callee = CI->getCalledFunction())
        if (Callee->getName() == "llvm.amdgcn.s.barrier")
          ++Barriers;
  }
  EXPECT_EQ(RMW, 2u);
  EXPECT_GE(Barriers, 1u);
  // __shared__ lowered to an LDS (addrspace 3) global.
  bool HasLDS = false;
  for (const GlobalVariable &G : M->globals())
    HasLDS |= G.getAddressSpace() == 3;
  EXPECT_TRUE(HasLDS);
}

TEST_F(DeviceCompileTest, HipShimOtherArchAndWarpOps) {
  REQUIRE_CLANG();
  ScopedEnv NoHip("GMEM_HIP_PATH", nullptr), NoRocm("ROCM_PATH", nullptr);
  std::string Src = write("warp.hip", R"(
__global__ void __launch_bounds__(128) warp(int *p, unsigned *u, float *f) {
  int v = p[threadIdx.x];
  v += __shfl_down(v, 1);
  v += __shfl_xor(v, 2);
  f[0] = __shfl(f[1], 0) + expf(f[2]) + fmaxf(f[3], 0.f);
  atomicMax(p, v); atomicMin(p + 1, v); atomicExch(p + 2, v);
  atomicCAS(p + 3, 0, v); atomicSub(u, 1u); atomicExch(f + 4, 1.0f);
  u[1] = __popc(__ballot(v > 0)) + warpSize;
  __threadfence();
}
)");
  for (const char *Arch : {"gfx90a", "gfx1100"}) {
    DeviceCompileOptions Opts;
    Opts.HipArch = Arch;
    auto Buf = compileDeviceBitcode(Src, Opts);
    ASSERT_TRUE(bool(Buf)) << Arch << ": " << toString(Buf.takeError());
    std::unique_ptr<Module> M = parse(**Buf);
    ASSERT_TRUE(M);
    const Function *K = M->getFunction("_Z4warpPiPjPf");
    ASSERT_TRUE(K);
    EXPECT_EQ(K->getCallingConv(), CallingConv::AMDGPU_KERNEL);
    EXPECT_EQ(K->getFnAttribute("target-cpu").getValueAsString(), Arch);
    EXPECT_EQ(
        K->getFnAttribute("amdgpu-flat-work-group-size").getValueAsString(),
        "1,128");
  }
}

TEST_F(DeviceCompileTest, SyntaxErrorIsReported) {
  REQUIRE_CLANG();
  std::string Src =
      write("bad.hip", "__global__ void k(int *p) { p[0] = ; }\n");
  auto Buf = compileDeviceBitcode(Src, DeviceCompileOptions());
  ASSERT_FALSE(bool(Buf));
  std::string Msg = toString(Buf.takeError());
  EXPECT_NE(Msg.find("device compile failed"), std::string::npos) << Msg;
  EXPECT_EQ(Msg.rfind(Src + ": ", 0), 0u) << Msg;
  EXPECT_NE(Msg.find("error:"), std::string::npos) << Msg;
  EXPECT_EQ(Msg.find('\n'), std::string::npos) << Msg;
}

TEST_F(DeviceCompileTest, CudaSyntaxErrorIsReported) {
  REQUIRE_CUDA();
  std::string Src = write("bad.cu", "__global__ void k(int *p) { p[0] = }\n");
  auto Buf = compileDeviceBitcode(Src, DeviceCompileOptions());
  ASSERT_FALSE(bool(Buf));
  std::string Msg = toString(Buf.takeError());
  EXPECT_NE(Msg.find("device compile failed"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("bad.cu:1:"), std::string::npos) << Msg;
  EXPECT_EQ(Msg.find('\n'), std::string::npos) << Msg;
}

TEST_F(DeviceCompileTest, MissingFile) {
  SmallString<256> Src(Dir);
  sys::path::append(Src, "does-not-exist.cu");
  auto Buf = compileDeviceBitcode(Src, DeviceCompileOptions());
  ASSERT_FALSE(bool(Buf));
  EXPECT_EQ(toString(Buf.takeError()), (Src + ": no such file").str());

  SmallString<256> Out(Dir);
  sys::path::append(Out, "x.ptx");
  Error E = compileDevicePTX(Src, Out, DeviceCompileOptions());
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(toString(std::move(E)), (Src + ": no such file").str());
}

TEST_F(DeviceCompileTest, NotASource) {
  std::string Src = write("k.ll", "; nothing\n");
  auto Buf = compileDeviceBitcode(Src, DeviceCompileOptions());
  ASSERT_FALSE(bool(Buf));
  EXPECT_NE(toString(Buf.takeError()).find("not a CUDA or HIP source"),
            std::string::npos);
}

TEST_F(DeviceCompileTest, BadCudaPathIsExplained) {
  REQUIRE_CLANG();
  std::string Src = write("saxpy.cu", CudaKernel);
  SmallString<256> Fake(Dir);
  sys::path::append(Fake, "no-cuda-here");
  ScopedEnv Env("CUDA_PATH", Fake.c_str());
  auto Buf = compileDeviceBitcode(Src, DeviceCompileOptions());
  ASSERT_FALSE(bool(Buf));
  std::string Msg = toString(Buf.takeError());
  EXPECT_NE(Msg.find("not a CUDA installation"), std::string::npos) << Msg;
}

// With real HIP headers available (GMEM_HIP_PATH, or -I to a directory with
// hip/hip_runtime.h) the shim must not be forced in.
TEST_F(DeviceCompileTest, HipRealHeadersReplaceShim) {
  REQUIRE_CLANG();
  const char *FakeRuntime = R"(#pragma once
#define FAKE_REAL_HIP 1
#ifndef __CLANG_HIP_RUNTIME_WRAPPER_INCLUDED__
#define __global__ __attribute__((global))
#endif
)";
  write("rocm/include/hip/hip_runtime.h", FakeRuntime);
  write("hdrs/hip/hip_runtime.h", FakeRuntime);
  std::string Src = write("real.hip", R"(
#include <hip/hip_runtime.h>
#ifndef FAKE_REAL_HIP
#error the user's HIP headers were not used
#endif
#ifdef GMEM_HIP_SHIM
#error the shim was forced in
#endif
__global__ void k(int *p) { p[__builtin_amdgcn_workitem_id_x()] = 1; }
)");
  SmallString<256> Rocm(Dir), Hdrs(Dir);
  sys::path::append(Rocm, "rocm");
  sys::path::append(Hdrs, "hdrs");
  ScopedEnv NoRocm("ROCM_PATH", nullptr);
  {
    ScopedEnv Env("GMEM_HIP_PATH", Rocm.c_str());
    auto Buf = compileDeviceBitcode(Src, DeviceCompileOptions());
    ASSERT_TRUE(bool(Buf)) << toString(Buf.takeError());
    EXPECT_TRUE(parse(**Buf));
  }
  {
    ScopedEnv Env("GMEM_HIP_PATH", nullptr);
    DeviceCompileOptions Opts;
    Opts.ExtraArgs = {"-I", std::string(Hdrs)};
    auto Buf = compileDeviceBitcode(Src, Opts);
    ASSERT_TRUE(bool(Buf)) << toString(Buf.takeError());
    EXPECT_TRUE(parse(**Buf));
  }
  {
    // Without either, the shim is used and the #error fires.
    ScopedEnv Env("GMEM_HIP_PATH", nullptr);
    auto Buf = compileDeviceBitcode(Src, DeviceCompileOptions());
    ASSERT_FALSE(bool(Buf));
    EXPECT_NE(toString(Buf.takeError()).find("device compile failed"),
              std::string::npos);
  }
  {
    ScopedEnv Env("GMEM_HIP_PATH", Hdrs.c_str()); // not a ROCm root
    auto Buf = compileDeviceBitcode(Src, DeviceCompileOptions());
    ASSERT_FALSE(bool(Buf));
    EXPECT_NE(toString(Buf.takeError()).find("GMEM_HIP_PATH"),
              std::string::npos);
  }
}

TEST(DeviceCompileFindClang, EnvOverride) {
  {
    ScopedEnv Env("GMEM_CLANG", "/nonexistent/clang++");
    Expected<std::string> C = findClang();
    ASSERT_FALSE(bool(C));
    EXPECT_NE(toString(C.takeError()).find("GMEM_CLANG"), std::string::npos);
  }
  {
    ScopedEnv Env("GMEM_CLANG", "gmem-no-such-clang");
    Expected<std::string> C = findClang();
    ASSERT_FALSE(bool(C));
    consumeError(C.takeError());
  }
}

} // namespace
