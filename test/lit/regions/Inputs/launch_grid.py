"""CUDA launch geometry for the corpus models (corpus_region_models.py and
the model sets it loads): every thread's coordinates, dim3 padding, and the
generators' random pick."""


def threads(grid, block):
    gx, gy, gz = grid
    bx_, by_, bz_ = block
    for bz in range(gz):
        for by in range(gy):
            for bx in range(gx):
                for tz in range(bz_):
                    for ty in range(by_):
                        for tx in range(bx_):
                            yield bx, by, bz, tx, ty, tz


def dim3(v):
    v = list(v) + [1] * (3 - len(v))
    return tuple(v)


def pick(r, xs):
    return r.choice(xs)
