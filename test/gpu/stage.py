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

ELEM_SIZES = {"f32": 4, "f64": 8, "i32": 4, "u32": 4, "i64": 8, "u64": 8, "i8": 1, "u8": 1}
CLASSES = ("idempotent", "conditional", "non-idempotent", "unknown")
FAKE_BASE = 0x100000000

EXPECT_RE = re.compile(r"^\s*//\s*GMEM-EXPECT:\s*(?P<rest>.*?)\s*$")
RUN_RE = re.compile(
    r"^\s*//\s*GMEM-RUN:\s*(?P<name>.+?)\s+grid=(?P<grid>\S+)\s+block=(?P<block>\S+)"
    r"\s+args=(?P<args>.*?)\s*$")
RUN_START_RE = re.compile(r"^\s*//\s*GMEM-RUN:")

# the runner's sources: run_twice.cpp and the files it is split into (run_twice.h)
RUNNER_SOURCES = ("run_twice.cpp", "run_twice_util.cpp", "run_twice_manifest.cpp",
                  "run_twice_results.cpp", "run_twice_worker.cpp", "run_twice_selftest.cpp")

WARNINGS = []


def warn(msg):
    WARNINGS.append(msg)
    print("warning: " + msg, file=sys.stderr, flush=True)


def info(msg):
    print(msg, flush=True)


# --------------------------------------------------------------------- parsing

def parse_int(text):
    """int in decimal or 0x/0o/0b notation; raises ValueError."""
    t = text.strip()
    try:
        return int(t, 10)
    except ValueError:
        return int(t, 0)


def parse_dims(text):
    parts = text.split(",")
    if not 1 <= len(parts) <= 3:
        raise ValueError("bad dims %r" % text)
    vals = [parse_int(p) for p in parts]
    if any(v < 1 or v > 0xFFFFFFFF for v in vals):
        raise ValueError("bad dims %r" % text)
    return vals + [1] * (3 - len(vals))


def parse_arg(tok):
    """Validate one ARG token; returns a dict describing it (raises ValueError)."""
    f = tok.split(":")
    kind = f[0]
    if kind == "buf":
        if len(f) < 4 or f[1] not in ELEM_SIZES:
            raise ValueError("bad buf token %r" % tok)
        count = parse_int(f[2])
        if count < 0:
            raise ValueError("negative COUNT in %r" % tok)
        init = f[3:]
        ok = ((init[0] in ("rand", "zero", "iota") and len(init) == 1)
              or (init[0] == "randint" and len(init) == 3
                  and parse_int(init[1]) < parse_int(init[2]))
              or (init[0] == "const" and len(init) == 2))
        if not ok:
            raise ValueError("bad INIT in %r" % tok)
        if init[0] == "const":
            (float if f[1].startswith("f") else parse_int)(init[1])
        return {"kind": "buf", "type": f[1], "count": count,
                "size": count * ELEM_SIZES[f[1]]}
    if kind == "ptr":
        m = re.fullmatch(r"(\d+)(?:([+-])(\w+))?", f[1] if len(f) == 2 else "")
        if not m:
            raise ValueError("bad ptr token %r" % tok)
        off = parse_int(m.group(3)) if m.group(3) else 0
        if m.group(2) == "-":
            off = -off
        return {"kind": "ptr", "ref": int(m.group(1)), "off": off}
    if len(f) != 2:
        raise ValueError("bad token %r" % tok)
    v = f[1]
    if kind in ("i32", "u32"):
        n = parse_int(v)
        if not -(1 << 31) <= n < (1 << 32):
            raise ValueError("out of range %r" % tok)
        n &= 0xFFFFFFFF
        if n >= 1 << 31:
            n -= 1 << 32
        return {"kind": "scalar", "tool": "i32:%d" % n}
    if kind in ("i64", "u64"):
        n = parse_int(v)
        if not -(1 << 63) <= n < (1 << 64):
            raise ValueError("out of range %r" % tok)
        n &= (1 << 64) - 1
        if n >= 1 << 63:
            n -= 1 << 64
        return {"kind": "scalar", "tool": "i64:%d" % n}
    if kind in ("f32", "f64"):
        float(v)
        return {"kind": "scalar", "tool": "%s:%s" % (kind, v)}
    raise ValueError("unknown token kind %r" % tok)


