#!/usr/bin/env python3
"""Side-by-side table of several `preempt_bench overhead` results (each run
times original and clone interleaved, so every column is its own ratio).

    compare_overhead.py LABEL=overhead.json [LABEL=overhead.json ...] [--md]
                        [--launched]

Prints per kernel the full clone's median overhead (and P, the persistent
grid) per run, then the geomean and max per run; --md gives a Markdown
table; --launched compares what libgmemrt would launch (overhead_chosen and
the form part 2 picked) instead of the full clone. Kernels missing from a run show "-". Names with '@' (ptx_variants.py
manifests) are split into kernel and variant columns.
"""
import json
import math
import sys


def load(path):
    with open(path) as f:
        d = json.load(f)
    items = d['items'] if isinstance(d, dict) and 'items' in d else d
    return {it['name']: it for it in items if 'overhead' in it}


def parse_runs(argv, flags, load_run, doc):
    """The LABEL=PATH arguments (other than `flags`) loaded by load_run:
    ([(label, run)], 0), or (None, exit status) after saying why."""
    runs = []
    for a in argv:
        if a in flags:
            continue
        if '=' not in a:
            print(doc, file=sys.stderr)
            return None, 2
        label, path = a.split('=', 1)
        try:
            runs.append((label, load_run(path)))
        except (OSError, ValueError, KeyError) as e:
            print(f'error: {path}: {e}', file=sys.stderr)
            return None, 1
    if not runs:
        print(doc, file=sys.stderr)
        return None, 2
    return runs, 0


def run_names(runs):
    """Every row name of the runs, in first-seen order."""
    names = []
    for _, r in runs:
        names += [n for n in r if n not in names]
    return names


def print_table(head, rows, md, lead=1, width=18):
    """Markdown (md) or aligned text: the first `lead` columns left-aligned
    (the first) and right-aligned in 8 (the others), the rest in `width`."""
    if md:
        print('| ' + ' | '.join(head) + ' |')
        print('|' + ' --- |' * len(head))
        for row in rows:
            print('| ' + ' | '.join(row) + ' |')
        return
    w = max(len(r[0]) for r in rows + [head])
    for row in [head] + rows:
        print(row[0].ljust(w) + ''.join(c.rjust(8) for c in row[1:lead]) +
              ''.join(c.rjust(width) for c in row[lead:]))


def main(argv):
    md = '--md' in argv
    key = 'overhead_chosen' if '--launched' in argv else 'overhead'
    runs, status = parse_runs(argv, ('--md', '--launched'), load, __doc__)
    if runs is None:
        return status
    head = ['kernel'] + [label for label, _ in runs]
    rows = []
    for n in run_names(runs):
        row = [n]
        for _, r in runs:
            it = r.get(n)
            if it is None or key not in it:
                row.append('-')
            elif key == 'overhead':
                row.append(f"{it[key] * 100:+.1f}% (P{it.get('P', 0)})")
            else:
                row.append(f"{it[key] * 100:+.1f}% ({it.get('chosen', 'full')})")
        rows.append(row)
    summary = ['**geomean / max**']
    for _, r in runs:
        ov = [it[key] for it in r.values() if key in it]
        g = math.exp(sum(math.log1p(o) for o in ov) / len(ov)) - 1 if ov else 0.0
        summary.append(f'{g * 100:+.2f}% / {max(ov) * 100:+.1f}%' if ov else '-')
    rows.append(summary)
    print_table(head, rows, md)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
