// The harness's preemptible clones: their info global, control block and
// launch geometry, and comparing outputs on the device (see harness.h).

#include "harness.h"

#include <algorithm>
#include <cstring>
#include <fstream>

namespace pb {

const char *form_name(Form f) {
  switch (f) {
  case Form::Light: return "light";
  case Form::Alt: return "alt";
  case Form::Free: return "free";
  default: return "full";
  }
}

CloneInfo parse_clone_info(const std::vector<uint8_t> &bytes) {
  CloneInfo c;
  if (bytes.empty()) {
    c.error = "no info global";
    return c;
  }
  if (bytes.size() < 20) {
    c.error = strfmt("info global of %zu bytes, expected 20", bytes.size());
    return c;
  }
  uint32_t w[5];
  memcpy(w, bytes.data(), 20);
  c.magic = w[0];
  c.version = w[1];
  c.flags = w[2];
  c.loop_checkpoints = w[3];
  c.interval_k = w[4];
  if (c.magic != kInfoMagic)
    c.error = strfmt("info magic 0x%08x, expected 0x%08x", c.magic, kInfoMagic);
  else if (c.version != kAbiVersion)
    c.error = strfmt("info version %u, harness expects %u", c.version, kAbiVersion);
  else if (c.flags & kFlagNoClone)
    c.error = strfmt("info flags 0x%x: no clone (NoClone)", c.flags);
  return c;
}

uint64_t tail_static_end(uint64_t total, unsigned P, unsigned tail_percent) {
  uint64_t pool = total * tail_percent / 100;
  return std::min<uint64_t>(total, std::max<uint64_t>(P, total - pool));
}

uint64_t ctl_work_done(const uint32_t *words, size_t nwords, uint64_t total, unsigned P,
                       unsigned tail_percent) {
  if (P == 0) {
    uint64_t c = 0;
    for (uint64_t i = 0; i < total && 2 + i / 32 < nwords; ++i)
      c += (words[2 + i / 32] >> (i % 32)) & 1;
    return c;
  }
  // Persistent (ABI v2): CTA p runs p, p + P, ... below the static end (the
  // total without a balanced tail), then tickets it claimed from word 1; its
  // words are redo (+1) and resume (+1, 0 = never ran): the next ticket it
  // owns, static or claimed, or past the total when it finished.
  const uint64_t end = tail_percent ? tail_static_end(total, P, tail_percent) : total;
  uint64_t done = 0, held = 0, redos = 0;
  for (unsigned p = 0; p < P && 2 + 2 * (size_t)p + 1 < nwords; ++p) {
    uint32_t redo = words[2 + 2 * p], resume = words[3 + 2 * p];
    uint64_t next = resume ? resume - 1 : p;
    uint64_t upto = std::min<uint64_t>(next, end);
    done += upto > p ? (upto - p + P - 1) / P : 0;
    held += next >= end && next < total; // claimed, not started
    redos += redo != 0; // started, counted above or among the claimed
  }
  if (tail_percent)
    done += std::min<uint64_t>(words[1], total - end);
  return done >= held + redos ? done - held - redos : 0;
}

void Ctl::alloc(uint64_t n, unsigned persistent_ctas, unsigned tail) {
  release();
  ctas = n;
  P = persistent_ctas;
  tail_percent = tail;
  uint64_t words = std::max<uint64_t>((n + 31) / 32, 2 * (uint64_t)P);
  bytes = 8 + 4 * words;
  bytes = (bytes + 255) / 256 * 256;
  CU(cuMemAlloc(&ptr, bytes));
}

void Ctl::release() {
  if (ptr)
    cuMemFree(ptr);
  ptr = 0;
}

void Ctl::reset(CUstream s) { CU(cuMemsetD32Async(ptr, 0, bytes / 4, s)); }

void Ctl::set_request(CUstream s, uint32_t value) { CU(cuMemsetD32Async(ptr, value, 1, s)); }

uint64_t Ctl::done_count() {
  // Only the words the kind uses: header + bitmap, or header + redo[2P].
  size_t n = 2 + (P ? 2 * (size_t)P : (size_t)((ctas + 31) / 32));
  std::vector<uint32_t> words(n);
  CU(cuMemcpyDtoH(words.data(), ptr, n * 4));
  return ctl_work_done(words.data(), n, ctas, P, tail_percent);
}

Module *CloneLaunch::open(const Instance &in, int sms,
                          std::map<std::string, std::unique_ptr<Module>> &mods, Json &j,
                          std::string *why) {
  auto &mod = mods[in.ptx];
  if (!mod) {
    mod.reset(new Module());
    mod->load(in.ptx);
  }
  *why = find(*mod, in.sym);
  if (why->empty())
    *why = configure(in.grid, in.block, in.smem, sms);
  describe(j);
  return why->empty() ? mod.get() : nullptr;
}

std::string CloneLaunch::open_form(const Module &m, const Instance &in, int sms, Json &j,
                                   Form form, const char *label) {
  std::string why = find(m, in.sym, form);
  if (why.empty())
    why = configure(in.grid, in.block, in.smem, sms);
  if (why.empty())
    j.integer(std::string(label ? label : form_name(form)) + "_P", P);
  return why;
}

std::string CloneLaunch::find(const Module &m, const std::string &sym, Form form) {
  this->form = form;
  name = (form == Form::Light  ? "__gmem_prl_"
          : form == Form::Alt  ? "__gmem_pra_"
          : form == Form::Free ? "__gmem_prf_"
                               : "__gmem_pre_") +
         sym;
  fn = nullptr;
  info = parse_clone_info(m.global_bytes("__gmem_pre_info_" + sym));
  if (!info.error.empty())
    return info.error + " (__gmem_pre_info_" + sym + ")";
  if (form == Form::Light && !info.has_light())
    return "no light twin (info flag bit 5 clear)";
  if (form == Form::Alt && !info.has_alt())
    return "no alternate clone (info flag bit 6 clear)";
  if (form == Form::Free && !info.has_free())
    return "no barrier-free clone (info flag bit 7 clear)";
  if (!m.has(name))
    return "no clone " + name + " (entry-only/no-clone kernel)";
  fn = m.fn(name);
  persistent = info.persistent();
  return "";
}

std::string CloneLaunch::configure(const unsigned g[3], const unsigned b[3], unsigned dyn_smem,
                                   int sms) {
  for (int d = 0; d < 3; ++d) {
    grid[d] = g[d];
    block[d] = b[d];
  }
  smem = dyn_smem;
  P = 0;
  ctl.release();
  // As libgmemrt: such a clone is sound only for whole-warp rows.
  if ((info.flags & kFlagWarpAlignedBlock) && b[0] % 32 != 0)
    return strfmt("blockDim.x %u is not a multiple of 32 (info flag bit 11)", b[0]);
  uint64_t n = total();
  if (persistent) {
    if (n >= (1ull << 31))
      return strfmt("persistent clone: %llu CTAs, the ABI needs fewer than 2^31",
                    (unsigned long long)n);
    if (g[1] > 65535 || g[2] > 65535)
      return "persistent clone: grid y or z above the hardware's 65535";
    int per_sm = 0;
    CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, (int)(b[0] * b[1] * b[2]),
                                                   dyn_smem));
    if (per_sm < 1)
      return strfmt("persistent clone: occupancy 0 for a block of %u threads",
                    b[0] * b[1] * b[2]);
    // PB_NARROW=N (diagnostics): N fewer persistent CTAs per SM than fit
    // (at least one), as if the clone's occupancy were lower.
    static const int narrow = [] {
      const char *v = getenv("PB_NARROW");
      return v && *v ? std::max(0, atoi(v)) : 0;
    }();
    per_sm = std::max(1, per_sm - narrow);
    P = (unsigned)std::min<uint64_t>(n, (uint64_t)sms * (uint64_t)per_sm * std::max(spread, 1u));
    if (max_P)
      P = std::min(P, max_P);
  }
  ctl.alloc(n, P, info.tail_percent(form)); // only the forms that claim
  return "";
}