def resolve_ptr(args, i):
    """(buffer param index, total byte offset) for ptr parameter i."""
    off, cur = 0, i
    for _ in range(len(args) + 1):
        a = args[cur]
        if a["kind"] == "buf":
            return cur, off
        if a["kind"] != "ptr":
            raise ValueError("ptr in parameter %d refers to a scalar" % i)
        if not 0 <= a["ref"] < len(args):
            raise ValueError("ptr in parameter %d refers to missing parameter %d"
                             % (i, a["ref"]))
        off += a["off"]
        cur = a["ref"]
    raise ValueError("ptr in parameter %d: reference cycle" % i)


def parse_corpus_file(path):
    """Returns (expects: {name: class}, runs: [dict]) and warns on bad lines."""
    expects, runs = {}, []
    with open(path, encoding="utf-8", errors="replace") as fh:
        for lineno, line in enumerate(fh, 1):
            m = EXPECT_RE.match(line)
            if m:
                parts = m.group("rest").rsplit(None, 1)
                if len(parts) != 2 or parts[1] not in CLASSES:
                    warn("%s:%d: malformed GMEM-EXPECT line" % (path, lineno))
                    continue
                expects[parts[0].strip()] = parts[1]
                continue
            if not RUN_START_RE.match(line):
                continue
            m = RUN_RE.match(line)
            if not m:
                warn("%s:%d: malformed GMEM-RUN line (skipped)" % (path, lineno))
                continue
            run = {"file": path, "line": lineno, "name": m.group("name").strip(),
                   "grid_text": m.group("grid"), "block_text": m.group("block"),
                   "tokens": m.group("args").split(), "error": None}
            try:
                run["grid"] = parse_dims(run["grid_text"])
                run["block"] = parse_dims(run["block_text"])
                run["args"] = [parse_arg(t) for t in run["tokens"]]
                for i, a in enumerate(run["args"]):
                    if a["kind"] == "ptr":
                        resolve_ptr(run["args"], i)
            except (ValueError, IndexError) as e:
                run["error"] = str(e)
                run.setdefault("grid", [1, 1, 1])
                run.setdefault("block", [1, 1, 1])
                warn("%s:%d: %s (the runner will report it as ERROR)" % (path, lineno, e))
            runs.append(run)
    for r in runs:
        if r["name"] not in expects:
            warn("%s:%d: kernel %r has no GMEM-EXPECT line" % (path, r["line"], r["name"]))
    return expects, runs


# ----------------------------------------------------------------------- tools

def run_cmd(cmd, timeout):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, universal_newlines=True, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except FileNotFoundError as e:
        return 127, "", str(e)
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1][:300] if lines else ""


def ptx_entries(ptx_path):
    try:
        with open(ptx_path, encoding="utf-8", errors="replace") as fh:
            return re.findall(r"^\s*\.(?:visible\s+)?\.entry\s+([\w$.]+)", fh.read(), re.M)
    except OSError:
        return []


def find_demangler():
    for c in ("llvm-cxxfilt-19", "llvm-cxxfilt", "c++filt"):
        if shutil.which(c):
            return c
    return None


def plain_from_demangled(d):
    """'void reduce<256>(float const*, ...)' -> 'reduce<256>'."""
    depth = 0
    for i, ch in enumerate(d):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            d = d[:i]
            break
    d = d.strip()
    if d.endswith(">") and d.startswith("void "):
        d = d[5:]
    return d


