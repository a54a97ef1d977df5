"""Random barrier-free CUDA kernels for region_fuzz.py.

Every kernel has the signature (To *o, const float *a, Tb *b, int n, int m,
unsigned u, int s, gm_shape d), To and Tb each float, double, short or
unsigned char, d a by-value struct of two ints and a 64-bit stride, and touches memory only through the GM_* macros,
which are plain subscripts on the device and logging accessors on the host
(emu_shim.h). The shapes are what index arithmetic in real kernels is made
of, drawn at random so that no analysis rule is tuned to them: 1-D and 2-D
thread indices, grid-stride, strided, down-counting, geometric, do-while and
break-exit loops over int, unsigned and 64-bit counters, nested up to three
deep, row pointers, guards with early returns, casts to narrow types,
division, remainder, shifts, masks, min/max and selects.

Loaded values never steer control flow or indices (the host run's touched
set must not depend on thread order), and every load feeds `acc`, which
every path out of the kernel stores, so the compiler cannot drop a load as
dead (a load the device never does is not a miss of the analysis).

write_sources(..., features) hands kernels with atomics, __shared__ arrays,
barriers and shuffles to random_sync.py, which builds on KernelWriter.
"""
import random

# Kernel features beyond the barrier-free shapes (random_sync.py, region_fuzz.py --features).
FEATURES = ('atomics', 'shared', 'shuffle')
INT_CONSTS = [0, 1, 2, 3, 4, 5, 7, 8, 16, 31, 32, 33, 64, 100, 255, 256]
SMALL = [1, 2, 3, 4, 5, 7, 8, 16, 32]
CASTS = ['int', 'unsigned', 'long long', 'short', 'unsigned short', 'unsigned char',
         'signed char']
CAST_TYPE = {'int': 'i', 'unsigned': 'u', 'long long': 'l', 'short': 'i',
             'unsigned short': 'i', 'unsigned char': 'i', 'signed char': 'i'}
TYPE_NAME = {'i': 'int', 'u': 'unsigned', 'l': 'long long'}


def arith(a, b):
    """C's usual arithmetic conversions over int, unsigned and long long."""
    if 'l' in (a, b):
        return 'l'
    return 'u' if 'u' in (a, b) else 'i'


ELEM_TYPES = ['float', 'float', 'float', 'double', 'short', 'unsigned char']
# Loop headers by shape (the body follows; `do` closes with its test).
LOOP_HEADS = {
    'up': 'for ({tn} {v} = {lo}; {v} < ({tn})({hi}); {v} += {step}) {{',
    'le': 'for ({tn} {v} = {lo}; {v} <= ({tn})({hi}); {v} += {step}) {{',
    'down': 'for ({tn} {v} = ({tn})({hi}) - 1; {v} >= ({tn})({lo}); {v} -= {step}) {{',
    'ne': 'for ({tn} {v} = {lo}; {v} != ({tn})({hi}); ++{v}) {{',
    'geo': 'for ({tn} {v} = 1; {v} < ({tn})({hi}); {v} *= 2) {{',
    'halve': 'for ({tn} {v} = ({tn})({hi}); {v} > 0; {v} >>= 1) {{',
    'do': '{{ {tn} {v} = {lo};\ndo {{',
    'brk': 'for ({tn} {v} = {lo};; {v} += {step}) {{',
}


