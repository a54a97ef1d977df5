#!/usr/bin/env python3
"""RESULTS.md and the latency CDF (SVG) of the co-location demo.

    python3 bench/colocation/report.py DIR [--out bench/colocation]

DIR holds what bench/colocation/run_on_device.sh wrote: colocation.jsonl
(one JSON line per configuration) and run.log. Writes OUT/RESULTS.md,
OUT/latency_cdf.svg and OUT/results/ (the raw files). Python 3 standard
library only.
"""

import argparse
import json
import math
import os
import shutil
import sys

COLORS = ["#1b9e77", "#7570b3", "#d95f02", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"]


def pct(sorted_values, p):
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, int(p * len(sorted_values)))
    return sorted_values[k]


def load(path):
    runs = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f"report.py: {path}:{n}: not JSON: {e}")
            r["sorted"] = sorted(r.get("latency_us", []))
            for k in ("first_kernel_us", "other_kernels_us", "host_issue_us", "start_late_us"):
                r[k + "_sorted"] = sorted(r.get(k, []))
            runs[r["label"]] = r
    if not runs:
        sys.exit(f"report.py: {path} holds no runs")
    return runs


def shape(r):
    """The chain's shape suffix of a run's labels: "" for the default chain
    (GEMV 1024, 20 kernel launches), else "-h<N>-graph" / "-h<N>-streams"."""
    h, g = r.get("hidden", 1024), r.get("graph", False)
    return "" if (h == 1024 and not g) else f"-h{h}-{'graph' if g else 'streams'}"


def base_of(runs, lab):
    """The run a row's P99 is compared with: the chain alone (no gmem) of the
    same shape and round (labels NAME[@ROUND]; a run of no round: round 1's)."""
    name, _, rnd = lab.partition("@")
    base = "alone" + shape(runs[lab])
    return runs.get(base + (f"@{rnd}" if rnd else "")) or runs.get(base + "@r1")


