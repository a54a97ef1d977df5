#!/usr/bin/env python3
"""Brute-force soundness check of gmem-analyze instance regions of corpus
kernels whose regions the loop-bound changes of the twentieth session made
tighter (per-thread chunks, latch tests of narrow indices, equality exits).

For each kernel: a Python model enumerates every element each thread may
touch (union over data-dependent branches) for a launch; gmem-analyze is run
in instance mode (--json), each pointer in the middle of its own 16 MiB
allocation; every touched byte must lie inside the printed ranges of that
pointer for that access kind.

usage: corpus_region_models.py --tool GMEM_ANALYZE --corpus DIR [-n LAUNCHES_PER_KERNEL]
       [-j JOBS] [--seed S] [--only K1,K2]
Exit 1 on an unsound launch or on a launch gmem-analyze could not evaluate.
"""
import argparse, bisect, json, os, random, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

from launch_grid import dim3
from corpus_loop_bound_models import KERNELS as LOOP_BOUND_KERNELS
from corpus_guard_models import KERNELS as GUARD_KERNELS
from corpus_budget_models import KERNELS as BUDGET_KERNELS

GMEM = "gmem-analyze"  # set from --tool
CORPUS = "test/corpus/"  # set from --corpus
ALLOC_SIZE = 0x1000000
MID = 0x800000


def base_of(i):
    return 0x10000000 * (i + 1)


# Models (corpus_loop_bound_models.py, corpus_guard_models.py,
# corpus_budget_models.py) return {(param_index, 'read'|'write'):
# (elem_size, set(elem))} (element index relative to the pointer argument),
# or for spmm a special 'residue' spec.
KERNELS = dict(LOOP_BOUND_KERNELS)
KERNELS.update(GUARD_KERNELS)
KERNELS.update(BUDGET_KERNELS)


def run_tool(kernel, fname, g, b, args):
    cmd = [GMEM, CORPUS + fname, '--kernel', kernel,
           '--grid', ','.join(map(str, g)), '--block', ','.join(map(str, b)), '--json']
    ptrs = {}
    for i, a in enumerate(args):
        if a == 'P':
            base = base_of(i)
            ptrs[i] = base + MID
            cmd += ['--alloc', '0x%x:0x%x' % (base, ALLOC_SIZE)]
    for i, a in enumerate(args):
        cmd += ['--arg', ('ptr:0x%x' % ptrs[i]) if a == 'P' else '%s:%s' % a]
    p = None
    for attempt in range(20):  # the binary may be relinked while we run
        try:
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode == 0:
                break
        except OSError:
            pass
        time.sleep(3)
    if p is None or p.returncode != 0:
        raise RuntimeError('tool failed: %s\n%s' % (' '.join(cmd), p.stderr[-2000:] if p else 'exec error'))
    inst = json.loads(p.stdout)['instance']
    byidx = {a['index']: a for a in inst['args']}
    return cmd, ptrs, byidx


def merge(ranges):
    out = []
    for lo, hi in sorted(ranges):
        if hi <= lo:
            continue
        if out and lo <= out[-1][1]:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return out


def first_uncovered(intervals, cov):
    """intervals: sorted byte intervals (rel); cov: merged ranges (rel)."""
    los = [c[0] for c in cov]
    for a, b in intervals:
        i = bisect.bisect_right(los, a) - 1
        if i < 0 or cov[i][1] <= a:
            return a
        if cov[i][1] < b:
            return cov[i][1]
    return None


def elems_to_intervals(esz, elems):
    out = []
    for e in sorted(elems):
        lo, hi = e * esz, e * esz + esz
        if out and lo <= out[-1][1]:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return out


def check_residue(k, J, cov, ptr):
    """Worst case for spmm: every f32 element x (relative index) inside the
    allocation with x mod k in J is read."""
    if k <= 0 or not J:
        return None
    alo, ahi = -MID, ALLOC_SIZE - MID  # relative byte bounds of allocation
    # gaps of cov within the allocation
    gaps, cur = [], alo
    for lo, hi in cov:
        if lo > cur:
            gaps.append((cur, min(lo, ahi)))
        cur = max(cur, hi)
    if cur < ahi:
        gaps.append((cur, ahi))
    for g0, g1 in gaps:
        if g1 <= g0:
            continue
        x0, x1 = g0 // 4, -(-g1 // 4)  # elements overlapping the gap
        for x in range(x0, min(x1, x0 + k + 1)):
            if x % k in J:
                return max(4 * x, g0)
    return None


