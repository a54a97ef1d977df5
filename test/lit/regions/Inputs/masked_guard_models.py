"""Python models of masked_guard_shapes.cu for touched_bytes.py: (parameter
index, 'R' or 'W', 4-byte element) for every element a thread touches."""

from c_ints import el


def second_warp(grid, block, n):
    for b in range(grid):
        for t in range(32, min(block, 64)):
            yield 1, 'W', b * 32 + t - 32


def else_if_warp(grid, block, n):
    for b in range(grid):
        for t in range(min(block, 64)):
            yield 1, 'W', b * 32 + (t if t < 32 else t - 32)


def tiles_second_warp(grid, block, tiles):
    for b in range(grid):
        for i in range(tiles):
            for t in range(32, min(block, 64)):
                yield 1, 'W', el((b * tiles + i) * 32 + t - 32)


def lane0_slot(grid, block, n):
    for b in range(grid):
        for t in range(block):
            g = b * block + t
            if t % 32 == 0 and g // 32 < n:
                yield 1, 'W', g // 32
            if t & ~127 == 128:
                yield 1, 'W', t - 128


for _m in (second_warp, else_if_warp, tiles_second_warp, lane0_slot):
    _m.SHAPE = True

SHAPES = [(1, 1), (1, 33), (3, 64), (2, 100), (2, 256), (1, 1024)]
CASES = {
    'second_warp': [('i32', [0])],
    'else_if_warp': [('i32', [0])],
    'tiles_second_warp': [('i32', [-1, 0, 1, 3])],
    'lane0_slot': [('i32', [-1, 0, 1, 5, 100])],
}
