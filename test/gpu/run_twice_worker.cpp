// run_twice: the worker process, the only part of run_twice that calls CUDA
// (driver API only; never resets the device).  Runner loads modules,
// allocates, uploads, launches and downloads one instance, runs the
// determinism and read checks and re-creates the context after a sticky
// error; worker_main runs instances in order and reports each one to the
// supervisor (run_twice.cpp) over a pipe.  Process model and memory limits:
// the top of run_twice.cpp.

#include <cuda.h>

#include "run_twice.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <new>
#include <string>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <vector>

namespace run_twice {
namespace {

// ----------------------------------------------------------------- CUDA layer

// Extra runs on I before a read-check failure counts: each must reproduce
// S1, or the kernel is nondeterministic and the check says nothing.
constexpr int kReadRecheckRuns = 3;

std::string cu_err(CUresult r) {
  const char *n = nullptr, *s = nullptr;
  cuGetErrorName(r, &n);
  cuGetErrorString(r, &s);
  if (!n && (int)r == 34) n = "CUDA_ERROR_STUB_LIBRARY";
  return strfmt("%s (%d: %s)", n ? n : "CUresult", (int)r,
                s ? s : ((int)r == 34 ? "stub libcuda, not a real driver" : "?"));
}

bool is_sticky(CUresult r) {
  switch (r) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_CONTEXT_IS_DESTROYED:
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_UNKNOWN:
    return true;
  default:
    return false;
  }
}

struct ModuleEntry {
  CUmodule mod = nullptr;
  std::string error;
};

struct Runner {
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  std::map<std::string, ModuleEntry> modules;
  bool check_determinism = true;

  bool create_context(std::string &err) {
    CUresult r;
#if CUDA_VERSION >= 13000
    r = cuCtxCreate(&ctx, nullptr, 0, dev);
#else
    r = cuCtxCreate(&ctx, 0, dev);
#endif
    if (r != CUDA_SUCCESS) {
      ctx = nullptr;
      err = "cuCtxCreate: " + cu_err(r);
      return false;
    }
    return true;
  }

  // After a sticky error: destroy our context (never reset the device) and
  // create a fresh one.  Modules and allocations die with the old context.
  bool recreate_context(std::string &err) {
    modules.clear();
    if (ctx) {
      CUresult r = cuCtxDestroy(ctx);
      if (r != CUDA_SUCCESS)
        fprintf(stderr, "run_twice: cuCtxDestroy after fault: %s (continuing)\n",
                cu_err(r).c_str());
      ctx = nullptr;
    }
    return create_context(err);
  }

  // true when the context still works
  bool probe_context() {
    if (cuCtxSynchronize() != CUDA_SUCCESS) return false;
    CUdeviceptr p = 0;
    if (cuMemAlloc(&p, 256) != CUDA_SUCCESS) return false;
    return cuMemFree(p) == CUDA_SUCCESS;
  }

  ModuleEntry &module_for(const Instance &in) {
    auto it = modules.find(in.ptx_resolved);
    if (it != modules.end()) return it->second;
    ModuleEntry &e = modules[in.ptx_resolved];
    FILE *f = fopen(in.ptx_resolved.c_str(), "rb");
    if (!f) {
      e.error = "cannot open PTX '" + in.ptx_resolved + "': " + strerror(errno);
      return e;
    }
    std::string text;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    fclose(f);
    static char log[16384], info[4096];
    log[0] = info[0] = 0;
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(uintptr_t)sizeof log, info,
                    (void *)(uintptr_t)sizeof info};
    CUresult r = cuModuleLoadDataEx(&e.mod, text.c_str(), 4, opts, vals);
    if (r != CUDA_SUCCESS) {
      e.mod = nullptr;
      std::string l = log;
      while (!l.empty() && (l.back() == '\n' || l.back() == ' ')) l.pop_back();
      for (char &c : l)
        if (c == '\n') c = ' ';
      if (l.size() > 400) l = l.substr(0, 400) + "...";
      e.error = "cuModuleLoadDataEx(" + in.ptx + "): " + cu_err(r) +
                (l.empty() ? std::string() : " JIT log: " + l);
    }
    return e;
  }