def rounds_summary(runs, shp, be):
    """Per-round P99 ratios of colo-BE-gmem SHAPE@rK against alone SHAPE@rK,
    and the ratio of the pooled requests' P99s."""
    ratios, pa, pg, rates = [], [], [], []
    k = 1
    while f"alone{shp}@r{k}" in runs and f"colo-{be}-gmem{shp}@r{k}" in runs:
        a, g = runs[f"alone{shp}@r{k}"], runs[f"colo-{be}-gmem{shp}@r{k}"]
        ratios.append(pct(g["sorted"], 0.99) / pct(a["sorted"], 0.99))
        pa += a["sorted"]
        pg += g["sorted"]
        rates.append(g["be_rate"])
        k += 1
    if not ratios:
        return []
    pa.sort()
    pg.sort()
    ref = runs.get(f"be-{be}")
    kept = (f"; training keeps {sorted(rates)[len(rates) // 2] / ref['be_rate'] * 100:.0f}% "
            "of its throughput (median)") if ref and ref["be_rate"] > 0 else ""
    med = sorted(ratios)[len(ratios) // 2]
    pooled = pct(pg, 0.99) / pct(pa, 0.99)
    return [f"* `{be}`, chain `{shp[1:]}`, {len(ratios)} rounds alternating alone / beside the "
            f"training: P99 ratio per round {', '.join(f'{x:.2f}' for x in ratios)} (median "
            f"{med:.2f}x: goal of 1.10x {'met' if med <= 1.1 else 'not met'}); pooled requests "
            f"P50 {pct(pa, 0.5):.0f} -> {pct(pg, 0.5):.0f} us, P99 {pct(pa, 0.99):.0f} -> "
            f"{pct(pg, 0.99):.0f} us ({pooled:.2f}x){kept}."]


def svg_cdf(runs, labels, path):
    W, H, L, R, T, B = 760, 440, 70, 200, 20, 50
    values = [v for lab in labels for v in runs[lab]["sorted"]]
    lo = max(1.0, min(values))
    hi = max(values)
    x0, x1 = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    if x1 == x0:
        x1 += 1

    def X(v):
        return L + (math.log10(max(v, lo)) - x0) / (x1 - x0) * (W - L - R)

    def Y(q):
        return T + (1 - q) * (H - T - B)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>']
    for d in range(x0, x1 + 1):
        for m in (1, 2, 5):
            v = m * 10 ** d
            if v < 10 ** x0 or v > 10 ** x1:
                continue
            x = X(v)
            out.append(f'<line x1="{x:.1f}" y1="{T}" x2="{x:.1f}" y2="{H - B}" stroke="#ddd"/>')
            text = f"{v:g}" if v < 1000 else (f"{v / 1000:g}k" if v < 1e6 else f"{v / 1e6:g}M")
            out.append(f'<text x="{x:.1f}" y="{H - B + 16}" text-anchor="middle">{text}</text>')
    for q in (0, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0):
        y = Y(q)
        out.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">{q:g}</text>')
    out.append(f'<rect x="{L}" y="{T}" width="{W - L - R}" height="{H - T - B}" fill="none" stroke="black"/>')
    out.append(f'<text x="{(L + W - R) / 2}" y="{H - 12}" text-anchor="middle">'
               f'request latency (us, log scale)</text>')
    out.append(f'<text x="16" y="{(T + H - B) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 16 {(T + H - B) / 2})">fraction of requests</text>')
    for i, lab in enumerate(labels):
        s = runs[lab]["sorted"]
        n = len(s)
        step = max(1, n // 400)
        pts = [(X(s[k]), Y((k + 1) / n)) for k in range(0, n, step)] + [(X(s[-1]), Y(1.0))]
        d = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        c = COLORS[i % len(COLORS)]
        out.append(f'<polyline points="{d}" fill="none" stroke="{c}" stroke-width="2"/>')
        ly = T + 16 + 20 * i
        out.append(f'<line x1="{W - R + 12}" y1="{ly - 4}" x2="{W - R + 36}" y2="{ly - 4}" '
                   f'stroke="{c}" stroke-width="3"/>')
        out.append(f'<text x="{W - R + 42}" y="{ly}">{lab}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    a = ap.parse_args()
    jsonl = os.path.join(a.dir, "colocation.jsonl")
    if not os.path.exists(jsonl):
        sys.exit(f"report.py: {jsonl} not found")
    runs = load(jsonl)
    os.makedirs(a.out, exist_ok=True)
    log = os.path.join(a.dir, "run.log")
    header = []
    if os.path.exists(log):
        with open(log) as f:
            for line in f:
                if line.startswith("=== "):
                    break
                header.append(line.rstrip())

    alone = runs.get("alone")
    base99 = pct(alone["sorted"], 0.99) if alone else float("nan")
    md = ["# Co-location: latency-critical chain beside best-effort training (H200)", ""]
    md += ["Generated by `bench/colocation/report.py` from `results/colocation.jsonl`",
           "(`bench/colocation/run_on_device.sh`; how to run: `bench/colocation/README.md`).", ""]
    if header:
        md += ["```"] + header + ["```", ""]
    def summary(be):
        plain, gm = runs.get(f"colo-{be}"), runs.get(f"colo-{be}-gmem")
        ref = runs.get(f"be-{be}")
        if not (alone and plain and gm and ref):
            return []
        a50, a99 = pct(alone["sorted"], 0.5), base99
        p50, p99 = pct(plain["sorted"], 0.5), pct(plain["sorted"], 0.99)
        g50, g99 = pct(gm["sorted"], 0.5), pct(gm["sorted"], 0.99)
        s = gm.get("sched", {})
        kind = "idempotent, stop at loop checkpoints" if be == "step" else "not idempotent, stop at entry"
        return [f"* `{be}` ({kind}): chain P50/P99 alone {a50:.0f}/{a99:.0f} us; beside the training "
                f"without gmem {p50:.0f}/{p99:.0f} us; with gmem {g50:.0f}/{g99:.0f} us "
                f"(P99 {g99 / a99:.2f}x alone: goal of 1.10x {'met' if g99 <= 1.1 * a99 else 'not met'} "
                f"in this run; P50 {g50 / a50:.2f}x). "
                f"Training keeps {gm['be_rate'] / ref['be_rate'] * 100:.0f}% of its throughput "
                f"({plain['be_rate'] / ref['be_rate'] * 100:.0f}% without gmem); "
                f"{s.get('preemptions', 0)} preemptions, {s.get('relaunches', 0)} relaunches, drain "
                f"P50/P99 {s.get('drain_us_p50', 0):.0f}/{s.get('drain_us_p99', 0):.0f} us; "
                f"results {gm['check']}."]
    lines = summary("step") + summary("accum")
    shapes = sorted({shape(r) for lab, r in runs.items() if "@r" in lab})
    for shp in shapes:
        lines += rounds_summary(runs, shp, "step")
    if lines:
        md += ["## Summary", ""] + lines + [""]
    md += ["## Chain latency (20 kernels per request, one request every "
           f"{next(iter(runs.values()))['period_us']} us unless noted)", "",
           "| configuration | requests | P50 us | P99 us | P99.9 us | max us | P99 / alone P99 (same chain) | "
           "median first kernel / other 19 / host issue us | began late P99 us | check |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for lab, r in runs.items():
        s = r["sorted"]
        if not s:
            continue
        b = base_of(runs, lab)
        ratio = pct(s, 0.99) / pct(b["sorted"], 0.99) if b and b["sorted"] else float("nan")
        note = "" if r["period_us"] == 2000 else f" ({r['period_us']} us period)"
        split = " / ".join(f"{pct(r[k + '_sorted'], 0.5):.1f}" if r[k + "_sorted"] else "-"
                           for k in ("first_kernel_us", "other_kernels_us", "host_issue_us"))
        late = r["start_late_us_sorted"]
        late99 = f"{pct(late, 0.99):.1f}" if late else "-"
        md.append(f"| {lab}{note} | {len(s)} | {pct(s, 0.5):.1f} | {pct(s, 0.99):.1f} | "
                  f"{pct(s, 0.999):.1f} | {s[-1]:.1f} | {ratio:.2f} | {split} | {late99} | "
                  f"{r['check']} |")
    md += ["", "## Best-effort training", "",
           "| configuration | kernels/s | retained vs alone | preemptions (loop) | relaunches | "
           "drain P50 / P99 / max us (samples) | forced resumes | check |",
           "|---|---:|---:|---:|---:|---:|---:|---|"]
    for lab, r in runs.items():
        if r["be"] == "none":
            continue
        ref = next((x for x in runs.values() if x["mode"] == "be" and not x["gmem"]
                    and x["be"] == r["be"] and x.get("waves") == r.get("waves")), None)
        kept = r["be_rate"] / ref["be_rate"] * 100 if ref and ref["be_rate"] > 0 else float("nan")
        s = r.get("sched")
        if s:
            pre = f"{s['preemptions']} ({s['preemptions_loop']})"
            drain = (f"{s['drain_us_p50']:.1f} / {s['drain_us_p99']:.1f} / {s['drain_us_max']:.1f} "
                     f"({s['drain_samples']})")
            rel, forced = str(s["relaunches"]), str(s["forced_resumes"])
        else:
            pre = drain = rel = forced = "-"
        md.append(f"| {lab} | {r['be_rate']:.2f} | {kept:.1f}% | {pre} | {rel} | {drain} | {forced} | "
                  f"{r['check']} |")
    md += ["", "Drain: GPU time from the stop request landing (an event after the control-stream "
           "write) to the victim's last CTA leaving (an event after the clone), as the scheduler "
           "measures it (`gmemSchedGetStats`; one preemption in `GMEM_SCHED_DRAIN_SAMPLE`, "
           "default 8, is timed).", "",
           "Latency is counted from each request's arrival time. Began late: how long after "
           "its arrival the request thread started issuing (it sleeps until 1 ms before, then "
           "spins; runs before this column existed slept until 150 us before, and this VM's "
           "oversleeps then made up the P99 of every configuration).", ""]
    labels = [l for l in ("alone", "alone-gmem", "colo-step", "colo-step-gmem", "colo-accum",
                          "colo-accum-gmem", "alone-h4096-graph@r1", "colo-step-gmem-h4096-graph@r1")
              if l in runs and runs[l]["sorted"]]
    if labels:
        svg_cdf(runs, labels, os.path.join(a.out, "latency_cdf.svg"))
        md += ["![latency CDF](latency_cdf.svg)", ""]
    os.makedirs(os.path.join(a.out, "results"), exist_ok=True)
    for f in ("colocation.jsonl", "run.log"):
        src = os.path.join(a.dir, f)
        dst = os.path.join(a.out, "results", f)
        if os.path.exists(src) and os.path.abspath(src) != os.path.abspath(dst):
            shutil.copyfile(src, dst)
    with open(os.path.join(a.out, "RESULTS.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print(f"report.py: wrote {os.path.join(a.out, 'RESULTS.md')}")


if __name__ == "__main__":
    main()
