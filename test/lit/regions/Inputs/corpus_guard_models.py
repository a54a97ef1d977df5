"""Models of corpus kernels whose regions guards on an offset or multiple
of the index made tighter (`i + 1 < n` over a[i], interior tests `i < n - 1`
over a[i + 1], SymbolicRangeGuards.cpp's scaledOffsetFrom), for
corpus_region_models.py, which merges KERNELS into its own: name -> (corpus
file, launch generator, model). A model returns {(param index, 'read' |
'write'): (element size, set of element indices)} for a launch."""

from launch_grid import pick, threads


def gid2(g, b):
    for bx, by, bz, tx, ty, tz in threads(g, b):
        yield bx * b[0] + tx, by * b[1] + ty


def m_odd_even_step(g, b, a):
    n, phase = a[1], a[2]
    s = set()
    for x, _ in gid2(g, b):
        i = 2 * x + (phase & 1)
        if i + 1 < n:
            s.update((i, i + 1))
    return {(0, 'read'): (4, s), (0, 'write'): (4, set(s))}


def _interior(g, b, n):
    for j, i in gid2(g, b):
        if 1 <= i < n - 1 and 1 <= j < n - 1:
            yield i, j


def m_jacobi2d_step(g, b, a):
    n = a[0]
    R, W = set(), set()
    for i, j in _interior(g, b, n):
        W.add(i * n + j)
        R.update((i * n + j, i * n + j - 1, i * n + j + 1, (i + 1) * n + j, (i - 1) * n + j))
    return {(1, 'read'): (4, R), (2, 'write'): (4, W)}


def m_jacobi2d_copy(g, b, a):
    n = a[0]
    s = {i * n + j for i, j in _interior(g, b, n)}
    return {(1, 'write'): (4, s), (2, 'read'): (4, set(s))}


def m_conv2d(g, b, a):
    ni, nj = a[0], a[1]
    R, W = set(), set()
    for col, row in gid2(g, b):
        if 0 < row < ni - 1 and 0 < col < nj - 1:
            W.add(row * nj + col)
            R.update((row + dr) * nj + col + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    return {(2, 'read'): (4, R), (3, 'write'): (4, W)}


def m_sor_red(g, b, a):
    n = a[2]
    U, F, W = set(), set(), set()
    for x, y in gid2(g, b):
        j, i = x + 1, y + 1
        if i < n - 1 and j < n - 1 and (i + j) & 1 == 0:
            idx = i * n + j
            U.update((idx - n, idx + n, idx - 1, idx + 1, idx))
            F.add(idx)
            W.add(idx)
    return {(0, 'read'): (4, U), (1, 'read'): (4, F), (0, 'write'): (4, W)}


def m_gauss_fan2(g, b, a):
    n, t = a[3], a[4]
    M, A, AW, B, BW = set(), set(), set(), set(), set()
    for x, y in gid2(g, b):
        if x >= n - 1 - t or y >= n - t:
            continue
        r, c = x + 1 + t, y + t
        M.add(r * n + t)
        A.update((r * n + c, t * n + c))
        AW.add(r * n + c)
        if y == 0:
            B.update((r, t))
            BW.add(r)
    return {(0, 'read'): (4, M), (1, 'read'): (4, A), (1, 'write'): (4, AW),
            (2, 'read'): (4, B), (2, 'write'): (4, BW)}


def m_conv1d_constant(g, b, a):
    n = a[2]
    R, W = set(), set()
    for i, _ in gid2(g, b):
        if i < n:
            W.add(i)
            R.update(j for j in range(i - 4, i + 5) if 0 <= j < n)
    return {(0, 'read'): (4, R), (1, 'write'): (4, W)}


def gen_odd_even(r):
    g = (r.randint(1, 4), 1, 1)
    b = (pick(r, [1, 7, 32, 33, 64, 100]), 1, 1)
    return g, b, ['P', ('i32', pick(r, [-1, 0, 1, 2, 3, 10, 63, 64, 65, 200, 900])),
                  ('i32', pick(r, [-1, 0, 1, 2, 3]))]


def gen_square2d(r, first_n):
    g = (r.randint(1, 3), r.randint(1, 3), 1)
    b = (pick(r, [1, 3, 8, 16, 32]), pick(r, [1, 2, 5, 8]), 1)
    n = pick(r, [-1, 0, 1, 2, 3, 4, 17, 33, 70])
    return g, b, ([('i32', n), 'P', 'P'] if first_n else ['P', 'P', ('i32', n)])


def gen_conv2d(r):
    g = (r.randint(1, 3), r.randint(1, 3), 1)
    b = (pick(r, [1, 3, 8, 16, 32]), pick(r, [1, 2, 5, 8]), 1)
    dims = [-1, 0, 1, 2, 3, 4, 17, 33, 70]
    return g, b, [('i32', pick(r, dims)), ('i32', pick(r, dims)), 'P', 'P']


def gen_sor(r):
    g, b, args = gen_square2d(r, False)
    return g, b, args + [('f32', 1.5), ('f32', 0.01)]


def gen_gauss_fan2(r):
    g = (r.randint(1, 3), r.randint(1, 3), 1)
    b = (pick(r, [1, 3, 8, 16]), pick(r, [1, 2, 5, 8]), 1)
    n = pick(r, [-1, 0, 1, 2, 3, 5, 17, 40])
    t = pick(r, [-2, -1, 0, 1, 2, 4, 16, 39])
    return g, b, ['P', 'P', 'P', ('i32', n), ('i32', t)]


def gen_conv1d(r):
    g = (r.randint(1, 4), 1, 1)
    b = (pick(r, [1, 5, 32, 33, 100]), 1, 1)
    return g, b, ['P', 'P', ('i32', pick(r, [-1, 0, 1, 3, 4, 5, 9, 50, 300]))]


KERNELS = {
    'odd_even_step': ('odd_even_sort.cu', gen_odd_even, m_odd_even_step),
    'jacobi2d_step': ('jacobi2d.cu', lambda r: gen_square2d(r, True), m_jacobi2d_step),
    'jacobi2d_copy': ('jacobi2d.cu', lambda r: gen_square2d(r, True), m_jacobi2d_copy),
    'conv2d': ('conv2d.cu', gen_conv2d, m_conv2d),
    'sor_red': ('sor_redblack.cu', gen_sor, m_sor_red),
    'gauss_fan2': ('rodinia_grid.cu', gen_gauss_fan2, m_gauss_fan2),
    'conv1d_constant': ('constant_memory.cu', gen_conv1d, m_conv1d_constant),
}