class Stager:
    def __init__(self, opts):
        self.opts = opts
        self.tool = opts.tool
        self.tool_ok = bool(self.tool) and os.access(self.tool, os.X_OK)
        self.emit_ptx_ok = self.tool_ok
        self.demangler = find_demangler()
        self.stub_inc = os.path.join(opts.out, "stubinc")
        os.makedirs(self.stub_inc, exist_ok=True)
        for h in ("texture_fetch_functions.h", "texture_indirect_functions.h"):
            open(os.path.join(self.stub_inc, h), "a").close()

    # PTX ---------------------------------------------------------------
    def clang_cmd(self, src, out):
        return [self.opts.clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
                "-Wno-unknown-cuda-version", "--cuda-path=" + self.opts.cuda,
                "-isystem", self.stub_inc, "-O2", "-S", src, "-o", out]

    def compile_ptx(self, src, out):
        """Returns (ok, how, command)."""
        if os.path.exists(out):
            os.remove(out)
        if self.emit_ptx_ok:
            cmd = [self.tool, src, "--emit-ptx", out]
            rc, so, se = run_cmd(cmd, 300)
            if rc == 0 and ptx_entries(out):
                return True, "gmem-analyze --emit-ptx", cmd
            warn("%s: gmem-analyze --emit-ptx failed (rc=%d: %s); using clang fallback"
                 % (src, rc, last_line(se or so)))
        cmd = self.clang_cmd(src, out)
        rc, so, se = run_cmd(cmd, 300)
        if rc == 0 and os.path.exists(out):
            return True, "clang fallback", cmd
        warn("%s: PTX compile failed (rc=%d): %s" % (src, rc, last_line(se or so)))
        return False, "failed", cmd

    # static analysis --------------------------------------------------
    def static_kernels(self, src):
        """Kernel list from `gmem-analyze FILE --json`, or None."""
        if not self.tool_ok:
            return None
        rc, so, se = run_cmd([self.tool, src, "--json"], 300)
        if rc != 0:
            warn("%s: gmem-analyze --json failed (rc=%d: %s)" % (src, rc, last_line(se or so)))
            return None
        try:
            return json.loads(so).get("kernels", [])
        except ValueError as e:
            warn("%s: gmem-analyze --json printed invalid JSON (%s)" % (src, e))
            return None

    def ptx_kernels(self, ptx):
        """Kernel list (symbol, name, plain_name) from the PTX entries."""
        syms = ptx_entries(ptx)
        names = list(syms)
        if self.demangler and syms:
            rc, so, _ = run_cmd([self.demangler] + syms, 60)
            out = so.splitlines()
            if rc == 0 and len(out) == len(syms):
                names = out
        return [{"symbol": s, "name": n, "plain_name": plain_from_demangled(n),
                 "class": "none"} for s, n in zip(syms, names)]

    @staticmethod
    def match_kernel(kernels, name):
        norm = lambda s: re.sub(r"\s+", "", s or "")
        for key in ("plain_name", "name", "symbol"):
            hits = [k for k in kernels if k.get(key) == name]
            if not hits:
                hits = [k for k in kernels if norm(k.get(key)) == norm(name)]
            if hits:
                return hits[0], len(hits)
        return None, 0

    # instance mode ----------------------------------------------------
    @staticmethod
    def fake_bases(run):
        """{parameter k: fake allocation base} of the instance's buffers."""
        return {k: FAKE_BASE * (k + 1) for k, a in enumerate(run["args"]) if a["kind"] == "buf"}

    def instance_cmd(self, src, sym, run):
        args = run["args"]
        bases = self.fake_bases(run)
        cmd = [self.tool, src, "--kernel", sym,
               "--grid", ",".join(map(str, run["grid"])),
               "--block", ",".join(map(str, run["block"]))]
        for k, a in enumerate(args):
            if a["kind"] == "buf":
                cmd += ["--alloc", "0x%x:%d" % (bases[k], a["size"])]
        for k, a in enumerate(args):
            if a["kind"] == "buf":
                cmd += ["--arg", "ptr:0x%x" % bases[k]]
            elif a["kind"] == "ptr":
                b, off = resolve_ptr(args, k)
                cmd += ["--arg", "ptr:0x%x" % (bases[b] + off)]
            else:
                cmd += ["--arg", a["tool"]]
        cmd.append("--json")
        return cmd

    def predict(self, src, sym, run):
        """Returns (prediction, details dict)."""
        det = {"command": None, "rc": None, "reason": None, "conflict": None}
        if not self.tool_ok or run["error"] or not sym:
            return "none", det
        cmd = self.instance_cmd(src, sym, run)
        det["command"] = " ".join(cmd)
        rc, so, se = run_cmd(cmd, 300)
        det["rc"] = rc
        where = "%s:%d (%s)" % (src, run["line"], run["name"])
        if rc != 0:
            warn("%s: instance mode failed (rc=%d: %s); prediction none"
                 % (where, rc, last_line(se or so)))
            return "none", det
        try:
            inst = json.loads(so).get("instance") or {}
        except ValueError as e:
            warn("%s: instance mode printed invalid JSON (%s); prediction none" % (where, e))
            return "none", det
        det["reason"] = inst.get("reason")
        det["conflict"] = inst.get("conflict")
        doc = json.loads(so)
        det["write_ranges"] = write_ranges(doc, inst, sym, self.fake_bases(run))
        det["read_ranges"] = read_ranges(doc, inst, sym, self.fake_bases(run))
        idem = inst.get("idempotent")
        if idem is True:
            return "idempotent", det
        if idem is False:
            return "not-idempotent", det
        warn("%s: instance JSON has no boolean 'idempotent'; prediction none" % where)
        return "none", det


