//===- CheckpointSync.cpp - Which instructions synchronise threads --------===//
//
// A checkpoint lets a thread leave its kernel early. That is only safe where
// no other thread waits for it: not before a CTA barrier the others will
// reach, not before a warp collective its warp-mates will execute, and never
// in a kernel whose CTAs wait for each other (grid sync, cluster barriers),
// where even skipping a CTA at entry deadlocks the rest. This file names
// those instructions for NVPTX and AMDGPU; unknown code counts as the worst
// case it could be.
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace gmem::ckpt {

namespace {

/// Higher is worse; summaries keep the worst.
int severity(SyncKind K) {
  switch (K) {
  case SyncKind::None: return 0;
  case SyncKind::MergeableBarrier: return 1;
  case SyncKind::Collective: return 2;
  case SyncKind::Barrier: return 3;
  case SyncKind::Opaque: return 4;
  case SyncKind::Unsupported: return 5;
  }
  return 5;
}

bool startsWithAny(StringRef S, std::initializer_list<const char *> Prefixes) {
  for (const char *P : Prefixes)
    if (S.starts_with(P))
      return true;
  return false;
}

SyncKind classifyNVVMIntrinsic(const CallBase &CB, StringRef Name) {
  if (Name == "llvm.nvvm.barrier0")
    return SyncKind::MergeableBarrier;
  if (Name == "llvm.nvvm.barrier.sync") {
    auto *Id = dyn_cast<ConstantInt>(CB.getArgOperand(0));
    return Id && Id->isZero() ? SyncKind::MergeableBarrier : SyncKind::Barrier;
  }
  if (startsWithAny(Name, {"llvm.nvvm.barrier.cluster", "llvm.nvvm.mapa", "llvm.nvvm.exit"}))
    return SyncKind::Unsupported;
  if (Name.starts_with("llvm.nvvm.bar.warp.sync"))
    return SyncKind::Collective;
  if (startsWithAny(Name, {"llvm.nvvm.barrier", "llvm.nvvm.bar.", "llvm.nvvm.mbarrier.",
                           "llvm.nvvm.cp.async.bulk", "llvm.nvvm.cp.async.mbarrier"}))
    return SyncKind::Barrier;
  if (startsWithAny(Name, {"llvm.nvvm.shfl.", "llvm.nvvm.vote.", "llvm.nvvm.match.",
                           "llvm.nvvm.redux.", "llvm.nvvm.wmma.", "llvm.nvvm.mma.",
                           "llvm.nvvm.wgmma.", "llvm.nvvm.ldmatrix.", "llvm.nvvm.stmatrix",
                           "llvm.nvvm.elect."}))
    return SyncKind::Collective;
  return SyncKind::None;
}

SyncKind classifyAMDGCNIntrinsic(StringRef Name) {
  if (Name == "llvm.amdgcn.s.barrier")
    return SyncKind::MergeableBarrier;
  if (startsWithAny(Name, {"llvm.amdgcn.ds.gws", "llvm.amdgcn.s.sendmsg"}))
    return SyncKind::Unsupported;
  if (Name.starts_with("llvm.amdgcn.s.barrier"))
    return SyncKind::Barrier;
  if (startsWithAny(Name, {"llvm.amdgcn.ds.swizzle", "llvm.amdgcn.ds.bpermute",
                           "llvm.amdgcn.ds.permute", "llvm.amdgcn.readlane",
                           "llvm.amdgcn.writelane", "llvm.amdgcn.update.dpp",
                           "llvm.amdgcn.mov.dpp", "llvm.amdgcn.set.inactive",
                           "llvm.amdgcn.ballot", "llvm.amdgcn.inverse.ballot",
                           "llvm.amdgcn.icmp", "llvm.amdgcn.fcmp", "llvm.amdgcn.wave.reduce",
                           "llvm.amdgcn.permlane", "llvm.amdgcn.mfma", "llvm.amdgcn.smfmac",
                           "llvm.amdgcn.wmma", "llvm.amdgcn.swmmac", "llvm.amdgcn.wqm",
                           "llvm.amdgcn.wwm", "llvm.amdgcn.strict."}))
    return SyncKind::Collective;
  return SyncKind::None;
}

/// PTX text: opcodes are the identifiers before the first '.' of words that
/// are not registers (`%r1`, `$0`). Special registers are matched as text.
SyncKind classifyPTXAsm(StringRef Text, std::string *Why) {
  auto Say = [&](SyncKind K, StringRef What) {
    if (Why)
      *Why = ("inline asm '" + What + "'").str();
    return K;
  };
  if (Text.contains("envreg"))
    return Say(SyncKind::Unsupported, "%envreg (cooperative groups grid sync)");
  if (Text.contains("shared::cluster") || Text.contains("barrier.cluster"))
    return Say(SyncKind::Unsupported, "cluster synchronisation");
  SyncKind Worst = SyncKind::None;
  forEachPtxWord(Text, [&](StringRef Word, StringRef Op) {
    SyncKind K = SyncKind::None;
    if (Op == "exit" || Op == "ret" || Op == "mapa")
      K = SyncKind::Unsupported;
    else if ((Op == "bar" || Op == "barrier") && Word.contains(".warp"))
      K = SyncKind::Collective;
    else if (Op == "bar" || Op == "barrier" || Op == "mbarrier" ||
             Word.starts_with("cp.async.bulk"))
      K = SyncKind::Barrier;
    else if (Op == "shfl" || Op == "vote" || Op == "match" || Op == "redux" || Op == "mma" ||
             Op == "wmma" || Op == "wgmma" || Op == "ldmatrix" || Op == "stmatrix" ||
             Op == "elect")
      K = SyncKind::Collective;
    if (severity(K) > severity(Worst)) {
      Worst = K;
      if (Why)
        *Why = ("inline asm '" + Word + "'").str();
    }
  });
  return Worst;
}

SyncKind classifyAMDGPUAsm(StringRef Text, std::string *Why) {
  std::string Lower = Text.lower();
  StringRef L(Lower);
  SyncKind K = SyncKind::None;
  StringRef What;
  if (L.contains("ds_gws") || L.contains("s_endpgm") || L.contains("s_sendmsg")) {
    K = SyncKind::Unsupported;
    What = "gws/endpgm";
  } else if (L.contains("s_barrier")) {
    K = SyncKind::Barrier;
    What = "s_barrier";
  } else {
    for (const char *C : {"ds_swizzle", "ds_bpermute", "ds_permute", "readlane", "writelane",
                          "dpp", "v_mfma", "v_wmma", "v_permlane"})
      if (L.contains(C)) {
        K = SyncKind::Collective;
        What = C;
        break;
      }
  }
  if (K != SyncKind::None && Why)
    *Why = ("inline asm '" + What + "'").str();
  return K;
}

/// External functions known not to synchronise threads.
bool isKnownHarmlessExternal(StringRef Name, GpuArch Arch) {
  if (Name == "vprintf" || Name == "__assertfail" || Name == "malloc" || Name == "free" ||
      Name == "__nvvm_reflect" || Name.starts_with("__nv_") || Name.starts_with("__ocml_"))
    return true;
  if (Arch == GpuArch::AMDGPU && Name.starts_with("__ockl_"))
    return !Name.contains("grid_sync") && !Name.contains("gws") && !Name.contains("multi_grid");
  return false;
}

SyncKind classifyImpl(const Instruction &I, GpuArch Arch, std::string *Why,
                      SmallPtrSetImpl<const Function *> &Visiting);

SyncKind summarizeImpl(const Function &F, GpuArch Arch, std::string *Why,
                       SmallPtrSetImpl<const Function *> &Visiting) {
  if (!Visiting.insert(&F).second)
    return SyncKind::None; // recursion: its body is being summarised already
  SyncKind Worst = SyncKind::None;
  bool Barrier = false;
  for (const Instruction &I : instructions(F)) {
    std::string W;
    SyncKind K = classifyImpl(I, Arch, &W, Visiting);
    Barrier |= K == SyncKind::MergeableBarrier || K == SyncKind::Barrier;
    if (severity(K) > severity(Worst)) {
      Worst = K;
      if (Why)
        *Why = W;
    }
  }
  // A plain __syncthreads ranks below a shuffle, but a function with both
  // still makes the whole CTA meet: a caller must not see only "warp".
  if (Worst == SyncKind::Collective && Barrier)
    return SyncKind::Barrier;
  return Worst;
}

SyncKind classifyImpl(const Instruction &I, GpuArch Arch, std::string *Why,
                      SmallPtrSetImpl<const Function *> &Visiting) {
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB)
    return SyncKind::None;
  if (CB->isInlineAsm()) {
    StringRef Text = cast<InlineAsm>(CB->getCalledOperand())->getAsmString();
    return Arch == GpuArch::AMDGPU ? classifyAMDGPUAsm(Text, Why) : classifyPTXAsm(Text, Why);
  }
  const Function *Callee = CB->getCalledFunction();
  if (!Callee) {
    if (Why)
      *Why = "indirect call";
    return SyncKind::Opaque;
  }
  StringRef Name = Callee->getName();
  if (Callee->isIntrinsic()) {
    SyncKind K = Name.starts_with("llvm.nvvm.")     ? classifyNVVMIntrinsic(*CB, Name)
                 : Name.starts_with("llvm.amdgcn.") ? classifyAMDGCNIntrinsic(Name)
                                                    : SyncKind::None;
    if (K == SyncKind::Unsupported && Why)
      *Why = ("intrinsic '" + Name + "'").str();
    return K;
  }
  if (Name.contains("grid_sync") || Name.contains("cudaCG") || Name.contains("__ockl_gws")) {
    if (Why)
      *Why = ("call to '" + Name + "' (grid synchronisation)").str();
    return SyncKind::Unsupported;
  }
  if (Callee->isDeclaration()) {
    if (isKnownHarmlessExternal(Name, Arch))
      return SyncKind::None;
    if (Why)
      *Why = ("call to external '" + Name + "'").str();
    return SyncKind::Opaque;
  }
  // A defined device function: what it does, but a barrier inside it cannot
  // be joined from the call site.
  SyncKind K = summarizeImpl(*Callee, Arch, Why, Visiting);
  return K == SyncKind::MergeableBarrier ? SyncKind::Barrier : K;
}

} // namespace

