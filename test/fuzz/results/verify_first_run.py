# Session 36: were the first preempt_fuzz run's differences (no race filter) all races?
# python3 test/fuzz/results/verify_first_run.py SEED KERNELS FEATURES BAD_IDS_FILE
# re-draws that run's launches (seeds 11 / 12, 80 kernels), emulates each with GM_RACES,
# and lists the launch ids (L<n>) from BAD_IDS_FILE that the tracking does not flag.
import os, random, subprocess, sys, tempfile
sys.path.insert(0, '/work/main/test/fuzz')
import random_kernels, region_fuzz, preempt_fuzz
seed, count, feats, badfile = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
features = [] if feats == 'none' else feats.split(',')
cu, cpp, names = random_kernels.write_sources(seed, count, features)
work = tempfile.mkdtemp()
emu = os.path.join(work, 'e'); open(emu + '.cpp', 'w').write(cpp)
subprocess.run(['clang++-19', '-x', 'c++', '-std=c++17', '-O1', '-w', '-I', '/work/main/test/fuzz',
  '-fsanitize=signed-integer-overflow,shift,integer-divide-by-zero,float-cast-overflow,pointer-overflow',
  '-fsanitize-trap=all', emu + '.cpp', '-o', emu], check=True)
r = random.Random(seed * 7919 + 3)
old = []  # (ki, racy) in the first run's kept order
for ki, (name, two_d, restrict, types, flags) in enumerate(names):
    for _ in range(6):
        grid, block = preempt_fuzz.launch_shape(r, two_d, flags)
        sc = [r.choice(region_fuzz.SCALARS) for _ in range(2)] + [
            r.choice(region_fuzz.SCALARS + [1000, 4294967295]) % (1 << 32),
            r.choice([-3, -2, -1, 0, 1, 2, 3]), r.choice(region_fuzz.SCALARS),
            r.choice(region_fuzz.SCALARS), r.choice(region_fuzz.SCALARS + [1 << 33])]
        alias = None
        if not restrict and types[0] == types[1] and r.random() < 0.25:
            alias = r.choice([0, 8, 24, 64, -64, 400, -4000])
        why, idem = preempt_fuzz.emulate(emu, ki, grid, block, sc, alias)
        if why == 'threads race on global memory':
            old.append((ki, True))
        elif why is None:
            old.append((ki, False))
bad = open(badfile).read().split()
print(f'seed {seed}: {len(old)} launches kept by the first run')
notracy = [b for b in bad if not old[int(b[1:])][1]]
print(f'{len(bad)} wrong or nondeterministic launches, {len(bad) - len(notracy)} flagged racy, not flagged: {notracy}')
