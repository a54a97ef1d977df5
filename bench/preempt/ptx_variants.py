#!/usr/bin/env python3
"""Measurement-only PTX variants of the full preemptible clones, to find out
which part of a clone's code costs the time (bench/preempt/RESULTS.md,
"Where the overhead is"). Each variant removes or cheapens one part of the
checkpoint code in `__gmem_pre_<sym>` and leaves the rest byte-identical, so
`preempt_bench overhead` can time original and variant side by side.

The variants are NOT preemptible correctly (some drop the reads or barriers
that make a stop possible or uniform); they only exist to be timed with
nothing preempted.

  cta0      thread 0's request read per virtual CTA (blocks gmem.p.read /
            gmem.p.req) becomes `mov 0`: no L2 traffic at virtual CTA start
  nobar     the per-virtual-CTA `bar.red.or` becomes a plain predicate move
            (only for clones without loop checkpoints: elsewhere the
            reduction may stand in for a barrier of the body)
  cta0nobar both
  loopL1    loop checkpoints read the request with an L1-cached weak load
            (ld.global.ca) instead of a volatile one
  loop0     loop checkpoints read nothing (`mov 0`): the counters, branches
            and exits stay

Usage: ptx_variants.py STAGE_DIR KERNEL_NAME... > manifest lines
(KERNEL_NAME as in the overhead manifest's name=, e.g. vector_add.cu:vec_add)
Writes STAGE_DIR/var/<variant>/<file>.ptx and STAGE_DIR/var_manifest.txt.
"""
import os
import re
import sys

LABEL = re.compile(r'^(?:\$L__BB\S+:|// %bb\.\d+:)\s*//\s*%(\S+)')
VOLATILE = re.compile(r'^(\s*)ld\.volatile\.global\.u32\s+(%r\d+),\s*\[(%rd\d+)\];')
BARRED = re.compile(r'^(\s*)bar\.red\.or\.pred\s+(%p\d+),\s*0,\s*(%p\d+);')
CTA_BLOCKS = {'gmem.p.read', 'gmem.p.req'}
KEEP_BLOCKS = {'gmem.p.save', 'gmem.p.save.done', 'gmem.p.stop'}


def clone_span(lines, sym):
    """[start, end) of the full clone's body lines."""
    start = None
    for i, l in enumerate(lines):
        if start is None and re.match(r'^\.visible \.entry __gmem_pre_' + re.escape(sym) + r'\(', l):
            start = i
        elif start is not None and l.startswith('}'):
            return start, i
    raise SystemExit(f'error: no full clone __gmem_pre_{sym}')


def request_register(lines, lo, hi):
    """The address register of the request word: thread 0's entry read."""
    block = None
    for l in lines[lo:hi]:
        m = LABEL.match(l)
        if m:
            block = m.group(1)
        v = VOLATILE.match(l)
        if v and block == 'gmem.p.read':
            return v.group(3)
    raise SystemExit('error: no request read in gmem.p.read')


def has_loop_checks(lines, lo, hi):
    return any((m := LABEL.match(l)) and (m.group(1).startswith('gmem.ckpt') or
                                          m.group(1).startswith('gmem.site'))
               for l in lines[lo:hi])


def make_variant(lines, sym, variant):
    lo, hi = clone_span(lines, sym)
    req = request_register(lines, lo, hi)
    loops = has_loop_checks(lines, lo, hi)
    if 'nobar' in variant and loops:
        return None
    out = list(lines)
    block = None
    changed = 0
    for i in range(lo, hi):
        l = out[i]
        m = LABEL.match(l)
        if m:
            block = m.group(1)
        v = VOLATILE.match(l)
        if v and v.group(3) == req:
            ind, reg = v.group(1), v.group(2)
            in_cta = block in CTA_BLOCKS
            if in_cta and variant.startswith('cta0'):
                out[i] = f'{ind}mov.u32 \t{reg}, 0;'
                changed += 1
            elif not in_cta and block not in KEEP_BLOCKS and variant == 'loopL1':
                out[i] = f'{ind}ld.global.ca.u32 \t{reg}, [{req}];'
                changed += 1
            elif not in_cta and block not in KEEP_BLOCKS and variant == 'loop0':
                out[i] = f'{ind}mov.u32 \t{reg}, 0;'
                changed += 1
        b = BARRED.match(l)
        if b and variant.endswith('nobar'):
            out[i] = f'{b.group(1)}mov.pred \t{b.group(2)}, {b.group(3)};'
            changed += 1
    return out if changed else None


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    stage, names = sys.argv[1], set(sys.argv[2:])
    manifest = [l for l in open(os.path.join(stage, 'overhead_manifest.txt'))
                if not l.startswith('#') and l.strip()]
    lines_out = []
    edited = {}  # (variant, ptx) -> lines: several kernels may share a file
    for entry in manifest:
        f = dict(kv.split('=', 1) for kv in entry.split() if '=' in kv and not kv.startswith('args'))
        if f['name'] not in names:
            continue
        names.discard(f['name'])
        src = open(os.path.join(stage, f['ptx'])).read().split('\n')
        lines_out.append(entry.strip())
        for variant in ('cta0', 'nobar', 'cta0nobar', 'loopL1', 'loop0'):
            key = (variant, f['ptx'])
            v = make_variant(edited.get(key, src), f['sym'], variant)
            if v is None:
                continue
            edited[key] = v
            rel = os.path.join('var', variant, os.path.basename(f['ptx']))
            os.makedirs(os.path.join(stage, 'var', variant), exist_ok=True)
            with open(os.path.join(stage, rel), 'w') as o:
                o.write('\n'.join(v))
            lines_out.append(entry.strip().replace('ptx=' + f['ptx'], 'ptx=' + rel)
                             .replace('name=' + f['name'], f'name={f["name"]}@{variant}'))
    if names:
        print('error: not in the overhead manifest: ' + ', '.join(sorted(names)), file=sys.stderr)
        return 1
    with open(os.path.join(stage, 'var_manifest.txt'), 'w') as o:
        o.write('\n'.join(lines_out) + '\n')
    print(f'{len(lines_out)} manifest lines -> {stage}/var_manifest.txt')
    return 0


if __name__ == '__main__':
    sys.exit(main())
