#!/usr/bin/env python3
"""Per-form overheads of several `preempt_bench overhead` results side by side:
full clone, alternate full clone, barrier-free clone, light twin, and the form
the as-launched rule took (`overhead_chosen`), one cell per run ("a/b").
Ends with each run's as-launched geomean and max.

    compare_forms.py LABEL=overhead.json [LABEL=overhead.json ...] [--changed PCT] [--spread]

--changed PCT: only kernels where some form moved by more than PCT points
between the first and the last run.
--spread: also each form at 4x its resident CTAs (the `sall_<form>_overhead`
fields of a run with PB_SPREAD_ALL=1; "-" where a run has none).
"""
import argparse
import json
import math
import sys

FORMS = [("full", "overhead"), ("alt", "overhead_alt"), ("free", "overhead_free"),
         ("light", "overhead_light"), ("launched", "overhead_chosen")]
SPREAD_FORMS = [("4x " + f, "sall_%s_overhead" % f) for f in ("full", "alt", "free", "light")]


def load(path):
    with open(path) as f:
        return {i["name"]: i for i in json.load(f)["items"] if "name" in i}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+", help="LABEL=overhead.json")
    ap.add_argument("--changed", type=float, default=None)
    ap.add_argument("--spread", action="store_true")
    a = ap.parse_args()
    forms = FORMS + (SPREAD_FORMS if a.spread else [])
    runs = []
    for r in a.runs:
        if "=" not in r:
            sys.exit("compare_forms.py: expected LABEL=overhead.json, got %r" % r)
        label, path = r.split("=", 1)
        try:
            runs.append((label, load(path)))
        except (OSError, ValueError, KeyError) as e:
            sys.exit("compare_forms.py: cannot read %s: %s" % (path, e))
    print("%-40s" % ("kernel (" + "/".join(l for l, _ in runs) + ")") +
          "".join("%20s" % f for f, _ in forms))
    for name in runs[0][1]:
        cells, moved = [], 0.0
        for _, key in forms:
            vals = [d.get(name, {}).get(key) for _, d in runs]
            cells.append("/".join("-" if v is None else "%+.1f" % (100 * v) for v in vals))
            if vals[0] is not None and vals[-1] is not None:
                moved = max(moved, abs(100 * (vals[-1] - vals[0])))
        if a.changed is None or moved > a.changed:
            print("%-40s" % name[:40] + "".join("%20s" % c for c in cells))
    for label, d in runs:
        logs = [math.log1p(i["overhead_chosen"]) for i in d.values() if "overhead_chosen" in i]
        if logs:
            print("%s: as launched geomean %+.2f%%, max %+.1f%% (%d kernels)" %
                  (label, 100 * (math.exp(sum(logs) / len(logs)) - 1),
                   100 * (math.exp(max(logs)) - 1), len(logs)))


if __name__ == "__main__":
    main()
