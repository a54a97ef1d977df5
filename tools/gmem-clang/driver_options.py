"""gmem-clang++'s command line: the option tables, --help, and parse_args.

Part of the gmem-clang++ driver (gmem-clang++.py; docs/DRIVER.md).
"""

import os
import re
import sys

import driver_common as common
from driver_common import DriverError, configured

DEFAULT_ARCH = "sm_90"

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
            print(f"gmem-clang++ (gmem {configured(common.VERSION) or 'source tree'})")
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
