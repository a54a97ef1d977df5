"""Python models of the kernels of equality_exit_shapes.cu for
touched_bytes.py: each yields (parameter index, 'R' or 'W', element) for
every element a thread touches."""

U32 = 1 << 32


def countdown(T, n):
    for i in range(min(T, n)):
        for j in range(i, -1, -1):
            yield 1, 'R', j
        yield 2, 'W', i


def countdown_stride(T, n):
    for i in range(min(T, n)):
        for j in range(i, -1, -3):
            yield 1, 'R', j
        yield 2, 'W', i


def chunked(T, n, chunk):
    for t in range(T):
        begin = t * chunk
        for i in range(begin, min(begin + chunk, n)):
            yield 2, 'R', i
            yield 3, 'W', i


def chunk_down(T, n, chunk):
    for t in range(T):
        begin = t * chunk
        for i in range(min(begin + chunk, n) - 1, begin - 1, -1):
            yield 2, 'W', i


def chunked_unsigned(T, n, chunk):
    for t in range(T):
        begin = (t * chunk) % U32
        for i in range(begin, min((begin + chunk) % U32, n)):
            yield 2, 'W', i


def chunked_size_t(T, n, chunk):
    for t in range(T):
        begin = t * chunk
        for i in range(begin, min(begin + chunk, n)):
            yield 2, 'W', i


def step2_ne(T, base, length):
    for t in range(T):
        begin = base + 3 * t
        for i in range(begin, begin + 2 * length, 2):
            yield 2, 'W', i


def early_exit(T, n, chunk, stop):
    for t in range(T):
        begin = t * chunk
        for i in range(begin, min(begin + chunk, n)):
            if i == stop:
                break
            yield 3, 'W', i


def ptr_walk(T, length):
    for t in range(T):
        for i in range(2 * t, 2 * t + length):
            yield 1, 'R', i
        yield 2, 'W', t


def row_chunk(T, ld, c0, c1):
    for r in range(T):
        for c in range(c0 + r % 3, min(c1, ld)):
            yield 3, 'W', r * ld + c


CASES = {
    'countdown': [('i32', [0, 1, 6, 70])],
    'countdown_stride': [('i32', [1, 7, 70])],
    'chunked': [('i32', [0, 5, 37, 300]), ('i32', [-3, 0, 1, 3, 7])],
    'chunk_down': [('i32', [0, 5, 37, 300]), ('i32', [-3, 1, 3, 7])],
    'chunked_unsigned': [('u32', [0, 5, 300]), ('u32', [0, 1, 7])],
    'chunked_size_t': [('i32', [0, 5, 300]), ('i32', [1, 7])],
    'step2_ne': [('i32', [-40, 0, 9]), ('i32', [0, 1, 5])],
    'early_exit': [('i32', [5, 300]), ('i32', [1, 7]), ('i32', [-1, 3, 12])],
    'ptr_walk': [('i32', [0, 1, 5, 9])],
    'row_chunk': [('i32', [4, 9]), ('i32', [-2, 0, 3]), ('i32', [0, 5, 20])],
}
POINTERS = {'countdown': 2, 'countdown_stride': 2, 'chunked': 2, 'ptr_walk': 2}
