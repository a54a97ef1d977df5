#!/usr/bin/env python3
"""gmem-clang++: compile and link whole CUDA programs with clang 19 + gmem.

A compiler driver in the style of nvcc/clang: .cu sources get their device
half compiled by clang with gmem's plugin (which embeds a descriptor
`__gmem_desc_<kernel>` per kernel), assembled by the toolkit's ptxas and
packed by its fatbinary; the host half is compiled by clang with that fatbin
embedded; .c/.cpp sources are compiled by clang as host code; everything is
linked with the CUDA runtime (and gmem's runtime library when it is built).

It exists because a plain `clang++ -x cuda` build does not work with
clang 19 + CUDA 13: clang 19 knows CUDA up to 12.5, some headers its CUDA
wrapper includes are gone, CCCL moved to include/cccl, and clang's
`fatbinary --image=profile=...` call is rejected by CUDA 13's fatbinary.
The phases are therefore run one by one:

  1. device   clang++ -x cuda --cuda-device-only --cuda-gpu-arch=sm_XX
              -fpass-plugin=GmemPlugin.so -S            -> X.sm_XX.ptx
  2. ptxas    ptxas -arch=sm_XX                          -> X.sm_XX.cubin
  3. fatbin   fatbinary --create=X.fatbin -64
              --image3=kind=elf,sm=XX,file=X.sm_XX.cubin
              --image3=kind=ptx,sm=XX,file=X.sm_XX.ptx   (per arch)
  4. host     clang++ -x cuda --cuda-host-only
              -Xclang -fcuda-include-gpubinary -Xclang X.fatbin -c -> X.o
  5. link     clang++ [-lgmemrt] objects -lcudart -ldl -lpthread -lrt

Usage and options: `gmem-clang++ --help`, docs/DRIVER.md.
Python 3 standard library only.
"""

import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

PROG = "gmem-clang++"

# Filled in by CMake (configure_file) when the driver is copied to
# build/bin; left as-is when the script is run from the source tree.
CONFIGURED_CLANG = "@GMEM_DRIVER_CLANG@"
CONFIGURED_PLUGIN = "@GMEM_DRIVER_PLUGIN@"
CONFIGURED_LIBDIR = "@GMEM_DRIVER_LIBDIR@"
VERSION = "@GMEM_DRIVER_VERSION@"

DEFAULT_ARCH = "sm_90"
RUNTIME_LIB = "libgmemrt.so"
PLUGIN_LIB = "GmemPlugin.so"

# Headers clang 19's __clang_cuda_runtime_wrapper.h includes that newer
# toolkits (CUDA 13) no longer ship. Empty stand-ins live in a directory
# shipped with the driver (<bin>/../share/gmem/cuda-stubs, or cuda-stubs/
# next to the script in the source tree) that is added with -idirafter, so
# it is searched after the toolkit's include directory: a header the toolkit
# has is used as-is. The directory is stable, so dependency files (-MD) that
# name a stub stay valid. Without it, stubs for just the missing headers are
# written to the temporary directory.
CUDA_STUB_HEADERS = ("texture_fetch_functions.h", "texture_indirect_functions.h")
STUB_TEXT = ("// gmem-clang++: empty stand-in for a CUDA header that this CUDA\n"
             "// toolkit no longer ships but clang's CUDA wrapper still includes.\n"
             "#pragma once\n")

CUDA_EXTS = {".cu"}
C_EXTS = {".c"}
CXX_EXTS = {".cc", ".cp", ".cpp", ".cxx", ".c++", ".C", ".CPP"}
ASM_EXTS = {".s", ".S", ".sx"}
LANG_ALIASES = {"cu": "cuda", "cuda": "cuda", "c++": "c++", "c": "c",
                "assembler": "asm", "assembler-with-cpp": "asm", "none": None}

# Options (ours or clang's) whose value is the next argument.
SEPARATE_VALUE = {
    "-o", "-x", "-I", "-isystem", "-iquote", "-idirafter", "-isysroot", "-include",
    "-imacros", "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-D", "-U", "-L", "-l",
    "-MF", "-MT", "-MQ", "-Xclang", "-Xlinker", "-Xassembler", "-Xpreprocessor",
    "-Xarch_device", "-Xarch_host", "-Xcuda-device", "-Xcuda-host", "-Xptxas",
    "-Xfatbinary", "-mllvm", "-z", "-T", "-u", "-e", "--param", "-target", "--sysroot",
    "-arch", "--cuda-gpu-arch", "--offload-arch", "--keep-dir", "--cuda-path",
    "--gmem-plugin", "--gmem-report", "-cudart", "--cudart", "-ccbin", "-Xcompiler",
    "--compiler-options",
}
# Preprocessor/language options: every compile (device, host, C/C++), never the link.
COMPILE_ONLY_PREFIXES = ("-I", "-D", "-U", "-isystem", "-iquote", "-idirafter", "-include",
                         "-imacros", "-iprefix", "-iwithprefix", "-isysroot", "-W", "-w",
                         "-std=", "-ansi", "-pedantic", "-ffast-math", "-ffp-contract",
                         "-Xclang", "-mllvm", "-Xarch_", "-Xpreprocessor", "-nostdinc",
                         "-C", "-P", "-H", "-dD", "-dM", "-ftemplate", "-fconstexpr",
                         "-fdiagnostics", "-fcolor-diagnostics", "-fno-color-diagnostics",
                         "-fmacro-backtrace", "-ferror-limit", "-fno-exceptions",
                         "-fexceptions", "-fno-rtti", "-frtti", "-fms-extensions",
                         "-fgnu-keywords", "-fno-gnu-keywords", "-ftrapv")
