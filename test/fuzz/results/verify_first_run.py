# Session 36: were the first preempt_fuzz run's differences (no race filter) all races?
#   mkdir -p D && tar xzf test/fuzz/results/preempt_fuzz_h200_norace_filter.tgz -C D
#   python3 test/fuzz/results/verify_first_run.py 11 80 none D/plain
#   python3 test/fuzz/results/verify_first_run.py 12 80 shared,shuffle D/sync
# re-draws that run's launches, emulates each with GM_RACES, and lists the
# launches whose two plain runs or chaos runs (PREFIX_{plain1,plain2,chaos20,
# chaos200}.txt) differ but that the tracking does not flag.
import os, random, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import random_kernels, preempt_fuzz
seed, count, feats, prefix = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
features = [] if feats == 'none' else feats.split(',')
cu, cpp, names = random_kernels.write_sources(seed, count, features)
emu = preempt_fuzz.build_emulator(cpp, tempfile.mkdtemp(), 'clang++-19')
r = random.Random(seed * 7919 + 3)
old = []  # (ki, racy) in the first run's kept order
for ki, (name, two_d, restrict, types, flags) in enumerate(names):
    for _ in range(6):
        grid, block, sc, alias = preempt_fuzz.draw_launch(r, two_d, restrict, types, flags)
        why, idem = preempt_fuzz.emulate(emu, ki, grid, block, sc, alias)
        if why == 'threads race on global memory':
            old.append((ki, True))
        elif why is None:
            old.append((ki, False))
rd = lambda p: dict((l.split()[0], l.split()[1:]) for l in open(p) if l.startswith('L'))
a, b, c, d = (rd(f'{prefix}_{x}.txt') for x in ('plain1', 'plain2', 'chaos20', 'chaos200'))
bad = sorted((k for k in a if not a[k] == b.get(k) == c.get(k) == d.get(k)), key=lambda k: int(k[1:]))
print(f'seed {seed}: {len(old)} launches kept by the first run')
notracy = [b for b in bad if not old[int(b[1:])][1]]
print(f'{len(bad)} wrong or nondeterministic launches, {len(bad) - len(notracy)} flagged racy, not flagged: {notracy}')
