"""Models of the corpus kernels whose regions the loop-bound changes of the
twentieth session made tighter (per-thread chunks, latch tests of narrow
indices, equality exits), and of those that index splits, sign-checked
products and column walks made tighter later, for corpus_region_models.py,
which merges KERNELS into its own: name -> (corpus file, launch generator,
model)."""

from c_ints import div as tdiv  # C integer division (truncation toward zero)
from launch_grid import pick, threads


# --------------------------------------------------------------------------
# Models. Each returns {(param_index, 'read'|'write'): (elem_size, set(elem))}
# (element index relative to the pointer argument), or for spmm a special
# 'residue' spec.

def m_layernorm_rows(g, b, a):
    rows, cols = a[4], a[5]
    gam, bet = set(), set()
    for bx, by, bz, tx, ty, tz in threads(g, b):
        row = bx * b[1] + ty
        lane = tx
        if row >= rows:
            continue
        for c in range(lane, cols, 32):
            gam.add(c); bet.add(c)
    return {(2, 'read'): (4, gam), (3, 'read'): (4, bet)}


def m_histogram_shared(g, b, a):
    n = a[2]
    s = set()
    T = b[0] * g[0]
    for bx, by, bz, tx, ty, tz in threads(g, b):
        # the block privatises >= 1 element iff some of its threads has i < n;
        # then local[data[i]] != 0 for any bin value (data arbitrary).
        block_works = bx * b[0] < n
        if not block_works:
            continue
        for bb in range(tx, 256, b[0]):
            s.add(bb)
    return {(1, 'read'): (4, s), (1, 'write'): (4, set(s))}


def m_fir_halo(g, b, a):
    n, ntaps = a[3], a[4]
    nt = ntaps if ntaps < 32 else 32
    s, X, Y = set(), set(), set()
    for bx, by, bz, tx, ty, tz in threads(g, b):
        for k in range(tx, nt, b[0]):
            s.add(k)
        base = bx * 256
        for j in range(tx, 256 + nt - 1, b[0]):
            if 0 <= base - (nt - 1) + j < n:
                X.add(base - (nt - 1) + j)
        for j in range(tx, 256, b[0]):
            if base + j < n:
                Y.add(base + j)
    return {(1, 'read'): (4, s), (0, 'read'): (4, X), (2, 'write'): (4, Y)}


def m_gemv_warp(g, b, a):
    m, n = a[3], a[4]
    xs = set()
    for bx, by, bz, tx, ty, tz in threads(g, b):
        warp = (bx * b[0] + tx) >> 5
        lane = tx & 31
        if warp >= m:
            continue
        for j in range(lane, n, 32):
            xs.add(j)
    return {(1, 'read'): (4, xs)}


def m_gemv_warp_gs(g, b, a):
    m, n = a[3], a[4]
    xs, ys = set(), set()
    warps = (g[0] * b[0]) >> 5
    for bx, by, bz, tx, ty, tz in threads(g, b):
        lane = tx & 31
        r = (bx * b[0] + tx) >> 5
        while r < m:
            assert warps > 0
            for j in range(lane, n, 32):
                xs.add(j)
            if lane == 0:
                ys.add(r)
            r += warps
    return {(1, 'read'): (4, xs), (2, 'write'): (4, ys)}


def m_dequant_int4_gemv(g, b, a):
    rows, cols, gs = a[4], a[5], a[6]
    sc, xs = set(), set()
    for bx, by, bz, tx, ty, tz in threads(g, b):
        row = bx * b[1] + ty
        lane = tx
        if row >= rows:
            continue
        nbytes = tdiv(cols, 2)
        ngroups = tdiv(cols, gs)
        for bb in range(lane, nbytes, 32):
            c = 2 * bb
            sc.add(row * ngroups + tdiv(c, gs))
            xs.add(c); xs.add(c + 1)
    return {(1, 'read'): (4, sc), (2, 'read'): (4, xs)}


def m_rms_norm_vec4(g, b, a):
    rows, hidden = a[3], a[4]
    w = set()
    for bx, by, bz, tx, ty, tz in threads(g, b):
        row = bx
        if row >= rows:
            continue
        n4 = tdiv(hidden, 4)
        for i in range(tx, n4, b[0]):
            w.add(i)
    return {(1, 'read'): (16, w)}


