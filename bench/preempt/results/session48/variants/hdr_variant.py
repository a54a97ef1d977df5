# Hand variant of im2col's alternate form: the grid-stride loop's every-trip
# check moved from its own block after the latch into the loop header's
# index-math block (clock and one 64-bit shared read at its top, the test at
# its end), so ptxas can overlap the check's latency with the divisions.
import re, sys
src, dst = sys.argv[1], sys.argv[2]
L = open(src).read().split('\n')
s = next(i for i, l in enumerate(L) if l.startswith('.visible .entry __gmem_pra_'))
e = next(i for i in range(s, len(L)) if L[i].startswith('}'))
def find(pat, start=s):
    return next(i for i in range(start, e) if re.search(pat, L[i]))
sym = re.search(r'__gmem_pra_(\S+)\(', L[s]).group(1)
cache = f'__gmem_reqcache___gmem_pra_{sym}'
# 1. the latch goes straight to the header
ck = find(r'// %gmem\.ckpt11$')
latch_br = ck - 2  # "@%p66 bra $L__BB3_24;"
assert re.search(r'@%p\d+ bra \t\$L__BB3_24;', L[latch_br]), L[latch_br]
L[latch_br] = L[latch_br].replace('$L__BB3_24', '$L__BB3_11')
# 2. the check at the header block: reads at its top, test at its end
top = find(r'// %for\.cond19\.preheader\.lr\.ph$') + 2
end = find(r'@%p18 bra \t\$L__BB3_33;', top)
ctl = re.search(r'ld\.relaxed\.gpu\.global\.u32 %r\d+, \[(%rd\d+)\]', '\n'.join(L[s:e])).group(1)
L[top] = ('\tmov.u32 \t%hc, %clock;\n'
          f'\tld.volatile.shared.v2.u32 \t{{%hv, %hd}}, [{cache}];\n' + L[top])
L[end] = ('\tsub.s32 \t%hl, %hc, %hd;\n\tsetp.ge.s32 \t%hp1, %hl, 0;\n'
          '\tsetp.eq.s32 \t%hp2, %hv, 2;\n\tor.pred \t%hp3, %hp1, %hp2;\n'
          '\t@%hp3 bra \t$L__HSLOW;\n$L__HCONT:\n' + L[end])
# 3. the slow path: refresh if due, then stop or go on
slow = ['$L__HSLOW:',
        '\t@!%hp1 bra \t$L__HTEST;',
        '\tmov.u32 \t%hc, %clock;',
        '\tadd.s32 \t%hc, %hc, 1024;',
        f'\tst.volatile.shared.u32 \t[{cache}+4], %hc;',
        f'\tld.relaxed.gpu.global.u32 %hv, [{ctl}];',
        f'\tst.volatile.shared.u32 \t[{cache}], %hv;',
        '$L__HTEST:',
        '\tsetp.eq.s32 \t%hp2, %hv, 2;',
        '\tmov.pred \t%p84, %p79;',
        '\t@%hp2 bra \t$L__BB3_48;',
        '\tbra.uni \t$L__HCONT;']
ret = max(i for i in range(s, e) if L[i].strip() == 'ret;')
L[ret] = L[ret] + '\n' + '\n'.join(slow)
# registers
brace = next(i for i in range(s, e) if L[i].startswith('{'))
L[brace] = '{\n\t.reg .b32 \t%hc, %hv, %hd, %hl;\n\t.reg .pred \t%hp1, %hp2, %hp3;'
open(dst, 'w').write('\n'.join(L))
