#!/usr/bin/env python3
"""Measurement-only PTX variants of the full preemptible clones, to find out
which part of a clone's code costs the time (bench/preempt/RESULTS.md,
"Where the overhead is"). Each variant removes or cheapens one part of the
checkpoint code in `__gmem_pre_<sym>` and leaves the rest byte-identical, so
`preempt_bench overhead` can time original and variant side by side.

The variants are NOT preemptible correctly (some drop the reads or barriers
that make a stop possible or uniform); they only exist to be timed with
nothing preempted.

  cta0      thread 0's request read per virtual CTA (blocks gmem.p.read /
            gmem.p.req) becomes `mov 0`: no L2 traffic at virtual CTA start
  nobar     the per-virtual-CTA `bar.red.or` becomes a plain predicate move
            (only for clones without loop checkpoints: elsewhere the
            reduction may stand in for a barrier of the body)
  cta0nobar both
  loopL1    loop checkpoints read the request with an L1-cached weak load
            (ld.global.ca) instead of a volatile one
  loop0     loop checkpoints read nothing (`mov 0`): the counters, branches
            and exits stay
  refresh16k  the request cache of paced loops refreshes every 16384 cycles
            instead of 1024
  refresh0  the request cache refreshes once per CTA (the deadline moves
            2^30 cycles on)
  spread16  the cache's cp.async reads one of 16 words 256 bytes apart in
            the control block (by %ctaid.x) instead of the request word:
            is one hot L2 line what the refreshes cost?
  oneseg    paced loops run one segment per entry (shift 16 from the start):
            what the segment ends cost
  seg4x     paced segments aim at 4x the cycles
  loopland  loop checks that read the control word (joined barriers) read
            a shared copy instead and refresh it with cp.async (4 bytes),
            nobody waiting for the copy
  noland    the paced check reads no landing area (`mov 0`)
  landstart the paced check's landing read moves to the segment's start
            (clones with one paced loop only)
  nounroll  `.pragma "nounroll";` at every innermost loop header of every
            form (full, light, alternate, barrier-free): does ptxas unroll
            the body's loops inside the virtual-CTA loop further than in the
            kernel, and schedule the unrolled loads worse?
  relaxed   every `ld.volatile.global.u32` of every form becomes
            `ld.relaxed.gpu.global.u32`: ptxas makes a volatile load a
            system-scope strong load (LDG.E.STRONG.SYS); is the GPU scope,
            all a control word written on the device needs, any faster?
  nomeet    every form: the deferred stops' meeting barriers
            (`barrier.red.or.pred` before a sync point after a loop) become
            a predicate move: what the extra barrier costs
  entry0    every form: a persistent CTA's entry reads of its redo and
            resume words (`[ctl + 8 * ctaid + 8]`, `+ 12`) become `mov 0`,
            which is what they read in a first launch: what waiting for
            them at every CTA's start costs
  entryrel  every form: those entry reads at GPU scope
            (`ld.relaxed.gpu.global.u32`, same address and offset)
  init3     paced segments start at s = 3 (K = 8) instead of 2
  frozen3   paced segments start at s = 3 and keep it (the clock is read,
            s is not updated): what the pace's update costs, at about the
            K the update settles on for a 500-cycle iteration
  lim32     a paced segment's limit (the nearer of the bound and 1.5 K
            steps ahead, in 64 bits so that nothing overflows) in 32 bits:
            wrong past 2^31, right at the table's sizes
  frozen3lim32  both
  frozen2   s kept at its start value 2 (K = 4)
  alt-V     variant V (one of the above that edit the full clone) applied
            to the alternate form `__gmem_pra_<sym>` instead
  nocheck   paced loop checks (a `%clock` deadline test, then the cached
            or refreshed request) jump straight to the block that reads
            the request, which then never stops: no clock, no shared or
            L2 read, no compare; the loop's own increments, which the
            pass puts in that block, stay (with alt-: the alternate form)
  entrypred every form: those entry reads predicated on bit 28 of the
            form's last parameter (grid_z), which no launch sets: skipped
            at run time as a first launch could skip them, but not known
            to ptxas (is entry0's gain the loads' latency or ptxas's
            folding of the constant?)
  entryweak every form: those entry reads as plain `ld.global.u32` (every
            write to the words is stream-ordered before the launch, or by
            the reading CTA itself after its entry barrier)

Usage: ptx_variants.py [--variants A,B,...] STAGE_DIR KERNEL_NAME... > manifest lines
(KERNEL_NAME as in the overhead manifest's name=, e.g. vector_add.cu:vec_add)
Writes STAGE_DIR/var/<variant>/<file>.ptx and STAGE_DIR/var_manifest.txt.
"""
import os
import re
import sys

