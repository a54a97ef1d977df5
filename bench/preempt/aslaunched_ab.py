#!/usr/bin/env python3
"""A/B of part aslaunched runs: configuration A against B, each run several
times in one device call, alternating (A1 B1 A2 B2 ...).

    python3 bench/preempt/aslaunched_ab.py --a 'DIR/aslaunched_gate_auto_*.json' \
        --b 'DIR/aslaunched_gate_always_*.json' [--short-ms 0.3] [--changed 0.7] \
        [--stops DIR/stops_A.json DIR/stops_B.json] \
        [--correctness DIR/correctness_A.json DIR/correctness_B.json]

Prints per run the geomean / max / within-3% of the queued (GPU-side) and
sync (host path included) overheads, and per kernel the difference A - B of
the medians over the runs (percentage points), with its median and mean
over the kernels and the kernels shorter than --short-ms listed. With
--changed, the kernels whose queued medians differ by more than that many
points (and the form each ran most). With --stops (part stops of each
configuration, bench/preempt/ab_aslaunched_on_device.sh writes them), the
P99 after the write of each idempotent launch on the form its first run
chose, how many are within 10 us, and those over 9 us or moved by more than
1 us. With --correctness, each configuration's forced-preemption totals."""
import argparse
import glob
import json
import math
import statistics


def load(path):
    data = json.load(open(path))
    items = data['items'] if isinstance(data, dict) and 'items' in data else data
    return {d['name']: d for d in items}


def chosen_form(item):
    forms = item.get('forms') or {}
    return max(forms, key=lambda k: forms[k]) if forms else None


def stop_p99(stops, name, form):
    for f in stops.get(name, {}).get('forms', []):
        if f['form'] == form:
            return f['after_write_us']['p99']
    return None


def print_stops(runs, paths):
    stops = {'A': load(paths[0]), 'B': load(paths[1])}
    rows, within = [], {'A': 0, 'B': 0}
    for n, item in runs['A'][0][1].items():
        if stops['A'].get(n, {}).get('pred') != 'idempotent' or n not in runs['B'][0][1]:
            continue
        p = {c: stop_p99(stops[c], n, chosen_form(runs[c][0][1][n])) for c in 'AB'}
        if None in p.values():
            continue
        for c in 'AB':
            within[c] += p[c] <= 10
        rows.append((n, p))
    print()
    print(f'Stops (P99 after the write, form the first run chose): within 10 us A {within["A"]}, '
          f'B {within["B"]} of {len(rows)}')
    for n, p in rows:
        if max(p.values()) > 9 or abs(p['A'] - p['B']) > 1:
            print(f'  {n}: A {p["A"]:.1f} us, B {p["B"]:.1f} us')


def print_correctness(paths):
    print()
    for label, path in zip('AB', paths):
        items = load(path).values()
        total = lambda key: sum(d.get(key, 0) for d in items)
        print(f'Correctness {label}: {len(items)} instances, {total("trials")} trials, '
              f'{total("cut")} cut, {total("mismatches")} mismatches, '
              f'{total("relaunch_incomplete")} incomplete relaunches')


def geomean_pct(xs):
    return (math.exp(sum(math.log1p(x) for x in xs) / len(xs)) - 1) * 100


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--a', required=True, help='glob of configuration A runs')
    ap.add_argument('--b', required=True, help='glob of configuration B runs')
    ap.add_argument('--short-ms', type=float, default=0.3)
    ap.add_argument('--changed', type=float, help='list kernels whose medians differ by more points')
    ap.add_argument('--stops', nargs=2, metavar=('A', 'B'), help='part stops JSON of A and B')
    ap.add_argument('--correctness', nargs=2, metavar=('A', 'B'),
                    help='part correctness JSON of A and B')
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
    if args.changed is not None:
        print()
        for n, d in zip(names, dq):
            if abs(d) > args.changed:
                med = lambda label: statistics.median(r[n]['overhead_queued'] for _, r in runs[label])
                print(f'  {n}: A {med("A") * 100:+.1f}% ({chosen_form(runs["A"][0][1][n])}), '
                      f'B {med("B") * 100:+.1f}% ({chosen_form(runs["B"][0][1][n])})')
    if args.stops:
        print_stops(runs, args.stops)
    if args.correctness:
        print_correctness(args.correctness)


if __name__ == '__main__':
    main()
