"""Random kernels with global atomics, __shared__ arrays, __syncthreads()
and warp shuffles, for region_fuzz.py --features (see random_kernels.py for
the barrier-free shapes they are built around; emu_sync.h runs them on the
host).

Each kernel draws which of the features it uses. Its body is a sequence of
sections at the top level (control flow uniform across the block):
  plain   barrier-free statements as random_kernels.py draws them, whose
          accesses may be global atomics (atomicAdd/Sub/Max/Min/Exch/CAS/
          And/Or/Xor/Inc/Dec on int, unsigned, unsigned long long, float,
          double where CUDA has them, some _block or _system scoped), their
          return value dropped, added to acc, stored, masked into an index
          or kept raw for the expressions around it to bound;
  tile    each thread writes its slot of an int and a float __shared__
          array (from index expressions, read-only loaded indices, global
          loads), barrier, each thread reads slots of other threads (as an
          index, into acc), barrier;
  reduce  a tree (or thread-0) sum/max over the block in shared memory: a
          block-uniform result, usable in loop bounds;
  count   a shared atomicAdd counter: its old value (an order-dependent
          index) and the block total;
  bloop   a loop whose bounds are block-uniform, with sections (barriers)
          in its body, and maybe a uniform break;
  shfl    __shfl_xor_sync / __shfl_down_sync with a full mask over an int
          index or acc (kernels with shuffles run with blockDim.x a
          multiple of 32).
No thread returns before the last barrier, and each thread writes only its
own slot between two barriers, so there are no divergent barriers and no
races on shared memory by construction (the host run checks both).
"""
import random_kernels as rk

FEATURES = rk.FEATURES
# How often a kernel uses a feature (when enabled).
P_FEATURE = {'atomics': 0.5, 'shared': 0.6, 'shuffle': 0.35}
TILE = 256  # slots of each __shared__ array (blocks have at most 128 threads)
# Element types of o and b in kernels with atomics, and the atomics CUDA has on each.
ATOMIC_ELEMS = ['int', 'int', 'unsigned', 'float', 'float', 'double', 'unsigned long long',
                'short']
ATOMIC_OPS = {
    'int': ['AADD', 'AADD', 'ASUB', 'AMAX', 'AMIN', 'AEXCH', 'ACAS', 'AAND', 'AOR', 'AXOR'],
    'unsigned': ['AADD', 'AADD', 'ASUB', 'AMAX', 'AMIN', 'AEXCH', 'ACAS', 'AOR', 'AINC', 'ADEC'],
    'float': ['AADD', 'AADD', 'AEXCH'],
    'double': ['AADD'],
    'unsigned long long': ['AADD', 'AMAX', 'AMIN', 'AEXCH', 'ACAS', 'AAND', 'AOR', 'AXOR'],
}
UNIFORM = {'n', 'm', 's', 'u', 'blockIdx.x', 'blockIdx.y', 'blockDim.x', 'blockDim.y',
           'gridDim.x', 'd.rows', 'd.cols', 'd.stride', 'nt'}
SYNC_SECTIONS = ('tile', 'reduce', 'count', 'bloop', 'shfl')

# Atomic macros (GM_<op>[_block|_system]) and the CUDA functions they call.
ATOMIC_FNS = {'AADD': 'atomicAdd', 'ASUB': 'atomicSub', 'AMAX': 'atomicMax', 'AMIN': 'atomicMin',
              'AEXCH': 'atomicExch', 'AAND': 'atomicAnd', 'AOR': 'atomicOr', 'AXOR': 'atomicXor',
              'AINC': 'atomicInc', 'ADEC': 'atomicDec'}
SCOPES = ['', '', '', '_block', '_system']
DEVICE_PRELUDE = ('// random_sync.py: atomics, __shared__ arrays, barriers, shuffles.\n' + ''.join(
    f'#define GM_{op}{sc}(p, i, v) {fn}{sc}(&(p)[i], (v))\n'
    for op, fn in ATOMIC_FNS.items() for sc in ['', '_block', '_system']) + ''.join(
    f'#define GM_ACAS{sc}(p, i, c, v) atomicCAS{sc}(&(p)[i], (c), (v))\n'
    for sc in ['', '_block', '_system']) + """#define GM_SHARED(T, s, N) __shared__ T s[N]
#define GM_SLD(s, i) ((s)[i])
#define GM_SST(s, i, x) ((s)[i] = (x))
#define GM_SAADD(s, i, x) atomicAdd(&(s)[i], (x))
#define GM_SYNC() __syncthreads()
#define GM_SHFL_XOR(v, k) __shfl_xor_sync(0xffffffffu, (v), (k))
#define GM_SHFL_DOWN(v, k) __shfl_down_sync(0xffffffffu, (v), (k))
""")


