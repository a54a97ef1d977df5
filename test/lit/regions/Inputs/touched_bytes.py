#!/usr/bin/env python3
"""Brute-force soundness check of gmem-analyze's instance regions: for each
launch of a models module (CASES: kernel -> scalar kinds and values; one
function per kernel modelling every element each thread touches; POINTERS:
pointer parameters after the scalars), every byte must lie in one of the
ranges gmem-analyze gives for that pointer and access kind. Prints one
UNSOUND line per miss and a summary; exit 1 on any miss.
Usage: touched_bytes.py GMEM_ANALYZE INPUT MODELS (INPUT: a .cu, or a .bc
with descriptors; MODELS: a .py file next to this one, e.g. triangular_models.py)"""
import importlib.util
import itertools
import os
import re
import subprocess
import sys

SHAPES = [(1, 1), (1, 8), (3, 5), (1, 64), (2, 100)]  # (grid, block)
SIZE, HALF = 0x1000000, 0x800000  # pointers point mid-allocation
RANGE = re.compile(r'(read|write) \[0x([0-9a-f]+), 0x([0-9a-f]+)\)')


def launch(tool, src, name, scalars, grid, block, nptr):
    """Runs instance mode; returns {param: [(kind, lo, hi)]} relative to the
    pointer, and whether a launch check failed."""
    cmd = [tool, src, '--kernel', name, '--grid', str(grid), '--block', str(block)]
    bases = [SIZE * 2 * (k + 1) for k in range(nptr)]
    for b in bases:
        cmd += ['--alloc', f'0x{b:x}:0x{SIZE:x}']
    for kind, v in scalars:
        cmd += ['--arg', f'{kind}:{v}']
    for b in bases:
        cmd += ['--arg', f'ptr:0x{b + HALF:x}']
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    regions, failed, whole = {}, False, False
    for line in out.split('\ninstance ', 1)[1].splitlines():
        m = re.match(r'\s+#(\d+) ', line)
        if not m:
            continue
        p = int(m.group(1))
        ptr = bases[p - len(scalars)] + HALF
        regions[p] = [(k[0].upper(), int(lo, 16) - ptr, int(hi, 16) - ptr)
                      for k, lo, hi in RANGE.findall(line)]
        failed |= 'fails' in line
        whole |= any(int(lo, 16) == bases[p - len(scalars)] and int(hi, 16) - int(lo, 16) == SIZE
                     for _, lo, hi in RANGE.findall(line))
    return regions, failed, whole


def main():
    tool, src, models = sys.argv[1], sys.argv[2], sys.argv[3]
    # Models import shared helpers (c_ints.py) from their own folder.
    sys.path.insert(0, os.path.dirname(os.path.abspath(models)))
    spec = importlib.util.spec_from_file_location('models', models)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    shapes = getattr(mod, 'SHAPES', SHAPES)
    runs = misses = widened = wholes = 0
    for name, params in mod.CASES.items():
        for values in itertools.product(*[vals for _, vals in params]):
            scalars = [(kind, v) for (kind, _), v in zip(params, values)]
            for grid, block in shapes:
                nptr = getattr(mod, 'POINTERS', {}).get(name, 1)
                regions, failed, whole = launch(tool, src, name, scalars, grid, block, nptr)
                runs += 1
                widened += failed
                wholes += whole
                touched = {}
                model = getattr(mod, name)
                # A model marked SHAPE takes (grid, block), not the thread count.
                shape = (grid, block) if getattr(model, 'SHAPE', False) else (grid * block,)
                for p, kind, elem in model(*shape, *values):
                    touched.setdefault((p, kind), set()).add(4 * elem)
                for (p, kind), offs in sorted(touched.items()):
                    rs = [(lo, hi) for k, lo, hi in regions.get(p, []) if k == kind]
                    out = sorted(o for o in offs if not any(lo <= o and o + 4 <= hi for lo, hi in rs))
                    if out:
                        misses += 1
                        print(f'UNSOUND {name}{tuple(values)} grid={grid} block={block} #{p} {kind}: '
                              f'{len(out)} touched elements outside {rs}, first at byte {out[0]}')
    print(f'{runs} launches, {misses} unsound, {widened} widened by a failed launch check, '
          f'{wholes} with a whole allocation')
    return 1 if misses else 0


if __name__ == '__main__':
    sys.exit(main())