def m_covar_symmat(g, b, a):
    m, n = a[0], a[1]
    d = set()
    for bx, by, bz, tx, ty, tz in threads(g, b):
        j1 = bx * b[0] + tx
        if j1 < m:
            for j2 in range(j1, m):
                for i in range(n):
                    d.add(i * m + j1); d.add(i * m + j2)
    return {(2, 'read'): (4, d)}


def m_corr_symmat(g, b, a):
    m, n = a[0], a[1]
    d = set()
    for bx, by, bz, tx, ty, tz in threads(g, b):
        j1 = bx * b[0] + tx
        if j1 < m - 1:
            for j2 in range(j1 + 1, m):
                for i in range(n):
                    d.add(i * m + j1); d.add(i * m + j2)
    return {(3, 'read'): (4, d)}


def m_adi_row_backward(g, b, a):
    n = a[0]
    A, B, XR, XW = set(), set(), set(), set()
    for bx, by, bz, tx, ty, tz in threads(g, b):
        i = bx * b[0] + tx
        if i < n:
            for j in range(0, n - 2):
                c = n - 2 - j
                XR.add(i * n + c); XR.add(i * n + c - 1)
                A.add(i * n + c - 1); B.add(i * n + c - 1)
                XW.add(i * n + c)
    return {(1, 'read'): (4, A), (2, 'read'): (4, B), (3, 'read'): (4, XR), (3, 'write'): (4, XW)}


def m_spmm_csr_warp(g, b, a):
    # B[col_idx[p]*k + j]: col_idx[p] arbitrary int (no overflow), row_ptr
    # arbitrary (any p range).  Worst case: every element x with
    # x mod k in J, J = the j values of active lanes, restricted to the
    # allocation.
    m, k = a[0], a[1]
    J = set()
    for bx, by, bz, tx, ty, tz in threads(g, b):
        row = (bx * b[0] + tx) // 32
        lane = tx & 31
        if row >= m:
            continue
        for j in range(lane, k, 32):
            J.add(j)
    return {(5, 'read'): ('residue', k, J)}


def m_sssp_push_relax(g, b, a):
    degree, n = a[2], a[4]
    s = set()
    for bx, by, bz, tx, ty, tz in threads(g, b):
        v = bx * b[0] + tx
        if v >= n:
            continue
        # dist[v] < 0x3fffffff possible (data-dependent): take the union
        for e in range(v * degree, v * degree + degree):
            s.add(e)
    return {(0, 'read'): (4, s), (1, 'read'): (4, set(s))}


def m_gemm_tiled16(g, b, a):
    M, N, K = a[3], a[4], a[5]
    A, B = set(), set()
    ntiles = tdiv(K + 15, 16)
    for bx, by, bz, tx, ty, tz in threads(g, b):
        row = by * 16 + ty
        col = bx * 16 + tx
        for t in range(ntiles):
            a_col = t * 16 + tx
            b_row = t * 16 + ty
            if row < M and a_col < K:
                A.add(row * K + a_col)
            if b_row < K and col < N:
                B.add(b_row * N + col)
    return {(0, 'read'): (4, A), (1, 'read'): (4, B)}


def m_gemm_tiled16_async(g, b, a):
    M, N, K = a[3], a[4], a[5]
    A = set()
    tiles = tdiv(K + 15, 16)
    for bx, by, bz, tx, ty, tz in threads(g, b):
        row = by * 16 + ty
        col = bx * 16 + tx

        def stage(r, c, rows, cols, ld):
            if r < rows and c < cols:
                A.add(r * ld + c)
        stage(row, tx, M, K, K)
        for t in range(tiles):
            if t + 1 < tiles:
                stage(row, (t + 1) * 16 + tx, M, K, K)
    return {(0, 'read'): (4, A)}


def m_stencil3d_7pt(g, b, a):
    nx, ny, nz = a[4], a[5], a[6]
    R, W = set(), set()
    for bx, by, bz, tx, ty, tz in threads(g, b):
        i, j = bx * b[0] + tx, by * b[1] + ty
        if i < 1 or i >= nx - 1 or j < 1 or j >= ny - 1:
            continue
        for k in range(1, nz - 1):
            idx = i + nx * (j + ny * k)
            W.add(idx)
            R.update((idx, idx - 1, idx + 1, idx - nx, idx + nx, idx - nx * ny, idx + nx * ny))
    return {(2, 'read'): (4, R), (3, 'write'): (4, W)}