void CloneLaunch::launch_grid(unsigned out[3]) const {
  for (int d = 0; d < 3; ++d)
    out[d] = persistent ? (d == 0 ? P : 1) : grid[d];
}

void CloneLaunch::launch(void **params, CUstream s) const {
  unsigned g[3];
  launch_grid(g);
  CU(cuLaunchKernel(fn, g[0], g[1], g[2], block[0], block[1], block[2], smem, s, params,
                    nullptr));
}

void CloneLaunch::describe(Json &j) const {
  j.boolean("persistent", persistent).integer("P", P).integer("info_version", info.version)
      .integer("info_flags", info.flags);
}

uint64_t device_diff(const Helpers &h, CUstream s, CUdeviceptr a, CUdeviceptr b, uint64_t n,
                     uint64_t *first) {
  static CUdeviceptr result = 0;
  if (!result)
    CU(cuMemAlloc(&result, 16));
  uint64_t init[2] = {0, ~0ull};
  CU(cuStreamSynchronize(s));
  CU(cuMemcpyHtoD(result, init, 16));
  unsigned long long nn = n;
  void *pa = (void *)a, *pbp = (void *)b, *pr = (void *)result;
  void *kp[] = {&pa, &pbp, &nn, &pr};
  unsigned blocks = (unsigned)std::max<uint64_t>(1, std::min<uint64_t>((n / 4 + 255) / 256, 2048));
  CU(cuLaunchKernel(h.count_diff, blocks, 1, 1, 256, 1, 1, 0, s, kp, nullptr));
  CU(cuStreamSynchronize(s));
  uint64_t out[2];
  CU(cuMemcpyDtoH(out, result, 16));
  if (first)
    *first = out[1];
  return out[0];
}

} // namespace pb