class KernelWriter:
    def __init__(self, rng, two_d, types):
        self.r = rng
        self.two_d = two_d
        self.types = types  # element type of each pointer parameter
        self.lines = []
        self.indent = 1
        self.atoms = [('n', 'i'), ('m', 'i'), ('s', 'i'), ('u', 'u'), ('threadIdx.x', 'u'),
                      ('blockIdx.x', 'u'), ('blockDim.x', 'u'), ('gridDim.x', 'u'), ('tid', 'i')]
        if two_d:
            self.atoms += [('threadIdx.y', 'u'), ('blockIdx.y', 'u'), ('blockDim.y', 'u'),
                           ('row', 'i')]
        self.atoms += [('lane', 'i'), ('warp', 'i'), ('d.rows', 'i'), ('d.cols', 'i'),
                       ('d.stride', 'l')]
        self.locals = 0
        self.pointers = 0
        self.loop_depth = 0
        # random_sync.py: uniform expressions load indices at uniform places
        # only, and no thread returns before a barrier.
        self.loaded_at = ['tid', 'lane', '0', 'n']
        self.allow_return = True

    def emit(self, text):
        self.lines.append('  ' * self.indent + text)

    # Integer expressions: (text, type).
    def atom(self):
        r = self.r
        if r.random() < 0.2:
            return str(r.choice(INT_CONSTS)), 'i'
        if r.random() < 0.02:
            # An index loaded from memory no kernel writes (`a`): the touched
            # set depends on memory, not on thread order.
            # Volatile on the device: an index in dead code must still be read.
            return f'((int)GM_LDX(a, {r.choice(self.loaded_at)}))', 'i'
        # Prefer the innermost names (loop counters, locals): they are added last.
        k = len(self.atoms)
        i = k - 1 - min(int(r.expovariate(0.5)), k - 1) if r.random() < 0.6 else r.randrange(k)
        return self.atoms[i]

    def expr(self, depth=2):
        r = self.r
        if depth <= 0 or r.random() < 0.3:
            return self.atom()
        a, ta = self.expr(depth - 1)
        op = r.choices(['+', '-', '*c', '*', '/', '%', '<<', '>>', '&', 'min', 'max', 'sel',
                        'cast'], [6, 4, 5, 2, 2, 2, 2, 2, 1, 2, 2, 1, 3])[0]
        if op in ('+', '-', '*'):
            b, tb = self.expr(depth - 1)
            return f'({a} {op} {b})', arith(ta, tb)
        if op == '*c':
            return f'({a} * {r.choice(SMALL + [256, 1024])})', ta
        if op in ('/', '%'):
            if r.random() < 0.8:
                return f'({a} {op} {r.choice(SMALL)})', ta
            b, tb = self.atom()
            return f'({a} {op} {b})', arith(ta, tb)
        if op == '<<':
            return f'({a} << {r.randrange(0, 5)})', ta
        if op == '>>':
            return f'({a} >> {r.randrange(0, 6)})', ta
        if op == '&':
            return f'({a} & {r.choice([1, 3, 7, 31, 255, 1023, -4, -32])})', ta
        if op in ('min', 'max'):
            b, tb = self.expr(depth - 1)
            t = arith(ta, tb)
            cmp = '<' if op == 'min' else '>'
            c = TYPE_NAME[t]
            return f'(({c})({a}) {cmp} ({c})({b}) ? ({c})({a}) : ({c})({b}))', t
        if op == 'sel':
            b, tb = self.expr(depth - 1)
            t = arith(ta, tb)
            return f'({self.cond(1)} ? ({TYPE_NAME[t]})({a}) : ({TYPE_NAME[t]})({b}))', t
        c = r.choice(CASTS)
        return f'(({c})({a}))', CAST_TYPE[c]

    def cond(self, depth=2):
        r = self.r
        a, _ = self.expr(depth)
        b, _ = self.expr(depth - 1)
        c = f'({a} {r.choice(["<", "<=", ">", ">=", "==", "!="])} {b})'
        if depth > 1 and r.random() < 0.2:
            c = f'({c} {r.choice(["&&", "||"])} {self.cond(1)})'
        return c

    def index(self):
        r = self.r
        e, t = self.expr(r.choice([1, 2, 2, 3]))
        # Most kernels index with int: an unsigned difference that wraps
        # would index 16 GiB away (a skipped launch, outside the window).
        return f'(int)({e})' if t != 'i' and r.random() < 0.6 else e

    # Statements.
    def value(self):
        r = self.r
        c = r.random()
        if c < 0.5:
            return 'acc'
        if c < 0.75:
            return r.choice(['1.5f', '2.0f', '-3.25f'])
        return f'(float)({self.expr(1)[0]})'

    def stored(self, p, v):
        """v as stored to p: through int for integer elements (a float out
        of a narrow type's range is undefined, an int wraps)."""
        return v if self.types[p] in ('float', 'double') else f'(int)({v})'

    def access(self):
        r = self.r
        kind = r.choices(['ld', 'st', 'rmw', 'ld2', 'st2', 'ldg'], [5, 3, 2, 2, 1, 1])[0]
        if kind == 'ldg':
            self.emit(f'acc += GM_LDG(a, {self.index()});')
        elif kind == 'ld':
            self.emit(f'acc += GM_LD({r.choice("aaob")}, {self.index()});')
        elif kind == 'st':
            p = r.choice('oob')
            self.emit(f'GM_ST({p}, {self.index()}, {self.stored(p, self.value())});')
        elif kind == 'rmw':
            self.emit(f'GM_RMW({r.choice("bo")}, {self.index()}, 1.5f);')
        elif kind == 'ld2':
            self.emit(f'acc += GM_LD2({r.choice("aab")}, {self.index()}, {self.index()});')
        else:
            p = r.choice('ob')
            self.emit(f'GM_ST2({p}, {self.index()}, {self.index()}, '
                      f'{self.stored(p, self.value())});')

    def early_exit(self, word):
        self.emit(f'if ({self.cond()}) {{')
        self.indent += 1
        if word == 'return':
            self.emit(f'GM_ST(o, gid, {self.stored("o", "acc")});')
        self.emit(f'{word};')
        self.indent -= 1
        self.emit('}')

    def local(self):
        e, t = self.expr(2)
        name = f'x{self.locals}'
        self.locals += 1
        self.emit(f'{TYPE_NAME[t]} {name} = {e};')
        self.atoms.append((name, t))

    def block(self, budget):
        # Names declared in a block go out of scope at its end.
        scope = len(self.atoms)
        for _ in range(budget):
            self.stmt()
        del self.atoms[scope:]

    def stmt(self):
        r = self.r
        w = [6, 2, 2, 1 if self.allow_return else 0, 3 if self.loop_depth < 3 else 0,
             1 if self.loop_depth < 3 else 0]
        kind = r.choices(['access', 'if', 'local', 'return', 'loop', 'walk'], w)[0]
        if kind == 'walk':
            self.walk()
        elif kind == 'access':
            self.access()
        elif kind == 'local':
            self.local()
        elif kind == 'return':
            self.early_exit('return')
        elif kind == 'if':
            self.emit(f'if ({self.cond()}) {{')
            self.indent += 1
            self.block(r.randint(1, 2))
            self.indent -= 1
            if r.random() < 0.3:
                self.emit('} else {')
                self.indent += 1
                self.block(1)
                self.indent -= 1
            self.emit('}')
        else:
            self.loop()

    def walk(self):
        """A pointer made before a loop and advanced in it (row pointers,
        iterators): the accesses are pointer recurrences, not indices."""
        r = self.r
        p = r.choice('aab') if r.random() < 0.6 else r.choice('ob')
        q = f'q{self.pointers}'
        self.pointers += 1
        const = 'const ' if p == 'a' else ''
        self.emit(f'{{ GM_PDECL({const}{self.types[p]}, {q}, {p}, {self.index()});')
        v = f'v{self.loop_depth}'
        hi, _ = self.expr(r.choice([0, 1, 1, 2]))
        self.emit(f'for (int {v} = 0; {v} < (int)({hi}); ++{v}) {{')
        self.indent += 1
        self.emit('GM_TICK();')
        self.atoms.append((v, 'i'))
        self.loop_depth += 1
        i = r.choice(['0', '0', 'lane', str(r.choice(SMALL)), self.index()])
        if p == 'a' or r.random() < 0.5:
            self.emit(f'acc += GM_PLD({p}, {q}, {i});')
        else:
            self.emit(f'GM_PST({p}, {q}, {i}, {self.stored(p, self.value())});')
        if r.random() < 0.4:
            self.block(1)
        step = r.choice(['1', '32', 'blockDim.x', 'm', 'n', self.expr(1)[0]])
        self.emit(f'GM_PADV({p}, {q}, {step});')
        self.loop_depth -= 1
        self.atoms.pop()
        self.indent -= 1
        self.emit('} }')

    def loop(self):
        r = self.r
        t = r.choices(['i', 'u', 'l'], [6, 3, 1])[0]
        tn = TYPE_NAME[t]
        v = f'v{self.loop_depth}'
        lo, _ = self.expr(r.choice([0, 1, 1, 2]))
        hi, _ = self.expr(r.choice([0, 1, 1, 2]))
        step = r.choice(['1', '1', '2', str(r.choice(SMALL)), 'blockDim.x', 'blockDim.x * gridDim.x',
                         'm', self.expr(1)[0]])
        shape = r.choices(['up', 'le', 'down', 'ne', 'geo', 'halve', 'do', 'brk'],
                          [8, 2, 3, 1, 1, 1, 2, 2])[0]
        head = LOOP_HEADS[shape].format(tn=tn, v=v, lo=lo, hi=hi, step=step)
        for line in head.split('\n'):
            self.emit(line)
        self.indent += 1
        self.emit('GM_TICK();')
        self.atoms.append((v, t))
        self.loop_depth += 1
        if shape == 'brk':
            if r.random() < 0.5:
                self.emit(f'if ({v} >= ({tn})({hi})) break;')
                self.block(r.randint(1, 3))
            else:
                self.block(r.randint(1, 2))
                self.emit(f'if ({v} + {step} >= ({tn})({hi})) break;')
        else:
            self.block(r.randint(1, 3))
            if r.random() < 0.15:
                self.early_exit('break')
        self.loop_depth -= 1
        self.atoms.pop()
        self.indent -= 1
        if shape == 'do':
            self.emit(f'{v} += {step};')
            self.emit(f'}} while ({v} < ({tn})({hi})); }}')
        else:
            self.emit('}')


