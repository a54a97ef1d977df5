#!/usr/bin/env python3
"""Differential soundness fuzzing of gmem-analyze's launch decisions.

Writes random barrier-free kernels (random_kernels.py), compiles them twice
(for the device with the gmem plugin, and for the host with emu_shim.h,
which runs every thread of a launch in turn and logs what it touches), then
for random launches checks gmem-analyze's instance mode against the host
run:
  * every element a thread reads (writes) lies in a read (write) range the
    launch decision gives for that pointer: else UNSOUND;
  * a launch decided idempotent leaves memory unchanged when run again:
    else FALSE-IDEMPOTENT;
  * the plugin makes every clone valid (else it drops one with a warning:
    INVALID-CLONE).
Launches with undefined behaviour in the source (signed overflow, bad
shift, division by zero, an access outside the allocation, or no end
within the trip limit) are skipped: the compiled kernel need not do what
the source says there.

usage: region_fuzz.py --analyze GMEM_ANALYZE --plugin PLUGIN --clang CLANG
         [--opt OPT] [--pipeline plugin|plain] [--seed N] [--kernels N] [--launches N]
         [--features atomics,shared,shuffle|all|none] [--work DIR] [--keep]
--features adds kernels with global atomics, __shared__ arrays with
__syncthreads() and warp shuffles (random_sync.py; emu_sync.h runs a
block's threads in barrier phases); launches whose emulation meets a
divergent barrier or a shared-memory race are skipped (never drawn on
purpose).
Prints one line per finding and a summary; exit 1 on any finding.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import random_kernels  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
WINDOW, HALF = 1 << 23, 1 << 22           # bytes; emu_shim.h's GM_BYTES / GM_HALF
BASES = [0x100000000 * (k + 1) for k in range(3)]
RANGE = re.compile(r'(read|write) \[0x([0-9a-f]+), 0x([0-9a-f]+)\)')
SCALARS = [0, 1, 2, 3, 5, 7, 8, 13, 16, 31, 32, 33, 64, 100, 127, 200, -1, -5]
SKIPS = {132: 'undefined behaviour', 4: 'outside the allocation', 5: 'trip limit',
         6: 'divergent barrier', 7: 'shared-memory race'}
# Signals a sanitizer trap raises (SIGILL; SIGTRAP on some targets).
TRAP_RCS = {132, 133, -4, -5}


def emulator_command(clang, cpp_path, emu):
    """The host emulation's build: traps for the undefined behaviour a
    launch must not have (signed overflow, bad shifts, division by zero,
    float-to-int overflow, pointer overflow)."""
    return [clang, '-x', 'c++', '-std=c++17', '-O1', '-w', '-I', HERE,
            '-fsanitize=signed-integer-overflow,shift,integer-divide-by-zero,'
            'float-cast-overflow,pointer-overflow', '-fsanitize-trap=all', cpp_path, '-o', emu]


def compile_sources(args, work, cu, cpp):
    cu_path, cpp_path = os.path.join(work, 'fuzz.cu'), os.path.join(work, 'fuzz_emu.cpp')
    with open(cu_path, 'w') as f:
        f.write(cu)
    with open(cpp_path, 'w') as f:
        f.write(cpp)
    stub = os.path.join(work, 'stub')
    os.makedirs(stub, exist_ok=True)
    for h in ('texture_fetch_functions.h', 'texture_indirect_functions.h'):
        open(os.path.join(stub, h), 'a').close()
    bc = os.path.join(work, 'fuzz.bc')
    dev = [args.clang, '-x', 'cuda', '--cuda-device-only', '--cuda-gpu-arch=sm_90',
           '-Wno-unknown-cuda-version', '-w', f'--cuda-path={args.cuda}', '-isystem', stub,
           '-O2', '-c', '-emit-llvm', cu_path, '-o', bc]
    if args.pipeline == 'plugin':
        dev.insert(-5, f'-fpass-plugin={args.plugin}')
    else:
        # Optimized IR without the plugin; the descriptors are then made by
        # the gmem-embed pass alone (what gmem-analyze does in-process for a
        # plain .bc, once instead of at every launch).
        dev[-1] = bc + '.plain'
    emu = os.path.join(work, 'fuzz_emu')
    cmds = [dev, emulator_command(args.clang, cpp_path, emu)]
    if args.pipeline == 'plain':
        cmds.append([args.opt, f'-load-pass-plugin={args.plugin}', '-passes=gmem-embed', bc + '.plain',
                     '-o', bc])
    # The pass drops a clone that fails verification with a warning (the
    # build goes on): a bug all the same, counted as a finding.
    invalid = []
    for cmd in cmds:
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            sys.exit(f'region_fuzz: compile failed ({" ".join(cmd[:3])} ...):\n{p.stderr[-3000:]}')
        invalid += [l for l in p.stderr.splitlines() if 'dropped the invalid clone' in l]
    return bc, emu, invalid


def launch_shape(r, two_d, flags):
    if 'warp' in flags:  # shuffles with a full mask: whole warps
        if two_d:
            return (r.randint(1, 3), r.randint(1, 3)), (32, r.randint(1, 4))
        return (r.choice([1, 1, 2, 3, 5]), 1), (r.choice([32, 32, 64, 96, 128]), 1)
    if two_d:
        return (r.randint(1, 3), r.randint(1, 3)), (r.choice([1, 2, 4, 8, 16]), r.randint(1, 4))
    return (r.choice([1, 1, 2, 3, 5]), 1), (r.choice([1, 2, 7, 32, 33, 64, 100]), 1)


def draw_launch(r, two_d, restrict, types, flags, shape=launch_shape):
    """One random launch: (grid, block, scalars n m u s rows cols stride, alias
    in bytes or None), its grid and block from shape."""
    grid, block = shape(r, two_d, flags)
    sc = [r.choice(SCALARS), r.choice(SCALARS), r.choice(SCALARS + [1000, 4294967295]),
          r.choice([-3, -2, -1, 0, 1, 2, 3]), r.choice(SCALARS), r.choice(SCALARS),
          r.choice(SCALARS + [1 << 33])]
    sc[2] %= 1 << 32
    # A quarter of the launches of kernels without __restrict__ and with one
    # element type (else aliasing is undefined) pass b inside o's
    # allocation, ALIAS bytes off.
    alias = None
    if not restrict and types[0] == types[1] and r.random() < 0.25:
        alias = r.choice([0, 8, 24, 64, -64, 400, -4000])
    return grid, block, sc, alias


def emulate(emu, ki, grid, block, sc, alias, races=False):
    """(reason to skip or None, touched byte ranges, idempotent). races: the
    emulation also tracks which thread touches each byte (GM_RACES), and a
    launch whose threads race on global memory is skipped."""
    cmd = [emu, str(ki), *map(str, grid), *map(str, block), *map(str, sc),
           '-' if alias is None else str(alias)]
    env = dict(os.environ, GM_RACES='1') if races else None
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    if p.returncode in TRAP_RCS:
        return 'undefined behaviour', None, None
    if p.returncode in SKIPS:
        return SKIPS[p.returncode], None, None
    if p.returncode:
        sys.exit(f'region_fuzz: emulator failed ({" ".join(cmd)}): rc {p.returncode}\n{p.stderr}')
    touched, idem = [], None
    for line in p.stdout.splitlines():
        f = line.split()
        if f[0] == 'idempotent':
            idem = f[1] == 'yes'
        elif f[0] == 'races':
            if f[1] == 'yes':
                return 'threads race on global memory', None, None
        else:
            touched.append((f[0], int(f[1]), int(f[2]), int(f[3])))
    return None, touched, idem


def decide(args, bc, name, grid, block, sc, alias):
    cmd = [args.analyze, bc, '--kernel', name, '--grid', f'{grid[0]},{grid[1]}',
           '--block', f'{block[0]},{block[1]}']
    # Parameter values and their allocations' bases (b inside o's when aliased).
    ptrs = [b + HALF for b in BASES]
    allocs = list(BASES)
    if alias is not None:
        ptrs[2], allocs[2] = ptrs[0] + alias, BASES[0]
    for b in sorted(set(allocs)):
        cmd += ['--alloc', f'0x{b:x}:0x{WINDOW:x}']
    for p in ptrs:
        cmd += ['--arg', f'ptr:0x{p:x}']
    n, m, u, s, rows, cols, stride = sc
    cmd += ['--arg', f'i32:{n}', '--arg', f'i32:{m}', '--arg', f'u32:{u}', '--arg', f'i32:{s}',
            '--arg', f'struct:i32:{rows},i32:{cols},i64:{stride}']
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f'region_fuzz: gmem-analyze failed ({" ".join(cmd)}):\n{p.stderr}')
    tail = p.stdout.split('\ninstance ', 1)[1]
    ranges = {}
    for line in tail.splitlines():
        mt = re.match(r'\s+#(\d+) ', line)
        if mt and int(mt.group(1)) < 3:
            k = int(mt.group(1))
            ranges[k] = [(kind[0].upper(), int(lo, 16) - ptrs[k], int(hi, 16) - ptrs[k])
                         for kind, lo, hi in RANGE.findall(line)]
    idem = re.search(r'^\s+idempotent: (yes|no)', tail, re.M)
    whole = any(lo == allocs[k] - ptrs[k] and hi == allocs[k] + WINDOW - ptrs[k]
                for k, rs in ranges.items() for _, lo, hi in rs)
    return ranges, bool(idem and idem.group(1) == 'yes'), whole, ' '.join(cmd)


def covered(rs, lo, hi):
    """Is the byte interval [lo, hi) inside the union of the ranges rs?"""
    pos = lo
    for a, b in sorted(rs):
        if a <= pos < b:
            pos = b
            if pos >= hi:
                return True
    return pos >= hi


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--analyze', required=True)
    ap.add_argument('--plugin', required=True)
    ap.add_argument('--clang', required=True)
    ap.add_argument('--opt', default='opt-19', help='LLVM opt (the plain pipeline)')
    ap.add_argument('--cuda', default='/usr/local/cuda')
    ap.add_argument('--pipeline', choices=['plugin', 'plain'], default='plugin',
                    help='plugin: compiled with the gmem plugin (gmem-analyze reads its '
                    'descriptors); plain: optimized IR without them (gmem-analyze analyses it)')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--kernels', type=int, default=40)
    ap.add_argument('--launches', type=int, default=8, help='random launches per kernel')
    ap.add_argument('--features', default='none',
                    help='comma-separated subset of atomics,shared,shuffle (or all, none): '
                    'kernels may also use global atomics, __shared__ arrays with '
                    '__syncthreads(), warp shuffles (random_sync.py)')
    ap.add_argument('--work', help='folder for the generated sources (default: a temporary one)')
    ap.add_argument('--keep', action='store_true', help='keep the temporary folder')
    args = ap.parse_args()
    features = [] if args.features == 'none' else (
        list(random_kernels.FEATURES) if args.features == 'all' else args.features.split(','))
    for f in features:
        if f not in random_kernels.FEATURES:
            ap.error(f'unknown feature {f!r} (known: {", ".join(random_kernels.FEATURES)})')

    work = args.work or tempfile.mkdtemp(prefix='gmem-fuzz-')
    os.makedirs(work, exist_ok=True)
    cu, cpp, names = random_kernels.write_sources(args.seed, args.kernels, features)
    bc, emu, invalid = compile_sources(args, work, cu, cpp)
    for line in invalid:
        print(f'INVALID-CLONE {line}')
    r = random.Random(args.seed * 7919 + 1)
    runs, skipped, findings, wholes, idem_yes = 0, {}, len(invalid), 0, 0
    used = {}  # feature: launches checked of kernels that use it
    for ki, (name, two_d, restrict, types, flags) in enumerate(names):
        for _ in range(args.launches):
            grid, block, sc, alias = draw_launch(r, two_d, restrict, types, flags)
            why, touched, idem = emulate(emu, ki, grid, block, sc, alias)
            if why:
                skipped[why] = skipped.get(why, 0) + 1
                continue
            runs += 1
            for f in flags & set(features):
                used[f] = used.get(f, 0) + 1
            ranges, said_idem, whole, cmd = decide(args, bc, name, grid, block, sc, alias)
            wholes += whole
            idem_yes += said_idem
            where = f'{name} grid={grid} block={block} n,m,u,s,d={sc}' + (
                '' if alias is None else f' b=o+{alias}')
            for kind, p, lo, hi in touched:
                rs = [(a, b) for k, a, b in ranges.get(p, []) if k == kind]
                if not covered(rs, lo, hi):
                    findings += 1
                    print(f'UNSOUND {where}: {"oab"[p]} {kind} bytes [{lo}, {hi}) '
                          f'outside {rs}\n  {cmd}')
            if said_idem and not idem:
                findings += 1
                print(f'FALSE-IDEMPOTENT {where}: a second run changed memory\n  {cmd}')
    skips = ', '.join(f'{v} {k}' for k, v in sorted(skipped.items())) or 'none'
    feat = f', features {",".join(features)}' if features else ''
    uses = ''.join(f', {used.get(f, 0)} with {f}' for f in features)
    print(f'{len(names)} kernels (seed {args.seed}, {args.pipeline}{feat}), {runs} launches checked, '
          f'{findings} findings; '
          f'{idem_yes} decided idempotent, {wholes} with a whole allocation{uses}; skipped: {skips}')
    if findings:
        print(f'sources: {work}')
    elif not args.work and not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if findings else 0


if __name__ == '__main__':
    sys.exit(main())
