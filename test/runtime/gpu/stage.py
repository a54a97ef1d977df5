#!/usr/bin/env python3
"""Stage libgmemrt's GPU suite (test/runtime/gpu) in .stage/runtime.

Run on the build machine once libgmemrt, the gmem plugin and gmem-analyze are
built (a CMake build dir holding lib/libgmemrt.so, lib/GmemPlugin.so and
bin/gmem-analyze; with bin/gmemrt-bench too if the CPU benchmark should run
on the GPU host):

    python3 test/runtime/gpu/stage.py --build-dir BUILD [--only PATTERN]

It writes .stage/runtime/ (git-ignored; carry ".stage" to the GPU machine):

  ll/F.ll, ptx/F.ptx   every test/corpus/F.cu compiled by clang++-19 with the
                       gmem plugin to optimised IR with the descriptors
                       embedded, and that IR to PTX with llc-19 (so the PTX
                       carries exactly the descriptors gmem-analyze reads back
                       from the IR); each PTX is checked with ptxas
  manifest.txt         one line per GMEM-RUN instance with gmem-analyze's
                       instance-mode decision for it (run on F.ll, with fake
                       allocation bases 0x100000000*(k+1) for the buffer of
                       parameter k), as relative (buffer, offset) ranges:
                       the format is at the top of gpu_host.cpp
  kernels/             interposition and benchmark kernels, with and without
                       descriptors
  bin/                 gpu_host, interpose_check, gpu_bench (g++, static
                       libstdc++, against the stub libcuda), cudart_test_shared
                       and cudart_test_static (nvcc -arch=sm_90), urgent_first_launch
                       and printf_first_wait (nvcc), gmemrt-bench
  lib/                 libgmemrt.so, libcudart.so.13 and libbenchmark (for the
                       binaries above: the GPU machine has no compiler)
  stage.json           what was staged, tool commands, warnings

Before returning it dry-runs gpu_host and interpose_check against the fake
libcuda.so.1 (BUILD/test/runtime/fakecuda) under LD_PRELOAD=libgmemrt.so: every
instance's decision must match the manifest there already.

Python 3 standard library only.
"""

import argparse
import concurrent.futures
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
CUDA = os.environ.get("CUDA_PATH", "/usr/local/cuda")
ELEM = {"f32": 4, "f64": 8, "i32": 4, "u32": 4, "i64": 8, "u64": 8, "i8": 1, "u8": 1}
FAKE_BASE = 0x100000000
U64_MAX = (1 << 64) - 1
RUN_RE = re.compile(r"^\s*//\s*GMEM-RUN:\s*(?P<name>.+?)\s+grid=(?P<grid>\S+)\s+block=(?P<block>\S+)"
                    r"\s+args=(?P<args>.*?)\s*$")
WARNINGS = []