def emit_prologue(w, two_d):
    """The accumulator and the thread indices every drawn kernel starts with."""
    w.emit('float acc = 0.0f;')
    w.emit('int tid = blockIdx.x * blockDim.x + threadIdx.x;')
    if two_d:
        w.emit('int row = blockIdx.y * blockDim.y + threadIdx.y;')
    w.emit('int lane = threadIdx.x & 31, warp = tid >> 5;')
    w.emit('unsigned gid = (blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y) + '
           'threadIdx.y * blockDim.x + threadIdx.x;')


def finish_kernel(rng, w, name, two_d, types):
    """Stores the accumulator, draws __restrict__ and returns (two_d,
    restrict, (o's, b's element type), source)."""
    w.emit(f'GM_ST(o, gid, {w.stored("o", "acc")});')
    restrict = '__restrict__ ' if rng.random() < 0.3 else ''
    head = (f'__global__ void {name}({types["o"]} *{restrict}o, const float *{restrict}a, '
            f'{types["b"]} *{restrict}b, int n, int m, unsigned u, int s, gm_shape d) {{')
    return two_d, restrict != '', (types['o'], types['b']), '\n'.join([head] + w.lines + ['}'])


def kernel(rng, name):
    """Returns (two_d, restrict, (o's, b's element type), source)."""
    two_d = rng.random() < 0.3
    types = {'o': rng.choice(ELEM_TYPES), 'a': 'float', 'b': rng.choice(ELEM_TYPES)}
    w = KernelWriter(rng, two_d, types)
    emit_prologue(w, two_d)
    w.block(rng.randint(1, 4))
    return finish_kernel(rng, w, name, two_d, types)


