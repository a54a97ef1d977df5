#!/usr/bin/env python3
"""Tables and checks for the prefetch benchmarks (bench/prefetch).

    python3 bench/prefetch/summarize.py prefetch.jsonl [--log run.log]
        [--out RESULTS.md] [--checks checks.txt]

Reads the JSON lines the programs wrote (run_on_device.sh: $OUT/prefetch.jsonl)
and prints one line per check:

  PASS/FAIL stream-checksums    every kernel and size: equal output checksums
                                in all modes (uvm, gmem, manual, pinned)
  PASS/FAIL stream-faults-gmem  no GPU page fault under gmem (CUPTI), while
                                uvm mode shows faults (the counter works)
  PASS/FAIL apps-checksums      every workload: equal checksums in every arm
                                and ratio, with and without libgmemrt
  PASS/FAIL apps-budget         libgmemrt's peak resident bytes <= budget
  PASS/FAIL apps-device-memory  device memory used (sampled) <= budget + slack
  PASS/FAIL steps               no step of the run failed or timed out
  GOAL met/missed ...           the targets (>= 4x at 1.5x, <= 0.3 us)

then writes the tables to --out. Exit status 1 if a check failed (or data is
missing), 0 otherwise. Python 3 standard library only.
"""

import argparse
import collections
import json
import math
import os
import re
import statistics
import sys

GIB = 2**30
DEVICE_SLACK = 64 * 2**20  # sampled device memory may exceed the budget by this much...
DEVICE_SLACK_FRAC = 0.02   # ...plus this fraction of the budget (driver and UVM bookkeeping)
MODES = ["uvm", "gmem", "manual", "pinned"]
EXTRA_MODES = ["gmem_whole"]  # only for some kernels (stencil3d: GMEM_PREFETCH_UNBOUNDED=whole)


NOTES = [
    "* **Streaming (part 1).** Every buffer of the kernel, the output too, is filled by the host; before each "
    "timed repetition (untimed) all of them go back to the host (`cudaMemPrefetchAsync` to the CPU) and the host "
    "reads every page, so all pages start on the CPU and must reach the GPU: the footprint is the bytes that had "
    "to move. Time runs "
    "from the first call (the launch; the first `cudaMemPrefetchAsync` in manual mode; the first `cudaMemcpyAsync` "
    "in pinned mode) to the end of `cudaDeviceSynchronize`. The pinned mode copies only the inputs (its output "
    "lives in `cudaMalloc` memory and is overwritten), so its effective bandwidth, footprint over time, is above "
    "the PCIe copy rate: it is the limit of what a program with explicit copies gets, not a copy rate. "
    "libgmemrt treats data it made resident as possibly stale after a host synchronisation "
    "(`GMEM_PREFETCH_TRUST=0`, the default), so every gmem repetition prefetches again.",
    "* **Fault counts** come from a separate run with CUPTI's unified-memory counters "
    "(`CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER`, one repetition per size), because collecting them slows "
    "demand paging about twofold; the timed runs carry no CUPTI. \"GPU faults\" sums the records' values "
    "(fault groups per page); HtoD bytes are split by migration cause (USER = prefetch, COHERENCE = fault). "
    "A kernel whose read or write region is not bounded at a launch (`regions exact: no`) is left to demand "
    "paging by default (`GMEM_PREFETCH_UNBOUNDED=demand`); the last column reruns it with `=whole`.",
    "* **Oversubscription (part 2).** Each workload is sized to the footprint F and launched in pieces that "
    "touch about F/8 each (row panels of the matrix kernels, bands of the 2D ones, one plane per 3dconv launch, "
    "one row per pathfinder launch), so every launch fits the smallest budget (F/2). Repetition 0 starts with "
    "every page on the host (cold); the warm repetitions start from what the previous one left. Budget B = F/ratio "
    "via `GMEM_DEVICE_BUDGET` in both arms. The baseline arm (GMEM_PREFETCH=0 + the budget) is **optimistic for "
    "UVM**: libgmemrt evicts between launches so that demand paging never has to evict inside a kernel, and no "
    "launch's working set exceeds the budget; a program on a really full GPU would also thrash inside kernels. "
    "The card is never really oversubscribed (at most a few GiB of managed memory on a 141 GB H200).",
    "* **Budget check.** `peak_resident_bytes` is libgmemrt's own accounting (process-wide peak); the device "
    "memory column is `cudaMemGetInfo` sampled every 2 ms from a thread during the workload, minus the value "
    "before its allocation (so it includes anything else allocated meanwhile, such as driver bookkeeping).",
    "* **Launch cost (part 4).** `pf_launch`: a 1-block kernel over three 1 MiB managed buffers made resident "
    "beforehand; the host time of the launch call, 20 000 launches per variant in batches of 1 000 separated by "
    "an untimed synchronisation (the first launch of each batch is reported apart: after a synchronisation "
    "libgmemrt re-prefetches). Processes pinned to one core; three rounds alternated; medians over rounds.",
    "* P99 is the nearest-rank 99th percentile; with a handful of repetitions it is the slowest one.",
    "",
]


