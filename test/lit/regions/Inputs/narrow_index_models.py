"""Python models of the kernels of narrow_index_shapes.cu for
touched_bytes.py: each yields (parameter index, 'R' or 'W', element) for
every element a thread touches (T threads, a grid-stride loop of step T).
The index follows C++ exactly: i += G adds in unsigned 32 bits and converts
back to i's type modulo 2^bits; i < n converts i to n's type (sign-extends a
signed i into size_t); n - 1 - GID is size_t arithmetic truncated to int. A
thread whose index never fails the test loops forever over the same values:
the walk stops at the first repeated index."""

M64 = 1 << 64


def wrap(v, bits, signed):
    v %= 1 << bits
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


def to_size_t(i):
    return i % M64


def _walk(T, start, bits, signed, keep_going, step=1):
    for t in range(T):
        i, seen = wrap(start(t), bits, signed), set()
        while keep_going(i) and i not in seen:
            seen.add(i)
            yield i
            i = wrap(i + step * T, bits, signed)


def _copy(indices, w=lambda i: i, r=lambda i: i, p=1):
    for i in indices:
        yield p, 'W', w(i)
        yield p + 1, 'R', r(i)


def int_size(T, n):
    return _copy(_walk(T, lambda t: t, 32, True, lambda i: to_size_t(i) < n))


def uns_size(T, n):
    return _copy(_walk(T, lambda t: t, 32, False, lambda i: i < n))


def int_long(T, n):
    return _copy(_walk(T, lambda t: t, 32, True, lambda i: i < n))


uns_long = uns_size  # unsigned int converts to long: i >= 0 compared as is


def int_size_le(T, n):
    return _copy(_walk(T, lambda t: t, 32, True, lambda i: to_size_t(i) <= n))


def int_long_le(T, n):
    return _copy(_walk(T, lambda t: t, 32, True, lambda i: i <= n))


def int_size_stride2(T, n):
    return _copy(_walk(T, lambda t: t, 32, True, lambda i: to_size_t(i) < n),
                 w=lambda i: 2 * i + 1)


def uns_size_stride3(T, n):
    return _copy(_walk(T, lambda t: t, 32, False, lambda i: i < n), w=lambda i: 3 * i)


def int_size_reverse(T, n):
    # n - 1 - i is size_t arithmetic: an element index modulo 2^64
    return _copy(_walk(T, lambda t: t, 32, True, lambda i: to_size_t(i) < n),
                 r=lambda i: wrap(n - 1 - i, 64, True))


def int_size_offset(T, n, off):
    return _copy(_walk(T, lambda t: t, 32, True, lambda i: to_size_t(i) < n),
                 r=lambda i: i + off, p=2)


def int_size_start(T, n):
    return _copy(_walk(T, lambda t: t + 3, 32, True, lambda i: to_size_t(i) < n),
                 w=lambda i: i - 3)


def int_size_step2(T, n):
    return _copy(_walk(T, lambda t: t, 32, True, lambda i: to_size_t(i) < n, step=2))


def int_uns(T, n):
    # int i converts to unsigned for i < n
    return _copy(_walk(T, lambda t: t, 32, True, lambda i: i % (1 << 32) < n))


def int_size_down(T, n):
    return _copy(_walk(T, lambda t: (n - 1 - t) % M64, 32, True, lambda i: i >= 0, step=-1))


def short_size(T, n):
    return _copy(_walk(T, lambda t: t, 16, True, lambda i: to_size_t(i) < n))


def ushort_size(T, n):
    return _copy(_walk(T, lambda t: t, 16, False, lambda i: i < n))


def short_long(T, n):
    return _copy(_walk(T, lambda t: t, 16, True, lambda i: i < n))


ushort_long = ushort_size


def short_size_le(T, n):
    return _copy(_walk(T, lambda t: t, 16, True, lambda i: to_size_t(i) <= n))


def short_size_stride2(T, n):
    # 2 * i + 1 is int arithmetic on the promoted short: no wrap
    return _copy(_walk(T, lambda t: t, 16, True, lambda i: to_size_t(i) < n),
                 w=lambda i: 2 * i + 1)


N = [0, 1, 5, 64, 100, 1000]
SIGNED = [-3] + N
# Past the 16-bit range the index wraps: to negative values, or back to 0
# (both loop forever where n exceeds every value the index can take).
N16 = [0, 100, 32768, 40000, 70000]
SIGNED16 = [-3] + N16
# int_size_down truncates n - 1 - GID to int: small or negative starts.
HUGE = [(1 << 32) + 5, (1 << 32) + 100, (1 << 63) + 3, M64 - 1]
CASES = {
    'int_size': [('u64', N)],
    'uns_size': [('u64', N)],
    'int_long': [('i64', SIGNED)],
    'uns_long': [('i64', SIGNED)],
    'int_size_le': [('u64', N)],
    'int_long_le': [('i64', SIGNED)],
    'int_size_stride2': [('u64', N)],
    'uns_size_stride3': [('u64', N)],
    'int_size_reverse': [('u64', N)],
    'int_size_offset': [('u64', [0, 7, 300]), ('i64', [-50, 0, 3])],
    'int_size_start': [('u64', [0, 2, 3, 4, 100])],
    'int_size_step2': [('u64', N)],
    'int_uns': [('u32', N)],
    'int_size_down': [('u64', N + HUGE)],
    'short_size': [('u64', N16)],
    'ushort_size': [('u64', N16)],
    'short_long': [('i64', SIGNED16)],
    'ushort_long': [('i64', SIGNED16)],
    'short_size_le': [('u64', N16)],
    'short_size_stride2': [('u64', N16)],
}
POINTERS = {name: 2 for name in CASES}