# Dependency-file options: the host compile only (it sees the same headers).
DEPFILE_FLAGS = {"-MD", "-MMD", "-MP", "-MG"}
DEPFILE_VALUE = {"-MF", "-MT", "-MQ"}
# Options that only make sense on the link line.
LINK_ONLY = {"-shared", "-static", "-rdynamic", "-pie", "-no-pie", "-nostdlib",
             "-nostartfiles", "-nodefaultlibs", "-static-libstdc++", "-static-libgcc",
             "-s", "-Wl,--as-needed"}


class DriverError(Exception):
    """A failure: one line for the user, plus a phase's output to show first."""

    def __init__(self, message, details="", code=1):
        super().__init__(message)
        self.message = message
        self.details = details
        self.code = code


ERROR_LINE = re.compile(r"\berror\b|\bfatal\b|undefined reference|cannot find|"
                        r"multiple definition|No such file", re.IGNORECASE)
BORING_LINE = re.compile(r"linker command failed|errors? generated|^\s*collect2")


def first_error_line(text):
    for line in text.splitlines():
        if ERROR_LINE.search(line) and not BORING_LINE.search(line):
            return line.strip()
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def quote(cmd):
    return " ".join(shlex.quote(c) for c in cmd)


def is_exe(path):
    return bool(path) and os.path.isfile(path) and os.access(path, os.X_OK)


def configured(value):
    return value if value and not value.startswith("@") else ""


def sanitize(name):
    return re.sub(r"[^A-Za-z0-9_.+-]", "_", name) or "input"


HELP = """\
usage: gmem-clang++ [options] inputs...

Compiles and links CUDA programs with clang 19 and gmem's plugin (each
kernel's descriptor is embedded in the device code) against the CUDA toolkit
(CUDA 13 works). Inputs: .cu (CUDA), .c/.cpp/.cc/.cxx (host code, CUDA
headers on the include path), .s/.S, and anything else (.o, .a, .so) goes to
the linker.

Modes:
  (default)              compile and link an executable (-o, default a.out)
  -c                     compile only: one .o per input (-o with one input)
  --cuda-device-only     .cu -> fatbin (.fatbin, ELF + PTX per arch); with -S: PTX
  -E / -fsyntax-only     preprocess (host side) / check syntax (device + host)
  -shared                link a shared library

CUDA options:
  --cuda-gpu-arch=sm_XX  GPU arch, repeatable or comma-separated (default sm_90;
                         CUDA 13's ptxas needs sm_75 or newer). Also
                         --offload-arch=sm_XX, -arch=sm_XX, -arch sm_XX.
                         Each arch puts an ELF (cubin) and a PTX image in the fatbin.
  --cuda-path=DIR        CUDA toolkit (default $CUDA_PATH, $CUDA_HOME, /usr/local/cuda)
  -static-cudart         link libcudart_static.a; --cudart=static|shared|none
                         (default shared, with an rpath to the toolkit's lib dir)
  -G                     device debug info (device clang -g, ptxas -g)
  -Xcuda-device ARG      pass ARG to the device clang compile only
  -Xcuda-host ARG        pass ARG to host compiles only (.cu host half, .c/.cpp)
  -Xptxas ARG            pass ARG to ptxas;  -Xfatbinary ARG  to fatbinary
  -Xcompiler A,B         (nvcc spelling) like -Xcuda-host for each of A, B;
                         -ccbin, --expt-relaxed-constexpr, --expt-extended-lambda
                         are accepted and ignored
  -fgpu-rdc / -rdc=true  not supported (no relocatable device code)
  -fgpu-default-stream=per-thread   the default stream is per thread (also nvcc's
                         --default-stream per-thread); =legacy is the default

gmem options:
  --gmem-runtime         link gmem's runtime (-lgmemrt, first, with an rpath) so the
                         program runs under gmem with no source change. Default: on
                         when libgmemrt.so is built; --no-gmem-runtime turns it off.
  --no-gmem              do not load the plugin (plain clang CUDA build)
  --gmem-plugin=PATH     the plugin (default $GMEM_PLUGIN, else <bin>/../lib/GmemPlugin.so)
  --gmem-report=FILE     write the plugin's analysis report to FILE ('-': stderr)
  --gmem-no-rpath        no automatic rpaths (to the cudart and libgmemrt dirs); give
                         your own, e.g. -Wl,-rpath,'$ORIGIN/../lib' for a relocatable tree
  --gmem-config          print the toolchain that would be used, and exit

Common options (as for clang): -o FILE, -I DIR, -isystem DIR, -D NAME[=V], -U NAME,
  -include F, -std=..., -O0..3/-Os/-Oz/-Ofast, -g, -W..., -w, -f..., -m...,
  -MD/-MMD/-MF/-MT/-MQ/-MP, -L DIR, -l LIB, -Wl,..., -Xlinker ARG, -pthread,
  -x cuda|cu|c++|c|none. Anything else is passed to clang (every compile and
  the link). The device half is optimised at -O1/-O3 when asked, else -O2.
  -v                     print each phase's command as it runs (to stderr)
  -###                   print the commands without running them
  -save-temps / -keep    keep the .ptx, .cubin and .fatbin of each .cu (in
                         --keep-dir DIR, else next to -o, else the current dir)

Environment: GMEM_CLANG (clang++ to use), CUDA_PATH, GMEM_PLUGIN,
  GMEM_RUNTIME_LIB (path of libgmemrt.so), TMPDIR.
"""


class Options:
    def __init__(self):
        self.inputs = []            # (path, lang) in order; lang None = linker input
        self.link_items = []        # ordered linker arguments: ("input", path) / ("flag", arg)
        self.output = None
        self.mode = "link"          # link | compile | device | preprocess | syntax
        self.emit_asm = False       # -S (with --cuda-device-only: PTX)
        self.archs = []
        self.cuda_path = None
        self.cudart = "shared"
        self.gmem_runtime = None    # None = default (on when the library exists)
        self.use_plugin = True
        self.plugin = None
        self.report = None
        self.verbose = False
        self.dry_run = False
        self.keep = False
        self.keep_dir = None
        self.device_debug = False
        self.opt = None             # last -O flag
        self.compile_flags = []     # every compile (device, host, C/C++)
        self.common_flags = []      # every compile and the link (unknown flags)
        self.host_flags = []        # host compiles only
        self.dep_flags = []         # host compile only (-MD ...)
        self.device_flags = []      # device compile only
        self.ptxas_flags = []
        self.fatbin_flags = []
        self.link_flags = []        # link only
        self.debug = False
        self.print_config = False
        self.auto_rpath = True      # rpaths to the cudart and runtime dirs


