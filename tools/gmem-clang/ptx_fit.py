"""Keeps gmem's preemptible clones at their kernel's occupancy.

A clone (`__gmem_pre_<K>`, `__gmem_prl_<K>`, `__gmem_pra_<K>`, `__gmem_prf_<K>`) holds a few
more values than its kernel K (the virtual CTA ticket, the control block, loop checkpoint
counters), and ptxas may give it more registers. Where that crosses an
occupancy step, fewer CTAs fit per SM, a persistent clone gets a smaller P
and the user's grid takes more rounds: on the H200 im2col's clone took 48
registers against 32 and ran 2.5x as long. The compiler cannot know the
final register counts, so this step runs after it: ptxas -v on the PTX,
then `.maxnreg` on each clone whose registers would hold fewer warps per SM
than its kernel's, capped at the most registers that still hold as many,
and the PTX is assembled again by the caller.

    fit_clone_registers(ptx_path, ptxas, arch, flags=()) -> [(clone, had, cap)]

Clones that already carry .maxnreg, .minnctapersm or .maxntid are left
alone (the programmer's launch bounds decide there).

GMEM_FIT_CLONE_REGS says which clones: `twins` (the default) only the
alternate and barrier-free forms, `all` (or 1) every form, 0 none. Measured on the H200 with `all`
(bench/preempt/results/fit-regs): it restores P wherever it caps and helps
where the grid is larger than what fits at once (gemm_naive +58% -> +41%,
gemm_tiled16 +19% -> +11%), but the spills it causes cost more where
occupancy did not matter or the loop is hot (nbody, 128 CTAs: +1% -> +67%;
kmeans_assign +87% -> +116%): geomean over 45 kernels +15.4% -> +16.3%.
Whether occupancy matters depends on the launch's grid, which only the
runtime knows: with `twins` the main clone keeps ptxas's choice and the
runtime, which times every form per launch shape, takes a fitted twin
only where it runs faster. Same-call A/B on the H200 (bench/preempt/
results/parts/fit-twins): im2col's twins 40 -> 32 registers, P 792 -> 1056,
+37% -> +24%; as launched, geomean over 45 kernels +2.84% -> +2.60%.
"""

import os
import re
import subprocess

CLONE_PREFIXES = ("__gmem_pre_", "__gmem_prl_", "__gmem_pra_", "__gmem_prf_")
REGS_PER_SM = 65536
MAX_WARPS_PER_SM = 64
REG_UNIT = 8  # registers are allocated per warp in units of 256 = 8 per thread

_ENTRY = re.compile(r"Compiling entry function '([^']+)'")
_USED = re.compile(r"Used (\d+) registers")


TWIN_PREFIXES = ("__gmem_pra_", "__gmem_prf_")


def fitted_prefixes():
    """The clone prefixes GMEM_FIT_CLONE_REGS asks to fit (empty: none);
    ValueError for a value it does not know."""
    v = os.environ.get("GMEM_FIT_CLONE_REGS", "twins").strip().lower()
    if v in ("1", "on", "yes", "true", "all"):
        return CLONE_PREFIXES
    if v == "twins":
        return TWIN_PREFIXES
    if v in ("", "0", "off", "no", "false", "none"):
        return ()
    raise ValueError("GMEM_FIT_CLONE_REGS=%s: expected twins, all or 0" % v)


def enabled():
    return bool(fitted_prefixes())


def warps_per_sm(regs):
    """Warps one SM can hold at `regs` registers per thread (registers only)."""
    per_thread = max(REG_UNIT, -(-regs // REG_UNIT) * REG_UNIT)
    return min(MAX_WARPS_PER_SM, REGS_PER_SM // (32 * per_thread))


def register_cap(kernel_regs):
    """The most registers per thread that still hold as many warps as the
    kernel's (a multiple of the allocation unit, at most 255)."""
    warps = warps_per_sm(kernel_regs)
    cap = (REGS_PER_SM // (32 * warps)) // REG_UNIT * REG_UNIT
    return min(cap, 255)


def entry_registers(ptxas_output):
    """{entry: registers} from `ptxas -v` output."""
    regs, current = {}, None
    for line in ptxas_output.splitlines():
        m = _ENTRY.search(line)
        if m:
            current = m.group(1)
            continue
        m = _USED.search(line)
        if m and current:
            regs[current] = int(m.group(1))
            current = None
    return regs


def plan(regs, ptx_text, prefixes=CLONE_PREFIXES):
    """[(clone, registers, cap)] for clones of the given forms that need a cap."""
    out = []
    for name, used in sorted(regs.items()):
        prefix = next((p for p in prefixes if name.startswith(p)), None)
        if not prefix:
            continue
        kernel = name[len(prefix):]
        if kernel not in regs:
            continue
        cap = register_cap(regs[kernel])
        if used <= cap or warps_per_sm(used) >= warps_per_sm(regs[kernel]):
            continue
        if has_bounds(ptx_text, name):
            continue
        out.append((name, used, cap))
    return out


def _entry_header(ptx_text, name):
    """(start, end) of `.entry NAME(...)` up to its body's `{`, or None."""
    m = re.search(r"\.entry\s+" + re.escape(name) + r"\s*\(", ptx_text)
    if not m:
        return None
    brace = ptx_text.find("{", m.end())
    return (m.start(), brace) if brace >= 0 else None


def has_bounds(ptx_text, name):
    span = _entry_header(ptx_text, name)
    if not span:
        return True  # not found: leave it alone
    header = ptx_text[span[0]:span[1]]
    return any(d in header for d in (".maxnreg", ".minnctapersm", ".maxntid", ".reqntid"))


def apply(ptx_text, caps):
    for name, _, cap in caps:
        span = _entry_header(ptx_text, name)
        if not span:
            continue
        close = ptx_text.rfind(")", span[0], span[1])
        ptx_text = ptx_text[:close + 1] + "\n.maxnreg %d" % cap + ptx_text[close + 1:]
    return ptx_text


def fit_clone_registers(ptx_path, ptxas, arch, flags=()):
    """Caps the clones of PTX file ptx_path in place; returns what it did.
    Raises RuntimeError when ptxas fails (the caller's own ptxas run would
    fail the same way and say why)."""
    prefixes = fitted_prefixes()
    if not prefixes:
        return []
    with open(ptx_path) as f:
        text = f.read()
    if not any(".entry " + p in text for p in prefixes):
        return []  # nothing to fit: spare the second ptxas run
    cmd = [ptxas, "-arch=%s" % arch, "-m64", "-v"] + list(flags) + ["-o", os.devnull, ptx_path]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if p.returncode != 0:
        raise RuntimeError("ptxas -v failed on %s:\n%s" % (ptx_path, p.stdout[-2000:]))
    caps = plan(entry_registers(p.stdout), text, prefixes)
    if caps:
        with open(ptx_path, "w") as f:
            f.write(apply(text, caps))
    return caps
