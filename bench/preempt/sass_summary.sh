#!/usr/bin/env bash
# sass_summary.sh CUBIN PATTERN: per function matching PATTERN, instruction
# counts of the SASS (loads, FMAs, branches) and its loops' sizes.
cuobjdump -sass "$1" | awk -v pat="$2" '
/Function :/ { if (fn != "" && fn ~ pat) printf "%-60s instr %4d LDG %3d FFMA %3d BRA %3d BAR %2d\n", fn, n, ldg, ffma, bra, bar; fn=$3; n=ldg=ffma=bra=bar=0; next }
/\/\*[0-9a-f]+\*\// { n++; if ($0 ~ /LDG/) ldg++; if ($0 ~ /FFMA/) ffma++; if ($0 ~ /BRA/) bra++; if ($0 ~ /BAR/) bar++ }
END { if (fn ~ pat) printf "%-60s instr %4d LDG %3d FFMA %3d BRA %3d BAR %2d\n", fn, n, ldg, ffma, bra, bar }'
