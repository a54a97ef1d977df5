# edit_latch.py IN.ptx OUT.ptx FUNC...: in each clone FUNC, every bar.red.or but the entry decision
# (block gmem.p.decide) and joined loop barriers (gmem.site.*) becomes bar.sync 0 with a false
# decision (overhead measurement only: such a clone never stops between virtual CTAs).
# edit.py IN.ptx OUT.ptx FUNC...: in each FUNC, the end-of-virtual-CTA bar.red.or -> bar.sync 0 + false
import re, sys
src = open(sys.argv[1]).read()
for fn in sys.argv[3:]:
    st = src.index('.visible .entry %s(' % fn)
    en = src.index('\n}\n', st) + 3
    body = src[st:en].split('\n')
    label = None; n = 0
    for i, line in enumerate(body):
        m = re.search(r'//\s+%(\S+)', line)
        if m and (line.startswith('$L__') or line.startswith('// %bb')):
            label = m.group(1)
        if 'bar.red.or.pred' in line and label != 'gmem.p.decide' and 'site' not in label:
            print('  at', label)
            prev = body[i - 1]
            r = re.search(r'setp\.ne\.u32\s+%p1, (%r\d+), 0;', prev).group(1)
            body[i] = '\tbar.sync 0; setp.ne.u32 %%p2, %s, %s; ' % (r, r)
            n += 1
    assert n >= 1, (fn, n)
    print(fn, 'edited', n)
    src = src[:st] + '\n'.join(body) + src[en:]
open(sys.argv[2], 'w').write(src)
