"""Python models of the kernels of triangular_shapes.cu for touched_bytes.py:
each yields (parameter index, 'R' or 'W', element) for every element a
thread touches."""

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
# Pointer parameters per kernel, after its scalars (default 1).
POINTERS = {'corr': 2}
