#!/usr/bin/env python3
"""Random kernels under forced preemption, through the whole stack.

region_fuzz.py checks the launch decisions on kernels nobody wrote; this
checks what libgmemrt does with them on a GPU. It writes random kernels
(random_kernels.py; --features shared,shuffle adds __shared__ arrays with
__syncthreads() and warp shuffles), draws launches and keeps those the host
emulation (emu_shim.h) runs without undefined behaviour, then builds one
program with gmem-clang++ (the plugin's clones and descriptors, libgmemrt
linked) that runs every kept launch on memory laid out and filled as the
emulation's (three 8 MiB windows, pointers at their middle) and prints a
hash of o's and b's windows after each. Launches in which threads race on
global memory (a byte written by one thread and read or written by another,
as the emulation's GM_RACES tracking finds) are left out: their result
depends on the order threads run in, which preemption changes. On the GPU machine
(test/fuzz/preempt_fuzz_on_device.sh) the program runs twice plainly and
under GMEM_SCHED_CHAOS, which preempts launches at random moments: with
loop checkpoints (request 2) where libgmemrt's instance check finds the
launch idempotent, between virtual CTAs (request 1) elsewhere, then
relaunches what is left. Every hash must match the plain run's; a launch
whose two plain runs differ is left out too.
A mismatch is a wrong result, from the pass (a clone that computes
something else, a checkpoint that loses work) or from the runtime (an
instance called idempotent that is not, a relaunch that skips or repeats
work).

Global atomics are not drawn: their order makes float results differ from
run to run with or without preemption. Kernels with random_sync.py's
shared atomic counter are drawn but their launches left out: each thread
gets an old value that depends on the order threads reach it, which the
emulation sees only one of.

usage: preempt_fuzz.py --build-dir BUILD --out DIR [--seed N] [--kernels N]
                       [--launches N] [--features none|shared,shuffle] [--accumulate]
--accumulate turns each kernel's final stores into o[gid] += ...: launches
that are not idempotent (race-free ones are rare otherwise), the path where
libgmemrt stops only between virtual CTAs and must not run one twice.
Writes DIR/bin/preempt_fuzz, DIR/lib/ (libgmemrt, libcudart), DIR/launches.txt (one
launch a line: kernel index, grid, block, scalars, alias), DIR/fuzz.cu and
DIR/summary.txt.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import random_kernels  # noqa: E402
import region_fuzz  # noqa: E402

HOST_MAIN = r'''
// ---- host side (test/fuzz/preempt_fuzz.py) ----
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define GM_CK(x)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "preempt_fuzz: %s: %s\n", #x, cudaGetErrorString(e_));  \
      std::exit(3);                                                                \
    }                                                                              \
  } while (0)

static const long long GM_BYTES = 1 << 23, GM_HALF = GM_BYTES / 2;

static unsigned long long gm_hash(const std::vector<unsigned char> &v) {
  unsigned long long h = 1469598103934665603ull; // FNV-1a
  for (unsigned char c : v)
    h = (h ^ c) * 1099511628211ull;
  return h;
}

typedef void (*gm_launcher)(dim3, dim3, void *, const void *, void *, int, int, unsigned, int,
                            gm_shape);
@LAUNCHERS@
static const gm_launcher gm_launchers[] = {@TABLE@};

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s LAUNCHES.txt\n", argv[0]);
    return 2;
  }
  FILE *f = std::fopen(argv[1], "r");
  if (!f) {
    std::fprintf(stderr, "preempt_fuzz: cannot open %s\n", argv[1]);
    return 2;
  }
  // The emulation's contents: o and b all 0x3f bytes, a floats 0..25.
  std::vector<unsigned char> fill(GM_BYTES, 0x3f), pattern(GM_BYTES), back(GM_BYTES);
  for (long long e = 0; e < GM_BYTES / 4; ++e) {
    float v = (float)((e * 7 + 13) % 101) * 0.25f;
    std::memcpy(&pattern[4 * e], &v, 4);
  }
  unsigned char *win[3];
  for (int k = 0; k < 3; ++k)
    GM_CK(cudaMalloc(&win[k], GM_BYTES));
  GM_CK(cudaMemcpy(win[1], pattern.data(), GM_BYTES, cudaMemcpyHostToDevice));
  int ki, gx, gy, bx, by, n, m, s, rows, cols, id = 0;
  unsigned u;
  long long stride;
  char alias[32];
  while (std::fscanf(f, "%d %d %d %d %d %d %d %u %d %d %d %lld %31s", &ki, &gx, &gy, &bx,
                     &by, &n, &m, &u, &s, &rows, &cols, &stride, alias) == 13) {
    GM_CK(cudaMemcpy(win[0], fill.data(), GM_BYTES, cudaMemcpyHostToDevice));
    GM_CK(cudaMemcpy(win[2], fill.data(), GM_BYTES, cudaMemcpyHostToDevice));
    void *o = win[0] + GM_HALF, *b = win[2] + GM_HALF;
    if (std::strcmp(alias, "-") != 0)
      b = win[0] + GM_HALF + std::atoll(alias);
    gm_launchers[ki](dim3(gx, gy), dim3(bx, by), o, win[1] + GM_HALF, b, n, m, u, s,
                     gm_shape{rows, cols, stride});
    GM_CK(cudaGetLastError());
    GM_CK(cudaDeviceSynchronize());
    std::printf("L%d k%d", id++, ki);
    for (int k : {0, 2}) {
      GM_CK(cudaMemcpy(back.data(), win[k], GM_BYTES, cudaMemcpyDeviceToHost));
      std::printf(" %016llx", gm_hash(back));
    }
    std::printf("\n");
  }
  std::fclose(f);
  return 0;
}
'''


def launch_shape(r, two_d, flags):
    """Grids larger than region_fuzz.py's (a preemption needs something to cut):
    up to 264 CTAs, two waves of 132 SMs."""
    if 'warp' in flags:
        if two_d:
            return (r.randint(1, 12), r.randint(1, 6)), (32, r.randint(1, 4))
        return (r.choice([1, 3, 16, 64, 132, 264]), 1), (r.choice([32, 64, 96, 128]), 1)
    if two_d:
        return (r.randint(1, 16), r.randint(1, 8)), (r.choice([1, 2, 4, 8, 16]), r.randint(1, 4))
    return (r.choice([1, 5, 16, 64, 132, 264]), 1), (r.choice([1, 7, 32, 33, 64, 100, 128]), 1)


def draw_launch(r, two_d, restrict, types, flags):
    """region_fuzz.py's launch draw with this fuzzer's larger grids."""
    return region_fuzz.draw_launch(r, two_d, restrict, types, flags, shape=launch_shape)


def build_emulator(cpp, work, clang):
    """The host emulation of write_sources' kernels: WORK/fuzz_emu."""
    emu = os.path.join(work, 'fuzz_emu')
    with open(emu + '.cpp', 'w') as f:
        f.write(cpp)
    p = subprocess.run(region_fuzz.emulator_command(clang, emu + '.cpp', emu), capture_output=True,
                       text=True)
    if p.returncode:
        sys.exit(f'preempt_fuzz: host emulation failed to compile:\n{p.stderr[-3000:]}')
    return emu


