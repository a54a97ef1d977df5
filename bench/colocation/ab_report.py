"""Per-round and pooled P99 ratios of an ab_bins.sh run (labels
alone-SHAPE@rK and colo-step-gmem-SHAPE-LABEL@rK): each binary against the
chain alone in the same round.

    python3 bench/colocation/ab_report.py OUT/colocation.jsonl[.gz]
"""
import gzip, json, sys, statistics
def pct(v,p):
    v=sorted(v); i=min(len(v)-1, int(round(p/100*(len(v)-1)))); return v[i]
runs={}
opener = gzip.open if sys.argv[1].endswith(".gz") else open
for line in opener(sys.argv[1], "rt"):
    r=json.loads(line); runs[r['label']]=r
for shape in ('default','h4096-graph'):
    print('##', shape)
    ratios={}
    pooled={}
    for lab,r in runs.items():
        if not lab.startswith('colo-step-gmem-'+shape+'-'): continue
        name,rnd=lab.split('@'); b=name.rsplit('-',1)[1]
        alone=runs['alone-%s@%s'%(shape,rnd)]
        a99=pct(alone['latency_us'],99); c99=pct(r['latency_us'],99)
        ratios.setdefault(b,[]).append(c99/a99)
        pooled.setdefault(b,[]).extend(r['latency_us'])
        print('  %s %s: P50 %.1f P99 %.1f (alone %.1f / %.1f) ratio %.2f  first %.1f other %.1f' % (b, rnd, pct(r['latency_us'],50), c99, pct(alone['latency_us'],50), a99, c99/a99, statistics.median(r['first_kernel_us']), statistics.median(r['other_kernels_us'])))
    al=[x for k,r in runs.items() if k.startswith('alone-'+shape+'@') for x in r['latency_us']]
    for b,v in ratios.items():
        print('  %s: per-round ratios %s median %.2f; pooled P99 %.1f vs alone %.1f = %.2fx' % (b, ' '.join('%.2f'%x for x in v), statistics.median(v), pct(pooled[b],99), pct(al,99), pct(pooled[b],99)/pct(al,99)))
