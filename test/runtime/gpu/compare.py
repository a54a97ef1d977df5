#!/usr/bin/env python3
"""Exact offline check of the GPU suite's decisions (test/runtime/gpu).

gpu_host prints, for every launch, a LAUNCH line with the real device
addresses, the allocations libgmemrt resolved (cuMemGetAddressRange) and the
decision it recorded. This replays each one through gmem-analyze's instance
mode on the same IR (.stage/runtime/ll/F.ll) with those real addresses and
allocations, and compares everything: idempotent, conflict owners, conflict
byte range, and every pointer argument's read/write hull (absolute).

    python3 test/runtime/gpu/compare.py HOST_OUTPUT.txt [--build-dir BUILD]

Exit status 0 when every launch agrees. Python 3 standard library only.
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
U64_MAX = (1 << 64) - 1
READS, WRITES = 0x2, 0x4


def parse(line):
    head, _, args = line.partition(" args=")
    f = {}
    toks = head.split()
    name = toks[1]
    for t in toks[2:]:
        k, _, v = t.partition("=")
        f[k] = v
    return name, f, args.split()


def check(analyze, name, f, args):
    stem = name.split(":")[0][:-3]
    ll = os.path.join(REPO, ".stage", "runtime", "ll", stem + ".ll")
    cmd = [analyze, ll, "--kernel", f["sym"], "--grid", f["grid"], "--block", f["block"], "--json"]
    allocs = sorted({a for a in f.get("allocs", "").split(",") if a})
    for a in allocs:
        cmd += ["--alloc", a]
    for a in args:
        cmd += ["--arg", a]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return "gmem-analyze failed: " + r.stderr.strip()[-300:]
    inst = json.loads(r.stdout)["instance"]
    diffs = []
    if int(f["idem"]) != (1 if inst["idempotent"] else 0):
        diffs.append("idempotent %s vs %s" % (f["idem"], inst["idempotent"]))
    c = inst.get("conflict")
    want = "%d,%d" % (c["read_arg"], c["write_arg"]) if c else "none"
    if f["conflict"] != want:
        diffs.append("conflict %s vs %s" % (f["conflict"], want))
    elif c:
        lo, hi = (int(x) for x in f["clash"].split(":"))
        if (lo, hi) != (c["lo"], min(c["hi"], U64_MAX)):
            diffs.append("conflict range %x:%x vs %x:%x" % (lo, hi, c["lo"], c["hi"]))
    expect = {}
    for a in inst["args"]:
        rd = [min(x[0] for x in a["read"]), max(x[1] for x in a["read"])] if a["read"] else None
        wr = [min(x[0] for x in a["write"]), max(x[1] for x in a["write"])] if a["write"] else None
        expect[a["index"]] = (rd, wr)
    for p in f.get("ptrs", "").split(";"):
        if not p:
            continue
        idx, _ptr, flags, rlo, rhi, wlo, whi = p.split(":")
        idx, flags = int(idx), int(flags)
        got = ([int(rlo), int(rhi)] if flags & READS else None, [int(wlo), int(whi)] if flags & WRITES else None)
        exp = expect.get(idx, (None, None))
        if got != tuple(exp):
            diffs.append("param %d: %s vs %s" % (idx, got, exp))
    return "; ".join(diffs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("output")
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    o = ap.parse_args()
    analyze = os.path.join(o.build_dir, "bin", "gmem-analyze")
    launches = [parse(l.rstrip("\n")) for l in open(o.output) if l.startswith("LAUNCH ")]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        results = list(ex.map(lambda x: (x[0], check(analyze, *x)), launches))
    bad = [(n, d) for n, d in results if d]
    for n, d in bad:
        print("DIFF %s: %s" % (n, d))
    print("%d launches compared exactly with gmem-analyze (real addresses): %d agree, %d differ"
          % (len(results), len(results) - len(bad), len(bad)))
    return 1 if bad or not results else 0


if __name__ == "__main__":
    sys.exit(main())
