"""Corpus annotations for test/gpu/stage.py: the GMEM-EXPECT and GMEM-RUN
lines of test/corpus/*.cu (docs/CORPUS_FORMAT.md) parsed and checked, and
the staging's warnings (warn, WARNINGS), which stage_tools.py and stage.py
report through too.

Python 3 standard library only.
"""

import re
import sys

ELEM_SIZES = {"f32": 4, "f64": 8, "i32": 4, "u32": 4, "i64": 8, "u64": 8, "i8": 1, "u8": 1}
CLASSES = ("idempotent", "conditional", "non-idempotent", "unknown")

EXPECT_RE = re.compile(r"^\s*//\s*GMEM-EXPECT:\s*(?P<rest>.*?)\s*$")
RUN_RE = re.compile(
    r"^\s*//\s*GMEM-RUN:\s*(?P<name>.+?)\s+grid=(?P<grid>\S+)\s+block=(?P<block>\S+)"
    r"(?:\s+smem=(?P<smem>\d+))?\s+args=(?P<args>.*?)\s*$")
RUN_START_RE = re.compile(r"^\s*//\s*GMEM-RUN:")

WARNINGS = []


def warn(msg):
    WARNINGS.append(msg)
    print("warning: " + msg, file=sys.stderr, flush=True)


def info(msg):
    print(msg, flush=True)


# --------------------------------------------------------------------- parsing

def parse_int(text):
    """int in decimal or 0x/0o/0b notation; raises ValueError."""
    t = text.strip()
    try:
        return int(t, 10)
    except ValueError:
        return int(t, 0)


def parse_dims(text):
    parts = text.split(",")
    if not 1 <= len(parts) <= 3:
        raise ValueError("bad dims %r" % text)
    vals = [parse_int(p) for p in parts]
    if any(v < 1 or v > 0xFFFFFFFF for v in vals):
        raise ValueError("bad dims %r" % text)
    return vals + [1] * (3 - len(vals))


def runner_token(tok):
    """The token as the runner and the bench harness read it: a null
    pointer is an 8-byte scalar 0 there (both pass arguments by size)."""
    return "u64:0" if tok == "null" else tok


def parse_arg(tok):
    """Validate one ARG token; returns a dict describing it (raises ValueError)."""
    f = tok.split(":")
    kind = f[0]
    if kind == "buf":
        if len(f) < 4 or f[1] not in ELEM_SIZES:
            raise ValueError("bad buf token %r" % tok)
        count = parse_int(f[2])
        if count < 0:
            raise ValueError("negative COUNT in %r" % tok)
        init = f[3:]
        ok = ((init[0] in ("rand", "zero", "iota") and len(init) == 1)
              or (init[0] == "randint" and len(init) == 3
                  and parse_int(init[1]) < parse_int(init[2]))
              or (init[0] == "const" and len(init) == 2))
        if not ok:
            raise ValueError("bad INIT in %r" % tok)
        if init[0] == "const":
            (float if f[1].startswith("f") else parse_int)(init[1])
        return {"kind": "buf", "type": f[1], "count": count,
                "size": count * ELEM_SIZES[f[1]]}
    if tok == "null":
        # a null pointer: the runner passes 8 zero bytes (runner_token)
        return {"kind": "null"}
    if kind == "ptr":
        m = re.fullmatch(r"(\d+)(?:([+-])(\w+))?", f[1] if len(f) == 2 else "")
        if not m:
            raise ValueError("bad ptr token %r" % tok)
        off = parse_int(m.group(3)) if m.group(3) else 0
        if m.group(2) == "-":
            off = -off
        return {"kind": "ptr", "ref": int(m.group(1)), "off": off}
    if len(f) != 2:
        raise ValueError("bad token %r" % tok)
    v = f[1]
    if kind in ("i32", "u32"):
        n = parse_int(v)
        if not -(1 << 31) <= n < (1 << 32):
            raise ValueError("out of range %r" % tok)
        n &= 0xFFFFFFFF
        if n >= 1 << 31:
            n -= 1 << 32
        return {"kind": "scalar", "tool": "i32:%d" % n}
    if kind in ("i64", "u64"):
        n = parse_int(v)
        if not -(1 << 63) <= n < (1 << 64):
            raise ValueError("out of range %r" % tok)
        n &= (1 << 64) - 1
        if n >= 1 << 63:
            n -= 1 << 64
        return {"kind": "scalar", "tool": "i64:%d" % n}
    if kind in ("f32", "f64"):
        float(v)
        return {"kind": "scalar", "tool": "%s:%s" % (kind, v)}
    raise ValueError("unknown token kind %r" % tok)


def resolve_ptr(args, i):
    """(buffer param index, total byte offset) for ptr parameter i."""
    off, cur = 0, i
    for _ in range(len(args) + 1):
        a = args[cur]
        if a["kind"] == "buf":
            return cur, off
        if a["kind"] != "ptr":
            raise ValueError("ptr in parameter %d refers to a scalar" % i)
        if not 0 <= a["ref"] < len(args):
            raise ValueError("ptr in parameter %d refers to missing parameter %d"
                             % (i, a["ref"]))
        off += a["off"]
        cur = a["ref"]
    raise ValueError("ptr in parameter %d: reference cycle" % i)


def parse_corpus_file(path):
    """Returns (expects: {name: class}, runs: [dict]) and warns on bad lines."""
    expects, runs = {}, []
    with open(path, encoding="utf-8", errors="replace") as fh:
        for lineno, line in enumerate(fh, 1):
            m = EXPECT_RE.match(line)
            if m:
                parts = m.group("rest").rsplit(None, 1)
                if len(parts) != 2 or parts[1] not in CLASSES:
                    warn("%s:%d: malformed GMEM-EXPECT line" % (path, lineno))
                    continue
                expects[parts[0].strip()] = parts[1]
                continue
            if not RUN_START_RE.match(line):
                continue
            m = RUN_RE.match(line)
            if not m:
                warn("%s:%d: malformed GMEM-RUN line (skipped)" % (path, lineno))
                continue
            run = {"file": path, "line": lineno, "name": m.group("name").strip(),
                   "grid_text": m.group("grid"), "block_text": m.group("block"),
                   "smem": int(m.group("smem") or 0),
                   "tokens": m.group("args").split(), "error": None}
            try:
                run["grid"] = parse_dims(run["grid_text"])
                run["block"] = parse_dims(run["block_text"])
                run["args"] = [parse_arg(t) for t in run["tokens"]]
                for i, a in enumerate(run["args"]):
                    if a["kind"] == "ptr":
                        resolve_ptr(run["args"], i)
            except (ValueError, IndexError) as e:
                run["error"] = str(e)
                run.setdefault("grid", [1, 1, 1])
                run.setdefault("block", [1, 1, 1])
                warn("%s:%d: %s (the runner will report it as ERROR)" % (path, lineno, e))
            runs.append(run)
    for r in runs:
        if r["name"] not in expects:
            warn("%s:%d: kernel %r has no GMEM-EXPECT line" % (path, r["line"], r["name"]))
    return expects, runs