def add_archs(opts, value):
    for a in value.split(","):
        a = a.strip()
        if not a:
            continue
        if not re.fullmatch(r"sm_\d+[a-z]?", a):
            raise DriverError(f"unsupported GPU arch '{a}': expected sm_XX (e.g. sm_90)")
        if a not in opts.archs:
            opts.archs.append(a)


def parse_args(argv):
    opts = Options()
    lang = None             # current -x language
    explicit_lang = False
    i = 0
    n = len(argv)

    def value(flag):
        nonlocal i
        if i + 1 >= n:
            raise DriverError(f"argument to '{flag}' is missing (expected 1 value)")
        i += 1
        return argv[i]

    while i < n:
        a = argv[i]
        if a in ("-h", "--help", "-help"):
            sys.stdout.write(HELP)
            sys.exit(0)
        if a == "--version":
            print(f"gmem-clang++ (gmem {configured(VERSION) or 'source tree'})")
            opts.print_config = "version"
        elif a == "--gmem-config":
            opts.print_config = True
        elif a == "-c":
            opts.mode = "compile" if opts.mode == "link" else opts.mode
        elif a == "-S":
            opts.emit_asm = True
        elif a == "-E":
            opts.mode = "preprocess"
        elif a == "-fsyntax-only":
            opts.mode = "syntax"
        elif a == "--cuda-device-only":
            opts.mode = "device"
        elif a == "--cuda-host-only":
            raise DriverError("--cuda-host-only is not supported: gmem-clang++ builds both "
                              "halves (use plain clang for a host-only compile)")
        elif a == "-o":
            opts.output = value(a)
        elif a.startswith("-o") and len(a) > 2 and not a.startswith("-objc"):
            opts.output = a[2:]
        elif a == "-v" or a == "--verbose":
            opts.verbose = True
        elif a == "-###":
            opts.dry_run = True
            opts.verbose = True
        elif a in ("-save-temps", "--save-temps", "-keep", "--keep") or a.startswith("-save-temps="):
            opts.keep = True
        elif a == "--keep-dir":
            opts.keep, opts.keep_dir = True, value(a)
        elif a.startswith("--keep-dir="):
            opts.keep, opts.keep_dir = True, a.split("=", 1)[1]
        elif a in ("--cuda-gpu-arch", "--offload-arch"):
            add_archs(opts, value(a))
        elif a.startswith("--cuda-gpu-arch=") or a.startswith("--offload-arch="):
            add_archs(opts, a.split("=", 1)[1])
        elif a == "-arch" and i + 1 < n and argv[i + 1].startswith("sm_"):
            add_archs(opts, value(a))
        elif a.startswith("-arch=sm_") or a.startswith("--gpu-architecture="):
            add_archs(opts, a.split("=", 1)[1])
        elif a == "--no-cuda-version-check":
            pass
        elif a == "--cuda-path":
            opts.cuda_path = value(a)
        elif a.startswith("--cuda-path="):
            opts.cuda_path = a.split("=", 1)[1]
        elif a == "-static-cudart":
            opts.cudart = "static"
        elif a in ("-cudart", "--cudart"):
            opts.cudart = value(a)
        elif a.startswith("-cudart=") or a.startswith("--cudart="):
            opts.cudart = a.split("=", 1)[1]
        elif a == "--gmem-runtime":
            opts.gmem_runtime = True
        elif a == "--no-gmem-runtime":
            opts.gmem_runtime = False
        elif a == "--no-gmem":
            opts.use_plugin = False
        elif a == "--gmem-no-rpath":
            opts.auto_rpath = False
        elif a == "--gmem-plugin":
            opts.plugin = value(a)
        elif a.startswith("--gmem-plugin="):
            opts.plugin = a.split("=", 1)[1]
        elif a == "--gmem-report":
            opts.report = value(a)
        elif a.startswith("--gmem-report="):
            opts.report = a.split("=", 1)[1]
        elif a in ("-fgpu-rdc", "-rdc=true", "--relocatable-device-code=true", "-rdc", "-dc"):
            raise DriverError(f"'{a}': relocatable device code is not supported by gmem-clang++ "
                              "(each .cu must be self-contained on the device side)")
        elif a in ("-fno-gpu-rdc", "-rdc=false", "--relocatable-device-code=false"):
            pass
        elif a == "-G" or a == "--device-debug":
            opts.device_debug = True
        elif a == "-Xcuda-device":
            opts.device_flags.append(value(a))
        elif a == "-Xcuda-host":
            opts.host_flags.append(value(a))
        elif a == "-Xptxas":
            opts.ptxas_flags.extend(value(a).split(","))
        elif a.startswith("-Xptxas="):
            opts.ptxas_flags.extend(a.split("=", 1)[1].split(","))
        elif a == "-Xfatbinary":
            opts.fatbin_flags.extend(value(a).split(","))
        elif a == "-ccbin":
            value(a)  # nvcc's host-compiler choice: clang is the host compiler here
        elif a in ("-Xcompiler", "--compiler-options"):
            opts.host_flags.extend(value(a).split(","))   # nvcc spelling
        elif (a.startswith("-fgpu-default-stream=") or a.startswith("--default-stream=")
              or a in ("--default-stream", "-default-stream")):
            v = a.split("=", 1)[1] if "=" in a else value(a)
            if v == "per-thread":
                # clang 19's driver passes -fgpu-default-stream only for HIP:
                # give CUDA compiles the launch stub's choice (cc1) and the
                # runtime API's per-thread names (the macro), as nvcc does.
                opts.compile_flags.extend(["-Xclang", "-fgpu-default-stream=per-thread",
                                           "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"])
            elif v not in ("legacy", "null"):
                raise DriverError(f"unknown default stream '{v}': expected per-thread or legacy")
        elif a in ("--expt-relaxed-constexpr", "-expt-relaxed-constexpr",
                   "--expt-extended-lambda", "-expt-extended-lambda", "--extended-lambda"):
            pass  # nvcc-only switches; clang behaves this way already
        elif a == "-x":
            v = value(a)
            if v not in LANG_ALIASES:
                raise DriverError(f"language '{v}' not recognized (use -x cuda, cu, c++, c or none)")
            lang, explicit_lang = LANG_ALIASES[v], LANG_ALIASES[v] is not None
        elif a.startswith("-x") and len(a) > 2 and a[2:] in LANG_ALIASES:
            lang = LANG_ALIASES[a[2:]]
            explicit_lang = lang is not None
        elif re.fullmatch(r"-O(\d*|s|z|g|fast)", a):
            opts.opt = a
        elif a in ("-g", "-g3", "-g2", "-g1", "-ggdb") or a.startswith("-gdwarf"):
            opts.debug = True
            opts.common_flags.append(a)
        elif a in ("-pthread",):
            opts.common_flags.append(a)
        # ---- linker -------------------------------------------------------
        elif a == "-l" or a == "-L":
            v = value(a)
            opts.link_items.append(("flag", a + v))
        elif a.startswith("-l") or a.startswith("-L") or a.startswith("-Wl,"):
            opts.link_items.append(("flag", a))
        elif a == "-Xlinker":
            opts.link_items.append(("xlinker", value(a)))
        elif a in ("-z", "-T", "-u", "-e"):
            opts.link_flags.extend([a, value(a)])
        elif a in LINK_ONLY or a.startswith("-fuse-ld=") or a.startswith("--ld-path="):
            opts.link_flags.append(a)
        # ---- dependency files ---------------------------------------------
        elif a in DEPFILE_FLAGS:
            opts.dep_flags.append(a)
        elif a in DEPFILE_VALUE:
            opts.dep_flags.extend([a, value(a)])
        elif any(a.startswith(f) and len(a) > 3 for f in DEPFILE_VALUE):
            opts.dep_flags.append(a)
        # ---- compile-only options (joined or separate values) -------------
        elif a in ("-I", "-D", "-U", "-isystem", "-iquote", "-idirafter", "-include",
                   "-imacros", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
                   "-isysroot", "-Xclang", "-mllvm", "-Xarch_device", "-Xarch_host",
                   "-Xpreprocessor"):
            opts.compile_flags.extend([a, value(a)])
        elif a.startswith(COMPILE_ONLY_PREFIXES) and not a.startswith("-Wl,"):
            opts.compile_flags.append(a)
        elif a in SEPARATE_VALUE:
            opts.common_flags.extend([a, value(a)])
        elif a == "":
            pass  # e.g. an empty generator expression in a build system
        elif a == "-":
            raise DriverError("reading a source from standard input is not supported")
        elif a.startswith("-"):
            opts.common_flags.append(a)     # unknown: clang's business
        else:
            opts.inputs.append((a, lang if explicit_lang else classify(a)))
            if (lang if explicit_lang else classify(a)) is None:
                opts.link_items.append(("input", a))
            else:
                opts.link_items.append(("source", a))
        i += 1
    if opts.cudart not in ("shared", "static", "none"):
        raise DriverError(f"--cudart={opts.cudart}: expected static, shared or none")
    if not opts.archs:
        opts.archs = [DEFAULT_ARCH]
    return opts


