#!/usr/bin/env python3
"""Side-by-side stop latency of several `preempt_bench stops` runs.

    compare_stops.py LABEL=DIR [LABEL=DIR ...] [--md] [--after-write]

DIR holds stops.json and, from the same stage, overhead.json (whose
`chosen` names the form libgmemrt would launch; the full clone where it is
missing). Prints per kernel the device P99 (us) of the launched form per
run, then per run how many launches found idempotent (request 2) stop
within 10 us and the largest P99 among them. --after-write: the P99 from
the event after the control write instead (what the write itself took under
the kernel's memory traffic left out).
"""
import json
import os
import sys

from compare_overhead import parse_runs, print_table, run_names


def load(d, key='device_us'):
    with open(os.path.join(d, 'stops.json')) as f:
        stops = json.load(f)['items']
    chosen = {}
    p = os.path.join(d, 'overhead.json')
    if os.path.exists(p):
        with open(p) as f:
            chosen = {i['name']: i.get('chosen', 'full') for i in json.load(f)['items']
                      if 'error' not in i}
    out = {}
    for i in stops:
        if 'error' in i:
            continue
        forms = {f['form']: f for f in i.get('forms', [])}
        f = forms.get(chosen.get(i['name'], 'full')) or forms.get('full')
        if f is None:
            continue
        p99 = f[key]['p99']
        out[i['name']] = (i['request'], None if p99 is None else float(p99), f['form'])
    return out


def main(argv):
    md = '--md' in argv
    key = 'after_write_us' if '--after-write' in argv else 'device_us'
    runs, status = parse_runs(argv, ('--md', '--after-write'), lambda d: load(d, key), __doc__)
    if runs is None:
        return status
    head = ['kernel', 'request'] + [label for label, _ in runs]
    rows = []
    for n in run_names(runs):
        req = next((r[n][0] for _, r in runs if n in r), '-')
        row = [n, str(req)]
        for _, r in runs:
            v = r.get(n)
            row.append('-' if v is None or v[1] is None else f'{v[1]:.1f} ({v[2]})')
        rows.append(row)
    summary = ['**request 2: P99 <= 10 us / max**', '']
    for _, r in runs:
        idem = [v[1] for v in r.values() if v[0] == 2 and v[1] is not None]
        summary.append(f'{sum(1 for x in idem if x <= 10.0)} of {len(idem)} / '
                       f'{max(idem):.1f}' if idem else '-')
    rows.append(summary)
    print_table(head, rows, md, lead=2, width=20)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