class SyncWriter(rk.KernelWriter):
    def __init__(self, rng, two_d, types, feats):
        super().__init__(rng, two_d, types)
        self.feats = feats
        self.uniform = set(UNIFORM)
        self.nest = 0  # bloops around the current section

    def new_local(self):
        name = f'x{self.locals}'
        self.locals += 1
        return name

    # Block-uniform expressions: uniform names and read-only loads at
    # uniform places only.
    def uniform_expr(self, depth):
        saved = self.atoms, self.loaded_at
        self.atoms = [a for a in self.atoms if a[0] in self.uniform]
        self.loaded_at = ['0', 'n']
        try:
            return self.expr(depth)
        finally:
            self.atoms, self.loaded_at = saved

    def uniform_cond(self):
        saved = self.atoms, self.loaded_at
        self.atoms = [a for a in self.atoms if a[0] in self.uniform]
        self.loaded_at = ['0', 'n']
        try:
            return self.cond(1)
        finally:
            self.atoms, self.loaded_at = saved

    def slot(self):
        """A slot in [0, nt): every one is written before the barrier."""
        r = self.r
        c = r.random()
        if c < 0.15:
            return 't'
        if c < 0.35:
            return f'(t + {r.choice(rk.SMALL)}) % nt'
        if c < 0.45:
            return 'nt - 1 - t'
        if c < 0.5:
            return '0'
        if c < 0.6:
            return '((t ^ 1) < nt ? (t ^ 1) : t)'
        return f'(int)((unsigned)({self.expr(r.choice([0, 1, 2]))[0]}) % (unsigned)nt)'

    # Atomics.
    def atomic_ptrs(self):
        return [p for p in 'ob' if self.types[p] in ATOMIC_OPS]

    def operand(self, t):
        r = self.r
        if t in ('float', 'double'):
            return f'({t})({self.value()})'
        if r.random() < 0.4:
            return f'({t}){r.choice([1, 1, 2, 3, 7, 100])}'
        return f'({t})({self.expr(1)[0]})'

    def atomic_call(self, p, int_only=False):
        r = self.r
        t = self.types[p]
        op = r.choice(ATOMIC_OPS[t]) + r.choice(SCOPES)
        if op.startswith('ACAS'):
            cmp = r.choice(['0x3f3f3f3f', '0', self.expr(1)[0]])
            return f'GM_{op}({p}, {self.index()}, ({t})({cmp}), {self.operand(t)})'
        return f'GM_{op}({p}, {self.index()}, {self.operand(t)})'

    def atomic(self):
        r = self.r
        ptrs = self.atomic_ptrs()
        p = r.choice(ptrs)
        t = self.types[p]
        integral = t not in ('float', 'double')
        use = r.choices(['drop', 'acc', 'index', 'raw', 'store'],
                        [4, 2, 2 if integral else 0, 1 if integral else 0, 1])[0]
        call = self.atomic_call(p)
        if use == 'drop':
            self.emit(f'{call};')
        elif use == 'acc':
            self.emit(f'acc += (float)({call});')
        elif use == 'index':
            # The old value: which one a thread sees depends on the order of
            # the atomics, and the host order is one the device may take.
            x = self.new_local()
            self.emit(f'int {x} = (int)(({call}) & {r.choice([7, 63, 255, 1023])});')
            self.atoms.append((x, 'i'))
        elif use == 'raw':
            # Unmasked: what bounds an index made of it is the expression
            # drawn around it (masks, remainders, narrow casts).
            x = self.new_local()
            tx = 'u' if t.startswith('unsigned') else 'i'
            self.emit(f'{rk.TYPE_NAME[tx]} {x} = ({rk.TYPE_NAME[tx]})({call});')
            self.atoms.append((x, tx))
        else:
            q = r.choice('ob')
            self.emit(f'GM_ST({q}, {self.index()}, {self.stored(q, call)});')

    def access(self):
        if 'atomics' in self.feats and self.atomic_ptrs() and self.r.random() < 0.3:
            self.atomic()
        else:
            super().access()

    # Sections.
    def section(self, kind):
        getattr(self, 'sec_' + kind)()

    def sec_plain(self):
        self.block(self.r.randint(1, 3))

    def int_source(self):
        r = self.r
        c = r.random()
        if c < 0.3:
            return f'(int)GM_LDX(a, {self.index()})'
        e, t = self.expr(r.choice([1, 2]))
        if c < 0.6:
            return f'(int)(({e}) & {r.choice([7, 31, 255, 1023])})'
        return f'(int)({e})'

    def float_source(self):
        r = self.r
        c = r.random()
        if c < 0.4:
            return f'GM_LD({r.choice("aaob")}, {self.index()})'
        if c < 0.7:
            return 'acc'
        return f'(float)({self.expr(1)[0]})'

    def sec_tile(self):
        r = self.r
        self.emit(f'GM_SST(si, t, {self.int_source()});')
        floats = r.random() < 0.7
        if floats:
            self.emit(f'GM_SST(sf, t, {self.float_source()});')
        self.emit('GM_SYNC();')
        x = self.new_local()
        self.emit(f'int {x} = GM_SLD(si, {self.slot()});')
        if r.random() < 0.5:  # an index (else a value: the rest keeps precise ranges)
            self.atoms.append((x, 'i'))
        else:
            self.emit(f'acc += (float){x};')
        if floats:
            if r.random() < 0.25:
                j = self.new_local()
                self.emit(f'for (int {j} = 0; {j} < nt; ++{j}) {{ GM_TICK(); '
                          f'acc += GM_SLD(sf, {j}); }}')
            else:
                self.emit(f'acc += GM_SLD(sf, {self.slot()});')
        if r.random() < 0.7:
            self.block(r.randint(1, 2))
        self.emit('GM_SYNC();')

    def sec_reduce(self):
        r = self.r
        ints = r.random() < 0.6
        arr, ty, zero = ('si', 'int', '0') if ints else ('sf', 'float', '0.0f')
        if ints:
            self.emit(f'GM_SST(si, t, (int)(({self.expr(r.choice([1, 2]))[0]}) & 255));')
        else:
            self.emit(f'GM_SST(sf, t, {self.float_source()});')
        op = r.choice(['+', 'max'])

        def comb(a, b):
            return f'{a} + {b}' if op == '+' else f'({a} > {b} ? {a} : {b})'
        self.emit('GM_SYNC();')
        if r.random() < 0.7:
            w, y = self.new_local(), self.new_local()
            self.emit(f'for (int {w} = 1; {w} < nt; {w} *= 2) {{')
            self.indent += 1
            self.emit('GM_TICK();')
            other = zero if op == '+' else f'GM_SLD({arr}, t)'
            self.emit(f'{ty} {y} = (t % (2 * {w}) == 0 && t + {w} < nt) ? '
                      f'GM_SLD({arr}, t + {w}) : {other};')
            self.emit('GM_SYNC();')
            self.emit(f'GM_SST({arr}, t, {comb(f"GM_SLD({arr}, t)", y)});')
            self.emit('GM_SYNC();')
            self.indent -= 1
            self.emit('}')
        else:
            j, y = self.new_local(), self.new_local()
            self.emit(f'if (t == 0) {{ {ty} {y} = GM_SLD({arr}, 0);')
            self.emit(f'  for (int {j} = 1; {j} < nt; ++{j}) {{ GM_TICK(); '
                      f'{y} = {comb(y, f"GM_SLD({arr}, {j})")}; }}')
            self.emit(f'  GM_SST({arr}, 0, {y}); }}')
            self.emit('GM_SYNC();')
        if ints:
            x = self.new_local()
            self.emit(f'int {x} = GM_SLD(si, 0);')  # the same in every thread
            self.atoms.append((x, 'i'))
            self.uniform.add(x)
        else:
            self.emit('acc += GM_SLD(sf, 0);')
        self.emit('GM_SYNC();')

    def sec_count(self):
        r = self.r
        self.emit(f'if (t == 0) GM_SST(si, {TILE - 1}, {r.choice(["0", "0", "n & 63"])});')
        self.emit('GM_SYNC();')
        x, y = self.new_local(), self.new_local()
        self.emit(f'int {x} = GM_SAADD(si, {TILE - 1}, (int)(({self.expr(1)[0]}) & 7));')
        self.atoms.append((x, 'i'))
        self.emit('GM_SYNC();')
        self.emit(f'int {y} = GM_SLD(si, {TILE - 1});')
        self.atoms.append((y, 'i'))
        self.uniform.add(y)
        self.emit('GM_SYNC();')

    def sec_shfl(self):
        r = self.r
        k = r.choice([1, 2, 4, 8, 16])
        c = r.random()
        if c < 0.55:
            x = self.new_local()
            self.emit(f'int {x} = (int)(({self.expr(r.choice([1, 2]))[0]}) & 1023);')
            if r.random() < 0.5:
                w = self.new_local()
                fn = r.choice(['GM_SHFL_XOR', 'GM_SHFL_DOWN'])
                self.emit(f'for (int {w} = 16; {w} > 0; {w} >>= 1) {x} += {fn}({x}, {w});')
            else:
                fn = r.choice(['GM_SHFL_XOR', 'GM_SHFL_DOWN'])
                self.emit(f'{x} = {fn}({x}, {k});')
            self.atoms.append((x, 'i'))
        elif c < 0.8:
            self.emit(f'acc += {r.choice(["GM_SHFL_XOR", "GM_SHFL_DOWN"])}(acc, {k});')
        else:
            w = self.new_local()
            self.emit(f'for (int {w} = 16; {w} > 0; {w} >>= 1) acc += GM_SHFL_DOWN(acc, {w});')

    def sync_kinds(self, nested):
        kinds, weights = ['plain'], [3]
        if 'shared' in self.feats:
            kinds += ['tile', 'reduce', 'count']
            weights += [4, 2, 1]
        if 'shuffle' in self.feats:
            kinds.append('shfl')
            weights.append(3)
        if len(kinds) > 1 and self.nest < 2:
            kinds.append('bloop')
            weights.append(2 if not nested else 1)
        return kinds, weights

    def sec_bloop(self):
        """A loop with a block-uniform trip count and barriers in its body."""
        r = self.r
        t = r.choices(['i', 'u'], [4, 1])[0]
        tn = rk.TYPE_NAME[t]
        v = f'v{self.loop_depth}'
        lo, _ = self.uniform_expr(r.choice([0, 1]))
        hi, _ = self.uniform_expr(r.choice([0, 1, 1, 2]))
        step = r.choice(['1', '1', '2', 'nt', 'blockDim.x', self.uniform_expr(1)[0]])
        shape = r.choices(['up', 'le', 'down', 'geo', 'halve', 'do'], [6, 1, 2, 1, 1, 1])[0]
        for line in rk.LOOP_HEADS[shape].format(tn=tn, v=v, lo=lo, hi=hi, step=step).split('\n'):
            self.emit(line)
        self.indent += 1
        self.emit('GM_TICK();')
        scope = len(self.atoms)
        self.atoms.append((v, t))
        self.uniform.add(v)
        self.loop_depth += 1
        self.nest += 1
        if r.random() < 0.2:
            self.emit(f'if ({self.uniform_cond()}) break;')
        kinds, weights = self.sync_kinds(True)
        for _ in range(r.randint(1, 2)):
            self.section(r.choices(kinds, weights)[0])
        if r.random() < 0.2:
            self.emit(f'if ({self.uniform_cond()}) break;')
        self.nest -= 1
        self.loop_depth -= 1
        self.uniform.discard(v)
        del self.atoms[scope:]
        self.indent -= 1
        if shape == 'do':
            self.emit(f'{v} += {step};')
            self.emit(f'}} while ({v} < ({tn})({hi})); }}')
        else:
            self.emit('}')