def classify(path):
    ext = os.path.splitext(path)[1]
    if ext in CUDA_EXTS or ext.lower() == ".cu":
        return "cuda"
    if ext in C_EXTS:
        return "c"
    if ext in CXX_EXTS or ext.lower() in {e.lower() for e in CXX_EXTS}:
        return "c++"
    if ext in ASM_EXTS:
        return "asm"
    return None


# ---------------------------------------------------------------------------
# Toolchain discovery
# ---------------------------------------------------------------------------

class Toolchain:
    pass


def find_clang():
    env = os.environ.get("GMEM_CLANG")
    if env:
        if "/" in env:
            if is_exe(env):
                return env
            raise DriverError(f"GMEM_CLANG={env} is not an executable")
        found = shutil.which(env)
        if found:
            return found
        raise DriverError(f"GMEM_CLANG={env} not found on PATH")
    c = configured(CONFIGURED_CLANG)
    if c and is_exe(c):
        return c
    for name in ("clang++-19", "/usr/lib/llvm-19/bin/clang++"):
        found = shutil.which(name) if "/" not in name else (name if is_exe(name) else None)
        if found:
            return found
    raise DriverError("clang 19 not found: install clang-19 or set GMEM_CLANG to a clang++ 19 "
                      "executable")


def find_cuda(opts):
    def valid(root):
        return os.path.isfile(os.path.join(root, "include", "cuda_runtime.h"))

    if opts.cuda_path:
        if not valid(opts.cuda_path):
            raise DriverError(f"--cuda-path={opts.cuda_path} is not a CUDA installation "
                              "(no include/cuda_runtime.h)")
        return os.path.abspath(opts.cuda_path)
    for var in ("CUDA_PATH", "CUDA_HOME"):
        v = os.environ.get(var)
        if v:
            if not valid(v):
                raise DriverError(f"{var}={v} is not a CUDA installation (no include/cuda_runtime.h)")
            return os.path.abspath(v)
    if valid("/usr/local/cuda"):
        return "/usr/local/cuda"
    ptxas = shutil.which("ptxas")
    if ptxas:
        root = os.path.dirname(os.path.dirname(os.path.realpath(ptxas)))
        if valid(root):
            return root
    raise DriverError("no CUDA installation found: set CUDA_PATH or pass --cuda-path=DIR")