  // Run one instance.  `sticky` is set when the context must be re-created.
  void run(const Instance &in, Result &res, bool &sticky) {
    sticky = false;
    std::vector<CUdeviceptr> dptr(in.args.size(), 0);
    std::vector<int> bufparams;
    std::vector<uint64_t> bytes;
    std::string where;
    CUresult last = CUDA_SUCCESS;

    auto fail = [&](const std::string &msg) {
      res.observed = "error";
      res.error = msg;
    };
    auto ck = [&](CUresult r, const char *what) -> bool {
      if (r == CUDA_SUCCESS) return true;
      last = r;
      fail(std::string(what) + ": " + cu_err(r));
      return false;
    };
    auto cleanup = [&]() {
      for (CUdeviceptr p : dptr)
        if (p) cuMemFree(p);
    };

    ModuleEntry &me = module_for(in);
    if (!me.mod) {
      fail(me.error);
      return;
    }
    CUfunction fn = nullptr;
    if (!ck(cuModuleGetFunction(&fn, me.mod, in.sym.c_str()), "cuModuleGetFunction")) {
      res.error += " (symbol " + in.sym + ")";
      return;
    }

    // parameter layout check (cuFuncGetParamInfo, CUDA >= 12.4)
    {
      size_t off = 0, sz = 0;
      CUresult r0 = cuFuncGetParamInfo(fn, 0, &off, &sz);
      if (r0 == CUDA_SUCCESS || r0 == CUDA_ERROR_INVALID_VALUE) {
        std::vector<size_t> sizes;
        for (size_t i = 0; i < 4096; ++i) {
          if (cuFuncGetParamInfo(fn, i, &off, &sz) != CUDA_SUCCESS) break;
          sizes.push_back(sz);
        }
        if (sizes.size() != in.args.size()) {
          fail(strfmt("kernel has %zu parameters, manifest gives %zu", sizes.size(),
                      in.args.size()));
          return;
        }
        for (size_t i = 0; i < sizes.size(); ++i) {
          size_t want = in.args[i].kind == ArgKind::Scalar ? in.args[i].size : 8;
          if (sizes[i] != want) {
            fail(strfmt("parameter %zu is %zu bytes in the kernel, token '%s' gives %zu", i,
                        sizes[i], in.args[i].tok.c_str(), want));
            return;
          }
        }
      }
    }

    // host buffers: input I
    std::vector<std::vector<uint8_t>> I, S1, S2;
    uint64_t need = 0;
    for (size_t i = 0; i < in.args.size(); ++i) {
      const Arg &a = in.args[i];
      if (a.kind != ArgKind::Buf) continue;
      uint64_t b = a.count * a.elem->size;
      bufparams.push_back((int)i);
      bytes.push_back(b);
      need += ((b + 0xfffff) & ~0xfffffull) + (1u << 20);  // allocation granularity slack
    }
    size_t free_b = 0, total_b = 0;
    if (!ck(cuMemGetInfo(&free_b, &total_b), "cuMemGetInfo")) return;
    uint64_t margin = std::max<uint64_t>(256ull << 20, total_b / 50);
    if (need + margin > free_b) {
      res.observed = "skipped";
      res.verdict = "SKIPPED";
      res.note = strfmt("needs %" PRIu64 " MiB of device memory, %zu MiB free", need >> 20,
                        free_b >> 20);
      return;
    }
    // at most 4 host copies are live at once: I, S1, S2 and the determinism
    // run's; S2 is released before the read check adds I2 and S3
    uint64_t host_need = 0;
    for (uint64_t b : bytes) host_need += b;
    long pages = sysconf(_SC_AVPHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psz > 0 && host_need * 4 + (256ull << 20) > (uint64_t)pages * psz) {
      res.observed = "skipped";
      res.verdict = "SKIPPED";
      res.note = strfmt("needs %" PRIu64 " MiB of host memory (4 copies), too little free",
                        (host_need * 4) >> 20);
      return;
    }
    try {
      I.resize(bufparams.size());
      for (size_t k = 0; k < bufparams.size(); ++k) {
        const Arg &a = in.args[(size_t)bufparams[k]];
        fill_buffer(I[k], *a.elem, a.count, a.init, buffer_seed(in.name, bufparams[k]));
      }
    } catch (const std::bad_alloc &) {
      res.observed = "skipped";
      res.verdict = "SKIPPED";
      res.note = "host allocation failed";
      return;
    }

    for (size_t k = 0; k < bufparams.size(); ++k) {
      CUdeviceptr p = 0;
      if (!ck(cuMemAlloc(&p, std::max<uint64_t>(bytes[k], 1)), "cuMemAlloc")) {
        cleanup();
        if (last == CUDA_ERROR_OUT_OF_MEMORY) {
          res.observed = "skipped";
          res.verdict = "SKIPPED";
          res.note = res.error;
          res.error.clear();
        }
        return;
      }
      dptr[(size_t)bufparams[k]] = p;
    }

    // kernel parameters
    std::vector<uint64_t> store(in.args.size(), 0);
    std::vector<void *> params(in.args.size(), nullptr);
    for (size_t i = 0; i < in.args.size(); ++i) {
      const Arg &a = in.args[i];
      if (a.kind == ArgKind::Buf) {
        store[i] = (uint64_t)dptr[i];
      } else if (a.kind == ArgKind::Ptr) {
        int b = -1;
        int64_t off = 0;
        std::string e;
        resolve_ptr(in.args, (int)i, b, off, e);  // validated at parse time
        store[i] = (uint64_t)dptr[(size_t)b] + (uint64_t)off;
      } else {
        store[i] = a.bits;  // little endian: low bytes first
      }
      params[i] = &store[i];
    }

    auto upload = [&](const std::vector<std::vector<uint8_t>> &src) -> bool {
      for (size_t k = 0; k < bufparams.size(); ++k)
        if (bytes[k] &&
            !ck(cuMemcpyHtoD(dptr[(size_t)bufparams[k]], src[k].data(), bytes[k]),
                "cuMemcpyHtoD"))
          return false;
      return ck(cuCtxSynchronize(), "cuCtxSynchronize (after upload)");
    };
    auto download = [&](std::vector<std::vector<uint8_t>> &dst) -> bool {
      dst.resize(bufparams.size());
      for (size_t k = 0; k < bufparams.size(); ++k) {
        dst[k].resize(bytes[k]);
        if (bytes[k] && !ck(cuMemcpyDtoH(dst[k].data(), dptr[(size_t)bufparams[k]], bytes[k]),
                            "cuMemcpyDtoH"))
          return false;
      }
      return true;
    };
    auto launch = [&](const char *which) -> bool {
      void **pp = params.empty() ? nullptr : params.data();
      if (!ck(cuLaunchKernel(fn, in.grid[0], in.grid[1], in.grid[2], in.block[0],
                             in.block[1], in.block[2], in.smem, nullptr, pp, nullptr),
              strfmt("cuLaunchKernel (%s)", which).c_str()))
        return false;
      return ck(cuCtxSynchronize(), strfmt("cuCtxSynchronize (%s)", which).c_str());
    };

    bool ok = upload(I) && launch("launch 1") && download(S1) && launch("launch 2") &&
              download(S2);
    if (ok) {
      Diff ch = compare_buffers(I, S1);
      res.changed_first = (int64_t)ch.count;
      if (in.wr.checked) {
        OffendingBytes wo = bytes_outside(in.wr, bufparams, I, S1);
        res.outside_bytes = (int64_t)wo.bytes;
        res.outside_param = wo.param;
        res.outside_offset = wo.offset;
      }
      Diff d = compare_buffers(S1, S2);
      res.observed = d.identical ? "identical" : "differs";
      if (!d.identical) {
        res.diff_param = bufparams[(size_t)d.buf];
        res.diff_offset = d.offset;
        res.diff_s1 = d.a;
        res.diff_s2 = d.b;
        res.diff_bytes = d.count;
      }
      if (ch.identical) res.note = "first launch changed no byte";
      if (check_determinism) {
        std::vector<std::vector<uint8_t>> S1b;
        std::string saved_err = res.error;
        if (upload(I) && launch("determinism launch") && download(S1b)) {
          Diff dd = compare_buffers(S1, S1b);
          res.deterministic = dd.identical ? 1 : 0;
          if (!dd.identical) {
            if (!res.note.empty()) res.note += "; ";
            res.note += strfmt("NONDETERMINISTIC: a second run on I differs from S1 at "
                               "param %d offset %" PRIu64,
                               bufparams[(size_t)dd.buf], dd.offset);
          }
        } else {
          // S1/S2 were observed; only the extra launch failed: keep the
          // observation, report the failure as a note (a sticky fault is
          // caught by the probe below and the context is re-created)
          if (!res.note.empty()) res.note += "; ";
          res.note += "determinism launch failed: " + res.error;
          res.error = saved_err;
          res.observed = d.identical ? "identical" : "differs";
        }
      }
      // Read check (byte_ranges.h).  Only for a kernel whose re-run on I
      // reproduced S1: otherwise a difference proves nothing about reads.
      if (in.rd.checked && res.deterministic == 0) {
        if (!res.note.empty()) res.note += "; ";
        res.note += "read check skipped (nondeterministic)";
      }
      if (in.rd.checked && res.deterministic == 1) {
        std::vector<std::vector<uint8_t>>().swap(S2);  // keeps the peak at 4 host copies
        std::vector<std::vector<uint8_t>> I2, S3;
        std::string saved_err = res.error, problem;
        try {
          I2 = I;
          uint64_t perturbed = perturb_outside(in.rd, bufparams, I2);
          if (perturbed == 0) {
            res.read_bad = 0;  // I2 == I: the determinism run already was this run
          } else if (upload(I2) && launch("read-check launch") && download(S3)) {
            OffendingBytes rb = read_dependence(bufparams, I, S1, I2, S3);
            res.read_bad = (int64_t)rb.bytes;
            res.read_param = rb.param;
            res.read_offset = rb.offset;
            res.read_perturbed = perturbed;
            if (rb.bytes > 0) {
              // A race between CTAs (a plain read of what other threads
              // atomically lower) can reproduce S1 once and not the next
              // time: before calling the read region too small, run I again
              // a few times. A real miss is deterministic; a kernel that
              // now differs on I proves nothing about its reads.
              std::vector<std::vector<uint8_t>>().swap(I2);
              std::vector<std::vector<uint8_t>>().swap(S3);  // peak stays at 4 copies
              for (int k = 0; k < kReadRecheckRuns && res.deterministic == 1; ++k) {
                std::vector<std::vector<uint8_t>> S1c;
                if (!(upload(I) && launch("read re-check launch") && download(S1c))) {
                  problem = "read re-check launch failed: " + res.error;
                  break;
                }
                Diff dc = compare_buffers(S1, S1c);
                if (!dc.identical) {
                  res.deterministic = 0;
                  res.read_bad = -1;
                  if (!res.note.empty()) res.note += "; ";
                  res.note += strfmt("NONDETERMINISTIC: re-run %d on I differs from S1 at param "
                                     "%d offset %" PRIu64 "; read check inconclusive",
                                     k + 2, bufparams[(size_t)dc.buf], dc.offset);
                }
              }
            }
          } else {
            problem = "read-check launch failed: " + res.error;
          }
        } catch (const std::bad_alloc &) {
          problem = "read check skipped: host allocation failed";
        }
        if (!problem.empty()) {
          // as for the determinism launch: keep the observation (a sticky
          // fault is caught by the probe below)
          if (!res.note.empty()) res.note += "; ";
          res.note += problem;
          res.error = saved_err;
          res.observed = d.identical ? "identical" : "differs";
        }
      }
    }
    if (res.observed == "error" && last != CUDA_SUCCESS) {
      sticky = is_sticky(last) || !probe_context();
      if (sticky) return;  // allocations die with the context
    }
    cleanup();
    if (!sticky && !probe_context()) sticky = true;
  }
};

}  // namespace

