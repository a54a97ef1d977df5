#!/usr/bin/env python3
"""Stage the preemption harness (bench/preempt) for the GPU machine.

    python3 bench/preempt/stage.py [--build-dir build] [--out .stage/preempt]

Needs a build of the plugin (BUILD/lib/GmemPlugin.so) and gmem-analyze.
Writes OUT/:
  corpus/      test/gpu/stage.py's PTX and manifest of every corpus GMEM-RUN
               instance (gmem-analyze --emit-ptx, so with the clones, and the
               instance-mode idempotence prediction per instance), plus one
               .cubin per PTX (ptxas -arch=sm_90: no JIT on the GPU machine);
  kernels.ptx  bench/preempt/kernels.cu with the plugin (default budget) and
  kernels_b256.ptx, kernels_b1024.ptx (GMEM_CHECKPOINT_BUDGET=256 / 1024),
               each with its .cubin;
  overhead_manifest.txt  overhead_sizes.txt resolved to symbols, with each
               launch's instance-mode idempotence (pred=: which clone
               libgmemrt would launch depends on it);
  preempt_bench          the harness (g++, static libstdc++), checked here with
               self-test and dry runs against the stub libcuda;
  lib/libgmemrt.so       the build's runtime, for part aslaunched
               (bench/preempt/aslaunched_on_device.sh);
  stage.json   commands and what was staged, with the clones' info versions
               (the harness speaks clone ABI version 2 and reports an
               instance whose clone is of another version as an error).
Then, on the GPU machine: bash bench/preempt/run_on_device.sh (.stage carried).
"""

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CUDA = "/usr/local/cuda"
SOURCES = ["main.cpp", "harness.cpp", "harness_manifest.cpp", "harness_device.cpp", "harness_clone.cpp",
           "part_correctness.cpp", "part_overhead.cpp", "part_aslaunched.cpp",
           "part_latency.cpp", "part_stops.cpp"]


