#!/usr/bin/env python3
"""Analysis time per kernel over the corpus, and as a share of the clang -O2
device compile of the same file (goal: <= 10%).

Each corpus file is analysed REPEAT times by `gmem-analyze --stats`, which
times its own device compile (clang -O2, sm_90, the subprocess) and the
analysis (in-process) side by side in one run. Reports medians and P99 over
files and writes bench/RESULTS-analysis-time.md.
Usage: analysis_time.py [--tool build/bin/gmem-analyze] [--repeat 3]"""
import argparse, datetime, os, platform, re, statistics, subprocess, sys

STAT = re.compile(r"gmem-stats: input=(\S+) kernels=(\d+) compile_ms=([\d.]+) analysis_ms=([\d.]+)")


def pct(vals, p):
    vals = sorted(vals)
    return vals[min(len(vals) - 1, int(round(p / 100.0 * (len(vals) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", default="build/bin/gmem-analyze")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default="bench/RESULTS-analysis-time.md")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    corpus = os.path.join(root, "test", "corpus")
    files = sorted(os.path.join(corpus, f) for f in os.listdir(corpus) if f.endswith(".cu"))
    per_file = {}
    for rep in range(a.repeat):
        for f in files:
            r = subprocess.run([a.tool, "--stats", f], capture_output=True, text=True)
            m = STAT.search(r.stderr)
            if r.returncode or not m:
                print(f"failed on {f}: {r.stderr.strip()}", file=sys.stderr)
                return 1
            k, c, an = int(m.group(2)), float(m.group(3)), float(m.group(4))
            per_file.setdefault(f, []).append((k, c, an))
    rows, per_kernel, shares = [], [], []
    tot_c = tot_a = tot_k = 0
    for f, runs in per_file.items():
        k = runs[0][0]
        c = statistics.median(r[1] for r in runs)
        an = statistics.median(r[2] for r in runs)
        rows.append((os.path.basename(f), k, c, an, an / c))
        shares.append(an / c)
        per_kernel.extend([an / max(k, 1)] * max(k, 1))
        tot_c += c; tot_a += an; tot_k += k
    lines = [
        "# Analysis time over the corpus",
        "",
        f"Command: `python3 bench/analysis_time.py --repeat {a.repeat}` "
        f"({datetime.date.today()}, {platform.node()}, {os.cpu_count()} CPUs, no GPU needed).",
        "Per file: median of the repeats of the device compile (clang-19 -O2, sm_90, run by",
        "gmem-analyze) and of the analysis (all kernels of the file, in-process), side by side.",
        "",
        f"* kernels: {tot_k} in {len(rows)} files",
        f"* analysis time per kernel: median {statistics.median(per_kernel):.2f} ms, "
        f"P99 {pct(per_kernel, 99):.2f} ms",
        f"* analysis / compile, per file: median {100*statistics.median(shares):.1f}%, "
        f"P99 {100*pct(shares, 99):.1f}%, max {100*max(shares):.1f}%",
        f"* analysis / compile, whole corpus: {100*tot_a/tot_c:.1f}% "
        f"({tot_a:.0f} ms of analysis vs {tot_c:.0f} ms of compile)",
        "",
        "| file | kernels | compile ms | analysis ms | share |",
        "| --- | --- | --- | --- | --- |",
    ] + [f"| {n} | {k} | {c:.1f} | {an:.1f} | {100*s:.1f}% |" for n, k, c, an, s in sorted(rows)]
    open(os.path.join(root, a.out) if not os.path.isabs(a.out) else a.out, "w").write("\n".join(lines) + "\n")
    print("\n".join(lines[:10]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
