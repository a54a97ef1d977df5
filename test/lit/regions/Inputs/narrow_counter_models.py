"""Python models of the kernels of narrow_counter_shapes.cu for
touched_bytes.py: each yields (parameter index, 'R' or 'W', element) for
every element a thread touches."""

U32 = 1 << 32


def rows_step(T, n):
    for t in range(T):
        for k in range(0, n, 3):
            yield 1, 'R', t * n + k
        yield 2, 'W', t


def rows_from(T, n, begin):
    for t in range(T):
        for k in range(begin, n + 1):
            yield 2, 'R', t * 8 + k
        yield 3, 'W', t


def rows_unsigned(T, n, begin):
    for t in range(T):
        for k in range(begin, n, 2):
            yield 2, 'W', t * 16 + k


def rows_do_while(T, n):
    for t in range(T):
        k = 0
        while True:
            yield 1, 'W', t * 4 + k
            k += 3
            if k >= n:
                break


def tile_rows(grid, block, n):
    for b in range(grid):
        for t in range(block):
            for k in range(0, n, block):
                if k + t < n:
                    yield 1, 'R', b * n + k + t
            yield 2, 'W', b * block + t


tile_rows.SHAPE = True

CASES = {
    'rows_step': [('i32', [-2, 0, 1, 5, 17])],
    'rows_from': [('i32', [-4, 0, 6]), ('i32', [-3, 0, 2])],
    'rows_unsigned': [('u32', [0, 1, 7, 16]), ('u32', [0, 1])],
    'rows_do_while': [('i32', [-1, 0, 1, 4, 10])],
    'tile_rows': [('i32', [0, 1, 7, 64, 150])],
}
POINTERS = {'rows_step': 2, 'rows_from': 2, 'rows_unsigned': 1, 'rows_do_while': 1,
            'tile_rows': 2}