def cuda_tool(cuda, name):
    p = os.path.join(cuda, "bin", name)
    if is_exe(p):
        return p
    found = shutil.which(name)
    if found:
        return found
    raise DriverError(f"'{name}' not found in {cuda}/bin or on PATH (the CUDA toolkit is incomplete)")


def cuda_libdir(cuda):
    for d in ("lib64", "lib", "targets/x86_64-linux/lib"):
        p = os.path.join(cuda, d)
        if os.path.isfile(os.path.join(p, "libcudart.so")) or \
                os.path.isfile(os.path.join(p, "libcudart_static.a")):
            return p
    raise DriverError(f"libcudart not found under {cuda} (lib64, lib)")


def lib_dirs():
    """Where GmemPlugin.so and libgmemrt.so are looked for: <bin>/../lib next
    to the installed driver, the directory CMake configured, and (when run
    from the source tree as tools/gmem-clang/gmem-clang++.py) build/lib."""
    here = os.path.dirname(os.path.realpath(os.path.abspath(__file__)))
    dirs = [os.path.normpath(os.path.join(here, "..", "lib"))]
    if configured(CONFIGURED_LIBDIR):
        dirs.append(configured(CONFIGURED_LIBDIR))
    if os.path.basename(here) == "gmem-clang":
        dirs.append(os.path.normpath(os.path.join(here, "..", "..", "build", "lib")))
    out = []
    for d in dirs:
        if d not in out:
            out.append(d)
    return out


CACHE_HINTS_HEADER = "gmem_cuda_cache_hints.h"


def shipped_stub_dirs():
    """Where the driver's CUDA header stand-ins live: installed, then the
    source tree next to the script."""
    here = os.path.dirname(os.path.realpath(os.path.abspath(__file__)))
    return (os.path.join(here, "..", "share", "gmem", "cuda-stubs"), os.path.join(here, "cuda-stubs"))


def shipped_cache_hints():
    """CUDA's cache-operator intrinsics (__ldcs, __stcs, ...) that clang 19
    lacks: force-included into CUDA compiles; None if not installed."""
    for d in shipped_stub_dirs():
        p = os.path.join(d, CACHE_HINTS_HEADER)
        if os.path.isfile(p):
            return os.path.normpath(p)
    return None


def shipped_stub_dir():
    for d in shipped_stub_dirs():
        if all(os.path.isfile(os.path.join(d, h)) for h in CUDA_STUB_HEADERS):
            return os.path.normpath(d)
    return None


def find_plugin(opts):
    cands = []
    if opts.plugin:
        if not os.path.isfile(opts.plugin):
            raise DriverError(f"--gmem-plugin={opts.plugin}: no such file")
        return os.path.abspath(opts.plugin)
    env = os.environ.get("GMEM_PLUGIN")
    if env:
        if not os.path.isfile(env):
            raise DriverError(f"GMEM_PLUGIN={env}: no such file")
        return os.path.abspath(env)
    cands += [os.path.join(d, PLUGIN_LIB) for d in lib_dirs()]
    if configured(CONFIGURED_PLUGIN) and configured(CONFIGURED_PLUGIN) not in cands:
        cands.append(configured(CONFIGURED_PLUGIN))
    for c in cands:
        if os.path.isfile(c):
            return c
    raise DriverError(f"{PLUGIN_LIB} not found (looked in {', '.join(cands)}): build gmem "
                      "(cd build && make), set GMEM_PLUGIN, or pass --no-gmem")


def find_runtime(opts):
    """Path of libgmemrt.so, or None when not linking it."""
    env = os.environ.get("GMEM_RUNTIME_LIB")
    if env:
        p = os.path.join(env, RUNTIME_LIB) if os.path.isdir(env) else env
        if not os.path.isfile(p):
            raise DriverError(f"GMEM_RUNTIME_LIB={env}: no {RUNTIME_LIB} there")
        cands = [p]
    else:
        cands = [os.path.join(d, RUNTIME_LIB) for d in lib_dirs()]
    found = next((c for c in cands if os.path.isfile(c)), None)
    if opts.gmem_runtime is False:
        return None
    if opts.gmem_runtime is True and not found:
        raise DriverError(f"--gmem-runtime: {RUNTIME_LIB} not found (looked in "
                          f"{', '.join(cands)}): build runtime/ or set GMEM_RUNTIME_LIB")
    return os.path.abspath(found) if found else None


def toolchain(opts, need_device=True):
    tc = Toolchain()
    tc.clang = find_clang()
    tc.cuda = find_cuda(opts)
    tc.plugin = find_plugin(opts) if opts.use_plugin and need_device else None
    tc.ptxas = cuda_tool(tc.cuda, "ptxas") if need_device else None
    tc.fatbinary = cuda_tool(tc.cuda, "fatbinary") if need_device else None
    cccl = os.path.join(tc.cuda, "include", "cccl")
    tc.cccl = cccl if os.path.isdir(cccl) else None
    tc.stubs = [h for h in CUDA_STUB_HEADERS
                if not os.path.isfile(os.path.join(tc.cuda, "include", h))]
    return tc


# ---------------------------------------------------------------------------
# Running phases
# ---------------------------------------------------------------------------

def load_ptx_fit():
    """tools/gmem-clang/ptx_fit.py, shipped in <bin>/../share/gmem (or next
    to the script in the source tree); None when missing."""
    here = os.path.dirname(os.path.realpath(os.path.abspath(__file__)))
    for d in (os.path.join(here, "..", "share", "gmem"), here):
        if os.path.isfile(os.path.join(d, "ptx_fit.py")):
            sys.path.insert(0, os.path.normpath(d))
            try:
                import ptx_fit
                return ptx_fit
            except ImportError:
                return None
            finally:
                sys.path.pop(0)
    return None


