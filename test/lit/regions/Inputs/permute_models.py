"""Python models of the kernels of permute_shapes.cu for touched_bytes.py:
(parameter index, 'R' or 'W', 4-byte element) for every element a thread
touches, with C's 32-bit wrapping and truncating division (c_ints.py)."""

from c_ints import div, el, rem, s32

SHAPES = [(1, 8), (3, 5), (2, 100), (7, 32)]  # (grid, block)


def coords(idx, N, NH, d):
    m = s32(NH * N * d)
    b, rest = div(idx, m), rem(idx, m)
    nd = s32(N * d)
    nh, rest = div(rest, nd), rem(rest, nd)
    return b, nh, div(rest, d), rem(rest, d)


def permute_qkv(T, B, N, NH, d):
    for idx in range(T):
        if idx < s32(B * NH * N * d):
            b, nh, n, c = coords(idx, N, NH, d)
            at = s32(b * N * 3 * NH * d + n * 3 * NH * d + nh * d + c)
            for p, off in ((4, 'q'), (5, 'k'), (6, 'v')):
                yield p, 'W', idx
            for j in range(3):
                yield 7, 'R', el(s32(at + j * NH * d))


def unpermute(T, B, N, NH, d):
    for idx in range(T):
        if idx < s32(B * NH * N * d):
            b, nh, n, c = coords(idx, N, NH, d)
            yield 4, 'W', el(s32(b * NH * N * d + n * NH * d + nh * d + c))
            yield 5, 'R', idx


def unpermute_reversed(T, B, N, NH, d):
    total = s32(B * NH * N * d)
    for idx in range(T):
        if idx < total:
            b, nh, n, c = coords(idx, N, NH, d)
            at = s32(b * NH * N * d + n * NH * d + nh * d + c)
            yield 4, 'W', el(s32(total - 1 - at))
            yield 5, 'R', idx


def nchw_to_nhwc(T, Nn, C, H, W):
    i = 0
    for t in range(T):
        i = t
        while i < s32(Nn * C * H * W):
            w, h = rem(i, W), rem(div(i, W), H)
            c, n = rem(div(i, s32(W * H)), C), div(i, s32(W * H * C))
            yield 4, 'W', el(s32((s32(n * H + h) * W + w) * C + c))
            yield 5, 'R', i
            i += T


def column_sum(grid, block, n, ld):
    for b in range(grid):
        for t in range(block):
            for i in range(t, n, block):
                yield 3, 'R', el(s32(s32(i * ld) + b))
            yield 2, 'W', b * block + t


column_sum.SHAPE = True


def column_sum_long(grid, block, n, ld):
    for b in range(grid):
        for t in range(block):
            for i in range(t, n, block):
                yield 3, 'R', el(i * ld + b)
            yield 2, 'W', b * block + t


column_sum_long.SHAPE = True


def column_scale_gs(T, n, ld, f):
    for t in range(T):
        for i in range(t, n, T):
            yield 3, 'R', el(s32(i * ld))
            yield 3, 'W', el(s32(i * ld))


CASES = {
    'permute_qkv': [('i32', [1, 2]), ('i32', [1, 3]), ('i32', [-2, 1, 2]), ('i32', [-3, 1, 4])],
    'unpermute': [('i32', [1, 3]), ('i32', [-1, 2, 5]), ('i32', [2, 3]), ('i32', [-2, 1, 4])],
    'unpermute_reversed': [('i32', [1, 3]), ('i32', [-1, 2, 5]), ('i32', [2, 3]), ('i32', [-2, 1, 4])],
    'nchw_to_nhwc': [('i32', [1, 2]), ('i32', [-3, 3]), ('i32', [2, 5]), ('i32', [1, 4])],
    'column_sum': [('i32', [-1, 0, 1, 7, 300]), ('i32', [-5, 0, 1, 3, 64])],
    'column_scale_gs': [('i32', [0, 5, 700]), ('i32', [-2, 1, 9]), ('f32', [2.0])],
    'column_sum_long': [('i64', [-1, 0, 7, 300]), ('i64', [-5, 0, 3, 64])],
}
POINTERS = {'permute_qkv': 4, 'unpermute': 2, 'unpermute_reversed': 2, 'nchw_to_nhwc': 2, 'column_sum': 2,
            'column_scale_gs': 1, 'column_sum_long': 2}
