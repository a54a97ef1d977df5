"""Python models of the kernels of offset_guard_shapes.cu for
touched_bytes.py: (parameter index, 'R' or 'W', 4-byte element) for every
element a thread touches, with C's 32-bit arithmetic (c_ints.py). Signed
overflow is undefined in C, so the values keep every signed sum in range;
unsigned sums wrap."""

from c_ints import el, s32

M32 = 1 << 32


def plus1(T, n):
    for i in range(T):
        if i + 1 < n:
            yield 2, 'W', i
            yield 1, 'R', i + 1


def plus3_le(T, n):
    for i in range(T):
        if i + 3 <= n:
            yield 1, 'W', i


def minus2(T, n):
    for i in range(T):
        if i - 2 < n:
            yield 1, 'W', i


def window(T, m, n):
    for i in range(T):
        if i + 2 > m and i < n:
            yield 2, 'W', el(i - m)


def _vec_u(T):
    for t in range(T):
        i = s32(4 * t)  # 4 * gid wraps in unsigned arithmetic
        yield i, i >> 2  # i / 4 of a multiple of 4 (an exact shift)


def vec_tail_u(T, n):
    for i, q in _vec_u(T):
        if i + 3 < n:
            yield 2, 'W', el(q)
            yield 1, 'R', el(q)


def vec_tail_s(T, n):
    for g in range(T):
        if 4 * g + 3 < n:
            yield 1, 'W', g


def vec_head_u(T, n):
    for i, q in _vec_u(T):
        if i < n:
            yield 1, 'W', el(q)


def vec4_copy(T, n):
    for t in range(T):
        i = 4 * t
        if i + 3 < n:
            for k in range(4):
                yield 1, 'R', i + k
                yield 2, 'W', i + k
        else:
            for j in range(i, n):
                yield 1, 'R', j
                yield 2, 'W', j


def twice_minus1(T, n):
    for g in range(T):
        if 2 * g - 1 < n:
            yield 1, 'W', g


def wrap_plus2(T, n):
    for t in range(T):
        x = (t - 5) % M32
        if (x + 2) % M32 < n % M32:
            yield 1, 'W', el(x)


def eight_u(T, n):
    for t in range(T):
        i = (8 * t) % M32
        if (i + 7) % M32 < n % M32:
            yield 1, 'W', el(i // 8)


def _unrolled(grid, block, N, wrap):
    for b in range(grid):
        rem = N - 4 * block * b
        if wrap:
            rem %= M32
        for t in range(block):
            idx = t
            for _ in range(4):
                if idx >= rem:
                    break
                yield el(idx + 4 * block * b)
                idx += block


def unrolled4(grid, block, N):
    for e in _unrolled(grid, block, N, False):
        yield 2, 'W', e
        yield 1, 'R', e


unrolled4.SHAPE = True


def unrolled4_u(grid, block, N):
    for e in _unrolled(grid, block, N, True):
        yield 1, 'W', e


unrolled4_u.SHAPE = True


def triangle_sum(T, n, i):
    for j in range(T):
        if j < n - i:
            yield 2, 'W', el(i + j)


N = [-1, 0, 3, 10, 37, 200, 2147483647]
CASES = {
    'plus1': [('i32', N)],
    'plus3_le': [('i32', N)],
    'minus2': [('i32', [-2147483646, -1, 0, 3, 37])],
    'window': [('i32', [-3, 0, 5]), ('i32', [0, 4, 37, 2147483647])],
    'vec_tail_u': [('i32', N)],
    'vec_tail_s': [('i32', N)],
    'vec_head_u': [('i32', N)],
    'vec4_copy': [('i32', [-1, 0, 3, 10, 37, 803])],
    'twice_minus1': [('i32', N)],
    'wrap_plus2': [('i32', [-1, 0, 3, 37])],
    'eight_u': [('i32', [-1, 0, 3, 10, 37, 2147483647])],
    'unrolled4': [('i32', [-1, 0, 3, 10, 37, 200, 401, 2147483647])],
    'unrolled4_u': [('i32', [-1, 0, 3, 37, 200, 401])],
    'triangle_sum': [('i32', [-3, 0, 5, 40]), ('i32', [-2, 0, 3, 39])],
}
POINTERS = {'plus1': 2, 'plus3_le': 1, 'minus2': 1, 'window': 1, 'vec_tail_u': 2,
            'vec_tail_s': 1, 'vec_head_u': 1, 'vec4_copy': 2, 'twice_minus1': 1,
            'wrap_plus2': 1, 'eight_u': 1, 'unrolled4': 2, 'unrolled4_u': 1, 'triangle_sum': 1}
