#!/usr/bin/env python3
"""Per-instance verdicts of gmem-analyze's instance mode for every GMEM-RUN
line of corpus files (adversarial round 54 helper). Buffers get disjoint
fake allocations (param K at 0x10000000*(K+1)); ptr:K+OFF is that base plus
OFF; null is address 0. Prints one line per instance:
    kernel  yes|no  args...  -- reason
Usage: inst_verdicts.py GMEM_ANALYZE FILE.cu..."""
import re, subprocess, sys

SZ = {"f32": 4, "f64": 8, "i32": 4, "u32": 4, "i64": 8, "u64": 8, "i8": 1, "u8": 1}
RUN = re.compile(r"//\s*GMEM-RUN:\s*(\S+)\s+(.*)$")


def main():
    tool, files = sys.argv[1], sys.argv[2:]
    for path in files:
        for line in open(path):
            m = RUN.search(line)
            if not m:
                continue
            name, rest = m.group(1), m.group(2)
            f = dict(t.split("=", 1) for t in rest.split(" args=")[0].split())
            toks = rest.split(" args=")[1].split()
            base, allocs, args = {}, [], []
            for k, t in enumerate(toks):
                if t.startswith("buf:"):
                    _, ty, cnt, *_ = t.split(":")
                    b = 0x10000000 * (k + 1)
                    base[k] = b
                    allocs += ["--alloc", "0x%x:%d" % (b, SZ[ty] * int(cnt))]
                    args += ["--arg", "ptr:0x%x" % b]
                elif t.startswith("ptr:"):
                    kk, off = t[4:].split("+")
                    args += ["--arg", "ptr:0x%x" % (base[int(kk)] + int(off))]
                elif t == "null":
                    args += ["--arg", "ptr:0x0"]
                else:
                    args += ["--arg", t]
            cmd = [tool, path, "--kernel", name, "--grid", f["grid"], "--block", f["block"]] + allocs + args
            r = subprocess.run(cmd, capture_output=True, text=True)
            verdict = [l for l in r.stdout.splitlines() if "idempotent:" in l and l.startswith("  idem")]
            if r.returncode or not verdict:
                print("%-28s ERROR rc=%d %s" % (name, r.returncode, r.stderr.strip()[-300:]))
                continue
            v = verdict[-1].split("idempotent:")[1].strip()
            yn, _, why = v.partition(" -- ")
            print("%-28s %-3s %s -- %s" % (name, yn, " ".join(toks), why[:110]))


if __name__ == "__main__":
    main()