LABEL = re.compile(r'^(?:\$L__BB\S+:|// %bb\.\d+:)\s*//\s*%(\S+)')
# The request word's reads: volatile before session 41, GPU-scope asm since.
VOLATILE = re.compile(r'^(\s*)ld\.(?:volatile|relaxed\.gpu)\.global\.u32\s+(%r\d+),\s*\[(%rd\d+)\];')
LANDED = re.compile(r'^(\s*)ld\.volatile\.shared\.u32\s+(%r\d+),\s*\[__gmem_landing_[^+\]]*\];')
PACE_INIT = re.compile(r'^(\s*)or\.b32\s+(%r\d+),\s*(%r\d+),\s*2;')
PACE_SHIFT = re.compile(r'^(\s*)add\.s32\s+(%r\d+),\s*(%r\d+),\s*(-\d+);')
PACE_CLAMP = re.compile(r'^(\s*)min\.s32\s+(%r\d+),\s*(%r\d+),\s*16;')
REFRESH = re.compile(r'^(\s*)add\.s32\s+(%r\d+),\s*(%r\d+),\s*1024;')
CPASYNC = re.compile(r'^(\s*)cp\.async\.cg\.shared\.global\s+\[(%rd\d+)\],\s*\[(%rd\d+)\],\s*16;')
BARRED = re.compile(r'^(\s*)bar\.red\.or\.pred\s+(%p\d+),\s*0,\s*(%p\d+);')
CTA_BLOCKS = {'gmem.p.read', 'gmem.p.req'}
KEEP_BLOCKS = {'gmem.p.save', 'gmem.p.save.done', 'gmem.p.stop'}


def clone_span(lines, sym, form='pre'):
    """[start, end) of the body lines of the clone __gmem_<form>_<sym> (the
    full clone by default)."""
    start = None
    for i, l in enumerate(lines):
        if start is None and re.match(r'^\.visible \.entry __gmem_' + form + '_' + re.escape(sym) + r'\(', l):
            start = i
        elif start is not None and l.startswith('}'):
            return start, i
    if form != 'pre':
        return None
    raise SystemExit(f'error: no full clone __gmem_pre_{sym}')


def request_register(lines, lo, hi):
    """The address register of the request word: thread 0's entry read."""
    block = None
    for l in lines[lo:hi]:
        m = LABEL.match(l)
        if m:
            block = m.group(1)
        v = VOLATILE.match(l)
        if v and block == 'gmem.p.read':
            return v.group(3)
    raise SystemExit('error: no request read in gmem.p.read')


def has_loop_checks(lines, lo, hi):
    return any((m := LABEL.match(l)) and (m.group(1).startswith('gmem.ckpt') or
                                          m.group(1).startswith('gmem.site'))
               for l in lines[lo:hi])


def spread_read(ind, src, read):
    """`read` (addressing [%gw2]) of one of 16 words 256 bytes apart past
    the control block's start, chosen by %ctaid.x."""
    return (f'{ind}{{ .reg .b32 %gv<2>; .reg .b64 %gw<3>;\n'
            f'{ind}mov.u32 %gv0, %ctaid.x; and.b32 %gv1, %gv0, 15;\n'
            f'{ind}mul.wide.u32 %gw0, %gv1, 256; add.s64 %gw1, {src}, %gw0;\n'
            f'{ind}add.s64 %gw2, %gw1, 256;\n'
            f'{ind}{read} }}')


def every_form(lines, sym, edit):
    """lines with edit(line) -> [lines] applied to each line of every form of
    sym (full, light, alternate, barrier-free); None when nothing changed."""
    out, inside, changed = [], False, 0
    for l in lines:
        if re.match(r'^\.visible \.entry __gmem_pr[elaf]_' + re.escape(sym) + r'\(', l):
            inside = True
        elif inside and l.startswith('}'):
            inside = False
        new = edit(l) if inside else [l]
        changed += new != [l]
        out.extend(new)
    return out if changed else None