def m_mm3_kernel3(g, b, a):
    ni, nj, nl = a[0], a[1], a[2]
    E, F = set(), set()
    for bx, by, bz, tx, ty, tz in threads(g, b):
        idx = bx * b[0] + tx
        if idx < ni * nl:
            i = tdiv(idx, nl)
            j = idx - i * nl
            for k in range(nj):
                E.add(i * nj + k)
                F.add(k * nl + j)
    return {(3, 'read'): (4, E), (4, 'read'): (4, F)}


def m_scalar_prod(g, b, a):
    vn, en = a[3], a[4]
    s = set()
    for bx, by, bz, tx, ty, tz in threads(g, b):
        for vec in range(bx, vn, g[0]):
            for slot in range(tx, 256, b[0]):
                for pos in range(slot, en, 256):
                    s.add(vec * en + pos)
    return {(1, 'read'): (4, s), (2, 'read'): (4, set(s))}


def m_prefix_rows(g, b, a):
    n, m = a[2], a[3]
    R, W = set(), set()
    T = g[0] * b[0]
    for bx, by, bz, tx, ty, tz in threads(g, b):
        for i in range(bx * b[0] + tx, n, T):
            for j in range(m):
                R.update(i * m + l for l in range(j + 1))
                W.add(i * m + j)
    return {(0, 'read'): (4, R), (1, 'write'): (4, W)}


def m_first_match(g, b, a):
    n, m = a[2], a[3]
    R = set()
    T = g[0] * b[0]
    for bx, by, bz, tx, ty, tz in threads(g, b):
        for i in range(bx * b[0] + tx, n, T):
            R.update(i * m + j for j in range(m))  # any j may be the last read
    return {(0, 'read'): (4, R)}


HS_B = 16


def m_hotspot_pyramid(g, b, a):
    iteration, cols, rows, bcols, brows = a[0], a[4], a[5], a[6], a[7]
    R, W = set(), set()
    span = HS_B - 2 * iteration
    for bx, by, bz, tx, ty, tz in threads(g, b):
        y0, x0 = span * by - brows, span * bx - bcols
        y, x = y0 + ty, x0 + tx
        idx = cols * y + x
        if 0 <= y < rows and 0 <= x < cols:
            R.add(idx)
        ylo, xlo = (-y0 if y0 < 0 else 0), (-x0 if x0 < 0 else 0)
        yhi = rows - 1 - y0 if y0 + HS_B - 1 > rows - 1 else HS_B - 1
        xhi = cols - 1 - x0 if x0 + HS_B - 1 > cols - 1 else HS_B - 1
        it = iteration - 1  # done is what the last iteration set
        if (iteration >= 1 and it < tx < HS_B - 1 - it and it < ty < HS_B - 1 - it
                and xlo <= tx <= xhi and ylo <= ty <= yhi):
            W.add(idx)
    return {(1, 'read'): (4, R), (2, 'read'): (4, set(R)), (3, 'write'): (4, W)}


# --------------------------------------------------------------------------
# Launch generators: return (grid, block, args) with args = list of values,
# pointers as 'P'.

def gen_layernorm(r):
    g = (r.randint(1, 6), pick(r, [1, 1, 1, 2]), 1)
    b = (pick(r, [32] * 6 + [1, 16, 31, 33, 48, 64]), r.randint(1, 5), 1)
    rows = pick(r, [-1, 0, 1, 2, 3, 4, 5, 7, 9, 13, 20, 30])
    cols = pick(r, [-1, 0, 1, 2, 3, 5, 16, 31, 32, 33, 63, 64, 65, 100, 129])
    return g, b, ['P', 'P', 'P', 'P', ('i32', rows), ('i32', cols), ('f32', '0.00001')]


def gen_histogram(r):
    g = (r.randint(1, 6), 1, 1)
    b = (pick(r, [1, 3, 31, 32, 33, 100, 255, 256, 257, 300, 512]), pick(r, [1] * 5 + [2]), 1)
    n = pick(r, [-5, 0, 1, 2, 3, 31, 32, 33, 100, 255, 256, 257, 500, 1000, 2000, r.randint(0, 3000)])
    return g, b, ['P', 'P', ('i32', n)]


def gen_fir(r):
    g = (r.randint(1, 4), 1, 1)
    b = (pick(r, [1, 5, 16, 31, 32, 33, 64, 96, 100, 256]), 1, 1)
    n = pick(r, [-1, 0, 1, 10, 255, 256, 257, 300, 700])
    nt = pick(r, [-3, -1, 0, 1, 2, 3, 5, 16, 17, 31, 32, 33, 40, 100])
    return g, b, ['P', 'P', 'P', ('i32', n), ('i32', nt)]