DEVICE_PRELUDE = """// Generated by test/fuzz/random_kernels.py: device side of the GM_* accessors.
struct gm_shape { int rows; int cols; long long stride; }; // by value, as PyTorch passes sizes
#define GM_LD(p, i) ((p)[i])
#define GM_LD2(p, o, i) (((p) + (o))[i])
#define GM_ST(p, i, v) ((p)[i] = (v))
#define GM_ST2(p, o, i, v) (((p) + (o))[i] = (v))
#define GM_RMW(p, i, v) ((p)[i] += (v))
#define GM_LDG(p, i) __ldg(&(p)[i])
#define GM_LDX(p, i) (*(const volatile float *)&(p)[i])
#define GM_PDECL(T, q, p, o) T *q = (p) + (o)
#define GM_PLD(p, q, i) ((q)[i])
#define GM_PST(p, q, i, v) ((q)[i] = (v))
#define GM_PADV(p, q, d) ((q) += (d))
#define GM_TICK() ((void)0)
"""


def write_sources(seed, count, features=()):
    """Returns (device .cu text, host .cpp text, [(name, two_d, restrict, (To, Tb), flags)]),
    flags a set: 'fibers' (barriers or shuffles: blocks run in phases on the
    host), 'warp' (shuffles: blockDim.x a multiple of 32). With features
    (random_sync.FEATURES) kernels may also use atomics, __shared__ arrays,
    barriers and shuffles; without, the kernels are what they always were."""
    rng = random.Random(seed)
    prelude = DEVICE_PRELUDE
    if features:
        import random_sync
        kernels = [random_sync.kernel(rng, f'k{i}', features) for i in range(count)]
        prelude += random_sync.DEVICE_PRELUDE
    else:
        kernels = [kernel(rng, f'k{i}') + (set(),) for i in range(count)]
    bodies = '\n\n'.join(k[3] for k in kernels)
    names = [(f'k{i}', two_d, restrict, types, flags)
             for i, (two_d, restrict, types, _, flags) in enumerate(kernels)]
    cu = f'{prelude}\n{bodies}\n'
    # The host calls each kernel through a wrapper of one type (gm_kernel).
    wrappers = ''.join(
        f'static void gm_w_{n}(void *o, const void *a, void *b, int n, int m, unsigned u, int s, '
        f'gm_shape d) {{ {n}(({to} *)o, (const float *)a, ({tb} *)b, n, m, u, s, d); }}\n'
        for n, _, _, (to, tb), _ in names)
    table = ', '.join(f'gm_w_{n}' for n, _, _, _, _ in names)
    fibers = ', '.join('true' if 'fibers' in k[4] else 'false' for k in names)
    cpp = (f'// Generated by test/fuzz/random_kernels.py (seed {seed}): host emulation.\n'
           '#include "emu_shim.h"\n\n'
           f'{bodies}\n\n{wrappers}\n'
           f'static const gm_kernel gm_kernels[] = {{{table}}};\n'
           f'static const bool gm_fibers[] = {{{fibers}}};\n'
           'int main(int argc, char **argv) {\n'
           f'  return gm_main(argc, argv, gm_kernels, {len(names)}, gm_fibers);\n'
           '}\n')
    return cu, cpp, names
