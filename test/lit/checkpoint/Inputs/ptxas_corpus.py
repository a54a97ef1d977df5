#!/usr/bin/env python3
"""ptxas acceptance of the preemptible clones (ctest `checkpoint-ptxas`).

Compiles every test/corpus/*.cu to PTX for sm_90 with the plugin (through
`gmem-analyze FILE --emit-ptx`, which loads the plugin next to it; the IR
verifier is on), assembles the PTX with `ptxas -arch=sm_90`, and checks what
the runtime relies on in each PTX:

  * every kernel X has `__gmem_pre_info_X` (magic "GMP1", version 2);
  * unless the info says "no clone" (flags bit 3), `.entry __gmem_pre_X`
    exists with exactly four parameters more than X (control block, grid),
    reads the control block with ld.relaxed.gpu.global (ld.volatile.global
    under GMEM_CHECKPOINT_SCOPE=volatile), and either sets done
    bits with atom.global.or or, persistent (flags bit 4), strides over the
    user's grid by %nctaid.x and joins its stop decision in bar.red.or;
  * a persistent clone has, unless GMEM_CHECKPOINT_LIGHT=0 (=loops: only
    with loop checkpoints), its light twin `.entry __gmem_prl_X` (flags bit
    5): same parameters, the same persistent protocol, and unless
    GMEM_CHECKPOINT_LATE=0 the late read (a %clock noted in
    `__gmem_vstart___gmem_prl_X`); any `__gmem_prl_X` belongs to such a kernel;
  * one with loop checkpoints also has, unless GMEM_CHECKPOINT_ALT=0, its alternate full
    clone `.entry __gmem_pra_X` (flags bit 6): same parameters and protocol,
    its loop state in a shared array `__gmem_pstate___gmem_pra_X`; so does a
    persistent barrier kernel without loop checkpoints whose alternate form
    hands out a balanced tail (bit 9), its state in registers;
  * a form with a balanced tail (bit 9 the alternate form, bit 10 the light
    twin) claims tickets with atom.global.add.u32;
  * a persistent clone may have (flags bit 7, unless GMEM_CHECKPOINT_FREE=0)
    its free form `.entry __gmem_prf_X`: same parameters, no bar.red.or per
    virtual CTA but one at entry, and the resume word folded with
    atom.global.min.u32; any `__gmem_prf_X` belongs to such a kernel;
  * the segment scale (flags bit 12) never under GMEM_CHECKPOINT_SEG_SCALE=0
    (ctest `checkpoint-ptxas-no-seg-scale`), otherwise (the default) on
    persistent kernels with loop checkpoints only, some form of which reads
    grid_z's bits 24..25, and on at least one kernel.

Exit 0 on success, 1 on any failure, 77 (ctest SKIP_RETURN_CODE) when ptxas
is missing.

    ptxas_corpus.py GMEM_ANALYZE CORPUS_DIR [--ptxas PATH] [--jobs N]
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

# How a clone reads the request word (CheckpointIR.cpp, loadRequest).
CTL_READ = ("ld.volatile.global.u32"
            if os.environ.get("GMEM_CHECKPOINT_SCOPE", "").strip().lower() == "volatile"
            else "ld.relaxed.gpu.global.u32")

ENTRY_RE = re.compile(r"^\.visible \.entry (\S+)\(\s*$", re.M)
# Five words; six with flag bit 13 (GridStride: the grid-stride bound).
INFO_RE = re.compile(r"__gmem_pre_info_(\S+)\[(20|24)\] = \{([0-9, ]*)\}")
GRID_STRIDE = 1 << 13
CLONE = "__gmem_pre_"
LIGHT = "__gmem_prl_"
ALT = "__gmem_pra_"
FREE = "__gmem_prf_"


def entry_bodies(ptx):
    """{entry name: (param count, body text)}"""
    out = {}
    starts = [(m.start(), m.group(1)) for m in ENTRY_RE.finditer(ptx)]
    for i, (pos, name) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(ptx)
        text = ptx[pos:end]
        header = text.split("{", 1)[0]
        out[name] = (header.count(".param"), text)
    return out


def info_words(byte_list):
    b = [int(x) for x in byte_list.split(",") if x.strip()]
    b += [0] * (20 - len(b))
    return [int.from_bytes(bytes(b[4 * i:4 * i + 4]), "little") for i in range(5)]


def check_file(src, tool, ptxas, tmp):
    name = os.path.basename(src)
    ptx_path = os.path.join(tmp, name + ".ptx")
    cmd = [tool, src, "--emit-ptx", ptx_path, "--", "-fverify-intermediate-code"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if p.returncode != 0:
        return name, ["compile failed: %s\n%s" % (" ".join(cmd), p.stdout[-2000:])], {}
    p = subprocess.run([ptxas, "-arch=sm_90", ptx_path, "-o", os.devnull],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    errors = []
    if p.returncode != 0:
        errors.append("ptxas rejected the PTX:\n" + p.stdout[-2000:])
    ptx = open(ptx_path).read()
    entries = entry_bodies(ptx)
    infos = {m.group(1): info_words(m.group(3)) for m in INFO_RE.finditer(ptx)}
    sizes = {m.group(1): int(m.group(2)) for m in INFO_RE.finditer(ptx)}
    stats = {"kernels": 0, "clones": 0, "no_clone": 0, "entry_only": 0, "loop_kernels": 0,
             "loop_sites": 0, "persistent": 0, "light": 0, "alt": 0,
             "free": 0, "seg_scale": 0}
    for k, (params, _) in entries.items():
        if k.startswith((CLONE, LIGHT, ALT, FREE)):
            continue
        stats["kernels"] += 1
        info = infos.get(k)
        if info is None:
            errors.append("%s: no __gmem_pre_info_%s" % (k, k))
            continue
        magic, version, flags, sites, interval = info
        if (sizes[k] == 24) != bool(flags & GRID_STRIDE):
            errors.append("%s: info of %d bytes with flags 0x%x (a sixth word goes with "
                          "GridStride only)" % (k, sizes[k], flags))
        if magic != 0x31504D47 or version != 2:
            errors.append("%s: info has magic 0x%x version %d" % (k, magic, version))
        if flags & 8:
            stats["no_clone"] += 1
            if CLONE + k in entries:
                errors.append("%s: info says no clone, but %s%s exists" % (k, CLONE, k))
            continue
        clone = entries.get(CLONE + k)
        if clone is None:
            errors.append("%s: no .entry %s%s" % (k, CLONE, k))
            continue
        stats["clones"] += 1
        stats["entry_only"] += bool(flags & 2)
        stats["loop_kernels"] += bool(flags & 1)
        stats["loop_sites"] += sites
        stats["persistent"] += bool(flags & 16)
        if clone[0] != params + 4:
            errors.append("%s: clone has %d parameters, kernel %d" % (k, clone[0], params))
        body = clone[1]
        needles = (CTL_READ, "bar.red.or.pred", "%nctaid.x") \
            if flags & 16 else (CTL_READ, "atom.global.or.b32")
        for needle in needles:
            if needle not in body:
                errors.append("%s: clone lacks %s" % (k, needle))
        if bool(flags & 1) != (sites > 0):
            errors.append("%s: flags %d disagree with %d loop checkpoints" % (k, flags, sites))
        light = entries.get(LIGHT + k)
        light_env = os.environ.get("GMEM_CHECKPOINT_LIGHT", "").strip().lower()
        want_light = bool(flags & 16) and light_env != "0" and (bool(flags & 1) or light_env != "loops")
        if bool(flags & 32) != (light is not None) or bool(flags & 32) != want_light:
            errors.append("%s: flags %d, light twin %s" % (k, flags,
                                                          "present" if light else "absent"))
        if light is not None:
            stats["light"] += 1
            if light[0] != clone[0]:
                errors.append("%s: light twin has %d parameters, clone %d" % (k, light[0],
                                                                             clone[0]))
            needles = [CTL_READ, "bar.red.or.pred", "%nctaid.x"]
            if os.environ.get("GMEM_CHECKPOINT_LATE") != "0":
                needles += ["%clock", "__gmem_vstart_" + LIGHT + k]
            for needle in needles:
                if needle not in light[1]:
                    errors.append("%s: light twin lacks %s" % (k, needle))
        if light is not None and flags & 1024 and "atom.global.add.u32" not in light[1]:
            errors.append("%s: light twin with a tail lacks atom.global.add.u32" % k)
        alt = entries.get(ALT + k)
        tail_only = (flags & 16) and (flags & 4) and not (flags & 1) and (flags & 512)
        want_alt = bool(((flags & 1) and (flags & 32)) or tail_only) and \
            os.environ.get("GMEM_CHECKPOINT_ALT") != "0"
        if bool(flags & 64) != (alt is not None) or bool(flags & 64) != want_alt:
            errors.append("%s: flags %d, alternate clone %s" % (k, flags,
                                                              "present" if alt else "absent"))
        if alt is not None:
            stats["alt"] += 1
            if alt[0] != clone[0]:
                errors.append("%s: alternate clone has %d parameters, clone %d" % (k, alt[0],
                                                                                   clone[0]))
            needles = [CTL_READ, "bar.red.or.pred", "%nctaid.x"]
            if flags & 1:  # loop checkpoints: the loop state in shared memory
                needles += ["ld.volatile.shared.u32", "__gmem_pstate_" + ALT + k]
            if flags & 512:
                needles.append("atom.global.add.u32")
            for needle in needles:
                if needle not in alt[1]:
                    errors.append("%s: alternate clone lacks %s" % (k, needle))
            if not flags & 1 and "__gmem_pstate_" + ALT + k in alt[1]:
                errors.append("%s: alternate clone without loop checkpoints keeps its state "
                              "in shared memory" % k)
        free = entries.get(FREE + k)
        if bool(flags & 128) != (free is not None) or (free is not None and not flags & 16) or \
                (free is not None and os.environ.get("GMEM_CHECKPOINT_FREE") == "0"):
            errors.append("%s: flags %d, free clone %s" % (k, flags,
                                                         "present" if free else "absent"))
        if free is not None:
            stats["free"] += 1
            if free[0] != clone[0]:
                errors.append("%s: free clone has %d parameters, clone %d" % (k, free[0],
                                                                              clone[0]))
            for needle in (CTL_READ, "bar.red.or.pred", "%nctaid.x",
                           "atom.global.min.u32"):
                if needle not in free[1]:
                    errors.append("%s: free clone lacks %s" % (k, needle))
            if free[1].count("bar.red.or.pred") != 1:
                errors.append("%s: free clone has %d bar.red.or, not one (entry)" %
                              (k, free[1].count("bar.red.or.pred")))
        # Segment scale (bit 12, on unless GMEM_CHECKPOINT_SEG_SCALE=0):
        # persistent, with loop checkpoints; the main clone reads s from
        # grid_z's bits 24..25 (LLVM's bfe).
        seg_on = seg_scale_on()
        if flags & 4096:
            stats["seg_scale"] += 1
            if not seg_on or not flags & 16 or not flags & 1:
                errors.append("%s: flags %d: segment scale under GMEM_CHECKPOINT_SEG_SCALE=0, "
                              "persistence or loop checkpoints" % (k, flags))
            elif not any(re.search(r"bfe\.u32\s+%r\d+, %r\d+, 24, 2;", e[1])
                         for e in (clone, entries.get(ALT + k), entries.get(FREE + k)) if e):
                # (LLVM may fold one form's use away, e.g. beside the main
                # clone's short-entry copies; some form must keep it.)
                errors.append("%s: segment scale flag, but no form reads grid_z bits 24..25"
                              % k)
    for k in entries:
        if k.startswith(FREE) and k[len(FREE):] not in entries:
            errors.append("%s: free clone of no kernel" % k)
        if k.startswith(LIGHT) and k[len(LIGHT):] not in entries:
            errors.append("%s: light twin of no kernel" % k)
        if k.startswith(ALT) and k[len(ALT):] not in entries:
            errors.append("%s: alternate clone of no kernel" % k)
    return name, errors, stats


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tool")
    ap.add_argument("corpus")
    ap.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    if not (os.path.isfile(a.ptxas) or shutil.which(a.ptxas)):
        print("SKIP: ptxas not found at %s; clones not assembled" % a.ptxas)
        return 77
    if not os.path.isfile(a.tool):
        print("error: %s not found" % a.tool, file=sys.stderr)
        return 1
    srcs = sorted(os.path.join(a.corpus, f) for f in os.listdir(a.corpus) if f.endswith(".cu"))
    if not srcs:
        print("error: no .cu files in %s" % a.corpus, file=sys.stderr)
        return 1
    total = {}
    failed = 0
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
        for name, errors, stats in ex.map(lambda s: check_file(s, a.tool, a.ptxas, tmp), srcs):
            for k, v in stats.items():
                total[k] = total.get(k, 0) + v
            if errors:
                failed += 1
                print("FAIL %s" % name)
                for e in errors:
                    print("  " + e)
    print("%d files, %d kernels: %d clones (%d persistent, %d light twins, %d alternate, "
          "%d free, %d entry-only, %d with loop checkpoints, "
          "%d sites, %d segment-scaled), %d without clone; %d files failed" % (
              len(srcs), total.get("kernels", 0), total.get("clones", 0), total.get("persistent", 0),
              total.get("light", 0), total.get("alt", 0), total.get("free", 0),
              total.get("entry_only", 0), total.get("loop_kernels", 0),
              total.get("loop_sites", 0), total.get("seg_scale", 0), total.get("no_clone", 0),
              failed))
    if seg_scale_on() and not total.get("seg_scale", 0):
        print("FAIL: no kernel has the segment scale (on by default)")
        return 1
    return 1 if failed else 0


def seg_scale_on():
    """The pass's default: on unless GMEM_CHECKPOINT_SEG_SCALE says off."""
    v = os.environ.get("GMEM_CHECKPOINT_SEG_SCALE", "").strip().lower()
    return v not in ("0", "off", "false", "no")


if __name__ == "__main__":
    sys.exit(main())
