#!/usr/bin/env python3
"""Brute-force soundness check of gmem-analyze's instance regions for the
kernels of triangular_shapes.cu: for each launch below, a Python model of the
kernel lists every element each thread touches, and every byte of it must lie
in one of the ranges gmem-analyze gives for that pointer and access kind.
Prints one UNSOUND line per miss and a summary; exit 1 on any miss.
Usage: touched_bytes.py GMEM_ANALYZE INPUT (a .cu, or a .bc with descriptors)"""
import itertools
import re
import subprocess
import sys

U32 = 1 << 32


# Models: (threads, scalar args...) -> (param index, 'R' or 'W', element).
def tri(T, m):
    for j1 in range(T):
        if j1 < m - 1:
            for j2 in range(j1 + 1, m):
                yield 1, 'W', j1 * m + j2


def tri_noguard(T, m):
    for j1 in range(T):
        for j2 in range(j1 + 1, m):
            yield 1, 'W', j1 * m + j2


def tri_col(T, m):
    for j1 in range(T):
        if j1 < m - 1:
            for j2 in range(j1 + 1, m):
                yield 1, 'W', j2 * m + j1


def tri_stride(T, m, ld):
    for j1 in range(T):
        if j1 < m - 3:
            for j2 in range(j1 + 3, m, 2):
                yield 2, 'W', j1 * ld + j2


def tri_down(T, m):
    for j1 in range(T):
        for j2 in range(m - 1, j1, -1):
            yield 1, 'W', j1 * m + j2


def tri_seq(T, m):
    for i in range(m if T else 0):
        for j in range(i + 1, m):
            yield 1, 'W', i * m + j


def tri_unsigned(T, m):
    for j1 in range(T):
        for j2 in range(j1 + 1, m):
            yield 1, 'W', (j1 * m + j2) % U32


def tri_offset(T, m, off):
    for j1 in range(off, T + off):
        if j1 < m - 1:
            for j2 in range(j1 + 1, m):
                yield 2, 'W', j1 * m + j2


def tri_long(T, m):
    yield from tri(T, m)


def rev_offset(T, n):
    for i in range(T):
        if i + 1 < n:
            yield 1, 'W', n - 2 - i


def rev_loop(T, n):
    for i in range(min(T, n)):
        for k in range(n - i):
            yield 1, 'W', n - 1 - i - k


def wrap_trip(T, k0):
    for j1 in range(min(T, 64)):
        k, i = (k0 - j1) % U32, 0
        while i != k and i < 3000:
            yield 1, 'W', i
            i += 1


def guarded_trip(T, k0):
    for j1 in range(min(T, k0)):
        for i in range(k0 - j1):
            yield 1, 'W', j1 * 64 + i


def corr(T, m, n):
    for j1 in range(T):
        if j1 < m - 1:
            yield 2, 'W', j1 * m + j1
            for j2 in range(j1 + 1, m):
                for i in range(n):
                    yield 3, 'R', i * m + j1
                    yield 3, 'R', i * m + j2
                yield 2, 'W', j1 * m + j2
                yield 2, 'W', j2 * m + j1


# kernel: parameter kinds in order ('ptr' or a scalar kind with its values).
CASES = {
    'tri': [('i32', [0, 2, 7, 33])],
    'tri_noguard': [('i32', [0, 5, 33])],
    'tri_col': [('i32', [1, 5, 33])],
    'tri_stride': [('i32', [3, 9, 20]), ('i32', [-5, 7, 40])],
    'tri_down': [('i32', [0, 5, 33])],
    'tri_seq': [('i32', [0, 2, 16])],
    'tri_unsigned': [('u32', [0, 5, 33])],
    'tri_offset': [('i32', [2, 16, 33]), ('i32', [-40, -3, 4])],
    'tri_long': [('i32', [2, 33])],
    'rev_offset': [('i32', [-5, 1, 40])],
    'rev_loop': [('i32', [-5, 7, 40])],
    'wrap_trip': [('u32', [0, 10, 100])],
    'guarded_trip': [('i32', [-3, 10, 100])],
    'corr': [('i32', [2, 9, 33]), ('i32', [0, 3])],
}
SHAPES = [(1, 1), (1, 8), (3, 5), (1, 64), (2, 100)]  # (grid, block)
SIZE, HALF = 0x1000000, 0x800000  # pointers point mid-allocation
RANGE = re.compile(r'(read|write) \[0x([0-9a-f]+), 0x([0-9a-f]+)\)')


def launch(tool, src, name, scalars, grid, block):
    """Runs instance mode; returns {param: [(kind, lo, hi)]} relative to the
    pointer, and whether a launch check failed."""
    cmd = [tool, src, '--kernel', name, '--grid', str(grid), '--block', str(block)]
    nptr = 2 if name == 'corr' else 1
    bases = [SIZE * 2 * (k + 1) for k in range(nptr)]
    for b in bases:
        cmd += ['--alloc', f'0x{b:x}:0x{SIZE:x}']
    for kind, v in scalars:
        cmd += ['--arg', f'{kind}:{v}']
    for b in bases:
        cmd += ['--arg', f'ptr:0x{b + HALF:x}']
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    regions, failed = {}, False
    for line in out.split('\ninstance ', 1)[1].splitlines():
        m = re.match(r'\s+#(\d+) ', line)
        if not m:
            continue
        p = int(m.group(1))
        ptr = bases[p - len(scalars)] + HALF
        regions[p] = [(k[0].upper(), int(lo, 16) - ptr, int(hi, 16) - ptr)
                      for k, lo, hi in RANGE.findall(line)]
        failed |= 'fails' in line
    return regions, failed


def main():
    tool, src = sys.argv[1], sys.argv[2]
    runs = misses = widened = 0
    for name, params in CASES.items():
        for values in itertools.product(*[vals for _, vals in params]):
            scalars = [(kind, v) for (kind, _), v in zip(params, values)]
            for grid, block in SHAPES:
                regions, failed = launch(tool, src, name, scalars, grid, block)
                runs += 1
                widened += failed
                touched = {}
                for p, kind, elem in globals()[name](grid * block, *values):
                    touched.setdefault((p, kind), set()).add(4 * elem)
                for (p, kind), offs in sorted(touched.items()):
                    rs = [(lo, hi) for k, lo, hi in regions.get(p, []) if k == kind]
                    out = sorted(o for o in offs if not any(lo <= o and o + 4 <= hi for lo, hi in rs))
                    if out:
                        misses += 1
                        print(f'UNSOUND {name}{tuple(values)} grid={grid} block={block} #{p} {kind}: '
                              f'{len(out)} touched elements outside {rs}, first at byte {out[0]}')
    print(f'{runs} launches, {misses} unsound, {widened} widened by a failed launch check')
    return 1 if misses else 0


if __name__ == '__main__':
    sys.exit(main())
