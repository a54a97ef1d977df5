#!/usr/bin/env python3
"""Side-by-side metrics of the kernels in ncu `--page details --csv` files
(bench/preempt/profile_on_device.sh): duration, registers, occupancy, issue
efficiency, branches.

    python3 bench/preempt/ncu_summary.py OUT/ncu/*.details.csv
"""
import collections
import csv
import sys

METRICS = ["Duration", "Registers Per Thread", "Theoretical Occupancy", "Achieved Occupancy",
           "Warp Cycles Per Issued Instruction", "SM Active Cycles", "Memory Throughput",
           "Branch Instructions", "Avg. Divergent Branches", "Grid Size", "L1/TEX Hit Rate",
           "L2 Hit Rate", "DRAM Throughput", "Executed Instructions"]


def summarise(path):
    rows = list(csv.reader(open(path)))
    if not rows or rows[0][:1] != ["ID"]:
        print("%s: not an ncu details CSV" % path)
        return
    head = {k: i for i, k in enumerate(rows[0])}
    per, names = collections.OrderedDict(), {}
    for r in rows[1:]:
        if len(r) <= head["Metric Value"]:
            continue  # ncu leaves the rule columns off rows without a rule
        unit = r[head["Metric Unit"]]
        value = r[head["Metric Value"]] + (" " + unit if unit and unit != "%" else unit)
        per.setdefault(r[0], {})[r[head["Metric Name"]]] = value
        names[r[0]] = r[head["Kernel Name"]].split("(")[0][:28]
    print("== %s" % path)
    print("%-36s %s" % ("", " | ".join("%-28s" % names[i] for i in per)))
    for m in METRICS:
        print("%-36s %s" % (m, " | ".join("%-28s" % per[i].get(m, "-") for i in per)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        summarise(p)