class Runner:
    def __init__(self, opts):
        self.opts = opts

    def run(self, phase, cmd, what, env=None):
        """Run one phase; raise DriverError (with its stderr) on failure."""
        if self.opts.verbose:
            sys.stderr.write(f"{PROG}: [{phase}] {quote(cmd)}\n")
            sys.stderr.flush()
        if self.opts.dry_run:
            return
        try:
            p = subprocess.run(cmd, stdout=None, stderr=subprocess.PIPE,
                               env=env, stdin=subprocess.DEVNULL)
        except OSError as e:
            raise DriverError(f"{phase} of {what} failed: cannot run {cmd[0]}: {e.strerror}")
        err = p.stderr.decode("utf-8", "replace")
        if p.returncode != 0:
            line = first_error_line(err)
            if p.returncode < 0:
                line = f"{os.path.basename(cmd[0])} killed by signal {-p.returncode}" + \
                    (f": {line}" if line else "")
            hint = ""
            if phase.startswith("ptxas") and "Unresolved extern" in err:
                hint = (" (a __device__ symbol defined in another .cu? relocatable device "
                        "code is not supported)")
            elif phase.startswith("ptxas") and "gpu-name" in err:
                hint = " (this toolkit's ptxas does not know the arch; CUDA 13 needs sm_75+)"
            raise DriverError(f"{describe(phase)} failed for '{what}'"
                              f"{': ' + line if line else ''}{hint}", err, code=1)
        if err:
            sys.stderr.write(err)
            sys.stderr.flush()
        if CLUSTER_DIMS_IGNORED in err:
            raise DriverError(f"{describe(phase)} of '{what}': {CLUSTER_DIMS_MESSAGE}", code=1)


# clang 19 does not know CUDA's __cluster_dims__ and drops it with a
# warning: the kernel would run without its thread-block cluster, and its
# cluster barriers and distributed shared memory would act on a cluster of
# one CTA. A wrong program is worse than no program.
CLUSTER_DIMS_IGNORED = "unknown attribute 'cluster_dims' ignored"
CLUSTER_DIMS_MESSAGE = ("__cluster_dims__ is ignored by clang 19, so the kernel would run "
                        "without its thread-block cluster; build this file with nvcc, or drop "
                        "the attribute and launch with a cluster dimension "
                        "(cudaLaunchKernelEx, cudaLaunchAttributeClusterDimension)")


def describe(phase):
    """'device sm_90' -> 'device compile (sm_90)', for error messages."""
    words = phase.split()
    name = {"device": "device compile", "host": "host compile"}.get(words[0], words[0])
    return name + (f" ({words[1]})" if len(words) > 1 else "")


def lang_std_ok(flag, lang):
    """Drop -std= values that belong to the other language (mixed C/C++ builds)."""
    if not flag.startswith("-std="):
        return True
    v = flag[5:]
    is_cxx = "++" in v or v.startswith("cuda")
    return is_cxx if lang in ("c++", "cuda") else (not is_cxx if lang == "c" else True)


def device_opt(opts):
    if opts.device_debug:
        return "-O0"
    if opts.opt in ("-O1", "-O3"):
        return opts.opt
    return "-O2"


