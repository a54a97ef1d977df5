#!/usr/bin/env python3
"""Medians per configuration of launch_path.jsonl (bench/colocation/diag)."""
import gzip
import json
import statistics
import sys
from collections import defaultdict


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * len(v)))] if v else float("nan")


runs = defaultdict(list)
# Committed results are gzipped (results/diag/*.jsonl.gz).
opener = gzip.open if sys.argv[1].endswith(".gz") else open
for line in opener(sys.argv[1], "rt"):
    if line.strip():
        r = json.loads(line)
        runs[r["label"]].append(r)
print("| config | runs | latency P50 / P99 us | host issue P50 us | longest call P50 us | "
      "first kernel P50 us | other 19 P50 us | began late P99 us | training kernels/s | "
      "drain P50 / P99 us | checks |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
def drain(rs):
    """Median over runs of the scheduler's drain P50 / P99 (runs that preempted)."""
    d = [r["sched"] for r in rs if r.get("sched", {}).get("drain_samples")]
    if not d:
        return "-"
    return "%.1f / %.1f" % (statistics.median(x["drain_us_p50"] for x in d),
                            statistics.median(x["drain_us_p99"] for x in d))


for lab, rs in runs.items():
    def med(key, p=0.5):
        return statistics.median(pct(r.get(key, []), p) for r in rs)
    print(f"| {lab} | {len(rs)} | {med('latency_us'):.1f} / {med('latency_us', 0.99):.1f} | "
          f"{med('host_issue_us'):.1f} | {med('host_max_call_us'):.1f} | "
          f"{med('first_kernel_us'):.1f} | {med('other_kernels_us'):.1f} | "
          f"{med('start_late_us', 0.99):.1f} | "
          f"{statistics.median(r.get('be_rate', 0) for r in rs):.2f} | "
          f"{drain(rs)} | "
          f"{','.join(sorted(set(r.get('check', '?') for r in rs)))} |")