def write_ranges(doc, inst, sym, bases):
    """The runner's `wr=` field: per buffer parameter K, the byte ranges of
    the buffer the instance may write (from every pointer argument into it),
    `K:LO-HI+LO-HI`, comma separated; buffers not named may not be written.
    `-` (not checked) where the kernel writes memory it cannot attribute to
    an argument (pointers loaded from memory, inline asm) or an argument's
    allocation is not one of the fake buffers (bases: {parameter: base})."""
    return region_field(doc, inst, sym, bases, "write")


def read_ranges(doc, inst, sym, bases):
    """The runner's `rd=` field: the same as `wr=` for what the instance may
    read (`-` where the kernel reads memory it cannot attribute to an
    argument)."""
    return region_field(doc, inst, sym, bases, "read")


def region_field(doc, inst, sym, bases, kind):
    """`wr=`/`rd=` value for kind "write"/"read" (see write_ranges()).

    Ranges are clipped to their buffer and merged: the runner only looks at
    the buffer's bytes, so this changes no check, and a region the tool
    widened to the whole address space ("anything", [0, 2**64-1]) becomes
    the whole buffer instead of numbers beyond int64."""
    kern = next((k for k in doc.get("kernels", []) if k.get("symbol") == sym), None)
    if kern is None or kern.get("unknown_" + kind) is not None:
        return "-"
    if any(f.get(kind) for f in inst.get("fields") or []):
        return "-"
    param_of = {base: k for k, base in bases.items()}
    ranges = {k: [] for k in bases}
    for a in inst.get("args") or []:
        if not a.get(kind):
            continue
        alloc = a.get("alloc") or {}
        base, size = alloc.get("base"), alloc.get("size")
        if base not in param_of or not isinstance(size, int):
            return "-"
        ranges[param_of[base]] += [(max(lo - base, 0), min(hi - base, size))
                                   for lo, hi in a[kind]]
    fields = []
    for k, rs in sorted(ranges.items()):
        merged = []
        for lo, hi in sorted(r for r in rs if r[0] < r[1]):
            if merged and lo <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        if merged:
            fields.append("%d:%s" % (k, "+".join("%d-%d" % tuple(r) for r in merged)))
    return ",".join(fields) or "none"


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
            if r["error"]:
                # keep the bad grid/block text so the runner reports the problem
                fields[3] = "grid=" + clean_value(r["grid_text"])
                fields[4] = "block=" + clean_value(r["block_text"])
            fields.append("args=" + " ".join(r["tokens"]))
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