def load(path):
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                print("warning: %s:%d: bad JSON (%s)" % (path, n, e), file=sys.stderr)
    return rows


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else float("nan")


def geomean(xs):
    xs = [x for x in xs if x and x > 0 and math.isfinite(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def fmt(x, spec=".2f"):
    return "n/a" if x is None or (isinstance(x, float) and not math.isfinite(x)) else format(x, spec)


class Checks:
    def __init__(self):
        self.lines, self.failed = [], False

    def add(self, ok, name, detail):
        self.lines.append("%s %s: %s" % ("PASS" if ok else "FAIL", name, detail))
        self.failed |= not ok

    def goal(self, ok, name, detail):
        self.lines.append("GOAL %s %s: %s" % ("met" if ok else "missed", name, detail))


def launch_section(rows, md, checks):
    launch = [r for r in rows if r.get("bench") == "launch"]
    if not launch:
        md.append("No launch-cost data.\n")
        return
    by = collections.defaultdict(list)
    for r in launch:
        by[(r["label"], r["variant"])].append(r)
    md.append("| configuration | variant | rounds | median ns | P99 ns | mean ns | first launch after a sync, ns |")
    md.append("|---|---|---|---|---|---|---|")
    stat = {}
    for (label, variant), rs in sorted(by.items()):
        m, p, mean = med([r["median_ns"] for r in rs]), med([r["p99_ns"] for r in rs]), med([r["mean_ns"] for r in rs])
        stat[(label, variant)] = (m, p)
        md.append("| %s | %s | %d | %.0f | %.0f | %.0f | %.0f |" % (
            label, variant, len(rs), m, p, mean, med([r["first_after_sync_median_ns"] for r in rs])))
    md.append("")
    md.append("Extra cost of the prefetch decision (GMEM_PREFETCH=1 minus GMEM_PREFETCH=0, medians over rounds):\n")
    for variant in ("same", "vary"):
        a, b = stat.get(("gmem-prefetch1", variant)), stat.get(("gmem-prefetch0", variant))
        if not a or not b:
            continue
        dm, dp = a[0] - b[0], a[1] - b[1]
        md.append("* %s arguments: median %+.0f ns, P99 %+.0f ns" % (variant, dm, dp))
        checks.goal(dm <= 300, "launch-extra-%s" % variant, "prefetch decision adds %+.0f ns median, %+.0f ns P99 "
                    "per launch with resident data (goal <= 300 ns)" % (dm, dp))
    md.append("")


def stream_section(rows, md, checks):
    timed = [r for r in rows if r.get("bench") == "stream" and "gpu_faults" not in r]
    counted = [r for r in rows if r.get("bench") == "stream" and "gpu_faults" in r]
    if not timed and not counted:
        md.append("No streaming data.\n")
        checks.add(False, "stream-checksums", "no data")
        return
    key = lambda r: (r["kernel"], r["size_gib"])
    t = {(key(r), r["mode"]): r for r in timed}
    c = {(key(r), r["mode"]): r for r in counted}
    keys = sorted({key(r) for r in timed + counted}, key=lambda k: (k[0], k[1]))
    md.append("Effective bandwidth = footprint (every byte of the kernel's buffers, all of which start on the host) "
              "/ wall time from the first call (launch, prefetch or copy) to completion. Median and P99 over the "
              "repetitions (P99 = the slowest with this few).\n")
    md.append("| kernel | GiB | uvm GB/s | gmem GB/s | gmem rep. 0 GB/s | manual GB/s | pinned GB/s | gmem/uvm | "
              "gmem rep. 0/uvm | gmem/pinned | gmem prefetched, % of F per rep. | gmem ms (P99) | uvm ms (P99) | "
              "GPU faults uvm / gmem / manual | gmem regions exact | gmem, unbounded=whole: GB/s, faults |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    mismatches, missing, gmem_faults, uvm_no_faults, inexact_faults = [], [], [], [], []
    speedups, speedups0 = [], []
    for k in keys:
        row = {m: t.get((k, m)) for m in MODES}
        bw = {m: (row[m]["footprint_bytes"] / row[m]["median_s"] / 1e9 if row[m] else None) for m in MODES}
        faults = {m: (c[(k, m)]["gpu_faults"] if (k, m) in c else None) for m in MODES}
        g = row["gmem"]
        bw0 = g["footprint_bytes"] / g["times_s"][0] / 1e9 if g and g.get("times_s") else None
        ratio_0 = bw0 / bw["uvm"] if bw0 and bw["uvm"] else None
        pf_share = (100.0 * g["gmem_prefetched_bytes"] / (g["footprint_bytes"] * g["reps"])
                    if g and "gmem_prefetched_bytes" in g and g.get("reps") else None)
        ratio_u = bw["gmem"] / bw["uvm"] if bw["gmem"] and bw["uvm"] else None
        ratio_p = bw["gmem"] / bw["pinned"] if bw["gmem"] and bw["pinned"] else None
        if ratio_u:
            speedups.append(ratio_u)
        if ratio_0:
            speedups0.append(ratio_0)
        md.append("| %s | %g | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s (%s) | %s (%s) | %s / %s / %s | %s | %s |" % (
            k[0], k[1], fmt(bw["uvm"], ".1f"), fmt(bw["gmem"], ".1f"), fmt(bw0, ".1f"), fmt(bw["manual"], ".1f"),
            fmt(bw["pinned"], ".1f"), fmt(ratio_u, ".2f") + "x" if ratio_u else "n/a",
            fmt(ratio_0, ".2f") + "x" if ratio_0 else "n/a", fmt(ratio_p, ".2f") if ratio_p else "n/a",
            fmt(pf_share, ".0f"),
            fmt(row["gmem"]["median_s"] * 1e3 if row["gmem"] else None, ".1f"),
            fmt(row["gmem"]["p99_s"] * 1e3 if row["gmem"] else None, ".1f"),
            fmt(row["uvm"]["median_s"] * 1e3 if row["uvm"] else None, ".1f"),
            fmt(row["uvm"]["p99_s"] * 1e3 if row["uvm"] else None, ".1f"),
            *(str(faults[m]) if faults[m] is not None else "-" for m in ("uvm", "gmem", "manual")),
            {1: "yes", 0: "no"}.get(row["gmem"].get("regions_exact") if row["gmem"] else None, "-"),
            "%s, %s" % (fmt(t[(k, "gmem_whole")]["footprint_bytes"] / t[(k, "gmem_whole")]["median_s"] / 1e9, ".1f"),
                        c[(k, "gmem_whole")]["gpu_faults"] if (k, "gmem_whole") in c else "-")
            if (k, "gmem_whole") in t else "-"))
        sums = {}
        for src in (t, c):
            for m in MODES + EXTRA_MODES:
                if (k, m) in src:
                    sums.setdefault(src[(k, m)]["checksum"], []).append(m)
        if len(sums) > 1:
            mismatches.append("%s %g GiB: %s" % (k[0], k[1], sums))
        have = {m for m in MODES if (k, m) in t}
        if (k, "uvm") in t and have != set(MODES):
            missing.append("%s %g GiB lacks %s" % (k[0], k[1], ",".join(sorted(set(MODES) - have))))
        if faults["gmem"]:
            exact = c[(k, "gmem")].get("regions_exact") == 1
            (gmem_faults if exact else inexact_faults).append("%s %g GiB: %d" % (k[0], k[1], faults["gmem"]))
        if faults["uvm"] == 0:
            uvm_no_faults.append("%s %g GiB" % k)
    md.append("")
    if speedups:
        md.append("gmem/uvm over all kernels and sizes: geometric mean %.2fx (min %.2fx, max %.2fx); first "
                  "repetition only (gmem rep. 0): %.2fx (min %.2fx, max %.2fx). \"gmem prefetched\" below 100%% "
                  "means libgmemrt skipped bytes it wrongly believed resident after the host touched them "
                  "(the following repetitions then run on demand paging).\n" % (
                      geomean(speedups), min(speedups), max(speedups), geomean(speedups0),
                      min(speedups0 or [0]), max(speedups0 or [0])))
    fault_rows = [r for r in counted]
    if fault_rows:
        md.append("Unified-memory counters of the counted repetition (CUPTI; HtoD by cause: prefetch = "
                  "cudaMemPrefetchAsync/libgmemrt, fault = demand paging):\n")
        md.append("| kernel | GiB | mode | GPU faults (records) | HtoD MiB | by prefetch | by fault | DtoH MiB | dropped |")
        md.append("|---|---|---|---|---|---|---|---|---|")
        for r in sorted(fault_rows, key=lambda r: (r["kernel"], r["size_gib"], (MODES + EXTRA_MODES).index(r["mode"]))):
            md.append("| %s | %g | %s | %d (%d) | %.0f | %.0f | %.0f | %.0f | %d |" % (
                r["kernel"], r["size_gib"], r["mode"], r["gpu_faults"], r["gpu_fault_records"],
                r["htod_bytes"] / 2**20, r["htod_prefetch_bytes"] / 2**20, r["htod_fault_bytes"] / 2**20,
                r["dtoh_bytes"] / 2**20, r.get("cupti_dropped", 0)))
        md.append("")
    checks.add(not mismatches and not missing and bool(timed), "stream-checksums",
               "%d kernel/size pairs, modes %s" % (len(keys), ",".join(MODES)) if not mismatches and not missing
               else "; ".join(mismatches + missing) or "no timed data")
    counted_gmem = [r for r in counted if r["mode"] == "gmem"]
    if not counted_gmem:
        checks.add(False, "stream-faults-gmem", "no fault counts for gmem (CUPTI step missing or failed)")
        return
    problems = []
    if gmem_faults:
        problems.append("GPU page faults under gmem: " + ", ".join(gmem_faults))
    if uvm_no_faults:
        problems.append("uvm shows no faults (counter broken?): " + ", ".join(uvm_no_faults))
    uvm_faults = ", ".join(str(r["gpu_faults"]) for r in counted if r["mode"] == "uvm")
    exact_n = sum(1 for r in counted_gmem if r.get("regions_exact") == 1)
    checks.add(not problems and exact_n > 0, "stream-faults-gmem", "; ".join(problems) if problems else
               "0 GPU page faults under gmem in the %d counted runs with exact regions (uvm: %s)" % (
                   exact_n, uvm_faults) if exact_n else "no counted gmem run with exact regions")
    if inexact_faults:
        checks.lines.append("INFO stream-faults-gmem-inexact: faults where the regions are not exact (left to "
                            "demand paging): " + ", ".join(inexact_faults))


def apps_section(rows, md, checks):
    apps = [r for r in rows if r.get("bench") == "apps" and "gpu_faults" not in r]
    if not apps:
        md.append("No oversubscription data.\n")
        checks.add(False, "apps-checksums", "no data")
        return
    names = list(dict.fromkeys(r["app"] for r in apps))
    ratios = sorted({r["ratio"] for r in apps if r["arm"] in ("gmem", "baseline")})
    get = {(r["app"], r["arm"], r["ratio"]): r for r in apps}
    md.append("Time per repetition, warm (median of repetitions 1..N-1; repetition 0, which starts with every "
              "page on the host, is the cold column), normalised to the unconstrained gmem run (libgmemrt, "
              "prefetch on, no budget). Budget B = F / ratio through GMEM_DEVICE_BUDGET in both arms: gmem = "
              "prefetch + budget, baseline = GMEM_PREFETCH=0 + budget (libgmemrt evicts to keep the budget, "
              "data comes back by demand paging). **This baseline is optimistic for UVM**: a real device limit "
              "would also make kernels whose working set exceeds it thrash inside the kernel, which the runtime's "
              "budget never does here (every launch touches about F/8).\n")
    hdr = "| workload | F GiB | unconstrained warm ms | uvm warm ms |" + "".join(
        " %.2fx gmem / base / speedup |" % q for q in ratios)
    md.append(hdr)
    md.append("|---|---|---|---|" + "---|" * len(ratios))
    per_ratio = collections.defaultdict(list)
    for a in names:
        u = get.get((a, "unconstrained", 0.0)) or get.get((a, "unconstrained", 0))
        plain = get.get((a, "uvm", 0.0)) or get.get((a, "uvm", 0))
        base_t = u["warm_median_s"] if u else None
        cells = []
        for q in ratios:
            g, b = get.get((a, "gmem", q)), get.get((a, "baseline", q))
            gn = g["warm_median_s"] / base_t if g and base_t else None
            bn = b["warm_median_s"] / base_t if b and base_t else None
            sp = b["warm_median_s"] / g["warm_median_s"] if g and b else None
            fits = bool(g and q > 1 and g["footprint_bytes"] <= g.get("budget_bytes", 0))
            if sp and not fits:
                per_ratio[q].append(sp)
            cells.append(" %s / %s / %s%s |" % (fmt(gn), fmt(bn), fmt(sp) + "x" if sp else "n/a",
                                                " (F <= B: fits)" if fits else ""))
        f = next((r["footprint_bytes"] for r in apps if r["app"] == a), 0) / GIB
        md.append("| %s | %.2f | %s | %s |%s" % (a, f, fmt(base_t * 1e3 if base_t else None, ".1f"),
                                                fmt(plain["warm_median_s"] * 1e3 if plain else None, ".1f"),
                                                "".join(cells)))
    md.append("")
    md.append("First touch without a budget (cold repetition: every page starts on the host), plain UVM vs "
              "libgmemrt:\n")
    md.append("| workload | uvm cold ms | gmem cold ms | speedup |")
    md.append("|---|---|---|---|")
    cold = []
    for a in names:
        u = get.get((a, "unconstrained", 0))
        plain = get.get((a, "uvm", 0))
        if u and plain:
            cold.append(plain["cold_s"] / u["cold_s"])
            md.append("| %s | %.1f | %.1f | %.2fx |" % (a, plain["cold_s"] * 1e3, u["cold_s"] * 1e3, cold[-1]))
    if cold:
        md.append("| geometric mean | | | %.2fx |" % geomean(cold))
    md.append("")
    md.append("Speedup of the gmem arm over the baseline arm (warm medians; runs whose footprint fits the "
              "budget, marked \"F <= B\" above, are left out):\n")
    md.append("| ratio | speedup gmem vs baseline, geometric mean | min | max |")
    md.append("|---|---|---|---|")
    for q in ratios:
        s = per_ratio[q]
        md.append("| %.2f | %s | %s | %s |" % (q, fmt(geomean(s)) + "x", fmt(min(s) if s else None) + "x",
                                               fmt(max(s) if s else None) + "x"))
        if abs(q - 1.5) < 1e-9 and s:
            checks.goal(geomean(s) >= 4, "apps-speedup-1.5x", "geometric mean %.2fx gmem vs baseline at ratio 1.5 "
                        "(goal >= 4x; per workload %s)" % (geomean(s), ", ".join("%.1f" % x for x in s)))
    md.append("")
    md.append("Cold repetition (data starts on the host), ms, and P99 of the warm repetitions:\n")
    md.append("| workload | arm | ratio | cold ms | warm median ms | warm P99 ms | prefetched GiB | evicted GiB | "
              "peak resident GiB | budget GiB | device used peak +GiB |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|")
    budget_bad, device_bad, sum_bad = [], [], []
    budget_n = 0
    for a in names:
        rs = [r for r in apps if r["app"] == a]
        for r in sorted(rs, key=lambda r: (r["arm"], r["ratio"])):
            md.append("| %s | %s | %g | %.1f | %.1f | %.1f | %s | %s | %s | %s | %.2f |" % (
                a, r["arm"], r["ratio"], r["cold_s"] * 1e3, r["warm_median_s"] * 1e3, r["warm_p99_s"] * 1e3,
                fmt(r.get("gmem_prefetched_bytes", 0) / GIB) if "gmem_prefetched_bytes" in r else "-",
                fmt(r.get("gmem_evicted_bytes", 0) / GIB) if "gmem_evicted_bytes" in r else "-",
                fmt(r["peak_resident_bytes"] / GIB) if "peak_resident_bytes" in r else "-",
                fmt(r["budget_bytes"] / GIB) if r.get("budget_bytes") else "-",
                r["device_used_peak_delta"] / GIB))
            b = r.get("budget_bytes", 0)
            if b and r["arm"] in ("gmem", "baseline"):
                budget_n += 1
                if r.get("peak_resident_bytes", 0) > b:
                    budget_bad.append("%s %s %g: peak resident %.3f GiB > budget %.3f GiB" % (
                        a, r["arm"], r["ratio"], r["peak_resident_bytes"] / GIB, b / GIB))
                if r["device_used_peak_delta"] > b + DEVICE_SLACK + DEVICE_SLACK_FRAC * b:
                    device_bad.append("%s %s %g: device used +%.3f GiB > budget %.3f GiB" % (
                        a, r["arm"], r["ratio"], r["device_used_peak_delta"] / GIB, b / GIB))
        sums = collections.defaultdict(list)
        for r in rs:
            sums[r["checksums"]].append("%s@%g" % (r["arm"], r["ratio"]))
        if len(sums) > 1:
            sum_bad.append("%s: %s" % (a, dict(sums)))
        elif not any(r["arm"] == "uvm" for r in rs):
            sum_bad.append("%s: no run without libgmemrt to compare with" % a)
    md.append("")
    checks.add(not sum_bad, "apps-checksums", "%d workloads equal in every arm and ratio (%d runs)" % (
        len(names), len(apps)) if not sum_bad else "; ".join(sum_bad))
    checks.add(not budget_bad and budget_n > 0, "apps-budget", "peak resident <= budget in %d budgeted runs" % budget_n
               if not budget_bad and budget_n else "; ".join(budget_bad) or "no budgeted run")
    detail = ("sampled device memory <= budget + %d MiB + %.0f%% in %d budgeted runs" % (
        DEVICE_SLACK >> 20, DEVICE_SLACK_FRAC * 100, budget_n) if not device_bad and budget_n else
        "%d of %d budgeted runs above the budget (first: %s)" % (len(device_bad), budget_n, device_bad[0])
        if device_bad else "no budgeted run")
    if os.environ.get("PF_DEVICE_MEMORY_CHECK", "fail") == "info":
        checks.lines.append("INFO apps-device-memory: " + detail)
    else:
        checks.add(not device_bad and budget_n > 0, "apps-device-memory", detail)


def apps_faults_section(rows, md, checks):
    counted = [r for r in rows if r.get("bench") == "apps" and "gpu_faults" in r]
    if not counted:
        md.append("No fault counts under a budget.\n")
        return
    md.append("Unified-memory counters over a cold and a warm repetition under the budget (CUPTI, a separate run):\n")
    md.append("| workload | arm | ratio | GPU faults (records) | HtoD GiB | by prefetch | by fault | DtoH GiB | "
              "warm ms (with CUPTI) |")
    md.append("|---|---|---|---|---|---|---|---|---|")
    gmem_faults = []
    for r in sorted(counted, key=lambda r: (r["app"], r["arm"])):
        md.append("| %s | %s | %g | %d (%d) | %.2f | %.2f | %.2f | %.2f | %.1f |" % (
            r["app"], r["arm"], r["ratio"], r["gpu_faults"], r["gpu_fault_records"], r["htod_bytes"] / GIB,
            r["htod_prefetch_bytes"] / GIB, r["htod_fault_bytes"] / GIB, r["dtoh_bytes"] / GIB,
            r["warm_median_s"] * 1e3))
        if r["arm"] == "gmem" and r["gpu_faults"]:
            gmem_faults.append("%s: %d" % (r["app"], r["gpu_faults"]))
    md.append("")
    n = sum(1 for r in counted if r["arm"] == "gmem")
    checks.add(not gmem_faults and n > 0, "apps-faults-gmem",
               "0 GPU page faults under gmem with a budget in %d workloads" % n if not gmem_faults and n else
               "GPU page faults under gmem with a budget: " + ", ".join(gmem_faults) if gmem_faults else
               "no gmem fault counts")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("jsonl")
    ap.add_argument("--log")
    ap.add_argument("--out")
    ap.add_argument("--checks")
    o = ap.parse_args()
    rows = load(o.jsonl)
    checks = Checks()
    head = []
    if o.log:
        with open(o.log, errors="replace") as f:
            log = f.read().splitlines()
        head = []
        for l in log[:20]:
            if l.startswith("==="):
                break
            if l.strip():
                head.append(l)
        errors = [l for l in log if l.startswith("ERROR ")]
        checks.add(not errors, "steps", "every step exited 0" if not errors else "; ".join(errors))
    md = ["# Prefetch benchmarks: results", "",
          "Produced by `bench/prefetch/run_on_device.sh` (staged with `bench/prefetch/stage.sh`) and "
          "`bench/prefetch/summarize.py`. Run header:", "", "```"] + head + ["```", ""]
    md += ["## 1. First-touch streaming kernels", ""]
    stream_section(rows, md, checks)
    md += ["## 2. Oversubscription (PolyBench-/Rodinia-like workloads under a device budget)", ""]
    apps_section(rows, md, checks)
    apps_faults_section(rows, md, checks)
    md += ["## 4. Per-launch host cost of the prefetch decision (data resident)", ""]
    launch_section(rows, md, checks)
    md += ["## 3. Checks", "", "```"] + checks.lines + ["```", ""]
    md += ["## Method and caveats", ""] + NOTES
    for line in checks.lines:
        print(line)
    if o.out:
        with open(o.out, "w") as f:
            f.write("\n".join(md) + "\n")
    if o.checks:
        with open(o.checks, "w") as f:
            f.write("\n".join(checks.lines) + "\n")
    print("# %s" % ("FAIL" if checks.failed else "PASS"))
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
