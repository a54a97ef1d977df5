#!/usr/bin/env python3
"""Stand-alone GPU sanity check for the corpus RUN lines (a development aid,
not the project's runner).

Generates, for every corpus file, a CUDA host program that #includes the
file and, for every GMEM-RUN instance:
  * allocates the buffers with 4 KiB guard zones on both sides and fills them
    deterministically (rand / randint / zero / iota / const, as in
    docs/CORPUS_FORMAT.md);
  * launches the kernel on input I (-> S1), again on S1 (-> S2), and once more
    on a fresh copy of I (-> S1');
  * reports whether S2 != S1 (re-run changes memory), whether S1' != S1
    (result depends on scheduling), whether a guard zone was touched
    (out-of-bounds write) and any CUDA error.

Usage:
  gpu_selfcheck.py gen OUTDIR     write OUTDIR/*.cu and OUTDIR/run.sh
  bash OUTDIR/build.sh            build OUTDIR/selfcheck (needs nvcc)
  bash OUTDIR/run.sh [--sanitize|--racecheck]   on a machine with a GPU
Standard library only.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_format as cf  # noqa: E402

CTYPE = {"f32": "float", "f64": "double", "i32": "int", "u32": "unsigned int",
         "i64": "long long", "u64": "unsigned long long", "i8": "signed char",
         "u8": "unsigned char"}

PRELUDE = r'''
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define GUARD 4096
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("  CUDA ERROR %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

struct Buf {
  size_t bytes;
  unsigned char *dev_base;   // allocation incl. guards
  std::vector<unsigned char> init;
  unsigned char *ptr() { return dev_base + GUARD; }
};

static unsigned long long lcg_state;
static unsigned int lcg() {
  lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned int)(lcg_state >> 33);
}

template <typename T> static void fill(std::vector<unsigned char> &v, size_t n, int mode,
                                       double a, double b, unsigned seed, bool is_float) {
  v.resize(n * sizeof(T));
  T *p = (T *)v.data();
  lcg_state = 0x9e3779b97f4a7c15ull ^ (seed * 0x100000001b3ull);
  for (size_t i = 0; i < n; i++) {
    double x = 0;
    switch (mode) {
      case 0: x = is_float ? (lcg() / 1073741824.0 - 1.0) : (double)(lcg() % 100); break;   // rand
      case 1: x = a + (double)(lcg() % (unsigned long long)(b - a)); break;                 // randint
      case 2: x = 0; break;                                                                  // zero
      case 3: x = (double)i; break;                                                          // iota
      case 4: x = a; break;                                                                  // const
    }
    p[i] = (T)x;
  }
}

static void make_buf(Buf &b, size_t bytes) {
  b.bytes = bytes;
  CK(cudaMalloc(&b.dev_base, bytes + 2 * GUARD));
}

static void upload(std::vector<Buf> &bufs) {
  for (auto &b : bufs) {
    CK(cudaMemset(b.dev_base, 0xA5, b.bytes + 2 * GUARD));
    CK(cudaMemcpy(b.ptr(), b.init.data(), b.bytes, cudaMemcpyHostToDevice));
  }
}

static void snapshot(std::vector<Buf> &bufs, std::vector<std::vector<unsigned char>> &out, bool &guard_ok) {
  out.resize(bufs.size());
  for (size_t i = 0; i < bufs.size(); i++) {
    std::vector<unsigned char> all(bufs[i].bytes + 2 * GUARD);
    CK(cudaMemcpy(all.data(), bufs[i].dev_base, all.size(), cudaMemcpyDeviceToHost));
    for (size_t k = 0; k < GUARD; k++)
      if (all[k] != 0xA5 || all[GUARD + bufs[i].bytes + k] != 0xA5) { guard_ok = false; break; }
    out[i].assign(all.begin() + GUARD, all.begin() + GUARD + bufs[i].bytes);
  }
}

static bool differs(std::vector<std::vector<unsigned char>> &a, std::vector<std::vector<unsigned char>> &b) {
  for (size_t i = 0; i < a.size(); i++) if (a[i] != b[i]) return true;
  return false;
}
'''


def scalar_literal(tok, prm):
    kind, val = tok.split(":", 1)
    ctype = prm["type"]
    if kind in ("f32", "f64"):
        return f"({ctype})({val})"
    return f"({ctype})({val}LL)"


def gen_instance(fname, kernel, spec, idx):
    import re
    m = re.fullmatch(r"(\S+)\s+grid=(\S+)\s+block=(\S+)\s+args=(.*)", spec)
    grid = cf.parse_dims(m.group(2))
    block = cf.parse_dims(m.group(3))
    toks = m.group(4).split()
    lines = []
    lines.append("  {")
    lines.append(f'    const char *label = "{kernel["name"]} #{idx}";')
    lines.append("    std::vector<Buf> bufs;")
    bufidx = {}
    args = []
    for i, (tok, prm) in enumerate(zip(toks, kernel["params"])):
        if tok.startswith("buf:"):
            parts = tok.split(":")
            elem, count, init = parts[1], int(parts[2]), parts[3:]
            ct = CTYPE[elem]
            isf = "true" if elem in ("f32", "f64") else "false"
            mode, a, b = {"rand": (0, 0, 0), "zero": (2, 0, 0), "iota": (3, 0, 0)}.get(init[0], (None, 0, 0))
            if init[0] == "randint":
                mode, a, b = 1, int(init[1]), int(init[2])
            elif init[0] == "const":
                mode, a, b = 4, float(init[1]), 0
            bi = len(bufidx)
            bufidx[i] = bi
            lines.append(f"    bufs.emplace_back(); make_buf(bufs.back(), {count}ull * sizeof({ct}));")
            lines.append(f"    fill<{ct}>(bufs.back().init, {count}ull, {mode}, {a!r}, {b!r}, {i + 1}u, {isf});")
            args.append(f"({prm['type']})bufs[{bi}].ptr()")
        elif tok.startswith("ptr:"):
            k, off = tok[4:].split("+")
            args.append(f"({prm['type']})(bufs[{bufidx[int(k)]}].ptr() + {int(off)})")
        else:
            args.append(scalar_literal(tok, prm))
    call = (f"{kernel['name']}<<<dim3({grid[0]},{grid[1]},{grid[2]}), "
            f"dim3({block[0]},{block[1]},{block[2]})>>>({', '.join(args)})")
    lines.append("    std::vector<std::vector<unsigned char>> I, S1, S2, S1b;")
    lines.append("    bool g1 = true, g2 = true, g3 = true;")
    lines.append("    for (auto &b : bufs) I.push_back(b.init);")
    lines.append("    upload(bufs);")
    lines.append(f"    {call}; CK(cudaGetLastError()); CK(cudaDeviceSynchronize());")
    lines.append("    snapshot(bufs, S1, g1);")
    lines.append(f"    {call}; CK(cudaGetLastError()); CK(cudaDeviceSynchronize());")
    lines.append("    snapshot(bufs, S2, g2);")
    lines.append("    upload(bufs);")
    lines.append(f"    {call}; CK(cudaGetLastError()); CK(cudaDeviceSynchronize());")
    lines.append("    snapshot(bufs, S1b, g3);")
    lines.append('    printf("RESULT %s file=%s changed=%d rerun_differs=%d nondet=%d guard_ok=%d\\n", label, '
                 f'"{fname}", (int)differs(I, S1), (int)differs(S1, S2), (int)differs(S1, S1b), '
                 "(int)(g1 && g2 && g3));")
    lines.append("    for (auto &b : bufs) CK(cudaFree(b.dev_base));")
    lines.append("  }")
    return "\n".join(lines)


def main(argv):
    if len(argv) != 3 or argv[1] != "gen":
        print(__doc__)
        return 2
    outdir = argv[2]
    os.makedirs(outdir, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    names = []
    for f in sorted(os.listdir(here)):
        if not f.endswith(".cu"):
            continue
        path = os.path.join(here, f)
        src = open(path).read()
        kernels, _ = cf.find_kernels(cf.strip_comments_and_preproc(src))
        by_name = {k["name"]: k for k in kernels}
        body = []
        n = 0
        for line in src.splitlines():
            m = cf.RUN_RE.match(line)
            if m:
                spec = m.group(1)
                body.append(gen_instance(f, by_name[spec.split()[0]], spec, n))
                n += 1
        stem = f[:-3]
        rel = os.path.relpath(path, outdir)
        with open(os.path.join(outdir, f"h_{stem}.cu"), "w") as o:
            o.write(f'#include "{rel}"\n')
            o.write(PRELUDE)
            o.write(f"\nint run_{stem}() {{\n  CK(cudaSetDevice(0));\n")
            o.write("\n".join(body))
            o.write("\n  return 0;\n}\n")
        names.append(stem)
    with open(os.path.join(outdir, "main.cpp"), "w") as o:
        o.write("#include <cstdio>\n#include <cstring>\n")
        for n in names:
            o.write(f"int run_{n}();\n")
        o.write("int main(int argc, char **argv) {\n  if (argc != 2) return 2;\n")
        for n in names:
            o.write(f'  if (!strcmp(argv[1], "{n}")) return run_{n}();\n')
        o.write('  printf("unknown file %s\\n", argv[1]);\n  return 2;\n}\n')
    with open(os.path.join(outdir, "build.sh"), "w") as o:
        o.write("#!/bin/bash\nset -e\ncd \"$(dirname \"$0\")\"\n")
        o.write("NAMES=\"" + " ".join(names) + "\"\n")
        o.write('echo $NAMES | tr " " "\\n" | xargs -P "$(nproc)" -I{} nvcc -O2 -arch=sm_90 -w -c -o h_{}.o h_{}.cu\n')
        o.write("nvcc -arch=sm_90 -o selfcheck main.cpp h_*.o\n")
    with open(os.path.join(outdir, "run.sh"), "w") as o:
        o.write("#!/bin/bash\n# usage: run.sh [--sanitize|--racecheck]\ncd \"$(dirname \"$0\")\"\n")
        o.write("NAMES=\"" + " ".join(names) + "\"\n")
        o.write('for n in $NAMES; do\n'
                '  if [ "$1" = "--sanitize" ]; then\n'
                '    compute-sanitizer --tool memcheck --print-limit 5 --error-exitcode 3 ./selfcheck $n || echo "SANITIZER FAIL $n rc=$?"\n'
                '  elif [ "$1" = "--racecheck" ]; then\n'
                '    compute-sanitizer --tool racecheck --print-limit 5 --error-exitcode 3 ./selfcheck $n > /dev/null || echo "RACECHECK FAIL $n rc=$?"\n'
                '  else\n'
                '    ./selfcheck $n || echo "RUN FAIL $n rc=$?"\n'
                '  fi\n'
                'done\n')
    print(f"wrote {len(names)} harnesses to {outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
