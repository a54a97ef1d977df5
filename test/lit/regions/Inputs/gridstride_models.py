"""Python models of the kernels of gridstride_shapes.cu for touched_bytes.py:
each yields (parameter index, 'R' or 'W', element) for every element a
thread touches (T threads, a grid-stride loop of step T)."""


def _loop(T, n):
    for t in range(T):
        i = t
        while i < n:
            yield i
            i += T


def gs_size(T, n):
    for i in _loop(T, n):
        yield 1, 'W', i
        yield 2, 'R', i


gs_size_wide_step = gs_size
gs_size_wide = gs_size
gs_long_wide = gs_size


def gs_size_wide_int_n(T, n):
    # size_t i < int n: n converts to size_t, a negative n to above 2^63;
    # the values below keep it in [0, 2^31).
    yield from gs_size(T, n)
gs_long = gs_size
gs_u32 = gs_size
gs_int = gs_size


def gs_size_stride2(T, n):
    for i in _loop(T, n):
        yield 1, 'W', 2 * i + 1
        yield 2, 'R', i


gs_size_wide_stride2 = gs_size_stride2


def gs_2d_wide(T, H, W):
    # A 1-D launch: blockIdx.y = 0, blockDim.y = gridDim.y = 1, so every
    # thread walks all rows and its grid-stride columns.
    for r in range(H):
        for c in _loop(T, W):
            yield 2, 'W', r * W + c
            yield 3, 'R', r * W + c


def gs_size_reverse(T, n):
    for i in _loop(T, n):
        yield 1, 'W', i
        yield 2, 'R', n - 1 - i


def gs_size_offset(T, n, off):
    for i in _loop(T, n):
        yield 2, 'W', i
        yield 3, 'R', i + off


def col_int(T, K, N):
    for c in range(min(T, N)):
        for k in range(K):
            yield 3, 'R', k * N + c
        yield 2, 'W', c


col_long = col_int

N = [0, 1, 5, 100, 1000]
CASES = {
    'gs_size': [('u64', N)],
    'gs_size_wide_step': [('u64', N)],
    'gs_size_wide': [('u64', N)],
    'gs_size_wide_int_n': [('i32', N)],
    'gs_long_wide': [('i32', [-3] + N)],
    'gs_size_wide_stride2': [('u64', N)],
    'gs_2d_wide': [('u64', [0, 1, 3]), ('u64', [0, 1, 5, 100])],
    'gs_size_stride2': [('u64', N)],
    'gs_size_reverse': [('u64', N)],
    'gs_size_offset': [('u64', [0, 7, 300]), ('i64', [-50, 0, 3])],
    'gs_long': [('i64', [-3] + N)],
    'gs_u32': [('u32', N)],
    'gs_int': [('i32', [-3] + N)],
    'col_int': [('i32', [-2, 0, 1, 7]), ('i32', [0, 3, 70])],
    'col_long': [('i64', [-2, 0, 1, 7]), ('i64', [0, 3, 70])],
}
POINTERS = {name: 2 for name in CASES}