def kernel(rng, name, features):
    """Returns (two_d, restrict, (To, Tb), source, flags), flags as in
    random_kernels.write_sources plus the features the kernel uses."""
    feats = {f for f in FEATURES if f in features and rng.random() < P_FEATURE[f]}
    if not feats:
        return rk.kernel(rng, name) + (set(),)
    two_d = rng.random() < 0.3
    elems = ATOMIC_ELEMS if 'atomics' in feats else rk.ELEM_TYPES
    types = {'o': rng.choice(elems), 'a': 'float', 'b': rng.choice(elems)}
    w = SyncWriter(rng, two_d, types, feats)
    rk.emit_prologue(w, two_d)
    flags = set(feats)
    if feats & {'shared', 'shuffle'}:
        flags.add('fibers')
        w.emit('int t = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;')
        w.atoms += [('t', 'i'), ('nt', 'i')]
    if 'shuffle' in feats:
        flags.add('warp')
    if 'shared' in feats:
        w.emit(f'GM_SHARED(int, si, {TILE});')
        w.emit(f'GM_SHARED(float, sf, {TILE});')
    kinds, weights = w.sync_kinds(False)
    sections = [rng.choices(kinds, weights)[0] for _ in range(rng.randint(1, 4))]
    if 'fibers' in flags and not any(k in SYNC_SECTIONS for k in sections):
        sections.append(rng.choice([k for k in kinds if k != 'plain']))
    last = max([i for i, k in enumerate(sections) if k in SYNC_SECTIONS], default=-1)
    for i, k in enumerate(sections):
        w.allow_return = i > last
        w.section(k)
    return rk.finish_kernel(rng, w, name, two_d, types) + (flags,)