def emulate(emu, ki, grid, block, sc, alias):
    """The host run of one launch, races tracked: (reason to skip or None,
    idempotent)."""
    why, _, idem = region_fuzz.emulate(emu, ki, grid, block, sc, alias, races=True)
    return why, idem


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build-dir', default='build')
    ap.add_argument('--out', required=True)
    ap.add_argument('--clang', default='clang++-19')
    ap.add_argument('--cuda', default='/usr/local/cuda')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--kernels', type=int, default=60)
    ap.add_argument('--launches', type=int, default=6, help='random launches per kernel')
    ap.add_argument('--features', default='none',
                    help='none, or a comma-separated subset of shared,shuffle')
    ap.add_argument('--accumulate', action='store_true',
                    help='every kernel adds its result into o[gid] instead of storing it: '
                    'launches not idempotent, which libgmemrt must stop between virtual CTAs '
                    'only and never run a virtual CTA of twice')
    args = ap.parse_args()
    features = [] if args.features == 'none' else args.features.split(',')
    for ft in features:
        if ft not in ('shared', 'shuffle'):
            ap.error(f'unknown feature {ft!r} (this fuzzer draws shared, shuffle)')
    build = os.path.abspath(args.build_dir)
    driver = os.path.join(build, 'bin', 'gmem-clang++')
    runtime = os.path.join(build, 'lib', 'libgmemrt.so')
    for p in (driver, runtime, os.path.join(build, 'lib', 'GmemPlugin.so')):
        if not os.path.exists(p):
            sys.exit(f'preempt_fuzz: {p} missing (build the project first)')
    out = os.path.abspath(args.out)
    os.makedirs(os.path.join(out, 'bin'), exist_ok=True)
    os.makedirs(os.path.join(out, 'lib'), exist_ok=True)

    cu, cpp, names = random_kernels.write_sources(args.seed, args.kernels, features)
    if args.accumulate:
        # Each thread's own element (gid is unique per thread; the race
        # filter drops launches where another thread touches it too).
        cu, cpp = (t.replace('GM_ST(o, gid, ', 'GM_RMW(o, gid, ') for t in (cu, cpp))
    work = tempfile.mkdtemp(prefix='gmem-pfuzz-')
    try:
        emu = build_emulator(cpp, work, args.clang)
        # random_sync's shared atomic counter hands each thread an old value
        # that depends on the order threads reach it (an index by design):
        # the emulation sees one order, the GPU others.
        bodies = {part.split('(', 1)[0]: part for part in cu.split('__global__ void ')[1:]}
        r = random.Random(args.seed * 7919 + 3)
        kept, skipped = [], {}
        for ki, (name, two_d, restrict, types, flags) in enumerate(names):
            for _ in range(args.launches):
                grid, block, sc, alias = draw_launch(r, two_d, restrict, types, flags)
                if 'GM_SAADD(' in bodies.get(name, ''):
                    skipped['shared atomic counter'] = skipped.get('shared atomic counter', 0) + 1
                    continue
                try:
                    why, idem = emulate(emu, ki, grid, block, sc, alias)
                except subprocess.TimeoutExpired:
                    why = 'emulation over 120 s'
                if why:
                    skipped[why] = skipped.get(why, 0) + 1
                    continue
                kept.append((ki, grid, block, sc, alias, idem))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    launchers = ''.join(
        f'static void gm_l_{n}(dim3 g, dim3 b_, void *o, const void *a, void *b, int n, int m, '
        f'unsigned u, int s, gm_shape d) {{ {n}<<<g, b_>>>(({to} *)o, (const float *)a, '
        f'({tb} *)b, n, m, u, s, d); }}\n'
        for n, _, _, (to, tb), _ in names)
    table = ', '.join(f'gm_l_{n}' for n, _, _, _, _ in names)
    src = os.path.join(out, 'fuzz.cu')
    with open(src, 'w') as f:
        f.write(f'// Generated by test/fuzz/preempt_fuzz.py (seed {args.seed}, features '
                f'{args.features}{", accumulate" if args.accumulate else ""}).\n' + cu +
                HOST_MAIN.replace('@LAUNCHERS@', launchers).replace('@TABLE@', table))
    with open(os.path.join(out, 'launches.txt'), 'w') as f:
        for ki, grid, block, sc, alias, _ in kept:
            f.write(' '.join(map(str, [ki, *grid, *block, *sc])) + ' ' +
                    ('-' if alias is None else str(alias)) + '\n')
    exe = os.path.join(out, 'bin', 'preempt_fuzz')
    # Launches on the legacy default stream take no part in scheduling (nor
    # in chaos): per-thread default streams.
    cmd = [driver, '-O2', '-w', '-fgpu-default-stream=per-thread', src, '-o', exe]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f'preempt_fuzz: {" ".join(cmd)} failed:\n{p.stderr[-3000:]}')
    invalid = [l for l in p.stderr.splitlines() if 'dropped the invalid clone' in l]
    shutil.copy(runtime, os.path.join(out, 'lib'))
    # The GPU machine has a driver but no toolkit: the CUDA runtime travels too.
    cudart = os.path.join(args.cuda, 'lib64')
    for f in os.listdir(cudart):
        if f.startswith('libcudart.so.') and f.count('.') == 2:
            shutil.copy(os.path.join(cudart, f), os.path.join(out, 'lib', f))
    skips = ', '.join(f'{v} {k}' for k, v in sorted(skipped.items())) or 'none'
    summary = (f'{len(names)} kernels (seed {args.seed}, features {args.features}'
               f'{", accumulate" if args.accumulate else ""}), '
               f'{len(kept)} launches kept ({sum(1 for k in kept if not k[5])} change memory when '
               f'run again), skipped: {skips}; {len(invalid)} invalid clones')
    with open(os.path.join(out, 'summary.txt'), 'w') as f:
        f.write(summary + '\n' + ' '.join(cmd) + '\n' + ''.join(l + '\n' for l in invalid))
    print(summary)
    for line in invalid:
        print(f'INVALID-CLONE {line}')
    return 1 if invalid else 0


if __name__ == '__main__':
    sys.exit(main())