def gen_gemv(r, gs=False):
    while True:
        g = (r.randint(1, 6), 1, 1)
        b = (pick(r, [1, 8, 16, 31, 32, 33, 40, 64, 96, 100, 128]), 1, 1)
        m = pick(r, [-1, 0, 1, 2, 3, 5, 8, 13, 20])
        n = pick(r, [-1, 0, 1, 2, 3, 5, 31, 32, 33, 63, 64, 65, 100])
        if gs and g[0] * b[0] < 32 and m > 0:
            continue  # warps == 0: infinite loop (UB)
        return g, b, ['P', 'P', 'P', ('i32', m), ('i32', n)]


def gen_dequant(r):
    g = (r.randint(1, 5), 1, 1)
    b = (pick(r, [32] * 5 + [1, 16, 33, 40, 64]), r.randint(1, 4), 1)
    rows = pick(r, [-1, 0, 1, 2, 3, 5, 7, 10])
    cols = pick(r, [-2, 0, 1, 2, 3, 7, 8, 16, 31, 32, 63, 64, 65, 66, 128, 130, 200])
    gsz = pick(r, [1, 2, 3, 4, 5, 8, 16, 32, 64, 128, -4])
    return g, b, ['P', 'P', 'P', 'P', ('i32', rows), ('i32', cols), ('i32', gsz)]


def gen_rms(r):
    g = (r.randint(1, 5), 1, 1)
    b = (pick(r, [1, 4, 31, 32, 33, 64, 100, 128]), pick(r, [1] * 5 + [2]), 1)
    rows = pick(r, [-1, 0, 1, 2, 3, 5])
    hidden = pick(r, [-4, -1, 0, 1, 3, 4, 5, 7, 8, 12, 100, 127, 128, 130, 256, 260, 513])
    return g, b, ['P', 'P', 'P', ('i32', rows), ('i32', hidden), ('f32', '0.000001')]


def gen_symmat(r, corr):
    g = (r.randint(1, 4), 1, 1)
    b = (pick(r, [1, 3, 8, 16, 31, 32, 33, 64]), 1, 1)
    m = pick(r, [-1, 0, 1, 2, 3, 5, 10, 17, 33, 40, 70])
    n = pick(r, [-1, 0, 1, 2, 3, 7])
    if corr:
        return g, b, [('i32', m), ('i32', n), 'P', 'P']
    return g, b, [('i32', m), ('i32', n), 'P', 'P']


def gen_adi(r):
    g = (r.randint(1, 4), 1, 1)
    b = (pick(r, [1, 3, 16, 31, 32, 33, 64]), 1, 1)
    n = pick(r, [-1, 0, 1, 2, 3, 4, 5, 10, 17, 33, 40, 65])
    return g, b, [('i32', n), 'P', 'P', 'P']


def gen_spmm(r):
    g = (r.randint(1, 5), 1, 1)
    b = (pick(r, [1, 16, 31, 32, 33, 64, 100]), 1, 1)
    m = pick(r, [-1, 0, 1, 2, 3, 5])
    k = pick(r, [-1, 0, 1, 2, 3, 7, 31, 32, 33, 64, 100])
    return g, b, [('i32', m), ('i32', k), 'P', 'P', 'P', 'P', 'P']


def gen_sssp(r):
    g = (r.randint(1, 5), 1, 1)
    b = (pick(r, [1, 7, 32, 33, 64, 100]), 1, 1)
    deg = pick(r, [-2, 0, 1, 2, 3, 5, 8])
    n = pick(r, [-1, 0, 1, 2, 10, 50, 200, 600])
    return g, b, ['P', 'P', ('i32', deg), 'P', ('i32', n)]


def gen_gemm(r):
    g = (r.randint(1, 4), r.randint(1, 4), 1)
    if r.random() < 0.6:
        b = (16, 16, 1)
    else:
        b = (r.randint(1, 16), r.randint(1, 16), 1)
    dims = [-1, 0, 1, 2, 3, 5, 15, 16, 17, 31, 32, 33, 40, 50]
    M, N, K = pick(r, dims), pick(r, dims), pick(r, dims)
    return g, b, ['P', 'P', 'P', ('i32', M), ('i32', N), ('i32', K)]