def nounroll_variant(lines, sym):
    """Every form of sym: a nounroll pragma at each innermost loop header."""
    return every_form(lines, sym, lambda l: [l, '\t.pragma "nounroll";']
                      if 'This Inner Loop Header' in l else [l])


def relaxed_variant(lines, sym):
    """Every form of sym: its volatile 32-bit global loads at GPU scope."""
    return every_form(lines, sym, lambda l: [l.replace('ld.volatile.global.u32',
                                                       'ld.relaxed.gpu.global.u32')]
                      if VOLATILE.match(l) else [l])


MEET = re.compile(r'^(\s*)barrier\.red\.or\.pred\s+(%gmp\d+),\s*0,\s*(%gmp\d+);')
ENTRY_WORD = re.compile(r'^(\s*)ld\.volatile\.global\.u32\s+(%r\d+),\s*\[%rd\d+\+(?:8|12)\];')


def nomeet_variant(lines, sym):
    """Every form of sym: its meeting barriers as predicate moves."""
    def edit(l):
        m = MEET.match(l)
        return [f'{m.group(1)}mov.pred {m.group(2)}, {m.group(3)};'] if m else [l]
    return every_form(lines, sym, edit)


def entry_variant(lines, sym, to):
    """Every form of sym: the redo/resume entry reads as `mov 0` (to
    None) or as loads of kind `to` (e.g. 'ld.relaxed.gpu.global.u32')."""
    def edit(l):
        m = ENTRY_WORD.match(l)
        if not m:
            return [l]
        if to is None:
            return [f'{m.group(1)}mov.u32 \t{m.group(2)}, 0;']
        return [l.replace('ld.volatile.global.u32', to)]
    return every_form(lines, sym, edit)


def entrypred_variant(lines, sym):
    """Every form of sym: the redo/resume entry reads predicated on bit 28
    of the form's grid_z parameter (its last)."""
    out, entry, last, changed = [], None, None, 0
    for l in lines:
        m = re.match(r'^\.visible \.entry (__gmem_pr[elaf]_' + re.escape(sym) + r')\(', l)
        if m:
            entry, last = m.group(1), None
        elif entry and l.startswith('}'):
            entry = None
        p = re.match(r'^\s*\.param \.u32 (\S+?),?$', l)
        if entry and p:
            last = p.group(1)
        e = ENTRY_WORD.match(l) if entry else None
        if e and last:
            ind, reg = e.group(1), e.group(2)
            out += [f'{ind}{{ .reg .pred %gep; .reg .b32 %gez;',
                    f'{ind}ld.param.u32 %gez, [{last}];',
                    f'{ind}and.b32 %gez, %gez, 268435456;',
                    f'{ind}setp.ne.u32 %gep, %gez, 0;',
                    f'{ind}mov.u32 {reg}, 0;',
                    f'{ind}@%gep {l.strip()} }}']
            changed += 1
        else:
            out.append(l)
    return out if changed else None


LIM64 = [r'cvt\.s64\.s32\s+(?P<a>%rd\d+),\s*(?P<step>%r\d+);',
         r'cvt\.s64\.s32\s+(?P<b>%rd\d+),\s*(?P<i>%r\d+);',
         r'shl\.b64\s+(?P<c>%rd\d+),\s*(?P=a),\s*(?P<s>%r\d+);',
         r'add\.s64\s+(?P<d>%rd\d+),\s*(?P=b),\s*(?P=c);',
         r'shr\.s64\s+(?P<e>%rd\d+),\s*(?P=c),\s*1;',
         r'add\.s64\s+(?P<f>%rd\d+),\s*(?P=d),\s*(?P=e);',
         r'cvt\.s64\.s32\s+(?P<g>%rd\d+),\s*(?P<bound>%r\d+);',
         r'setp\.lt\.s64\s+(?P<p>%p\d+),\s*(?P=f),\s*(?P=g);',
         r'cvt\.u32\.u64\s+(?P<h>%r\d+),\s*(?P=d);',
         r'min\.s32\s+(?P<j>%r\d+),\s*(?P=bound),\s*(?P=h);',
         r'selp\.b32\s+(?P<lim>%r\d+),\s*(?P=j),\s*(?P=bound),\s*(?P=p);']


