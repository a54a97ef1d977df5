"""Python models of the kernels of bitwise_shapes.cu for touched_bytes.py:
(parameter index, 'R' or 'W', 4-byte element) for every element a thread
may touch. Data-dependent branches (bitonic's swap) are taken both ways.
Integers wrap as the kernels' 32-bit types do. An element outside the 16
MiB window of the allocation (i ^ -1 reads 16 GiB away) is replaced by the
window's edge on the same side: a region that misses the edge misses the
element too."""

from c_ints import el, s32

SHAPES = [(1, 8), (3, 5), (2, 100)]  # (grid, block)


def xor_read(T, n, j):
    for i in range(T):
        if i < n % (1 << 32):
            yield 2, 'R', el((i ^ j) & 0xffffffff)
            yield 3, 'W', i


def bitonic_step(T, j, k):
    for i in range(T):
        p = (i ^ j) & 0xffffffff
        if p > i:
            for e in (i, p):
                yield 2, 'R', el(e)
                yield 2, 'W', el(e)


def and_param(T, n, m):
    for i in range(min(T, n)):
        yield 2, 'R', s32(i & m)
        yield 3, 'W', i


def or_param(T, n, m):
    for i in range(min(T, n)):
        yield 2, 'R', s32(i | m)
        yield 3, 'W', i


def walsh_split(T, n, stride):
    half = int(n / 2)  # C's truncating division
    for t in range(T):
        for pos in range(t, half, T):
            lo = pos & s32(stride - 1)
            i0 = s32(((pos - lo) << 1) + lo)
            for e in (i0, s32(i0 + stride)):
                yield 2, 'R', el(e)
                yield 2, 'W', el(e)


CASES = {
    'xor_read': [('i32', [0, 5, 40]), ('u32', [0, 1, 5, 64])],
    'bitonic_step': [('i32', [-1, 0, 1, 4, 32]), ('i32', [0, 2, 8])],
    'and_param': [('i32', [0, 5, 40]), ('i32', [-8, -1, 0, 7, 1000])],
    'or_param': [('i32', [0, 5, 40]), ('i32', [0, 3, 64])],
    'walsh_split': [('i32', [0, 7, 64, 300]), ('i32', [1, 2, 8, 32])],
}
POINTERS = {'xor_read': 2, 'bitonic_step': 1, 'and_param': 2, 'or_param': 2, 'walsh_split': 1}
