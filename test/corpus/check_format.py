#!/usr/bin/env python3
"""Static format checker for the gmem kernel corpus (test/corpus/*.cu).

Checks, for every corpus file (see docs/CORPUS_FORMAT.md):
  * every __global__ kernel (plain, or an explicit template instantiation)
    has exactly one `// GMEM-EXPECT:` line and at least one `// GMEM-RUN:`
    line, and every EXPECT/RUN line names a kernel of its file;
  * kernel names are unique within a file; classes are valid;
  * a RUN line is well formed: grid/block dimensions, one ARG token per
    kernel parameter, buffer element types and scalar kinds that agree with
    the parameter types, valid INIT specs, `ptr:K+OFF` pointing inside an
    earlier `buf` parameter, size limits (<= 4M elements per buffer,
    <= 64 MiB per instance, <= 1024 threads per block).

Prints a per-class summary and exits non-zero on any problem.
Usage: check_format.py [FILE_OR_DIR ...]   (default: the directory of this script)
Standard library only.
"""

import os
import re
import sys

CLASSES = ("idempotent", "conditional", "non-idempotent", "unknown")
ELEM_SIZE = {"f32": 4, "f64": 8, "i32": 4, "u32": 4, "i64": 8, "u64": 8, "i8": 1, "u8": 1}
INT_ELEMS = {"i32", "u32", "i64", "u64", "i8", "u8"}
SCALAR_KINDS = ("i32", "u32", "i64", "u64", "f32", "f64")
MAX_BUF_ELEMS = 4 * 1024 * 1024
MAX_INSTANCE_BYTES = 64 * 1024 * 1024

# C type (after normalisation) -> scalar token kind
SCALAR_TYPES = {
    "int": "i32", "signed": "i32", "signed int": "i32", "int32_t": "i32",
    "unsigned": "u32", "unsigned int": "u32", "uint32_t": "u32",
    "long long": "i64", "long long int": "i64", "long": "i64", "int64_t": "i64",
    "ptrdiff_t": "i64",
    "unsigned long long": "u64", "unsigned long long int": "u64", "unsigned long": "u64",
    "uint64_t": "u64", "size_t": "u64",
    "float": "f32", "double": "f64",
}
# pointee type -> (compatible buffer element types, vector width)
POINTEE_TYPES = {
    "float": ({"f32"}, 1), "double": ({"f64"}, 1),
    "int": ({"i32"}, 1), "int32_t": ({"i32"}, 1),
    "unsigned": ({"u32"}, 1), "unsigned int": ({"u32"}, 1), "uint32_t": ({"u32"}, 1),
    "long long": ({"i64"}, 1), "int64_t": ({"i64"}, 1),
    "unsigned long long": ({"u64"}, 1), "uint64_t": ({"u64"}, 1), "size_t": ({"u64"}, 1),
    "char": ({"i8", "u8"}, 1), "signed char": ({"i8"}, 1), "int8_t": ({"i8"}, 1),
    "unsigned char": ({"u8"}, 1), "uint8_t": ({"u8"}, 1), "bool": ({"u8", "i8"}, 1),
    "float2": ({"f32"}, 2), "float4": ({"f32"}, 4), "double2": ({"f64"}, 2),
    "int2": ({"i32"}, 2), "int4": ({"i32"}, 4), "uint4": ({"u32"}, 4),
}

EXPECT_RE = re.compile(r"^\s*//\s*GMEM-EXPECT:\s*(.*?)\s*$")
RUN_RE = re.compile(r"^\s*//\s*GMEM-RUN:\s*(.*?)\s*$")


class Problems:
    def __init__(self):
        self.items = []

    def add(self, path, line, msg):
        loc = f"{path}:{line}" if line else path
        self.items.append(f"{loc}: {msg}")


def strip_comments_and_preproc(src):
    """Blank out comments, string/char literals and preprocessor lines,
    keeping offsets (newlines preserved) so line numbers stay right."""
    out = []
    i, n = 0, len(src)
    at_line_start = True
    while i < n:
        c = src[i]
        if at_line_start:
            j = i
            while j < n and src[j] in " \t":
                j += 1
            if j < n and src[j] == "#":
                # preprocessor directive, with backslash continuations
                while j < n:
                    if src[j] == "\n" and src[j - 1] != "\\":
                        break
                    j += 1
                out.append(re.sub(r"[^\n]", " ", src[i:j]))
                i = j
                continue
        at_line_start = False
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        else:
            out.append(c)
            if c == "\n":
                at_line_start = True
            i += 1
    return "".join(out)


