"""gmem-clang++'s phases: the device compile, ptxas (after the clones'
register fit), fatbinary, the host compile and the link, each run as a
separate command (the driver script's docstring says why).

Part of the gmem-clang++ driver (gmem-clang++.py; docs/DRIVER.md).
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

import driver_common as common
from driver_common import PROG, DriverError, first_error_line, quote, sanitize
from driver_toolchain import (STUB_TEXT, cuda_libdir, find_runtime, shipped_cache_hints,
                              shipped_stub_dir)

def load_ptx_fit():
    """tools/gmem-clang/ptx_fit.py, shipped in <bin>/../share/gmem (or next
    to the script in the source tree); None when missing."""
    here = os.path.dirname(os.path.realpath(os.path.abspath(common.DRIVER_FILE)))
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

