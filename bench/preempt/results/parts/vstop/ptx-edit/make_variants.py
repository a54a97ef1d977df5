# Makes bitonic_v0/vA/vB/vC.ptx from a staged bitonic_sort.ptx (run from the repo root after
# bench/preempt/stage.py): only the light twin __gmem_prl_ is edited. vA: the end-of-virtual-CTA
# bar.red.or replaced by bar.sync 0 and a false decision; vB: no request read per virtual CTA;
# vC: both. Then ptxas -arch=sm_90 each into a .cubin beside it (the harness loads the cubin).
import re, sys
src = open('.stage/preempt/corpus/ptx/bitonic_sort.ptx').read()
start = src.index('.visible .entry __gmem_prl__Z19bitonic_sort_sharedPii(')
end = src.index('\n}\n', start) + 3
fn = src[start:end]
latch_re = re.compile(r'(\$L__BB5_24:.*?)bar\.red\.or\.pred \t%p2, 0, %p1; ', re.S)
def A(f):  # latch: plain bar.sync, decision false
    m = latch_re.search(f); assert m
    return f[:m.start()] + m.group(1) + 'bar.sync 0; setp.ne.u32 %p2, %r47, %r47; ' + f[m.end():]
def B(f):  # no request read per virtual CTA
    g = f.replace('$L__BB5_27:                             // %gmem.p.req\n                                        //   in Loop: Header=BB5_7 Depth=1\n\tld.volatile.global.u32 \t%r76, [%rd7];', '$L__BB5_27:                             // %gmem.p.req\n\tmov.u32 \t%r76, 0;')
    assert g != f
    return g
for name, tf in [('v0', lambda f: f), ('vA', A), ('vB', B), ('vC', lambda f: A(B(f)))]:
    open(f'.stage/exp/bitonic_{name}.ptx', 'w').write(src[:start] + tf(fn) + src[end:])