def match_bracket(text, i, open_c, close_c):
    """text[i] == open_c; return index just past the matching close_c."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == open_c:
            depth += 1
        elif text[j] == close_c:
            depth -= 1
            if depth == 0:
                return j + 1
    return -1


def split_top(s, sep=","):
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return [p.strip() for p in parts]


TYPE_WORDS = {"const", "volatile", "unsigned", "signed", "int", "long", "short", "char",
              "float", "double", "bool", "void", "struct", "class", "__restrict__",
              "__restrict", "restrict"}


def parse_param(p):
    """Return dict(type=..., pointer=bool, pointee=normalised base type,
    ptr_depth=int, scalar=normalised type or None)."""
    p = re.sub(r"\s*=\s*.*$", "", p)  # default arguments
    p = re.sub(r"\b(__restrict__|__restrict|restrict)\b", " ", p)
    arrays = p.count("[")
    p = re.sub(r"\[[^\]]*\]", "", p)
    toks = re.findall(r"[A-Za-z_]\w*(?:::\w+)*|\*|&|<[^>]*>", p)
    # drop the parameter name: a trailing identifier that is not a type word,
    # when there is something before it that can be a type
    if len(toks) >= 2 and re.match(r"^[A-Za-z_]\w*$", toks[-1]) and toks[-1] not in TYPE_WORDS:
        prev = toks[:-1]
        if any(t not in ("const", "volatile") for t in prev):
            toks = prev
    depth = toks.count("*") + arrays
    base = [t for t in toks if t not in ("*", "&", "const", "volatile", "struct", "class")]
    base_s = " ".join(base)
    base_s = re.sub(r"^std::", "", base_s)
    return {
        "type": " ".join(toks),
        "pointer": depth > 0,
        "ptr_depth": depth,
        "pointee": base_s,
        "scalar": None if depth else base_s,
    }


def find_kernels(code):
    """Return list of dicts: name (EXPECT name), params (list), line, kind."""
    kernels = []
    templates = {}  # name -> params of template definition
    for m in re.finditer(r"\b__global__\b", code):
        i = m.end()
        rest = code[i:]
        # skip return type and attributes up to the kernel name
        mm = re.match(r"\s*(?:(?:void|static|inline|__forceinline__|extern)\s+)*"
                      r"(?:__launch_bounds__\s*)?", rest)
        j = i + mm.end()
        if code.startswith("(", j) and code[i:j].strip().endswith("__launch_bounds__"):
            j = match_bracket(code, j, "(", ")")
        mname = re.match(r"\s*(?:void\s+)?([A-Za-z_]\w*)\s*", code[j:])
        if not mname:
            continue
        name = mname.group(1)
        j += mname.end()
        targs = None
        if code.startswith("<", j):
            k = match_bracket(code, j, "<", ">")
            targs = code[j + 1:k - 1]
            j = k
            while j < len(code) and code[j].isspace():
                j += 1
        if not code.startswith("(", j):
            continue
        k = match_bracket(code, j, "(", ")")
        params_s = code[j + 1:k - 1]
        params = [parse_param(p) for p in split_top(params_s)] if params_s.strip() else []
        if len(params) == 1 and params[0]["type"] == "void":
            params = []
        after = code[k:].lstrip()
        is_def = after.startswith("{")
        before = code[:m.start()].rstrip()
        line = code.count("\n", 0, m.start()) + 1
        # template definition: preceded by template <...>
        tdef = re.search(r"\btemplate\s*<[^{};]*>\s*$", before)
        tinst = re.search(r"\btemplate\s*$", before) and not re.search(r"\bextern\s+template\s*$", before)
        if tdef and is_def:
            templates[name] = params
            continue
        if tinst and targs is not None:
            tname = name + "<" + ",".join(a.strip() for a in split_top(targs)) + ">"
            tname = re.sub(r"(\d+)U\b", r"\1u", tname)
            kernels.append({"name": tname, "params": params, "line": line, "kind": "instantiation",
                            "base": name})
            continue
        if is_def or after.startswith(";"):
            if not is_def:
                continue  # plain forward declaration
            kernels.append({"name": name, "params": params, "line": line, "kind": "plain"})
    for k in kernels:
        if k["kind"] == "instantiation" and k["base"] not in templates:
            k["orphan"] = True
    return kernels, templates


def parse_dims(s):
    parts = s.split(",")
    if not 1 <= len(parts) <= 3 or not all(re.fullmatch(r"[1-9]\d*", p) for p in parts):
        return None
    d = [int(p) for p in parts]
    return d + [1] * (3 - len(d))


def parse_number(s, integer):
    try:
        return int(s, 0) if integer else float(s)
    except ValueError:
        return None


def check_run(path, line, kernel, spec, probs):
    m = re.fullmatch(r"(\S+)\s+grid=(\S+)\s+block=(\S+)(?:\s+smem=(\d+))?\s+args=(.*)", spec)
    if not m:
        probs.add(path, line, f"malformed RUN line: {spec!r}")
        return
    if m.group(4) is not None and int(m.group(4)) > 48 * 1024:
        probs.add(path, line, f"smem={m.group(4)} exceeds the 48 KiB a launch gets without opting in")
    grid, block = parse_dims(m.group(2)), parse_dims(m.group(3))
    if grid is None or block is None:
        probs.add(path, line, "bad grid= or block= dimensions")
        return
    if block[0] * block[1] * block[2] > 1024 or block[0] > 1024 or block[1] > 1024 or block[2] > 64:
        probs.add(path, line, f"block {block} exceeds CUDA limits")
    if grid[0] > 2**31 - 1 or grid[1] > 65535 or grid[2] > 65535:
        probs.add(path, line, f"grid {grid} exceeds CUDA limits")
    toks = m.group(5).split()
    params = kernel["params"]
    if len(toks) != len(params):
        probs.add(path, line, f"{kernel['name']}: {len(toks)} ARG tokens for {len(params)} parameters")
        return
    bufs = {}  # param index -> (elem, count)
    total = 0
    for idx, (tok, prm) in enumerate(zip(toks, params)):
        where = f"{kernel['name']} arg {idx} ({prm['type']})"
        if tok.startswith("buf:"):
            parts = tok.split(":")
            if len(parts) < 4 or parts[1] not in ELEM_SIZE or not re.fullmatch(r"[1-9]\d*", parts[2]):
                probs.add(path, line, f"{where}: malformed buffer token {tok!r}")
                continue
            elem, count, init = parts[1], int(parts[2]), parts[3:]
            if init[0] == "randint":
                lo = parse_number(init[1], True) if len(init) == 3 else None
                hi = parse_number(init[2], True) if len(init) == 3 else None
                if lo is None or hi is None or lo >= hi:
                    probs.add(path, line, f"{where}: bad randint spec {tok!r}")
                elif elem not in INT_ELEMS:
                    probs.add(path, line, f"{where}: randint on non-integer buffer")
            elif init[0] == "const":
                if len(init) != 2 or parse_number(init[1], elem in INT_ELEMS) is None:
                    probs.add(path, line, f"{where}: bad const spec {tok!r}")
            elif init[0] not in ("rand", "zero", "iota") or len(init) != 1:
                probs.add(path, line, f"{where}: bad INIT {':'.join(init)!r}")
            if count > MAX_BUF_ELEMS:
                probs.add(path, line, f"{where}: {count} elements > {MAX_BUF_ELEMS}")
            if not prm["pointer"]:
                probs.add(path, line, f"{where}: buffer passed to a non-pointer parameter")
            else:
                check_pointee(path, line, where, prm, elem, count, probs)
            bufs[idx] = (elem, count)
            total += count * ELEM_SIZE[elem]
        elif tok == "null":
            if not prm["pointer"]:
                probs.add(path, line, f"{where}: null for a non-pointer parameter")
        elif tok.startswith("ptr:"):
            mp = re.fullmatch(r"ptr:(\d+)\+(\d+)", tok)
            if not mp:
                probs.add(path, line, f"{where}: malformed pointer token {tok!r}")
                continue
            k, off = int(mp.group(1)), int(mp.group(2))
            if k >= idx:
                probs.add(path, line, f"{where}: ptr:{k} does not refer to an earlier parameter")
            elif k not in bufs:
                probs.add(path, line, f"{where}: ptr:{k} does not refer to a buf parameter")
            else:
                elem, count = bufs[k]
                if off >= count * ELEM_SIZE[elem]:
                    probs.add(path, line, f"{where}: offset {off} outside buffer {k} "
                                          f"({count * ELEM_SIZE[elem]} bytes)")
                pt = POINTEE_TYPES.get(prm["pointee"]) if prm["ptr_depth"] == 1 else None
                if pt:
                    align = ELEM_SIZE[sorted(pt[0])[0]] * pt[1]
                    align = min(align, 16)
                    if off % align:
                        probs.add(path, line, f"{where}: offset {off} misaligned for {prm['pointee']}")
            if not prm["pointer"]:
                probs.add(path, line, f"{where}: pointer token for a non-pointer parameter")
        else:
            ms = re.fullmatch(r"(i32|u32|i64|u64|f32|f64):(\S+)", tok)
            if not ms:
                probs.add(path, line, f"{where}: unknown ARG token {tok!r}")
                continue
            kind = ms.group(1)
            if parse_number(ms.group(2), kind[0] in "iu") is None:
                probs.add(path, line, f"{where}: bad scalar value {tok!r}")
            if prm["pointer"]:
                probs.add(path, line, f"{where}: scalar passed to a pointer parameter")
            else:
                want = SCALAR_TYPES.get(prm["scalar"])
                if want is None:
                    probs.add(path, line, f"{where}: unsupported scalar parameter type")
                elif want != kind:
                    probs.add(path, line, f"{where}: scalar {kind} for a {prm['scalar']} parameter "
                                          f"(expected {want})")
    if total > MAX_INSTANCE_BYTES:
        probs.add(path, line, f"{kernel['name']}: instance allocates {total} bytes > 64 MiB")


def check_pointee(path, line, where, prm, elem, count, probs):
    if prm["ptr_depth"] >= 2:
        if elem != "u64":
            probs.add(path, line, f"{where}: pointer table should be a u64 buffer")
        return
    pt = POINTEE_TYPES.get(prm["pointee"])
    if pt is None:
        return  # struct or other type: not checked
    elems, width = pt
    if elem not in elems:
        probs.add(path, line, f"{where}: buffer of {elem} for {prm['pointee']} pointee")
    elif count % width:
        probs.add(path, line, f"{where}: {count} elements not a multiple of {width} "
                              f"for {prm['pointee']}")


def check_file(path, probs, counts):
    with open(path, encoding="utf-8") as f:
        src = f.read()
    code = strip_comments_and_preproc(src)
    kernels, _templates = find_kernels(code)
    by_name = {}
    for k in kernels:
        if k.get("orphan"):
            probs.add(path, k["line"], f"instantiation {k['name']} of an unknown template")
        if k["name"] in by_name:
            probs.add(path, k["line"], f"kernel name {k['name']} is not unique in the file")
        by_name[k["name"]] = k
    if not kernels:
        probs.add(path, 0, "no __global__ kernels found")
    expects, runs = {}, {}
    for ln, text in enumerate(src.splitlines(), 1):
        me = EXPECT_RE.match(text)
        mr = RUN_RE.match(text)
        if me:
            parts = me.group(1).split()
            if len(parts) != 2:
                probs.add(path, ln, f"malformed EXPECT line: {me.group(1)!r}")
                continue
            name, cls = parts
            if cls not in CLASSES:
                probs.add(path, ln, f"invalid class {cls!r}")
            if name not in by_name:
                probs.add(path, ln, f"EXPECT for unknown kernel {name!r}")
            elif name in expects:
                probs.add(path, ln, f"second EXPECT line for {name}")
            else:
                expects[name] = cls
        elif mr:
            spec = mr.group(1)
            name = spec.split()[0] if spec.split() else ""
            if name not in by_name:
                probs.add(path, ln, f"RUN for unknown kernel {name!r}")
                continue
            runs.setdefault(name, []).append(ln)
            check_run(path, ln, by_name[name], spec, probs)
        elif "GMEM-" in text and re.search(r"GMEM-(EXPECT|RUN)\b", text):
            probs.add(path, ln, "GMEM line not in the '// GMEM-EXPECT:' / '// GMEM-RUN:' form")
    for k in kernels:
        if k["name"] not in expects:
            probs.add(path, k["line"], f"kernel {k['name']} has no EXPECT line")
        if k["name"] not in runs:
            probs.add(path, k["line"], f"kernel {k['name']} has no RUN line")
    for name, cls in expects.items():
        if cls in counts:
            counts[cls] += 1
    return len(kernels), sum(len(v) for v in runs.values())


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    targets = argv[1:] or [here]
    files = []
    for t in targets:
        if os.path.isdir(t):
            files += sorted(os.path.join(t, f) for f in os.listdir(t) if f.endswith(".cu"))
        else:
            files.append(t)
    probs = Problems()
    counts = {c: 0 for c in CLASSES}
    nk = nr = 0
    for f in files:
        k, r = check_file(f, probs, counts)
        nk += k
        nr += r
    for p in probs.items:
        print(p)
    print(f"{len(files)} files, {nk} kernels, {nr} RUN instances")
    for c in CLASSES:
        print(f"  {c:15s} {counts[c]}")
    if probs.items:
        print(f"FAILED: {len(probs.items)} problem(s)")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
