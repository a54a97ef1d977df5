"""gmem-clang++'s toolchain discovery: clang 19, the CUDA toolkit, gmem's
plugin and runtime library, and the CUDA header stand-ins shipped with the
driver.

Part of the gmem-clang++ driver (gmem-clang++.py; docs/DRIVER.md).
"""

import os
import shutil

import driver_common as common
from driver_common import DriverError, configured, is_exe

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
    c = configured(common.CONFIGURED_CLANG)
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
    here = os.path.dirname(os.path.realpath(os.path.abspath(common.DRIVER_FILE)))
    dirs = [os.path.normpath(os.path.join(here, "..", "lib"))]
    if configured(common.CONFIGURED_LIBDIR):
        dirs.append(configured(common.CONFIGURED_LIBDIR))
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
    here = os.path.dirname(os.path.realpath(os.path.abspath(common.DRIVER_FILE)))
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
    if configured(common.CONFIGURED_PLUGIN) and configured(common.CONFIGURED_PLUGIN) not in cands:
        cands.append(configured(common.CONFIGURED_PLUGIN))
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

