#!/usr/bin/env python3
"""Session 38: the runtime's stop probes against part stops, per kernel.

    python3 calibrate_table.py DIR [SCALE]   (DIR: an unpacked calibrate.tgz;
                                              probes at SCALE, default 1)

For each kernel of the scaled manifest: the part-stops after-write P50 / P99
of the form libgmemrt ran it in, for each way of stopping (queued or direct
write; stops 5-85% or 30-60% into the run), and the probes' drains from the
GMEM_LOG=sched runs (after the request landed; after the stop was issued).
"""
import glob
import gzip
import json
import os
import re
import statistics
import sys


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        return json.load(f)


def pct(v, p):
    v = sorted(v)
    if not v:
        return float("nan")
    k = (len(v) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def instances(doc):
    for key in ("items", "instances", "results"):
        if isinstance(doc, dict) and key in doc:
            return doc[key]
    return doc if isinstance(doc, list) else []


PROBE = re.compile(r"kernel (\S+) shape (\S+): scale (\d) stop probe drained ([\d.]+) us after its "
                   r"request(?: \(([-\d.]+) us after its issue\))?")
DECIDE = re.compile(r"kernel (\S+) shape (\S+): (\w+) launch #\d+ took .*; \w+ -> (\w+), spread (\d+)")


def main():
    d = sys.argv[1]
    scale = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    stops = {}
    for name in ("q_full", "q_mid", "d_full", "d_mid"):
        path = next(iter(glob.glob(os.path.join(d, f"stops_{name}.json*"))), None)
        if not path:
            continue
        for inst in instances(load(path)):
            for form in inst.get("forms", []):
                s = form.get("after_write_samples_us") or []
                stops.setdefault(inst["symbol"], {}).setdefault(form["form"], {})[name] = s
    probes, forms = {}, {}
    for path in sorted(glob.glob(os.path.join(d, "asl_log_r*.log*"))):
        op = gzip.open if path.endswith(".gz") else open
        with op(path, "rt", errors="replace") as f:
            for line in f:
                m = DECIDE.search(line)
                if m:
                    forms[m.group(1)] = m.group(4)
                m = PROBE.search(line)
                if m and int(m.group(3)) == scale:
                    probes.setdefault(m.group(1), []).append(
                        (forms.get(m.group(1), "?"), float(m.group(4)), float(m.group(5) or "nan")))
    print("| kernel | form | queued 5-85% | queued 30-60% | direct 5-85% | direct 30-60% |"
          " probes after request | after issue |")
    print("|---|---|---|---|---|---|---|---|")
    for sym in sorted(probes):
        pr = probes.get(sym, [])
        form = statistics.mode([p[0] for p in pr]) if pr else "full"
        row = stops.get(sym, {}).get(form, {})
        cells = []
        for name in ("q_full", "q_mid", "d_full", "d_mid"):
            s = row.get(name, [])
            cells.append(f"{pct(s, 50):.1f} / {pct(s, 99):.1f} ({len(s)})" if s else "-")
        req = " ".join(f"{p[1]:.1f}" for p in pr)
        iss = " ".join(f"{p[2]:.1f}" for p in pr)
        short = re.sub(r"^_Z\d+", "", sym)[:22]
        print(f"| {short} | {form} | " + " | ".join(cells) + f" | {req or '-'} | {iss or '-'} |")


if __name__ == "__main__":
    main()
