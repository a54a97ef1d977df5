#!/usr/bin/env python3
"""Stage the GPU ground-truth run (test/gpu): PTX, manifest and runner.

Run on the build machine after the project is built:

    python3 test/gpu/stage.py [--build-dir build] [--out .stage/gpu] [--only PATTERN]

For every test/corpus/*.cu (format: docs/CORPUS_FORMAT.md) it
  * compiles device-only PTX for sm_90 with `gmem-analyze FILE --emit-ptx OUT`,
    falling back to clang++-19 when the tool or the option is missing;
  * runs `gmem-analyze FILE --json` once for each kernel's mangled symbol and
    static class (RUN name matched against `plain_name`, then `name`, then
    `symbol`); without the tool the symbols come from the PTX's .entry lines
    (demangled with llvm-cxxfilt/c++filt) and the class is `none`;
  * runs gmem-analyze in instance mode for every GMEM-RUN line, with fake
    allocation bases 0x100000000*(k+1) for parameter k, to get the prediction
    (`instance.idempotent`); on any failure the prediction is `none`;
  * writes OUT/ptx/*.ptx, OUT/manifest.txt (format: top of run_twice.cpp),
    OUT/stage.json (per-instance details: tool commands, reasons, warnings),
    and builds OUT/run_twice with g++ (static libstdc++/libgcc), then checks
    it with --self-test and --dry-run against the stub libcuda.

Every RUN line ends up in the manifest, even when something failed here (its
PTX did not compile, its kernel was not found, its tokens are malformed):
the runner then reports it as ERROR instead of it silently disappearing.

Python 3 standard library only.
"""

import argparse
import concurrent.futures
import datetime
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# The modules this script is split into sit next to it: stage_corpus.py
# (GMEM-EXPECT/GMEM-RUN parsing, warnings) and stage_tools.py (gmem-analyze,
# clang, instance-mode predictions). bench/preempt/stage.py loads this file
# by path from another folder, and uses Stager, parse_dims and parse_arg.
if HERE not in sys.path:
    sys.path.append(HERE)

from stage_corpus import (WARNINGS, info, parse_arg, parse_corpus_file,  # noqa: E402,F401
                          parse_dims, runner_token, warn)
from stage_tools import Stager, last_line, ptx_entries, run_cmd  # noqa: E402

# the runner's sources: run_twice.cpp and the files it is split into (run_twice.h)
RUNNER_SOURCES = ("run_twice.cpp", "run_twice_util.cpp", "run_twice_manifest.cpp",
                  "run_twice_results.cpp", "run_twice_worker.cpp", "run_twice_selftest.cpp")


def only_matches(pattern, *fields):
    if not pattern:
        return True
    globby = any(c in pattern for c in "*?[")
    for f in fields:
        if globby and fnmatch.fnmatchcase(f, pattern):
            return True
        if not globby and pattern in f:
            return True
    return False


def clean_value(s):
    return re.sub(r"\s+", "", s) or "_"


def build_runner(opts):
    out = os.path.join(opts.out, "run_twice")
    cmd = ([opts.cxx, "-O2", "-std=c++17", "-I" + os.path.join(opts.cuda, "include")] +
           [os.path.join(HERE, src) for src in RUNNER_SOURCES] +
           ["-L" + os.path.join(opts.cuda, "lib64", "stubs"),
            "-lcuda", "-static-libstdc++", "-static-libgcc", "-o", out])
    info("building runner: " + " ".join(cmd))
    rc, so, se = run_cmd(cmd, 600)
    if rc != 0:
        sys.stderr.write(se + so)
        return None
    return out


