"""Models of corpus kernels whose regions changed when the region budget
became distinct nodes (what the launch path evaluates) instead of tree nodes
(SymbolicRange.cpp, regionCost): the analysis keeps a bound it used to drop
as too large, or keeps the form with guard facts it used to retry without.
For corpus_region_models.py, which merges KERNELS into its own: name ->
(corpus file, launch generator, model). A model returns {(param index,
'read' | 'write'): (element size, set of element indices)} for a launch.
C's signed overflow is undefined, so the generators keep every int product
of the kernels in range."""

from c_ints import div, rem
from launch_grid import pick, threads


def gid3(g, b):
    for bx, by, bz, tx, ty, tz in threads(g, b):
        yield bx * b[0] + tx, by * b[1] + ty, bz * b[2] + tz


def m_conv3d(g, b, a):
    ni, nj, nk = a[2], a[3], a[4]
    R, W = set(), set()
    plane = nj * nk
    for k, j, i in gid3(g, b):
        if 0 < i < ni - 1 and 0 < j < nj - 1 and 0 < k < nk - 1:
            c = (i * nj + j) * nk + k
            W.add(c)
            R.update((c, c - 1, c + 1, c - nk, c + nk, c - plane, c + plane,
                      c - plane - nk - 1, c + plane + nk + 1, c - plane + nk + 1,
                      c + plane - nk - 1))
    return {(0, 'read'): (4, R), (1, 'write'): (4, W)}


def gen_conv3d(r):
    g = (r.randint(1, 3), r.randint(1, 3), r.randint(1, 4))
    b = (pick(r, [1, 3, 8, 32]), pick(r, [1, 2, 8]), pick(r, [1, 1, 2]))
    dims = [-1, 0, 1, 2, 3, 4, 7, 20]
    return g, b, ['P', 'P'] + [('i32', pick(r, dims)) for _ in range(3)]


def m_median3x3(g, b, a):
    width, height = a[2], a[3]
    R, W = set(), set()
    for x, y, _ in gid3(g, b):
        if x >= width or y >= height:
            continue
        xm, xp = (x - 1 if x > 0 else 0), (x + 1 if x < width - 1 else width - 1)
        ym, yp = (y - 1 if y > 0 else 0), (y + 1 if y < height - 1 else height - 1)
        for yy in (ym, y, yp):
            for xx in (xm, x, xp):
                R.add(yy * width + xx)
        W.add(y * width + x)
    return {(0, 'read'): (1, R), (1, 'write'): (1, W)}


def gen_median(r):
    g = (r.randint(1, 3), r.randint(1, 3), 1)
    b = (pick(r, [1, 4, 16, 33]), pick(r, [1, 3, 8]), 1)
    dims = [-2, -1, 0, 1, 2, 5, 17, 40]
    return g, b, ['P', 'P', ('i32', pick(r, dims)), ('i32', pick(r, dims))]


def _bhnd(g, b, B, N, NH, d):
    for bx, by, bz, tx, ty, tz in threads(g, b):
        idx = bx * b[0] + tx
        if idx >= B * NH * N * d:
            continue
        tot = NH * N * d
        bb, rest = div(idx, tot), rem(idx, tot)
        h, rest = div(rest, N * d), rem(rest, N * d)
        yield idx, bb, h, div(rest, d), rem(rest, d)


def m_attention_permute(g, b, a):
    B, N, NH, d = a[4], a[5], a[6], a[7]
    Q, R = set(), set()
    for idx, bb, h, n, c in _bhnd(g, b, B, N, NH, d):
        Q.add(idx)
        src = ((bb * N + n) * 3 * NH + h) * d + c
        R.update((src, src + NH * d, src + 2 * NH * d))
    return {(0, 'write'): (4, Q), (1, 'write'): (4, set(Q)), (2, 'write'): (4, set(Q)),
            (3, 'read'): (4, R)}


def m_attention_unpermute(g, b, a):
    B, N, NH, d = a[2], a[3], a[4], a[5]
    R, W = set(), set()
    for idx, bb, h, n, c in _bhnd(g, b, B, N, NH, d):
        R.add(idx)
        W.add(((bb * N + n) * NH + h) * d + c)
    return {(0, 'write'): (4, W), (1, 'read'): (4, R)}


def _bhnd_sizes(r):
    # Positive sizes only: a zero or negative one divides by zero (C's
    # undefined behaviour) in every thread below the element count.
    return [('i32', pick(r, [1, 2, 3])), ('i32', pick(r, [1, 2, 5, 7])),
            ('i32', pick(r, [1, 2, 4])), ('i32', pick(r, [1, 3, 6, 8]))]


def gen_permute(r):
    g = (r.randint(1, 4), 1, 1)
    b = (pick(r, [1, 7, 32, 100]), 1, 1)
    return g, b, ['P', 'P', 'P', 'P'] + _bhnd_sizes(r)


def gen_unpermute(r):
    g = (r.randint(1, 4), 1, 1)
    b = (pick(r, [1, 7, 32, 100]), 1, 1)
    return g, b, ['P', 'P'] + _bhnd_sizes(r)


KERNELS = {
    'conv3d': ('stencil3d.cu', gen_conv3d, m_conv3d),
    'median3x3': ('image_ops.cu', gen_median, m_median3x3),
    'attention_permute': ('tensor_layout.cu', gen_permute, m_attention_permute),
    'attention_unpermute': ('tensor_layout.cu', gen_unpermute, m_attention_unpermute),
}