def lim32_edit(out, lo, hi):
    """Rewrites each 64-bit segment limit (LIM64) in out[lo:hi] in 32 bits,
    keeping its lines' count (the 64-bit values stay, unused); returns how
    many it rewrote."""
    n, i = 0, lo
    while i + len(LIM64) <= hi:
        text = '\n'.join(l.strip() for l in out[i:i + len(LIM64)])
        m = re.match('\n'.join(LIM64) + '$', text)
        if not m:
            i += 1
            continue
        g = m.groupdict()
        ind = re.match(r'^(\s*)', out[i]).group(1)
        out[i + 7] = (f'{ind}{{ .reg .b32 %gl<4>; shl.b32 %gl0, {g["step"]}, {g["s"]}; '
                      f'add.s32 %gl1, {g["i"]}, %gl0; shr.s32 %gl2, %gl0, 1; '
                      f'add.s32 %gl3, %gl1, %gl2; setp.lt.s32 {g["p"]}, %gl3, {g["bound"]};\n'
                      f'{ind}min.s32 {g["j"]}, {g["bound"]}, %gl1; }}')
        out[i + 8] = f'{ind}// (lim32)'
        out[i + 9] = f'{ind}// (lim32)'
        n += 1
        i += len(LIM64)
    return n


def pace_edit(out, lo, hi, init, frozen):
    """Paced segments of out[lo:hi]: start at s = init (PACE_INIT's `or 2`),
    and with frozen keep s (the clamp after the clz update becomes a move of
    the segment's s); returns how many lines it changed."""
    n = 0
    for i in range(lo, hi):
        pi = PACE_INIT.match(out[i])
        if pi and re.match(r'^\s*and\.b32\s+' + re.escape(pi.group(3)) + r',\s*%r\d+,\s*-64;', out[i - 1]):
            out[i] = f'{pi.group(1)}or.b32 \t{pi.group(2)}, {pi.group(3)}, {init};'
            n += 1
        c = re.match(r'^\s*clz\.b32\s+(%r\d+),', out[i])
        if frozen and c:
            a = re.match(r'^\s*add\.s32\s+%r\d+,\s*(%r\d+),\s*' + re.escape(c.group(1)) + ';', out[i + 1])
            for k in range(i + 2, min(i + 7, hi)):
                pc = PACE_CLAMP.match(out[k])
                if a and pc:
                    out[k] = f'{pc.group(1)}mov.u32 \t{pc.group(2)}, {a.group(1)};'
                    n += 1
                    break
    return n


BLOCK_LABEL = re.compile(r'^(\$L__BB\S+):\s*//\s*%(\S+)')
ANON_BLOCK = re.compile(r'^// %bb\.\d+:\s*//\s*%(\S+)')
SEEN_TEST = re.compile(r'^(\s*)setp\.eq\.s32\s+(%p\d+),\s*%r\d+,\s*2;')


def nocheck_edit(out, lo, hi, keep_cached=False):
    """Paced checks in out[lo:hi] skip to their seen block, which never
    stops; with keep_cached, to their hit block (the cached request is
    still read and tested). Returns the number of checks changed."""
    blocks = []  # (start line, label or None, name)
    for i in range(lo, hi):
        m, a = BLOCK_LABEL.match(out[i]), ANON_BLOCK.match(out[i])
        if m:
            blocks.append((i, m.group(1), m.group(2)))
        elif a:
            blocks.append((i, None, a.group(1)))
    blocks.append((hi, None, ''))
    changed = 0
    for k, (start, _, name) in enumerate(blocks[:-1]):
        if not re.fullmatch(r'gmem\.ckpt\d*', name):
            continue
        body = range(start + 1, blocks[k + 1][0])
        if not any('%clock' in out[i] for i in body):
            continue
        # the refresh block after it ends with `bra.uni SEEN;`
        ref = blocks[k + 1]
        seen = None
        for i in range(ref[0] + 1, blocks[k + 2][0]):
            b = re.match(r'^\s*bra\.uni\s+(\$L__BB\S+);', out[i])
            if b:
                seen = b.group(1)
        if not ref[2].startswith('gmem.cache.refresh') or seen is None:
            continue
        hit = None
        for i in body:
            h = re.match(r'^\s*@%p\d+\s+bra\s+(\$L__BB\S+);', out[i])
            if h:
                hit = h.group(1)
        if keep_cached and hit is None:
            continue
        for i in body:
            if not out[i].lstrip().startswith('//'):
                out[i] = ''
        out[body[-1]] = f'\tbra.uni \t{hit if keep_cached else seen};'
        if keep_cached:
            changed += 1
            continue
        for j, (s2, lab, n2) in enumerate(blocks[:-1]):
            if lab == seen:
                for i in range(s2 + 1, blocks[j + 1][0]):
                    t = SEEN_TEST.match(out[i])
                    if t:
                        out[i] = f'{t.group(1)}mov.pred \t{t.group(2)}, 0;'
        changed += 1
    return changed


