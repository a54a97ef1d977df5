#!/usr/bin/env python3
"""A/B of part aslaunched runs: configuration A against B, each run several
times in one device call, alternating (A1 B1 A2 B2 ...).

    python3 bench/preempt/aslaunched_ab.py --a 'DIR/aslaunched_gate_auto_*.json' \
        --b 'DIR/aslaunched_gate_always_*.json' [--short-ms 0.3]

Prints per run the geomean / max / within-3% of the queued (GPU-side) and
sync (host path included) overheads, and per kernel the difference A - B of
the medians over the runs (percentage points), with its median and mean
over the kernels and the kernels shorter than --short-ms listed."""
import argparse
import glob
import json
import math
import statistics


def load(path):
    data = json.load(open(path))
    items = data['items'] if isinstance(data, dict) and 'items' in data else data
    return {d['name']: d for d in items}


def geomean_pct(xs):
    return (math.exp(sum(math.log1p(x) for x in xs) / len(xs)) - 1) * 100


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--a', required=True, help='glob of configuration A runs')
    ap.add_argument('--b', required=True, help='glob of configuration B runs')
    ap.add_argument('--short-ms', type=float, default=0.3)
    args = ap.parse_args()
    runs = {}
    for label, pattern in (('A', args.a), ('B', args.b)):
        files = sorted(glob.glob(pattern))
        if not files:
            raise SystemExit(f'error: no file matches {pattern}')
        runs[label] = [(f, load(f)) for f in files]
    print('| run | queued: geomean / max / within 3% | sync: geomean / max / within 3% |')
    print('| --- | --- | --- |')
    for label in ('A', 'B'):
        for f, r in runs[label]:
            q = [d['overhead_queued'] for d in r.values()]
            s = [d['overhead'] for d in r.values()]
            print(f'| {label} `{f.split("/")[-1]}` | {geomean_pct(q):+.2f}% / {max(q) * 100:+.1f}% / '
                  f'{sum(x <= 0.03 for x in q)} of {len(q)} | {geomean_pct(s):+.2f}% / '
                  f'{max(s) * 100:+.1f}% / {sum(x <= 0.03 for x in s)} of {len(s)} |')
    names = [n for n in runs['A'][0][1] if all(n in r for _, r in runs['A'] + runs['B'])]
    dq, ds, short = [], [], []
    for n in names:
        med = lambda label, key: statistics.median(r[n][key] for _, r in runs[label])
        dq.append((med('A', 'overhead_queued') - med('B', 'overhead_queued')) * 100)
        ds.append((med('A', 'overhead') - med('B', 'overhead')) * 100)
        if runs['A'][0][1][n]['orig_queued_ms'] < args.short_ms:
            short.append((n, runs['A'][0][1][n]['orig_queued_ms'], dq[-1]))
    print()
    print(f'Per kernel, A - B of the medians over the runs ({len(names)} kernels): queued median '
          f'{statistics.median(dq):+.2f} points, mean {statistics.mean(dq):+.2f}; sync median '
          f'{statistics.median(ds):+.2f}, mean {statistics.mean(ds):+.2f}.')
    if short:
        print(f'Kernels under {args.short_ms} ms (queued A - B): ' +
              ', '.join(f'{n} ({ms:.3f} ms) {d:+.2f}' for n, ms, d in sorted(short, key=lambda t: t[1])))


if __name__ == '__main__':
    main()