def check_runner(opts, runner, manifest):
    """--self-test and --dry-run with the stub libcuda (no GPU needed here)."""
    stub = os.path.join(opts.cuda, "lib64", "stubs", "libcuda.so")
    if not os.path.exists(stub):
        warn("no stub libcuda at %s; runner not smoke-tested" % stub)
        return True
    with tempfile.TemporaryDirectory() as td:
        os.symlink(stub, os.path.join(td, "libcuda.so.1"))
        env = dict(os.environ, LD_LIBRARY_PATH=td)
        ok = True
        for extra in (["--self-test"], [manifest, "--dry-run"]):
            p = subprocess.run([runner] + extra, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, env=env, universal_newlines=True)
            tail = last_line(p.stdout)
            info("runner %s: rc=%d, %s" % (extra[-1], p.returncode, tail))
            if p.returncode == 1 and extra[-1] == "--dry-run":
                warn("the manifest has malformed lines; the runner will report them as ERROR")
            elif p.returncode != 0:
                ok = False
                sys.stderr.write(p.stdout[-4000:])
        return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default="build",
                    help="project build directory (default: build, relative to the repo)")
    ap.add_argument("--out", default=os.path.join(REPO, ".stage", "gpu"),
                    help="staging folder (default: REPO/.stage/gpu)")
    ap.add_argument("--only", metavar="PATTERN",
                    help="keep instances whose file, kernel or display name contains "
                         "PATTERN (or matches it, if it has glob characters)")
    ap.add_argument("--corpus", action="append", metavar="PATH",
                    help="corpus .cu file or folder (repeatable; default test/corpus)")
    ap.add_argument("--tool", help="gmem-analyze binary (default BUILD/bin/gmem-analyze)")
    ap.add_argument("--clang", default="clang++-19")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1))
    ap.add_argument("--no-runner", action="store_true", help="do not build run_twice")
    opts = ap.parse_args()

    build = opts.build_dir if os.path.isabs(opts.build_dir) else os.path.join(REPO, opts.build_dir)
    if not opts.tool:
        opts.tool = os.path.join(build, "bin", "gmem-analyze")
    opts.out = os.path.abspath(opts.out)
    os.makedirs(opts.out, exist_ok=True)

    srcs = []
    for c in (opts.corpus or [os.path.join(REPO, "test", "corpus")]):
        c = os.path.abspath(c)
        if os.path.isdir(c):
            srcs += sorted(os.path.join(c, f) for f in os.listdir(c) if f.endswith(".cu"))
        elif os.path.isfile(c):
            srcs.append(c)
        else:
            warn("corpus path %s does not exist" % c)

    # clean what earlier stagings wrote (only our own names)
    ptx_dir = os.path.join(opts.out, "ptx")
    if os.path.isdir(ptx_dir):
        shutil.rmtree(ptx_dir)
    os.makedirs(ptx_dir)
    for f in ("manifest.txt", "stage.json", "run_twice"):
        p = os.path.join(opts.out, f)
        if os.path.exists(p):
            os.remove(p)

    st = Stager(opts)
    if st.tool_ok:
        info("gmem-analyze: %s" % opts.tool)
    else:
        warn("gmem-analyze not found at %s: clang fallback for PTX, symbols from the PTX, "
             "all predictions none" % opts.tool)

    # parse and filter
    files = []
    used_stems = set()
    for src in srcs:
        expects, runs = parse_corpus_file(src)
        rel = os.path.relpath(src, REPO)
        base = os.path.basename(src)
        per_kernel = {}
        for r in runs:
            r["k"] = per_kernel.get(r["name"], 0)
            per_kernel[r["name"]] = r["k"] + 1
            r["display"] = clean_value("%s:%s#%d" % (base, r["name"], r["k"]))
            r["expect"] = expects.get(r["name"])
        runs = [r for r in runs if only_matches(opts.only, base, rel, r["name"], r["display"])]
        if not runs:
            continue
        stem = os.path.splitext(base)[0]
        ptx_name = stem
        n = 1
        while ptx_name in used_stems:
            n += 1
            ptx_name = "%s_%d" % (stem, n)
        used_stems.add(ptx_name)
        files.append({"src": src, "rel": rel, "ptx": os.path.join("ptx", ptx_name + ".ptx"),
                      "runs": runs})
    if not files:
        warn("no GMEM-RUN instances found (corpus: %s, only: %s)"
             % (", ".join(srcs) or "empty", opts.only))

    def stage_file(f):
        src, ptx = f["src"], os.path.join(opts.out, f["ptx"])
        ok, how, cmd = st.compile_ptx(src, ptx)
        f["ptx_ok"], f["ptx_how"], f["ptx_cmd"] = ok, how, " ".join(cmd)
        kernels = st.static_kernels(src)
        f["static_source"] = "gmem-analyze --json" if kernels is not None else "ptx"
        if kernels is None:
            kernels = st.ptx_kernels(ptx) if ok else []
        entries = set(ptx_entries(ptx)) if ok else set()
        for r in f["runs"]:
            k, nhits = Stager.match_kernel(kernels, r["name"])
            if k is None:
                warn("%s:%d: kernel %r not found (known: %s)" % (
                    f["rel"], r["line"], r["name"],
                    ", ".join(sorted(x.get("plain_name", "?") for x in kernels)) or "none"))
                r["symbol"], r["class"] = clean_value(r["name"]), "none"
            else:
                if nhits > 1:
                    warn("%s:%d: %r matches %d kernels; using %s" % (
                        f["rel"], r["line"], r["name"], nhits, k["symbol"]))
                r["symbol"], r["class"] = k["symbol"], k.get("class") or "none"
                r["class_reason"] = k.get("class_reason")
                if ok and r["symbol"] not in entries:
                    warn("%s:%d: symbol %s is not an .entry of %s" % (
                        f["rel"], r["line"], r["symbol"], f["ptx"]))
            if k is None:
                r["pred"], r["pred_detail"] = "none", {}
            else:
                r["pred"], r["pred_detail"] = st.predict(src, r["symbol"], r)
        return f

    # --emit-ptx probe on the first file, so a missing option warns once
    if files and st.tool_ok:
        probe = os.path.join(opts.out, "ptx", ".probe.ptx")
        rc, so, se = run_cmd([opts.tool, files[0]["src"], "--emit-ptx", probe], 300)
        msg = last_line(se or so)
        if (rc != 0 or not ptx_entries(probe)) and re.search(
                r"emit-ptx|unknown|unrecogni[sz]ed|invalid option|usage", msg, re.I):
            st.emit_ptx_ok = False
            warn("gmem-analyze --emit-ptx unavailable (rc=%d: %s); PTX from %s"
                 % (rc, msg, opts.clang))
        # any other failure: tried again per file, with the clang fallback there
        if os.path.exists(probe):
            os.remove(probe)

    with concurrent.futures.ThreadPoolExecutor(max(1, opts.jobs)) as ex:
        files = list(ex.map(stage_file, files))

    # manifest
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    lines = [
        "# gmem GPU ground-truth manifest, generated by test/gpu/stage.py on %s" % now,
        "# format: see the top of test/gpu/run_twice.cpp; paths relative to this file",
        "# gmem-analyze: %s" % (opts.tool if st.tool_ok else "not available (predictions none)"),
    ]
    for f in files:
        if not f["ptx_ok"]:
            lines.append("# %s: PTX compile FAILED (%s)" % (f["rel"], f["ptx_cmd"]))
    n_inst = 0
    preds = {}
    regions = {"wr": 0, "wr-": 0, "rd": 0, "rd-": 0}
    for f in files:
        for r in f["runs"]:
            fields = ["ptx=" + f["ptx"], "sym=" + clean_value(r["symbol"]),
                      "name=" + r["display"],
                      "grid=%d,%d,%d" % tuple(r["grid"]),
                      "block=%d,%d,%d" % tuple(r["block"]),
                      "pred=" + r["pred"], "class=" + clean_value(r["class"])]
            if r["expect"]:
                fields.append("expect=" + r["expect"])
            for key, detail in (("wr", "write_ranges"), ("rd", "read_ranges")):
                value = (r.get("pred_detail") or {}).get(detail) or "-"
                fields.append("%s=%s" % (key, value))
                regions[key + ("-" if value == "-" else "")] += 1
            if r.get("smem"):
                fields.append("smem=%d" % r["smem"])
            if r["error"]:
                # keep the bad grid/block text so the runner reports the problem
                fields[3] = "grid=" + clean_value(r["grid_text"])
                fields[4] = "block=" + clean_value(r["block_text"])
            fields.append("args=" + " ".join(runner_token(t) for t in r["tokens"]))
            lines.append(" ".join(fields))
            n_inst += 1
            preds[r["pred"]] = preds.get(r["pred"], 0) + 1
    manifest = os.path.join(opts.out, "manifest.txt")
    with open(manifest, "w") as fh:
        fh.write("\n".join(lines) + "\n")

    # details
    stage = {"schema": 1, "date": now, "tool": opts.tool if st.tool_ok else None,
             "emit_ptx": st.emit_ptx_ok, "only": opts.only, "files": [], "warnings": WARNINGS}
    for f in files:
        stage["files"].append({
            "source": f["rel"], "ptx": f["ptx"], "ptx_ok": f["ptx_ok"], "ptx_how": f["ptx_how"],
            "ptx_command": f["ptx_cmd"], "static_source": f["static_source"],
            "instances": [{
                "name": r["display"], "kernel": r["name"], "line": r["line"],
                "symbol": r["symbol"], "expect": r["expect"], "class": r["class"],
                "class_reason": r.get("class_reason"), "prediction": r["pred"],
                "args": " ".join(r["tokens"]), "error": r["error"],
                "instance_command": r["pred_detail"].get("command"),
                "instance_reason": r["pred_detail"].get("reason"),
                "conflict": r["pred_detail"].get("conflict")} for r in f["runs"]]})
    with open(os.path.join(opts.out, "stage.json"), "w") as fh:
        json.dump(stage, fh, indent=2)
        fh.write("\n")

    info("staged %d instances from %d files into %s (predictions: %s)" % (
        n_inst, len(files), opts.out,
        ", ".join("%s %d" % kv for kv in sorted(preds.items())) or "none"))
    info("regions checked: writes %d, reads %d (not checked: %d, %d)" % (
        regions["wr"], regions["rd"], regions["wr-"], regions["rd-"]))

    rc = 0
    if not opts.no_runner:
        runner = build_runner(opts)
        if runner is None:
            print("error: building run_twice failed", file=sys.stderr)
            rc = 1
        elif not check_runner(opts, runner, manifest):
            print("error: run_twice self-test or dry run failed", file=sys.stderr)
            rc = 1
    info("%d warnings" % len(WARNINGS))
    if n_inst == 0:
        rc = 1
    info("next: run `bash test/gpu/run_on_device.sh` on the GPU machine with .stage carried")
    return rc


if __name__ == "__main__":
    sys.exit(main())