SyncKind classifySync(const Instruction &I, GpuArch Arch, std::string *Why) {
  SmallPtrSet<const Function *, 8> Visiting;
  Visiting.insert(I.getFunction());
  return classifyImpl(I, Arch, Why, Visiting);
}

bool functionMaySync(const Function &F, GpuArch Arch) {
  SmallPtrSet<const Function *, 8> Visiting;
  return summarizeImpl(F, Arch, nullptr, Visiting) != SyncKind::None;
}

SyncSummary summarizeSync(const Function &F, GpuArch Arch) {
  SyncSummary S;
  for (const Instruction &I : instructions(F)) {
    std::string Why;
    SyncKind K = classifySync(I, Arch, &Why);
    switch (K) {
    case SyncKind::None:
      break;
    case SyncKind::MergeableBarrier:
    case SyncKind::Barrier:
      S.Barriers = true;
      break;
    case SyncKind::Collective:
      S.Collectives = true;
      break;
    case SyncKind::Opaque:
      if (!S.Opaque && !S.Unsupported)
        S.Why = Why;
      S.Opaque = true;
      break;
    case SyncKind::Unsupported:
      if (!S.Unsupported)
        S.Why = Why;
      S.Unsupported = true;
      break;
    }
  }
  return S;
}

} // namespace gmem::ckpt
