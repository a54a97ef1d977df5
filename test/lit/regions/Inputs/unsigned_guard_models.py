"""Python models of the kernels of unsigned_guard_shapes.cu for
touched_bytes.py: (parameter index, 'R' or 'W', 4-byte element) for every
element a thread touches. The comparison is on 32-bit unsigned readings;
an int index is sign-extended into the address, an unsigned one
zero-extended."""

M32 = 1 << 32


def _shift(T, n, off, le):
    for t in range(T):
        x = t + off
        if (x % M32 <= n % M32) if le else (x % M32 < n % M32):
            yield 3, 'W', x
            yield 2, 'R', x


def ult_shift(T, n, off):
    return _shift(T, n, off, False)


def ule_shift(T, n, off):
    return _shift(T, n, off, True)


def ult_stencil(T, n):
    for x in range(T):
        for d in (-1, 0, 1):
            xx = x + d
            if xx % M32 < n % M32:
                yield 1, 'R', xx
        if x < n:
            yield 2, 'W', x


def ult_unsigned_math(T, n):
    for t in range(T):
        x = (t - 5) % M32
        if x < n % M32:
            yield 2, 'W', x
            yield 1, 'R', x


CASES = {
    'ult_shift': [('i32', [-1, 0, 5, 40]), ('i32', [-3, 0, 2])],
    'ule_shift': [('i32', [-1, 0, 5, 40]), ('i32', [-3, 0, 2])],
    'ult_stencil': [('i32', [-1, 0, 1, 7, 40])],
    'ult_unsigned_math': [('i32', [0, 3, 40])],
}
POINTERS = {name: 2 for name in CASES}
