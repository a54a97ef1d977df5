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

The code is split by responsibility into modules shipped with the script
(<bin>/../share/gmem, or next to it in the source tree): driver_common
(shared helpers), driver_options (the command line), driver_toolchain
(finding clang, CUDA, the plugin and the runtime), driver_phases (running
the phases); ptx_fit does the clones' register fit. Python 3 standard
library only.
"""

import os
import shutil
import sys

# Filled in by CMake (configure_file) when the driver is copied to
# build/bin; left as-is when the script is run from the source tree.
CONFIGURED_CLANG = "@GMEM_DRIVER_CLANG@"
CONFIGURED_PLUGIN = "@GMEM_DRIVER_PLUGIN@"
CONFIGURED_LIBDIR = "@GMEM_DRIVER_LIBDIR@"
VERSION = "@GMEM_DRIVER_VERSION@"


def driver_module_dir():
    """Where the driver's modules are: <bin>/../share/gmem, where CMake
    copies and installs them (as ptx_fit.py), or next to the script in the
    source tree."""
    here = os.path.dirname(os.path.realpath(os.path.abspath(__file__)))
    for d in (os.path.join(here, "..", "share", "gmem"), here):
        if os.path.isfile(os.path.join(d, "driver_common.py")):
            return os.path.normpath(d)
    share = os.path.normpath(os.path.join(here, "..", "share", "gmem"))
    sys.stderr.write(f"gmem-clang++: error: its modules (driver_common.py, ...) are "
                     f"missing: looked in {share} and {here}\n")
    sys.exit(1)


sys.path.insert(0, driver_module_dir())
try:
    import driver_common
    from driver_common import PROG, DriverError, configured
    from driver_options import parse_args
    from driver_phases import Build
    from driver_toolchain import (CUDA_STUB_HEADERS, cuda_libdir, cuda_tool, find_clang,
                                  find_cuda, find_plugin, find_runtime, shipped_stub_dir,
                                  toolchain)
finally:
    sys.path.pop(0)
driver_common.set_driver_script(__file__, CONFIGURED_CLANG, CONFIGURED_PLUGIN,
                                CONFIGURED_LIBDIR, VERSION)


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
