"""Python models of the kernels of loaded_index_shapes.cu for
touched_bytes.py: (parameter index, 'R' or 'W', 4-byte element) for every
element a thread may touch. The loaded ids may hold any value, so every
table element the index expression can produce is touched once any thread
passes its guard."""


def _ids(T, n, p, words=1):
    k = max(0, min(T, n))
    for i in range(k):
        for w in range(words):
            yield p, 'R', words * i + w


def _table(T, n, p, elems):
    if min(T, n) > 0:
        for e in elems:
            yield p, 'W', e


def shr_u32(T, n):
    yield from _ids(T, n, 1)
    yield from _table(T, n, 2, range(1024))


def shr_s32(T, n):
    yield from _ids(T, n, 1)
    yield from _table(T, n, 2, range(-128, 128))


def shr_u64(T, n):
    yield from _ids(T, n, 1, words=2)
    yield from _table(T, n, 2, range(1024))


def radix_digit(T, n):
    yield from _ids(T, n, 1)
    yield from _table(T, n, 2, range(256))


def urem_param(T, n, m):
    yield from _ids(T, n, 2)
    yield from _table(T, n, 3, range(m))


def urem_const(T, n):
    yield from _ids(T, n, 1)
    yield from _table(T, n, 2, range(100))


def urem_row(T, n, m):
    yield from _ids(T, n, 2)
    for i in range(max(0, min(T, n))):
        for e in range(m):
            yield 3, 'W', i * m + e


def urem_sum(T, n, m):
    yield from _ids(T, n, 2)
    yield from _table(T, n, 3, range(m))


def urem_wide(T, n, m):
    yield from _ids(T, n, 2, words=2)
    yield from _table(T, n, 3, range(m))


def clamp_select(T, n, v):
    yield from _ids(T, n, 2)
    yield from _table(T, n, 3, range(v) if v >= 1 else [0, v - 1])


def clamp_unsigned(T, n, v):
    yield from _ids(T, n, 2)
    yield from _table(T, n, 3, range(max(v, 1)))


def ne_guard(T, n, v, ign):
    yield from _ids(T, n, 3)
    yield from _table(T, n, 4, [e for e in range(v) if e != ign])


def eq_guard(T, n, v):
    yield from _ids(T, n, 2)
    yield from _table(T, n, 3, [v])


def eq_fixup(T, n, m):
    yield from _ids(T, n, 2)
    yield from _table(T, n, 3, list(range(16)) + [m - 1])


CASES = {
    'shr_u32': [('i32', [0, 5, 40])],
    'shr_s32': [('i32', [0, 5, 40])],
    'shr_u64': [('i32', [0, 5, 40])],
    'radix_digit': [('i32', [0, 5, 40])],
    'urem_param': [('i32', [0, 5, 40]), ('u32', [1, 3, 100])],
    'urem_const': [('i32', [0, 5, 40])],
    'urem_row': [('i32', [0, 5, 40]), ('u32', [1, 3, 100])],
    'urem_sum': [('i32', [0, 5, 40]), ('u32', [1, 3, 100])],
    'urem_wide': [('i32', [0, 5, 40]), ('u64', [1, 3, 100])],
    'clamp_select': [('i32', [0, 5, 40]), ('i32', [-3, 0, 1, 7])],
    'clamp_unsigned': [('i32', [0, 5, 40]), ('u32', [0, 1, 9])],
    'ne_guard': [('i32', [0, 5, 40]), ('i32', [0, 1, 9]), ('i32', [-100, 0, 4])],
    'eq_guard': [('i32', [0, 5, 40]), ('i32', [-3, 0, 7])],
    'eq_fixup': [('i32', [0, 5, 40]), ('i32', [-2, 1, 30])],
}
POINTERS = {name: 2 for name in CASES}
