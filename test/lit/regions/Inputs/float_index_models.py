"""Python models of the kernels of float_index_shapes.cu for
touched_bytes.py: (parameter index, 'R' or 'W', 4-byte element) for every
element a thread may touch. Float arithmetic is IEEE single precision
(compiled with -ffp-contract=off, so no fused multiply-add); a conversion to
int is PTX's cvt.rzi.s32.f32 (truncates, saturates, NaN gives 0). Loaded
values are samples of what memory may hold, NaN and infinities included.

An element far outside the 16 MiB window of the allocation (a saturated
conversion) is replaced by one at the window's edge on the same side: a
region that misses the edge misses the element too."""
import math
import struct

from c_ints import el

SHAPES = [(1, 8), (3, 5), (2, 100)]  # (grid, block)

FLOATS = [0.0, -0.0, 0.3, 1.0, 2.99, 7.5, 1e9, -2.5, math.nan, math.inf, -math.inf]
INTS = [-5, -1, 0, 3, 6, 1000, 2**31 - 1, -2**31]
UINTS = [0, 3, 1000, 2**31 + 5, 2**32 - 1]


def f32(x):
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack('f', struct.pack('f', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def i2f(i):
    return f32(float(i))


def fadd(a, b):
    return f32(a + b)


def fmul(a, b):
    return f32(a * b)


def fdiv(a, b):
    if math.isnan(a) or math.isnan(b) or (math.isinf(a) and math.isinf(b)):
        return math.nan
    if b == 0.0:
        if a == 0.0:
            return math.nan
        return math.copysign(math.inf, math.copysign(1.0, a) * math.copysign(1.0, b))
    return f32(a / b)


def ffloor(a):
    return a if math.isnan(a) or math.isinf(a) else f32(float(math.floor(a)))


def _ignoring_nan(pick, a, b):  # fmaxf / fminf: a NaN operand gives the other
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    return pick(a, b)


def fmax(a, b):
    return _ignoring_nan(max, a, b)


def fmin(a, b):
    return _ignoring_nan(min, a, b)


def fceil(a):
    return a if math.isnan(a) or math.isinf(a) else f32(float(math.ceil(a)))


def cvt(f):  # cvt.rzi.s32.f32
    if math.isnan(f):
        return 0
    if f >= 2**31:
        return 2**31 - 1
    if f <= -2**31:
        return -2**31
    return int(f)


def _active(T, n):
    return range(max(0, min(T, n)))


def nearest_sizes(T, dw, sw):
    for x in _active(T, dw):
        sx = min(cvt(fmul(i2f(x), fdiv(i2f(sw), i2f(dw)))), sw - 1)
        yield 2, 'R', el(sx)
        yield 3, 'W', x


def nearest_scale(T, dw, sw, scale):
    for x in _active(T, dw):
        yield 3, 'R', el(min(cvt(fmul(i2f(x), scale)), sw - 1))
        yield 4, 'W', x


def nearest_div(T, dw, sw, s):
    for x in _active(T, dw):
        yield 3, 'R', el(min(cvt(fdiv(i2f(x), s)), sw - 1))
        yield 4, 'W', x


def bilinear_pair(T, dw, sw, scale):
    for x in _active(T, dw):
        fx = fadd(fmul(fadd(i2f(x), 0.5), scale), -0.5)
        fx = 0.0 if fx < 0.0 else fx
        x0 = cvt(fx)
        x1 = x0 + 1 if x0 < sw - 1 else x0
        yield 3, 'R', el(x0)
        yield 3, 'R', el(x1)
        yield 4, 'W', x


def hist_abs(T, n, bins, scale):
    for i in _active(T, n):
        yield 3, 'R', i
        for v in FLOATS:
            b = el(min(cvt(ffloor(fmul(abs(v), scale))), bins - 1))
            yield 4, 'R', b
            yield 4, 'W', b


def relu_bin(T, n, w, off):
    for i in _active(T, n):
        yield 3, 'R', i
        for v in FLOATS:
            yield 4, 'W', el(min(cvt(fmax(fadd(v, -off), 0.0)), w - 1))


def shifted_bin(T, n, w, scale):
    for i in _active(T, n):
        yield 3, 'R', i
        for v in FLOATS:
            yield 4, 'W', el(min(cvt(fmul(fadd(v, -0.5), scale)), w - 1))


def clamp_loaded(T, n, w):
    for i in _active(T, n):
        yield 2, 'R', i
        for k in INTS:
            yield 3, 'W', el(0 if k < 0 else (w - 1 if k > w - 1 else k))


def umin_loaded(T, n, v):
    for i in _active(T, n):
        yield 2, 'R', i
        for k in UINTS:
            yield 3, 'W', el(min(k, (v - 1) % 2**32))


def fmin_bins(T, n, bins, scale):
    for i in _active(T, n):
        yield 3, 'R', i
        for v in FLOATS:
            b = el(cvt(fmin(fmax(fmul(v, scale), 0.0), i2f(bins - 1))))
            yield 4, 'R', b
            yield 4, 'W', b


def coord_clamp(T, dw, sw, scale):
    for x in _active(T, dw):
        fx = fmul(i2f(x), scale)
        top = fadd(i2f(sw), -1.0)
        fx = top if fx > top else fx
        fx = fmax(fx, 0.0)
        yield 3, 'R', el(cvt(fx))
        yield 4, 'W', x


def upper_only(T, n, w):
    for i in _active(T, n):
        yield 2, 'R', i
        for v in FLOATS:
            yield 3, 'W', el(max(cvt(fmin(v, i2f(w))), 0))


def ceil_half(T, n, w):
    for i in _active(T, n):
        yield 2, 'R', i
        for v in FLOATS:
            t = fmin(fmax(v, 0.0), fadd(i2f(w), -0.5))
            yield 3, 'W', el(max(cvt(fceil(t)), 0))


def round_up_const(T, n):
    for i in _active(T, n):
        yield 1, 'R', i
        for v in FLOATS:
            yield 2, 'W', el(cvt(fceil(fmin(fmax(v, 0.0), 2.5))))


SIZES = [0, 5, 40]
WIDTHS = [-3, 0, 1, 7]
SCALES = [-0.5, -0.0, 0.37, 2.5, 1e30, math.nan]
CASES = {
    'nearest_sizes': [('i32', SIZES), ('i32', WIDTHS + [64])],
    'nearest_scale': [('i32', SIZES), ('i32', WIDTHS), ('f32', SCALES)],
    'nearest_div': [('i32', SIZES), ('i32', WIDTHS), ('f32', [-0.0, 0.0, 0.5, 3.0, -2.0])],
    'bilinear_pair': [('i32', SIZES), ('i32', WIDTHS), ('f32', SCALES)],
    'hist_abs': [('i32', SIZES), ('i32', WIDTHS), ('f32', SCALES)],
    'relu_bin': [('i32', SIZES), ('i32', WIDTHS), ('f32', [-1.0, 0.0, 2.5])],
    'shifted_bin': [('i32', SIZES), ('i32', WIDTHS), ('f32', [-0.5, 0.37, 2.5])],
    'clamp_loaded': [('i32', SIZES), ('i32', WIDTHS)],
    'fmin_bins': [('i32', SIZES), ('i32', WIDTHS + [1 << 25]), ('f32', [-0.5, 0.37, 1e30, math.nan])],
    'coord_clamp': [('i32', SIZES), ('i32', WIDTHS + [1 << 25]), ('f32', SCALES)],
    'upper_only': [('i32', SIZES), ('i32', WIDTHS + [1 << 25])],
    'ceil_half': [('i32', SIZES), ('i32', WIDTHS + [1 << 25])],
    'round_up_const': [('i32', SIZES)],
    'umin_loaded': [('i32', SIZES), ('u32', [0, 1, 9])],
}
POINTERS = {name: 2 for name in CASES}
