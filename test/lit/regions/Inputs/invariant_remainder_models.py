"""Python models of invariant_remainder_shapes.cu for touched_bytes.py:
(parameter index, 'R' or 'W', 4-byte element) for every element a thread
touches, with C's truncating division and remainder (c_ints.py). Values
keep every signed int operation of the kernels in range (C's overflow is
undefined); a zero divisor is left out (C's division by zero is too)."""

from c_ints import el, rem


def pitch_rows(grid, block, n, a):
    pitch = n + a - 1 - rem(n + a - 1, a)
    for row in range(grid):
        for col in range(block):
            if col < n:
                yield 2, 'W', el(row * pitch + col)


pitch_rows.SHAPE = True


def rem_offset(grid, block, off, a):
    for _ in range(grid):
        for t in range(block):
            yield 2, 'W', el(rem(off, a) + t)


rem_offset.SHAPE = True


def rem_tail(grid, block, n, w):
    tail = rem(n, w)
    for _ in range(grid):
        for t in range(block):
            i = t
            while i < tail:
                yield 2, 'W', el(n - tail + i)
                i += block


rem_tail.SHAPE = True


CASES = {
    'pitch_rows': [('i32', [0, 1, 5, 64, 100]), ('i32', [1, 3, 32, 256])],
    'rem_offset': [('i32', [-100, -7, -1, 0, 6, 1000]), ('i32', [-9, -1, 1, 7, 64])],
    'rem_tail': [('i32', [-50, -3, 0, 5, 77, 1000]), ('i32', [-8, -1, 1, 8, 100])],
}
