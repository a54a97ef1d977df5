"""C integer semantics and the allocation window, shared by the models that
touched_bytes.py loads (it puts this folder on sys.path): 32-bit wrapping,
truncating division, and el(), which replaces an element outside the 16 MiB
window around the pointer by the window's edge on the same side (a region
that misses the edge misses the element too)."""

LOW, HIGH = -0x800000 // 4, 0x800000 // 4 - 1  # 4-byte elements of the window


def el(e):
    return e if LOW <= e <= HIGH else (LOW if e < LOW else HIGH)


def s32(x):
    x &= 0xffffffff
    return x - (1 << 32) if x >> 31 else x


def div(a, b):  # C's integer division (b != 0): truncates toward zero
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def rem(a, b):  # C's remainder: the dividend's sign
    return a - b * div(a, b)