def check_one(kernel, launch):
    fname, _, model = KERNELS[kernel]
    g, b, args = launch
    g, b = dim3(g), dim3(b)
    vals = [None if a == 'P' else (a[1] if a[0] != 'f32' else None) for a in args]
    vals = [int(v) if v is not None else None for v in vals]
    touched = model(g, b, vals)
    cmd, ptrs, inst = run_tool(kernel, fname, g, b, args)
    res = {'widened': False, 'fail': None, 'cmd': cmd}
    for (pi, kind), spec in touched.items():
        ia = inst.get(pi, {'read': [], 'write': []})
        wid = False
        if 'note' in ia:
            wid = True
            res.setdefault('notes', set()).add(ia['note'])
        alloc = ia.get('alloc') or {}
        for lo, hi in ia.get(kind, []):
            if alloc and lo <= alloc['base'] and hi >= alloc['base'] + alloc['size']:
                wid = True
        if wid:
            res['widened'] = True
            res.setdefault('wparams', set()).add('#%d %s' % (pi, kind))
        cov = merge([(lo - ptrs[pi], hi - ptrs[pi]) for lo, hi in ia.get(kind, [])])
        if spec[0] == 'residue':
            bad = check_residue(spec[1], spec[2], cov, ptrs[pi])
        else:
            esz, elems = spec
            bad = first_uncovered(elems_to_intervals(esz, elems), cov)
        if bad is not None and res['fail'] is None:
            res['fail'] = dict(param=pi, kind=kind, byte_off=bad,
                               abs_byte='0x%x' % (ptrs[pi] + bad),
                               ranges=[('0x%x' % lo, '0x%x' % hi) for lo, hi in ia.get(kind, [])])
    return res


def safe_check(kernel, launch):
    try:
        return check_one(kernel, launch)
    except Exception as e:  # reported, not counted as checked
        return {'error': str(e)[:500], 'fail': None, 'widened': False}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('-n', type=int, default=250)
    ap.add_argument('-j', type=int, default=3)
    ap.add_argument('--seed', type=int, default=20)
    ap.add_argument('--only', default='')
    ap.add_argument('--tool', required=True)
    ap.add_argument('--corpus', required=True)
    o = ap.parse_args()
    global GMEM, CORPUS
    GMEM, CORPUS = o.tool, os.path.join(o.corpus, '')
    names = [k for k in KERNELS if not o.only or k in o.only.split(',')]
    jobs = []
    for k in names:
        r = random.Random('%d-%s' % (o.seed, k))
        seen, launches, tries = set(), [], 0
        while len(launches) < o.n and tries < 50 * o.n:
            tries += 1
            L = KERNELS[k][1](r)
            key = repr(L)
            if key in seen:
                continue
            seen.add(key)
            launches.append(L)
        jobs += [(k, L) for L in launches]
    with ThreadPoolExecutor(o.j) as ex:
        results = list(ex.map(lambda kl: (kl[0], kl[1], safe_check(*kl)), jobs))
    total_bad = total_err = 0
    for k in names:
        errs = [(L, x) for kk, L, x in results if kk == k and 'error' in x]
        rs = [(L, x) for kk, L, x in results if kk == k and 'error' not in x]
        total_err += len(errs)
        for L, x in errs[:1]:
            print('   %s: %d launches errored, e.g. %s' % (k, len(errs), x['error']))
        bad = [(L, x) for L, x in rs if x['fail']]
        wid = sum(1 for L, x in rs if x['widened'])
        notes = set().union(*[x.get('notes', set()) for L, x in rs])
        wp = {}
        for L, x in rs:
            for p in x.get('wparams', ()):
                wp[p] = wp.get(p, 0) + 1
        if wp:
            notes = sorted(notes) + ['by param: %s' % ', '.join('%s=%d' % kv for kv in sorted(wp.items()))]
        total_bad += len(bad)
        print('%-20s launches=%4d unsound=%4d widened=%4d %s' % (k, len(rs), len(bad), wid,
                                                                   ('notes=' + str(sorted(notes))) if notes else ''))
        if bad:
            L, x = bad[0]
            print('   example: grid=%s block=%s args=%s' % (L[0], L[1], L[2]))
            print('   fail: %s' % x['fail'])
            print('   cmd: %s' % ' '.join(x['cmd']))
    print('TOTAL unsound launches: %d, errored: %d' % (total_bad, total_err))
    sys.exit(1 if total_bad or total_err else 0)


if __name__ == '__main__':
    main()