def gen_stencil3d(r):
    g = (r.randint(1, 4), r.randint(1, 4), 1)
    b = (pick(r, [1, 3, 8, 16, 32]), pick(r, [1, 2, 5, 8]), 1)
    dims = [-1, 0, 1, 2, 3, 5, 17, 33]
    return g, b, [('f32', 0.5), ('f32', 0.1), 'P', 'P', ('i32', pick(r, dims)),
                  ('i32', pick(r, dims)), ('i32', pick(r, [-1, 0, 1, 2, 3, 4, 7]))]


def gen_mm3(r):
    g = (r.randint(1, 4), 1, 1)
    b = (pick(r, [1, 7, 32, 64, 100]), 1, 1)
    dims = [-2, -1, 1, 2, 3, 5, 9, 17]
    return g, b, [('i32', pick(r, dims)), ('i32', pick(r, [-1, 0, 1, 3, 8])), ('i32', pick(r, dims)),
                  'P', 'P', 'P']


def gen_scalar_prod(r):
    g = (r.randint(1, 5), 1, 1)
    b = (pick(r, [1, 32, 96, 128, 300]), 1, 1)
    return g, b, ['P', 'P', 'P', ('i32', pick(r, [-1, 0, 1, 3, 7])),
                  ('i32', pick(r, [-1, 0, 1, 100, 256, 257, 600]))]


def gen_rows(r):
    g = (r.randint(1, 3), 1, 1)
    b = (pick(r, [1, 5, 32, 64]), 1, 1)
    return g, b, ['P', 'P', ('i32', pick(r, [-1, 0, 1, 7, 40])), ('i32', pick(r, [-2, 0, 1, 3, 9]))]


def gen_hotspot_pyramid(r):
    g = (r.randint(1, 4), r.randint(1, 4), 1)
    it = pick(r, [-1, 0, 1, 2, 3, 7])
    dims = [-1, 0, 1, 5, 16, 20, 40]
    border = [-3, 0, 1, 2, 5]
    return g, (HS_B, HS_B, 1), [('i32', it), 'P', 'P', 'P', ('i32', pick(r, dims)),
                                ('i32', pick(r, dims)), ('i32', pick(r, border)),
                                ('i32', pick(r, border))] + [('f32', 1.0)] * 5


KERNELS = {
    'layernorm_rows': ('layernorm.cu', gen_layernorm, m_layernorm_rows),
    'histogram_shared': ('histogram.cu', gen_histogram, m_histogram_shared),
    'fir_halo': ('signal_ops.cu', gen_fir, m_fir_halo),
    'gemv_warp': ('gemv.cu', gen_gemv, m_gemv_warp),
    'gemv_warp_gs': ('gemv.cu', lambda r: gen_gemv(r, True), m_gemv_warp_gs),
    'dequant_int4_gemv': ('llm_quant.cu', gen_dequant, m_dequant_int4_gemv),
    'rms_norm_vec4': ('llm_norm_rope.cu', gen_rms, m_rms_norm_vec4),
    'covar_symmat': ('polybench_la.cu', lambda r: gen_symmat(r, False), m_covar_symmat),
    'adi_row_backward': ('polybench_stencil.cu', gen_adi, m_adi_row_backward),
    'spmm_csr_warp': ('sparse_ops.cu', gen_spmm, m_spmm_csr_warp),
    'sssp_push_relax': ('graph_traversal.cu', gen_sssp, m_sssp_push_relax),
    'corr_symmat': ('triangular.cu', lambda r: gen_symmat(r, True), m_corr_symmat),
    'gemm_tiled16': ('gemm.cu', gen_gemm, m_gemm_tiled16),
    'gemm_tiled16_async': ('async_copy.cu', gen_gemm, m_gemm_tiled16_async),
    'stencil3d_7pt': ('stencil3d.cu', gen_stencil3d, m_stencil3d_7pt),
    'hotspot_pyramid': ('rodinia_grid.cu', gen_hotspot_pyramid, m_hotspot_pyramid),
    'mm3_kernel3': ('polybench_la.cu', gen_mm3, m_mm3_kernel3),
    'scalar_prod': ('cuda_samples.cu', gen_scalar_prod, m_scalar_prod),
    'prefix_rows': ('loop_nests.cu', gen_rows, m_prefix_rows),
    'first_match': ('loop_nests.cu', gen_rows, m_first_match),
}
