# Hand variants of one form's every-trip checks (diagnostics, not preemptible
# correctly): clock0 = every %clock read of the form becomes 0 (one refresh
# per CTA, no clock reads: compare with refresh0); lds64 = a check reads the
# deadline and the cached value with one 64-bit shared load, the hit path
# uses that value.
import re, sys
src, dst, form, variant, ksym = sys.argv[1:6]
L = open(src).read().split('\n')
s = next(i for i, l in enumerate(L) if l.startswith(f'.visible .entry __gmem_{form}_{ksym}('))
e = next(i for i in range(s, len(L)) if L[i].startswith('}'))
sym = re.search(rf'__gmem_{form}_(\S+)\(', L[s]).group(1)
cache = f'__gmem_reqcache___gmem_{form}_{sym}'
n = 0
if variant == 'clock0':
    for i in range(s, e):
        m = re.match(r'^(\s*)mov\.u32\s+(%r\d+),\s*%clock;', L[i])
        if m:
            L[i] = f'{m.group(1)}mov.u32 \t{m.group(2)}, 0;'
            n += 1
elif variant == 'lds64':
    k = 0
    for i in range(s, e):
        m = re.match(rf'^(\s*)ld\.volatile\.shared\.u32\s+(%r\d+),\s*\[{re.escape(cache)}\+4\];', L[i])
        if not m:
            continue
        # the hit block: the next `ld.volatile.shared.u32 %rV, [cache];` reached
        # by the branch that follows
        br = next(j for j in range(i, e) if re.search(r'@%p\d+ bra', L[j]))
        hit = re.search(r'bra \t(\$L__BB\S+);', L[br]).group(1)
        h = next(j for j in range(s, e) if L[j].startswith(hit + ':'))
        hv = next(j for j in range(h, h + 4) if re.search(rf'ld\.volatile\.shared\.u32\s+%r\d+,\s*\[{re.escape(cache)}\];', L[j]))
        reg = re.search(r'(%r\d+),', L[hv]).group(1)
        L[i] = f'{m.group(1)}ld.volatile.shared.v2.u32 \t{{%lv{k}, {m.group(2)}}}, [{cache}];'
        L[hv] = f'\tmov.u32 \t{reg}, %lv{k};'
        k += 1
        n += 1
    brace = next(i for i in range(s, e) if L[i].startswith('{'))
    L[brace] = '{\n\t.reg .b32 \t%lv<' + str(max(k, 1)) + '>;'
bar_wait = variant == 'asyncbar'
if variant in ('asyncref', 'asyncbar'):
    # the refresh: a cp.async of the control word into the cache's value
    # word, nobody waiting; the refresher tests the value cached before
    for i in range(s, e):
        m = re.match(r'^(\s*)ld\.relaxed\.gpu\.global\.u32\s+(%r\d+),\s*\[(%rd\d+)\];', L[i])
        if not m:
            continue
        st = next((j for j in range(i + 1, min(i + 4, e)) if re.search(
            rf'st\.volatile\.shared\.u32\s+\[{re.escape(cache)}\],\s*{m.group(2)};', L[j])), None)
        if st is None:
            continue
        L[i] = (f'{m.group(1)}cp.async.ca.shared.global [{cache}], [{m.group(3)}], 4;\n'
                f'{m.group(1)}ld.volatile.shared.u32 \t{m.group(2)}, [{cache}];')
        L[st] = ''
        n += 1
    for i in range(s, e):
        if L[i].strip() == 'ret;' and ksym and not bar_wait:
            L[i] = L[i].replace('ret;', 'cp.async.wait_all;\n\tret;')
        if bar_wait and (L[i].strip().startswith('bar.sync') or 'bar.red.or.pred' in L[i]):
            L[i] = '\tcp.async.wait_all;\n' + L[i]
print(f'{variant}: {n} edits', file=sys.stderr)
open(dst, 'w').write('\n'.join(L))
