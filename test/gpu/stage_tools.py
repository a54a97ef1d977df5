"""The tools test/gpu/stage.py runs: PTX from gmem-analyze --emit-ptx or
clang, kernel lists from gmem-analyze --json or the PTX (demangled), and
instance-mode predictions with the manifest's wr=/rd= byte ranges (class
Stager).

Python 3 standard library only.
"""

import json
import os
import re
import shutil
import subprocess

from stage_corpus import resolve_ptr, warn

FAKE_BASE = 0x100000000


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
            elif a["kind"] == "null":
                cmd += ["--arg", "ptr:0x0"]
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