class Build:
    def __init__(self, opts, tc):
        self.opts = opts
        self.tc = tc
        self.runner = Runner(opts)
        base = os.environ.get("TMPDIR") or None
        if base and ("," in base or not os.path.isdir(base)):
            base = None  # fatbinary's --image3 lists are comma-separated
        if base is None and "," in tempfile.gettempdir():
            base = "/tmp"
        self.tmp = tempfile.mkdtemp(prefix="gmem-clang-", dir=base)
        self.counter = 0
        self.stub_flags = []
        hints = shipped_cache_hints()
        self.hint_flags = ["-include", hints] if hints else []
        if tc.stubs:
            shipped = shipped_stub_dir()
            if shipped:
                self.stub_flags = ["-idirafter", shipped]
            else:
                d = os.path.join(self.tmp, "cuda-stubs")
                os.mkdir(d)
                for h in tc.stubs:
                    with open(os.path.join(d, h), "w") as f:
                        f.write(STUB_TEXT)
                self.stub_flags = ["-isystem", d]

    def cleanup(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def tmpname(self, src, suffix):
        self.counter += 1
        stem = sanitize(os.path.splitext(os.path.basename(src))[0])
        return os.path.join(self.tmp, f"{self.counter}_{stem}{suffix}")

    # -- flag sets -----------------------------------------------------------
    def cuda_base(self):
        tc = self.tc
        f = ["-x", "cuda", "-Wno-unknown-cuda-version", f"--cuda-path={tc.cuda}"]
        f += self.stub_flags + self.hint_flags
        if tc.cccl:
            f += ["-isystem", tc.cccl]
        return f

    def user_compile_flags(self, lang):
        o = self.opts
        flags = [x for x in o.compile_flags + o.common_flags if lang_std_ok(x, lang)]
        return flags

    def cuid(self, src):
        h = hashlib.md5(os.path.realpath(src).encode())
        for f in self.opts.compile_flags:
            h.update(f.encode())
        return h.hexdigest()[:16]

    # -- phases --------------------------------------------------------------
    def device_ptx(self, src, arch, out, first):
        o, tc = self.opts, self.tc
        cmd = [tc.clang] + self.cuda_base() + ["--cuda-device-only", f"--cuda-gpu-arch={arch}",
                                                f"-cuid={self.cuid(src)}", device_opt(o)]
        if o.device_debug:
            cmd.append("-g")
        if tc.plugin:
            cmd.append(f"-fpass-plugin={tc.plugin}")
        cmd += self.user_compile_flags("cuda") + o.device_flags
        cmd += ["-S", "-o", out, src]
        env = None
        if o.report and first and tc.plugin:
            env = dict(os.environ, GMEM_REPORT=o.report if o.report == "-" else
                       os.path.abspath(o.report))
        self.runner.run(f"device {arch}", cmd, src, env=env)

    def ptxas(self, src, arch, ptx, cubin):
        o = self.opts
        self.fit_clones(src, arch, ptx)
        cmd = [self.tc.ptxas, f"-arch={arch}", "-m64"]
        if o.device_debug:
            cmd.append("-g")
        cmd += o.ptxas_flags + ["-o", cubin, ptx]
        self.runner.run(f"ptxas {arch}", cmd, src)

    def fit_clones(self, src, arch, ptx):
        """GMEM_FIT_CLONE_REGS (default twins): keeps the preemptible clones
        of those forms at their kernel's occupancy (ptx_fit.py: .maxnreg
        where ptxas gave a clone registers enough to hold fewer warps per
        SM). The PTX image in the fatbin is the fitted one."""
        o = self.opts
        fit = load_ptx_fit()
        if o.dry_run or fit is None or o.device_debug:
            return
        try:
            caps = fit.fit_clone_registers(ptx, self.tc.ptxas, arch, o.ptxas_flags)
        except ValueError as e:
            raise DriverError(str(e))
        except RuntimeError:
            return  # the ptxas run that follows reports the error
        if o.verbose:
            for name, had, cap in caps:
                sys.stderr.write(f"{PROG}: [fit {arch}] {name}: {had} registers -> .maxnreg {cap}\n")

    def fatbinary(self, src, images, out):
        cmd = [self.tc.fatbinary, f"--create={out}", "-64"]
        if self.opts.device_debug:
            cmd.append("-g")
        for arch, ptx, cubin in images:
            sm = arch[3:]
            cmd.append(f"--image3=kind=elf,sm={sm},file={cubin}")
            cmd.append(f"--image3=kind=ptx,sm={sm},file={ptx}")
        cmd += self.opts.fatbin_flags
        self.runner.run("fatbinary", cmd, src)

    def device(self, src):
        """.cu -> fatbin (in the temp dir). Returns (fatbin, [(arch, ptx, cubin)])."""
        images = []
        for k, arch in enumerate(self.opts.archs):
            ptx = self.tmpname(src, f".{arch}.ptx")
            cubin = self.tmpname(src, f".{arch}.cubin")
            self.device_ptx(src, arch, ptx, k == 0)
            self.ptxas(src, arch, ptx, cubin)
            images.append((arch, ptx, cubin))
        fatbin = self.tmpname(src, ".fatbin")
        self.fatbinary(src, images, fatbin)
        self.keep_temps(src, images, fatbin)
        return fatbin, images

    def keep_temps(self, src, images, fatbin):
        o = self.opts
        if not o.keep or o.dry_run:
            return
        d = o.keep_dir or (os.path.dirname(o.output) if o.output else "") or "."
        os.makedirs(d, exist_ok=True)
        stem = os.path.splitext(os.path.basename(src))[0]
        for arch, ptx, cubin in images:
            shutil.copyfile(ptx, os.path.join(d, f"{stem}.{arch}.ptx"))
            shutil.copyfile(cubin, os.path.join(d, f"{stem}.{arch}.cubin"))
        shutil.copyfile(fatbin, os.path.join(d, f"{stem}.fatbin"))

    def host_cuda(self, src, fatbin, out, extra):
        o, tc = self.opts, self.tc
        cmd = [tc.clang] + self.cuda_base() + ["--cuda-host-only"]
        cmd += [f"--cuda-gpu-arch={a}" for a in o.archs]
        cmd.append(f"-cuid={self.cuid(src)}")
        if o.opt:
            cmd.append(o.opt)
        cmd += self.user_compile_flags("cuda") + o.host_flags
        if fatbin:
            cmd += ["-Xclang", "-fcuda-include-gpubinary", "-Xclang", fatbin]
        cmd += extra + ([ "-o", out] if out else []) + [src]
        self.runner.run("host", cmd, src)

    def host_plain(self, src, lang, out, extra):
        o, tc = self.opts, self.tc
        xl = {"c": "c", "c++": "c++", "asm": "assembler-with-cpp"}[lang]
        cmd = [tc.clang, "-x", xl, "-isystem", os.path.join(tc.cuda, "include")]
        if o.opt:
            cmd.append(o.opt)
        cmd += self.user_compile_flags(lang) + o.host_flags + extra
        cmd += (["-o", out] if out else []) + [src]
        self.runner.run("compile", cmd, src)

    def compile_source(self, src, lang, out):
        """Compile one source to the object `out`."""
        if not self.opts.dry_run and not os.path.isfile(src):
            raise DriverError(f"{src}: no such file")
        dep = self.opts.dep_flags
        if lang == "cuda":
            fatbin, _ = self.device(src)
            self.host_cuda(src, fatbin, out, dep + ["-c"])
        else:
            self.host_plain(src, lang, out, dep + ["-c"])

    def link(self, objects, out):
        o, tc = self.opts, self.tc
        cmd = [tc.clang]
        if o.opt:
            cmd.append(o.opt)
        cmd += o.common_flags + o.link_flags + ["-o", out]
        runtime = find_runtime(o)
        if runtime:
            rdir = os.path.dirname(runtime)
            cmd += [f"-L{rdir}"] + ([f"-Wl,-rpath,{rdir}"] if o.auto_rpath else [])
            cmd += ["-Wl,--push-state,--no-as-needed", "-lgmemrt", "-Wl,--pop-state"]
        it = iter(objects)
        for kind, val in o.link_items:
            if kind == "source":
                cmd.append(next(it))
            elif kind == "input":
                cmd.append(val)
            elif kind == "xlinker":
                cmd += ["-Xlinker", val]
            else:
                cmd.append(val)
        if o.cudart != "none":
            libdir = cuda_libdir(tc.cuda)
            if o.cudart == "static":
                cmd.append(os.path.join(libdir, "libcudart_static.a"))
            else:
                cmd += [f"-L{libdir}", "-lcudart"]
                if o.auto_rpath:
                    cmd.append(f"-Wl,-rpath,{libdir}")
            cmd += ["-ldl", "-lpthread", "-lrt"]
        self.runner.run("link", cmd, out)


def print_config(opts):
    """key=value lines (read by cmake/GmemCUDA.cmake). A missing piece is
    reported as '(error: ...)' on its line, and the exit status is 1."""
    failed = False

    def get(fn):
        nonlocal failed
        try:
            return fn()
        except DriverError as e:
            failed = True
            return f"(error: {e.message})"

    cuda = get(lambda: find_cuda(opts))
    have_cuda = not cuda.startswith("(error")
    stubs = [h for h in CUDA_STUB_HEADERS
             if have_cuda and not os.path.isfile(os.path.join(cuda, "include", h))]
    lines = [
        ("version", configured(VERSION) or "source tree"),
        ("driver", os.path.realpath(os.path.abspath(__file__))),
        ("clang", get(find_clang)),
        ("cuda", cuda),
        ("ptxas", get(lambda: cuda_tool(cuda, "ptxas")) if have_cuda else "(no cuda)"),
        ("fatbinary", get(lambda: cuda_tool(cuda, "fatbinary")) if have_cuda else "(no cuda)"),
        ("cudart_libdir", get(lambda: cuda_libdir(cuda)) if have_cuda else "(no cuda)"),
        ("plugin", get(lambda: find_plugin(opts)) if opts.use_plugin else "(none: --no-gmem)"),
        ("runtime", get(lambda: find_runtime(opts)) or "(none)"),
        ("cccl", os.path.join(cuda, "include", "cccl")
         if have_cuda and os.path.isdir(os.path.join(cuda, "include", "cccl")) else "(none)"),
        ("stub_headers", " ".join(stubs) or "(none)"),
        ("stub_dir", (shipped_stub_dir() or "(temporary)") if stubs else "(none)"),
        ("archs", ",".join(opts.archs)),
    ]
    for k, v in lines:
        print(f"{k}={v}")
    return 1 if failed else 0


def drive(opts):
    if opts.print_config:
        return print_config(opts) if opts.print_config is True else 0
    sources = [(p, l) for p, l in opts.inputs if l is not None]
    if not opts.inputs:
        raise DriverError("no input files")
    for p, _ in opts.inputs:
        if not opts.dry_run and not os.path.exists(p) and not p.startswith("-"):
            raise DriverError(f"{p}: no such file")
    mode = opts.mode
    if opts.emit_asm and mode != "device":
        raise DriverError("-S is only supported with --cuda-device-only (it writes the PTX)")
    need_device = any(l == "cuda" for _, l in sources) and mode not in ("preprocess",)
    tc = toolchain(opts, need_device=need_device)
    b = Build(opts, tc)
    try:
        if mode == "preprocess":
            for src, lang in sources:
                extra = ["-E"] + opts.dep_flags
                out = opts.output if len(sources) == 1 else None
                if lang == "cuda":
                    b.host_cuda(src, None, out, extra)
                else:
                    b.host_plain(src, lang, out, extra)
            return 0
        if mode == "syntax":
            for src, lang in sources:
                if lang == "cuda":
                    for arch in opts.archs:
                        cmd = [tc.clang] + b.cuda_base() + [
                            "--cuda-device-only", f"--cuda-gpu-arch={arch}", "-fsyntax-only"]
                        cmd += b.user_compile_flags("cuda") + opts.device_flags + [src]
                        b.runner.run(f"device {arch}", cmd, src)
                    b.host_cuda(src, None, None, ["-fsyntax-only"])
                else:
                    b.host_plain(src, lang, None, ["-fsyntax-only"])
            return 0
        if mode == "device":
            cu = [s for s, l in sources if l == "cuda"]
            if not cu or len(cu) != len(opts.inputs):
                raise DriverError("--cuda-device-only takes .cu inputs only")
            if opts.output and len(cu) > 1:
                raise DriverError("cannot specify -o with --cuda-device-only and multiple files")
            if opts.emit_asm and len(opts.archs) > 1 and opts.output:
                raise DriverError("-S --cuda-device-only with -o needs a single --cuda-gpu-arch")
            for src in cu:
                stem = os.path.splitext(os.path.basename(src))[0]
                if opts.emit_asm:
                    for k, arch in enumerate(opts.archs):
                        out = opts.output or (f"{stem}.{arch}.ptx" if len(opts.archs) > 1
                                              else f"{stem}.ptx")
                        b.device_ptx(src, arch, out, k == 0)
                else:
                    fatbin, _ = b.device(src)
                    out = opts.output or f"{stem}.fatbin"
                    if not opts.dry_run:
                        shutil.copyfile(fatbin, out)
            return 0
        if mode == "compile":
            if opts.output and len(sources) > 1:
                raise DriverError("cannot specify -o when generating multiple output files")
            if not sources:
                raise DriverError("-c given but no source file to compile")
            for src, lang in sources:
                out = opts.output or (os.path.splitext(os.path.basename(src))[0] + ".o")
                b.compile_source(src, lang, out)
            return 0
        # compile + link
        objects = []
        for src, lang in sources:
            obj = b.tmpname(src, ".o")
            b.compile_source(src, lang, obj)
            objects.append(obj)
        b.link(objects, opts.output or "a.out")
        return 0
    finally:
        b.cleanup()


def main(argv):
    try:
        opts = parse_args(argv)
        return drive(opts)
    except DriverError as e:
        if e.details:
            sys.stderr.write(e.details if e.details.endswith("\n") else e.details + "\n")
        sys.stderr.write(f"{PROG}: error: {e.message}\n")
        return e.code
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
