"""Python models of region_budget_shapes.cu for touched_bytes.py: (parameter
index, 'R' or 'W', 4-byte element) for every element a thread touches, with
C's truncating remainder (c_ints.py). The values keep every signed int
operation of the kernels in range (C's overflow is undefined)."""

from c_ints import el, rem


def _strip(grid, block, pitch, strip):
    for b in range(grid):
        for t in range(block):
            g_row, g_col = b * (block * strip) + 1, t + 1  # blockIdx.y = 0
            for i in range(-1, strip + 1):
                yield 2, 'R', el((g_row + i) * pitch + g_col)
            yield 3, 'W', b * block + t


def strip_rows(grid, block, pitch, strip):
    yield from _strip(grid, block, pitch, strip)


def strip_rows_aligned(grid, block, align, strip):
    n_cols = block + 2
    pitch = n_cols + align - 1 - rem(n_cols + align - 1, align)
    yield from _strip(grid, block, pitch, strip)


strip_rows.SHAPE = strip_rows_aligned.SHAPE = True

CASES = {
    'strip_rows': [('i32', [-70, -1, 0, 3, 64, 1000]), ('i32', [-2, -1, 0, 1, 4])],
    'strip_rows_aligned': [('i32', [1, 3, 16, 64]), ('i32', [-2, -1, 0, 1, 4])],
}
POINTERS = {'strip_rows': 2, 'strip_rows_aligned': 2}