def make_variant(lines, sym, variant):
    if variant == 'nounroll':
        return nounroll_variant(lines, sym)
    if variant == 'relaxed':
        return relaxed_variant(lines, sym)
    if variant == 'nomeet':
        return nomeet_variant(lines, sym)
    if variant == 'entry0':
        return entry_variant(lines, sym, None)
    if variant == 'entrypred':
        return entrypred_variant(lines, sym)
    if variant == 'entryrel':
        return entry_variant(lines, sym, 'ld.relaxed.gpu.global.u32')
    if variant == 'entryweak':
        return entry_variant(lines, sym, 'ld.global.u32')
    form = 'pre'
    if variant.startswith('alt-'):  # the alternate form instead of the full clone
        form, variant = 'pra', variant[len('alt-'):]
    span = clone_span(lines, sym, form)
    if span is None:
        return None
    lo, hi = span
    req = request_register(lines, lo, hi)
    loops = has_loop_checks(lines, lo, hi)
    if 'nobar' in variant and loops:
        return None
    out = list(lines)
    block = None
    changed = 0
    if variant in ('init3', 'frozen3', 'lim32', 'frozen3lim32', 'frozen2'):
        if variant != 'lim32':
            changed += pace_edit(out, lo, hi, 2 if variant == 'frozen2' else 3,
                                 variant.startswith('frozen'))
        if variant.endswith('lim32'):
            changed += lim32_edit(out, lo, hi)
        return out if changed else None
    if variant in ('nocheck', 'nodeadline'):
        return out if nocheck_edit(out, lo, hi, keep_cached=variant == 'nodeadline') else None
    if variant == 'landstart':
        land = [i for i in range(lo, hi) if LANDED.match(lines[i])]
        segs = [i for i in range(lo, hi) if (m := LABEL.match(lines[i])) and m.group(1) == 'gmem.ckpt.seg']
        if len(land) != 1 or len(segs) != 1:
            return None
        at = segs[0] + 1
        while out[at].lstrip().startswith('//'):
            at += 1
        ld = out[land[0]]
        del out[land[0]]
        out.insert(at if at < land[0] else at - 1, ld)
        return out
    for i in range(lo, hi):
        l = out[i]
        m = LABEL.match(l)
        if m:
            block = m.group(1)
        v = VOLATILE.match(l)
        if v and v.group(3) == req:
            ind, reg = v.group(1), v.group(2)
            in_cta = block in CTA_BLOCKS
            if in_cta and variant.startswith('cta0'):
                out[i] = f'{ind}mov.u32 \t{reg}, 0;'
                changed += 1
            elif not in_cta and block not in KEEP_BLOCKS and variant == 'loopL1':
                out[i] = f'{ind}ld.global.ca.u32 \t{reg}, [{req}];'
                changed += 1
            elif not in_cta and block not in KEEP_BLOCKS and variant == 'loop0':
                out[i] = f'{ind}mov.u32 \t{reg}, 0;'
                changed += 1
            elif (not in_cta and block not in KEEP_BLOCKS and variant == 'loopland'
                  and not (block or '').startswith('gmem.cache')):
                out[i] = (f'{ind}ld.volatile.shared.u32 \t{reg}, [__probe_land];\n'
                          f'{ind}cp.async.ca.shared.global [__probe_land], [{req}], 4;')
                changed += 1
        ln = LANDED.match(l)
        if ln and variant == 'noland':
            out[i] = f'{ln.group(1)}mov.u32 \t{ln.group(2)}, 0;'
            changed += 1
        if variant in ('oneseg', 'seg4x'):
            prev = out[i - 1]
            pi = PACE_INIT.match(l)
            if pi and re.match(r'^\s*and\.b32\s+' + re.escape(pi.group(3)) + r',\s*%r\d+,\s*-64;', prev):
                out[i] = f'{pi.group(1)}or.b32 \t{pi.group(2)}, {pi.group(3)}, {16 if variant == "oneseg" else 4};'
                changed += 1
            pc = PACE_CLAMP.match(l)
            if pc and variant == 'oneseg':
                out[i] = f'{pc.group(1)}mov.u32 \t{pc.group(2)}, 16;'
                changed += 1
            ps = PACE_SHIFT.match(l)
            if ps and variant == 'seg4x' and block and block.startswith('gmem.ckpt') \
                    and ps.group(4) in ('-18', '-19', '-20', '-21'):
                out[i] = f'{ps.group(1)}add.s32 \t{ps.group(2)}, {ps.group(3)}, {int(ps.group(4)) + 2};'
                changed += 1
        if block and block.startswith(('gmem.cache.prefetch', 'gmem.cache.refresh')):
            r = REFRESH.match(l)
            if r and variant in ('refresh16k', 'refresh0'):
                step = 16384 if variant == 'refresh16k' else 1 << 30
                out[i] = f'{r.group(1)}add.s32 \t{r.group(2)}, {r.group(3)}, {step};'
                changed += 1
            c, g = CPASYNC.match(l), VOLATILE.match(l)
            if variant == 'spread16' and (c or g):
                ind, _, src = (c or g).groups()
                read = (f'cp.async.cg.shared.global [{c.group(2)}], [%gw2], 16;' if c else
                        f'ld.volatile.global.u32 \t{g.group(2)}, [%gw2];')
                out[i] = spread_read(ind, src, read)
                changed += 1
        b = BARRED.match(l)
        if b and variant.endswith('nobar'):
            out[i] = f'{b.group(1)}mov.pred \t{b.group(2)}, {b.group(3)};'
            changed += 1
    if changed and variant == 'loopland':
        # the copy's home, and no copy left in flight at a return
        at = lo + 1
        while not out[at].startswith('{'):
            at += 1
        out.insert(at + 1, '\t.shared .align 8 .b8 __probe_land[8];')
        for i in range(lo, hi + 1):
            if out[i].strip() == 'ret;':
                out[i] = out[i].replace('ret;', 'cp.async.wait_all;\n\tret;')
    return out if changed else None


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    args = sys.argv[1:]
    variants = ('cta0', 'nobar', 'cta0nobar', 'loopL1', 'loop0')
    if args[0] == '--variants':
        variants = tuple(args[1].split(','))
        args = args[2:]
    stage, names = args[0], set(args[1:])
    manifest = [l for l in open(os.path.join(stage, 'overhead_manifest.txt'))
                if not l.startswith('#') and l.strip()]
    lines_out = []
    edited = {}  # (variant, ptx) -> lines: several kernels may share a file
    for entry in manifest:
        f = dict(kv.split('=', 1) for kv in entry.split() if '=' in kv and not kv.startswith('args'))
        if f['name'] not in names:
            continue
        names.discard(f['name'])
        src = open(os.path.join(stage, f['ptx'])).read().split('\n')
        lines_out.append(entry.strip())
        for variant in variants:
            key = (variant, f['ptx'])
            v = make_variant(edited.get(key, src), f['sym'], variant)
            if v is None:
                continue
            edited[key] = v
            rel = os.path.join('var', variant, os.path.basename(f['ptx']))
            os.makedirs(os.path.join(stage, 'var', variant), exist_ok=True)
            with open(os.path.join(stage, rel), 'w') as o:
                o.write('\n'.join(v))
            lines_out.append(entry.strip().replace('ptx=' + f['ptx'], 'ptx=' + rel)
                             .replace('name=' + f['name'], f'name={f["name"]}@{variant}'))
    if names:
        print('error: not in the overhead manifest: ' + ', '.join(sorted(names)), file=sys.stderr)
        return 1
    with open(os.path.join(stage, 'var_manifest.txt'), 'w') as o:
        o.write('\n'.join(lines_out) + '\n')
    print(f'{len(lines_out)} manifest lines -> {stage}/var_manifest.txt')
    return 0


if __name__ == '__main__':
    sys.exit(main())