def run(cmd, env=None, check=True):
    print("+ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, env=env)
    if check and p.returncode != 0:
        sys.stderr.write(p.stdout[-4000:])
        sys.exit("error: command failed (rc=%d): %s" % (p.returncode, " ".join(cmd)))
    return p


def cuda_flags(tmp):
    stubs = os.path.join(tmp, "cuda-stubs")
    os.makedirs(stubs, exist_ok=True)
    for h in ("texture_fetch_functions.h", "texture_indirect_functions.h"):
        open(os.path.join(stubs, h), "w").close()
    flags = ["-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
             "-Wno-unknown-cuda-version", "--cuda-path=" + CUDA, "-isystem", stubs, "-O2",
             "-fverify-intermediate-code"]
    if os.path.isdir(os.path.join(CUDA, "include", "cccl")):
        flags += ["-isystem", os.path.join(CUDA, "include", "cccl")]
    return flags


sys.path.insert(0, os.path.join(REPO, "tools", "gmem-clang"))
import ptx_fit  # noqa: E402  (the driver's register fit, as users get it)

FITTED = []

def _load_gpu_stage():
    # test/gpu/stage.py by path: a plain `import stage` could find this file.
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "gmem_gpu_stage", os.path.join(REPO, "test", "gpu", "stage.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


gpu_stage = _load_gpu_stage()  # corpus argument parsing, instance mode


class _Predictor(gpu_stage.Stager):
    """gmem-analyze's instance mode for one launch, as test/gpu/stage.py runs
    it for the corpus instances (no PTX, no staging directory)."""

    def __init__(self, tool):  # pylint: disable=super-init-not-called
        self.tool = tool
        self.tool_ok = os.access(tool, os.X_OK)


def predict_overhead(tool, src, sym, rest, lineno):
    """The idempotence of the overhead instance `rest` (grid= block= args=),
    as libgmemrt's launch-time check would find it: 'idempotent',
    'not-idempotent' or 'none'. Decides which clone the runtime launches
    (part_overhead.cpp)."""
    m = re.match(r"grid=(\S+)\s+block=(\S+)\s+args=(.*)$", rest.strip())
    if not m:
        return "none"
    run_ = {"name": sym, "line": lineno, "error": None}
    try:
        run_["grid"] = gpu_stage.parse_dims(m.group(1))
        run_["block"] = gpu_stage.parse_dims(m.group(2))
        run_["args"] = [gpu_stage.parse_arg(t) for t in m.group(3).split()]
    except (ValueError, IndexError):
        return "none"
    pred, _ = _Predictor(tool).predict(os.path.join(REPO, "test", "corpus", src), sym, run_)
    return pred


def ptxas(ptx):
    # As gmem-clang++ does before assembling: clones of the forms
    # GMEM_FIT_CLONE_REGS names (default: the alternate and barrier-free
    # twins) that would hold fewer warps per SM than their kernel get .maxnreg.
    for name, had, cap in ptx_fit.fit_clone_registers(ptx, os.path.join(CUDA, "bin", "ptxas"),
                                                      "sm_90"):
        FITTED.append("%s: %d -> %d" % (name, had, cap))
    cubin = ptx[:-4] + ".cubin"
    run([os.path.join(CUDA, "bin", "ptxas"), "-arch=sm_90", ptx, "-o", cubin])
    return cubin


INFO_RE = re.compile(r"\.global\s+\.align\s+\d+\s+\.(b8|u32|b32)\s+(__gmem_pre_info_\w+)"
                     r"\[(\d+)\]\s*(?:=\s*\{([^}]*)\})?")
ABI_VERSION = 2
PERSISTENT = 0x10


def clone_infos(text):
    """{kernel: (version, flags)} from the __gmem_pre_info_* globals of a PTX text
    (initialisers as LLVM prints them: bytes, or 32-bit words; missing
    trailing values are zero)."""
    out = {}
    for m in INFO_RE.finditer(text):
        kind, name, init = m.group(1), m.group(2), m.group(4) or ""
        vals = [int(v, 0) for v in init.replace(" ", "").split(",") if v]
        if kind == "b8":
            vals += [0] * (20 - len(vals))
            words = [int.from_bytes(bytes(vals[4 * i:4 * i + 4]), "little") for i in range(5)]
        else:
            words = vals + [0] * (5 - len(vals))
        out[name[len("__gmem_pre_info_"):]] = (words[1], words[2])
    return out


def describe_infos(what, infos):
    """One line: how many clones of which ABI version, how many persistent;
    a warning when the harness (ABI version 2) would refuse some."""
    versions = {}
    for v, _ in infos.values():
        versions[v] = versions.get(v, 0) + 1
    pers = sum(1 for v, f in infos.values() if v == ABI_VERSION and f & PERSISTENT)
    print("%s: %d info globals, versions %s, %d persistent (flag bit 4)"
          % (what, len(infos), ", ".join("v%d: %d" % kv for kv in sorted(versions.items()))
             or "-", pers))
    old = sum(n for v, n in versions.items() if v != ABI_VERSION)
    if old:
        print("warning: %s: %d clones are not ABI version %d; the harness reports those "
              "instances as errors ('info version N, harness expects %d')"
              % (what, old, ABI_VERSION, ABI_VERSION), file=sys.stderr)
    return {"versions": {str(k): v for k, v in versions.items()}, "persistent": pers}


def resolve_overhead(out, corpus_manifest, tool):
    """overhead_sizes.txt lines -> manifest lines with ptx=, sym= and pred=."""
    known = {}
    for line in open(corpus_manifest):
        if line.startswith("#") or not line.strip():
            continue
        f = dict(kv.split("=", 1) for kv in line.split(" args=")[0].split() if "=" in kv)
        m = re.match(r"(.+?):(.+)#\d+$", f.get("name", ""))
        if m:
            known[(m.group(1), m.group(2))] = (f["ptx"], f["sym"])
    lines, problems = [], []
    for n, line in enumerate(open(os.path.join(HERE, "overhead_sizes.txt")), 1):
        if line.startswith("#") or not line.strip():
            continue
        parts = line.split(None, 2)
        if len(parts) != 3:
            problems.append("overhead_sizes.txt:%d: malformed" % n)
            continue
        src, kernel, rest = parts
        hit = known.get((src, kernel))
        if not hit:
            problems.append("overhead_sizes.txt:%d: %s %s not in the corpus manifest"
                            % (n, src, kernel))
            continue
        ptx, sym = hit
        pred = predict_overhead(tool, src, sym, rest, n)
        # (a null pointer argument goes to the harness as an 8-byte zero)
        rest = re.sub(r"(?<=\s)null(?=\s|$)", gpu_stage.runner_token("null"), " " + rest.strip())
        lines.append("ptx=corpus/%s sym=%s name=%s:%s pred=%s %s" % (ptx, sym, src, kernel, pred,
                                                                     rest.strip()))
    path = os.path.join(out, "overhead_manifest.txt")
    with open(path, "w") as fh:
        fh.write("# generated by bench/preempt/stage.py from overhead_sizes.txt\n")
        fh.write("\n".join(lines) + "\n")
    return path, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--out", default=os.path.join(REPO, ".stage", "preempt"))
    ap.add_argument("--skip-corpus", action="store_true",
                    help="reuse OUT/corpus from an earlier staging")
    o = ap.parse_args()
    build = o.build_dir if os.path.isabs(o.build_dir) else os.path.join(REPO, o.build_dir)
    plugin = os.path.join(build, "lib", "GmemPlugin.so")
    tool = os.path.join(build, "bin", "gmem-analyze")
    for p in (plugin, tool, os.path.join(CUDA, "bin", "ptxas")):
        if not os.path.exists(p):
            sys.exit("error: %s not found (build the project first)" % p)
    out = os.path.abspath(o.out)
    os.makedirs(out, exist_ok=True)
    stage = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
             "build": build, "steps": []}

    corpus = os.path.join(out, "corpus")
    if not o.skip_corpus:
        if os.path.isdir(corpus):
            shutil.rmtree(corpus)
        run([sys.executable, os.path.join(REPO, "test", "gpu", "stage.py"), "--build-dir", build,
             "--out", corpus, "--no-runner"])
    manifest = os.path.join(corpus, "manifest.txt")
    ptx_dir = os.path.join(corpus, "ptx")
    clones = 0
    corpus_infos = {}
    for f in sorted(os.listdir(ptx_dir)):
        if f.endswith(".ptx"):
            ptx = os.path.join(ptx_dir, f)
            text = open(ptx).read()
            clones += text.count(".entry __gmem_pre_")
            corpus_infos.update({f + ":" + k: v for k, v in clone_infos(text).items()})
            ptxas(ptx)
    print("corpus: %d clones in %s" % (clones, ptx_dir))
    stage["corpus_info"] = describe_infos("corpus", corpus_infos)
    if clones == 0:
        sys.exit("error: the corpus PTX has no clones (was the plugin built with the "
                 "checkpoint pass, GMEM_CHECKPOINTS unset?)")

    with tempfile.TemporaryDirectory() as tmp:
        flags = cuda_flags(tmp)
        for suffix, budget in (("", None), ("_b256", "256"), ("_b1024", "1024")):
            env = dict(os.environ)
            env.pop("GMEM_CHECKPOINTS", None)
            env.pop("GMEM_CHECKPOINT_BUDGET", None)
            if budget:
                env["GMEM_CHECKPOINT_BUDGET"] = budget
            ptx = os.path.join(out, "kernels%s.ptx" % suffix)
            cmd = ["clang++-19"] + flags + ["-fpass-plugin=" + plugin, "-S",
                                            os.path.join(HERE, "kernels.cu"), "-o", ptx]
            run(cmd, env=env)
            ptxas(ptx)
            stage["kernels%s_info" % suffix] = describe_infos(
                os.path.basename(ptx), clone_infos(open(ptx).read()))
            stage["steps"].append({"kernels": ptx, "budget": budget or "default",
                                   "command": " ".join(cmd)})

    overhead, problems = resolve_overhead(out, manifest, tool)
    for p in problems:
        print("warning: " + p, file=sys.stderr)

    exe = os.path.join(out, "preempt_bench")
    cmd = ["g++", "-O2", "-std=c++17", "-I" + os.path.join(CUDA, "include"),
           "-I" + os.path.join(REPO, "include")] + \
        [os.path.join(HERE, s) for s in SOURCES] + \
        ["-L" + os.path.join(CUDA, "lib64", "stubs"), "-lcuda", "-static-libstdc++",
         "-static-libgcc", "-ldl", "-o", exe]
    run(cmd)
    stage["steps"].append({"harness": exe, "command": " ".join(cmd)})
    with tempfile.TemporaryDirectory() as td:
        os.symlink(os.path.join(CUDA, "lib64", "stubs", "libcuda.so"),
                   os.path.join(td, "libcuda.so.1"))
        env = dict(os.environ, LD_LIBRARY_PATH=td)
        run([exe, "self-test"], env=env)
        for m in (manifest, overhead):
            print(run([exe, "dry-run", "--manifest", m], env=env, check=False).stdout.strip())
    # Part aslaunched runs under LD_PRELOAD of the build's libgmemrt.
    librt = os.path.join(build, "lib", "libgmemrt.so")
    if os.path.exists(librt):
        os.makedirs(os.path.join(out, "lib"), exist_ok=True)
        shutil.copy2(librt, os.path.join(out, "lib", "libgmemrt.so"))
    else:
        print("warning: %s not built: part aslaunched cannot run" % librt, file=sys.stderr)
    stage["corpus_manifest"] = manifest
    stage["overhead_manifest"] = overhead
    stage["overhead_problems"] = problems
    stage["corpus_clones"] = clones
    stage["clone_register_fit"] = FITTED
    with open(os.path.join(out, "stage.json"), "w") as fh:
        json.dump(stage, fh, indent=2)
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    print("staged %s (%.1f MiB); next: bash bench/preempt/run_on_device.sh on the GPU machine"
          % (out, size / 2**20))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