// --------------------------------------------------------------------- worker

// Runs instances [start, n) in this (forked) process; reports on fd.
[[noreturn]] void worker_main(int start, int fd, int ordinal, bool determinism) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  const char US = '\x1f';
  Runner R;
  R.check_determinism = determinism;
  CUresult r = cuInit(0);
  if (r == CUDA_SUCCESS) r = cuDeviceGet(&R.dev, ordinal);
  if (r != CUDA_SUCCESS) {
    write_all(fd, "F" + std::string(1, US) + wire_clean("CUDA init failed: " + cu_err(r)) + "\n");
    _exit(6);
  }
  {
    char nm[256] = "";
    int ma = 0, mi = 0, drv = 0;
    size_t tm = 0;
    cuDeviceGetName(nm, sizeof nm, R.dev);
    cuDeviceGetAttribute(&ma, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, R.dev);
    cuDeviceGetAttribute(&mi, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, R.dev);
    cuDeviceTotalMem(&tm, R.dev);
    cuDriverGetVersion(&drv);
    write_all(fd, strfmt("D%c%s%c%d%c%d%c%zu%c%d\n", US, wire_clean(nm).c_str(), US, ma, US,
                         mi, US, tm, US, drv));
  }
  std::string err;
  if (!R.create_context(err)) {
    write_all(fd, "F" + std::string(1, US) + wire_clean(err) + "\n");
    _exit(6);
  }
  for (size_t i = (size_t)start; i < g_instances.size(); ++i) {
    const Instance &in = g_instances[i];
    write_all(fd, strfmt("S%c%zu\n", US, i));
    Result res;
    res.in = &in;
    auto t0 = std::chrono::steady_clock::now();
    bool sticky = false;
    if (!in.error.empty()) {
      res.observed = "error";
      res.error = in.error;
    } else {
      R.run(in, res, sticky);
    }
    res.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                 .count();
    if (res.verdict.empty()) res.verdict = verdict_for(in.pred, res.observed);
    bool dead = false;
    if (sticky) {
      // as asked: destroy our context and create a new one (never reset the
      // device); when the driver refuses, this worker process ends and the
      // supervisor continues in a fresh one
      std::string e2;
      if (!res.note.empty()) res.note += "; ";
      if (R.recreate_context(e2)) {
        res.note += "context re-created after sticky error";
      } else {
        res.note += "context re-creation failed (" + e2 + "); worker process restarted";
        dead = true;
      }
    }
    write_all(fd, encode_result((int)i, res));
    if (dead) _exit(5);
  }
  _exit(0);
}

}  // namespace run_twice