def warn(msg):
    WARNINGS.append(msg)
    print("warning: " + msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s\n%s%s" % (" ".join(cmd), r.stdout[-2000:], r.stderr[-4000:]))
    return r.stdout


def cuda_flags(out_dir):
    stubs = os.path.join(out_dir, "cuda-stubs")
    os.makedirs(stubs, exist_ok=True)
    for h in ("texture_fetch_functions.h", "texture_indirect_functions.h"):
        open(os.path.join(stubs, h), "w").close()
    flags = ["-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90", "-Wno-unknown-cuda-version",
             "--cuda-path=" + CUDA, "-isystem", stubs, "-O2", "-fno-discard-value-names"]
    if os.path.isdir(os.path.join(CUDA, "include", "cccl")):
        flags += ["-isystem", os.path.join(CUDA, "include", "cccl")]
    # As gmem-clang++ compiles: CUDA's cache-operator intrinsics for clang 19
    # (__ldcs, __stcs on float), which corpus kernels use.
    flags += ["-include", os.path.join(REPO, "tools", "gmem-clang", "cuda-stubs",
                                       "gmem_cuda_cache_hints.h")]
    return flags


def compile_cu(src, out_ll, out_ptx, flags, plugin):
    """clang -> IR with descriptors; llc -> PTX of that IR; ptxas check."""
    cmd = ["clang++-19"] + flags + (["-fpass-plugin=" + plugin] if plugin else []) + \
        ["-emit-llvm", "-S", src, "-o", out_ll]
    run(cmd)
    run(["llc-19", "-O2", "-mcpu=sm_90", out_ll, "-o", out_ptx])
    run([os.path.join(CUDA, "bin", "ptxas"), "-arch=sm_90", out_ptx, "-o", os.devnull])
    return " ".join(cmd)


def parse_runs(path):
    runs = []
    counts = {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            m = RUN_RE.match(line)
            if not m:
                continue
            name = m.group("name")
            k = counts.get(name, 0)
            counts[name] = k + 1
            runs.append({"kernel": name, "index": k, "grid": m.group("grid"), "block": m.group("block"),
                         "args": m.group("args").split(), "line": lineno})
    return runs


def dims3(s):
    d = [int(x) for x in s.split(",")]
    return d + [1] * (3 - len(d))


def layout(tokens):
    """Fake bases and sizes of the buffers, and gmem-analyze --arg values."""
    bufs = {}
    for k, t in enumerate(tokens):
        p = t.split(":")
        if p[0] == "buf":
            bufs[k] = (FAKE_BASE * (k + 1), int(p[2]) * ELEM[p[1]])
    args = []
    for k, t in enumerate(tokens):
        p = t.split(":")
        if p[0] == "buf":
            args.append("ptr:0x%x" % bufs[k][0])
        elif p[0] == "ptr":
            of, _, off = p[1].partition("+")
            args.append("ptr:0x%x" % (bufs[int(of)][0] + int(off or 0)))
        elif t == "null":
            args.append("ptr:0x0")
        else:
            args.append(t)
    return bufs, args


def relative(lo, hi, bufs):
    if lo == 0 and hi >= U64_MAX:
        return "*"
    for k, (base, size) in bufs.items():
        if base <= lo <= hi <= base + size:
            return "%d:%d:%d" % (k, lo - base, hi - base)
    return "?%d:%d" % (lo, hi)


def hull(ranges):
    if not ranges:
        return None
    return min(r[0] for r in ranges), max(r[1] for r in ranges)


def expect_line(analyze, ll, sym, r, display, ptx_rel):
    bufs, args = layout(r["args"])
    cmd = [analyze, ll, "--kernel", sym, "--grid", r["grid"], "--block", r["block"], "--json"]
    for base, size in sorted(bufs.values()):
        cmd += ["--alloc", "0x%x:%d" % (base, size)]
    for a in args:
        cmd += ["--arg", a]
    inst = json.loads(run(cmd))["instance"]
    conflict = inst.get("conflict")
    ptrs = []
    for a in inst["args"]:
        rd, wr = hull(a.get("read", [])), hull(a.get("write", []))
        rs = relative(*rd, bufs) if rd else "-"
        ws = relative(*wr, bufs) if wr else "-"
        ptrs.append("%d/%s/%s" % (a["index"], rs, ws))
    fields = ["name=" + display, "ptx=" + ptx_rel, "sym=" + sym,
              "grid=%d,%d,%d" % tuple(dims3(r["grid"])), "block=%d,%d,%d" % tuple(dims3(r["block"])),
              "idem=%d" % (1 if inst["idempotent"] else 0),
              "conflict=" + ("%d,%d" % (conflict["read_arg"], conflict["write_arg"]) if conflict else "none"),
              "clash=" + (relative(conflict["lo"], conflict["hi"], bufs) if conflict else "-"),
              "ptrs=" + ";".join(ptrs),
              # a null pointer goes to the launcher as an 8-byte zero
              "args=" + " ".join("u64:0" if t == "null" else t for t in r["args"])]
    return " ".join(fields), " ".join(cmd), inst


def pick(kernels, name):
    for key in ("plain_name", "name", "symbol"):
        hits = [k for k in kernels if k.get(key) == name]
        if hits:
            return hits[0]
    return None


def gxx(out, srcs, extra=()):
    cmd = ["g++", "-O2", "-std=c++17", "-I", os.path.join(REPO, "include"), "-I", os.path.join(CUDA, "include"),
           *srcs, "-o", out, "-L", os.path.join(CUDA, "lib64", "stubs"), "-lcuda", "-ldl",
           "-static-libstdc++", "-static-libgcc", *extra]
    run(cmd)
    return " ".join(cmd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    ap.add_argument("--out", default=os.path.join(REPO, ".stage", "runtime"))
    ap.add_argument("--only", default="*", help="corpus files (glob on the file name)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--dry-run-only", action="store_true",
                    help="stage only what the dry run needs (ctest's runtime-corpus-dry-run): "
                         "no CUDA runtime test, GPU benchmark or CPU benchmark")
    o = ap.parse_args()
    build = os.path.abspath(o.build_dir)
    out = os.path.abspath(o.out)
    plugin = os.path.join(build, "lib", "GmemPlugin.so")
    analyze = os.path.join(build, "bin", "gmem-analyze")
    librt = os.path.join(build, "lib", "libgmemrt.so")
    for p in (plugin, analyze, librt):
        if not os.path.exists(p):
            sys.exit("missing %s (build the gmem, gmem-analyze, GmemPlugin and gmemrt targets)" % p)
    if os.path.isdir(out):
        shutil.rmtree(out)
    for d in ("ll", "ptx", "kernels", "bin", "lib"):
        os.makedirs(os.path.join(out, d))
    flags = cuda_flags(out)
    stage = {"build_dir": build, "commands": {}, "instances": []}

    # 1. Corpus PTX with descriptors.
    corpus = sorted(f for f in os.listdir(os.path.join(REPO, "test", "corpus"))
                    if f.endswith(".cu") and fnmatch.fnmatch(f, o.only))

    def build_one(f):
        stem = f[:-3]
        ll = os.path.join(out, "ll", stem + ".ll")
        ptx = os.path.join(out, "ptx", stem + ".ptx")
        cmd = compile_cu(os.path.join(REPO, "test", "corpus", f), ll, ptx, flags, plugin)
        kernels = json.loads(run([analyze, ll, "--json"]))["kernels"]
        return f, cmd, kernels

    kernels_of = {}
    with concurrent.futures.ThreadPoolExecutor(o.jobs) as ex:
        for f, cmd, kernels in ex.map(build_one, corpus):
            kernels_of[f] = kernels
            stage["commands"][f] = cmd
    print("staged PTX for %d corpus files" % len(corpus), flush=True)

    # 2. Expected decisions (gmem-analyze instance mode on the same IR).
    jobs = []
    for f in corpus:
        for r in parse_runs(os.path.join(REPO, "test", "corpus", f)):
            k = pick(kernels_of[f], r["kernel"])
            if not k:
                warn("%s: kernel %s not found" % (f, r["kernel"]))
                continue
            display = "%s:%s#%d" % (f, r["kernel"].replace(" ", ""), r["index"])
            jobs.append((f, k, r, display))

    def expect(job):
        f, k, r, display = job
        stem = f[:-3]
        # Relative to the repo root, where gpu_host runs (here and on the GPU
        # machine): .stage/runtime/ptx/STEM.ptx for the default --out.
        ptx = os.path.relpath(os.path.join(out, "ptx", stem + ".ptx"), REPO)
        return job, expect_line(analyze, os.path.join(out, "ll", stem + ".ll"), k["symbol"], r, display,
                                ptx)

    lines = []
    with concurrent.futures.ThreadPoolExecutor(o.jobs) as ex:
        for (f, k, r, display), (line, cmd, inst) in ex.map(expect, jobs):
            lines.append(line)
            stage["instances"].append({"name": display, "file": f, "line": r["line"], "class": k["class"],
                                       "idempotent": inst["idempotent"], "reason": inst["reason"],
                                       "command": cmd, "globals": len(k.get("globals", []))})
    with open(os.path.join(out, "manifest.txt"), "w") as m:
        m.write("# libgmemrt GPU suite: expected decisions from gmem-analyze instance mode\n")
        m.write("\n".join(lines) + "\n")
    print("manifest: %d instances" % len(lines), flush=True)

    # 3. Interposition and benchmark kernels.
    for name, src in (("interpose", "test/runtime/interpose/kernels.cu"), ("bench", "bench/runtime/kernels.cu")):
        compile_cu(os.path.join(REPO, src), os.path.join(out, "kernels", name + ".ll"),
                   os.path.join(out, "kernels", name + ".ptx"), flags, plugin)
        compile_cu(os.path.join(REPO, src), os.path.join(out, "kernels", name + "_plain.ll"),
                   os.path.join(out, "kernels", name + "_plain.ptx"), flags, None)

    # 4. Binaries (no compiler on the GPU machine).
    b = os.path.join(out, "bin")
    stage["commands"]["gpu_host"] = gxx(os.path.join(b, "gpu_host"), [os.path.join(HERE, "gpu_host.cpp")])
    stage["commands"]["interpose_check"] = gxx(os.path.join(b, "interpose_check"),
                                               [os.path.join(REPO, "test/runtime/interpose/interpose_check.cpp")])
    shutil.copy2(librt, os.path.join(out, "lib", "libgmemrt.so"))
    if o.dry_run_only:
        dry_run(stage, build, out, b)
        return finish(stage, out)
    stage["commands"]["gpu_bench"] = gxx(os.path.join(b, "gpu_bench"),
                                         [os.path.join(REPO, "bench/runtime/gpu_bench.cpp")])
    for mode in ("shared", "static"):
        cmd = [os.path.join(CUDA, "bin", "nvcc"), "-arch=sm_90", "-O2", "-cudart", mode, "-I",
               os.path.join(REPO, "include"), os.path.join(HERE, "cudart_test.cu"), "-o",
               os.path.join(b, "cudart_test_" + mode), "-ldl", "-Xlinker", "-rpath=$ORIGIN/../lib"]
        run(cmd)
        stage["commands"]["cudart_test_" + mode] = " ".join(cmd)
    cmd = [os.path.join(CUDA, "bin", "nvcc"), "-arch=sm_90", "-O2", "-cudart", "shared",
           os.path.join(HERE, "urgent_first_launch.cu"), "-o", os.path.join(b, "urgent_first_launch"),
           "-ldl", "-Xlinker", "-rpath=$ORIGIN/../lib"]
    run(cmd)
    stage["commands"]["urgent_first_launch"] = " ".join(cmd)
    cmd = [os.path.join(CUDA, "bin", "nvcc"), "-arch=sm_90", "-O2", "-cudart", "shared",
           os.path.join(HERE, "printf_first_wait.cu"), "-o", os.path.join(b, "printf_first_wait"),
           "-L", os.path.join(CUDA, "lib64", "stubs"), "-lcuda", "-Xlinker", "-rpath=$ORIGIN/../lib"]
    run(cmd)
    stage["commands"]["printf_first_wait"] = " ".join(cmd)
    shutil.copy2(os.path.join(CUDA, "lib64", "libcudart.so.13"), os.path.join(out, "lib"))
    bench = os.path.join(build, "bin", "gmemrt-bench")
    if os.path.exists(bench):
        shutil.copy2(bench, b)
        for lib in ("libbenchmark.so.1debian",):
            p = os.path.join("/usr/lib/x86_64-linux-gnu", lib)
            if os.path.exists(p):
                shutil.copy2(p, os.path.join(out, "lib"))
    else:
        warn("no %s: the CPU benchmark will not run on the GPU machine" % bench)

    # 5. Dry run against the fake driver.
    dry_run(stage, build, out, b)
    return finish(stage, out)


def dry_run(stage, build, out, b):
    """Runs gpu_host (module and library loading) and interpose_check against
    the fake driver; a failure is a warning."""
    fake = os.path.join(build, "test", "runtime", "fakecuda")
    if os.path.exists(os.path.join(fake, "libcuda.so.1")):
        env = dict(os.environ, LD_PRELOAD=os.path.join(out, "lib", "libgmemrt.so"), LD_LIBRARY_PATH=fake,
                   GMEM_VERIFY="1", GMEM_GLOBALS="0")
        for extra in ([], ["--library"]):
            r = subprocess.run([os.path.join(b, "gpu_host"), os.path.join(out, "manifest.txt")] + extra,
                               capture_output=True, text=True, env=env, cwd=REPO)
            tail = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-500:]
            print("dry run (fake driver%s): %s" % (", library" if extra else "", tail), flush=True)
            if r.returncode != 0:
                for l in r.stdout.splitlines():
                    if l.startswith(("MISMATCH", "CUDA-ERROR")):
                        print("  " + l)
                warn("dry run failed (%s)" % " ".join(extra or ["module"]))
            stage["dry_run" + ("_library" if extra else "")] = tail
        env.pop("GMEM_GLOBALS")
        r = subprocess.run([os.path.join(b, "interpose_check"), "preload",
                            os.path.join(out, "kernels", "interpose.ptx"),
                            os.path.join(out, "kernels", "interpose_plain.ptx")],
                           capture_output=True, text=True, env=env)
        print("dry run interpose_check: %s" % (r.stdout.strip().splitlines() or ["?"])[-1], flush=True)
        if r.returncode != 0:
            warn("interpose_check dry run failed:\n" + r.stdout[-1500:] + r.stderr[-1500:])
    else:
        warn("no fake libcuda in %s: no dry run" % fake)


def finish(stage, out):
    """Writes stage.json; the exit status: 1 if anything warned."""
    stage["warnings"] = WARNINGS
    with open(os.path.join(out, "stage.json"), "w") as f:
        json.dump(stage, f, indent=1)
    size = sum(os.path.getsize(os.path.join(d, x)) for d, _, xs in os.walk(out) for x in xs)
    print("staged %s (%.1f MiB), %d warning(s)" % (out, size / 2**20, len(WARNINGS)))
    return 1 if WARNINGS else 0


if __name__ == "__main__":
    sys.exit(main())
