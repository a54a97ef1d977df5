#!/usr/bin/env python3
"""List the CUDA fat binaries embedded in an ELF file (or a raw .fatbin).

    fatbin_list.py FILE                 one line per image: "ELF sm_90 ..." / "PTX sm_90 ..."
    fatbin_list.py --ptx FILE           the text of every PTX image
    fatbin_list.py --elf-symbols FILE   the symbol names of every ELF (cubin) image

A stand-in for `cuobjdump --list-elf --list-ptx` (cuobjdump is not part of
every CUDA install) used by test/driver. Reads the `.nv_fatbin` section of a
host ELF (executable, shared library or object), or a file that starts with
the fatbin magic. Compressed PTX (CUDA 13's fatbinary compresses PTX with
zstd by default) is decoded with the `zstd` command when it exists.

Layout (reverse-engineered, stable since CUDA 9): a container header
{u32 magic 0xBA55ED50, u16 version, u16 header size, u64 payload size}
followed by entries {u16 kind (1 PTX, 2 ELF), u16 version, u32 header size,
u64 padded payload size, u32 compressed size, u32 -, u32 PTX version
(major << 16 | minor), u32 sm, ..., u64 flags @40, ..., u64 uncompressed
size @56}. Flags: 0x2000 LZ4-style compression, 0x8000 zstd.

Python 3 standard library only (plus the zstd command, if available).
"""

import shutil
import signal
import struct
import subprocess
import sys

MAGIC = 0xBA55ED50


def elf_sections(data):
    """{name: (offset, size)} of a 64-bit little-endian ELF file."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    secs = []
    for i in range(shnum):
        name, typ, flags, addr, off, size = struct.unpack_from(
            "<IIQQQQ", data, shoff + i * shentsize)
        secs.append((name, typ, off, size))
    stroff = secs[shstrndx][2]
    out = {}
    for name, typ, off, size in secs:
        end = data.index(b"\0", stroff + name)
        out[data[stroff + name:end].decode()] = (off, size, typ)
    return out


def elf_symbols(data):
    secs = elf_sections(data)
    if not secs or ".symtab" not in secs or ".strtab" not in secs:
        return []
    off, size, _ = secs[".symtab"]
    stroff = secs[".strtab"][0]
    names = []
    for k in range(size // 24):
        st_name = struct.unpack_from("<I", data, off + k * 24)[0]
        if st_name:
            end = data.index(b"\0", stroff + st_name)
            names.append(data[stroff + st_name:end].decode("utf-8", "replace"))
    return names


def containers(data):
    """Fatbin blobs in FILE: the .nv_fatbin section(s), or the file itself."""
    secs = elf_sections(data)
    if secs is None:
        return [data]
    blobs = []
    for name, (off, size, typ) in secs.items():
        if name.startswith(".nv_fatbin") or name == "__nv_relfatbin":
            if typ != 8:  # not SHT_NOBITS
                blobs.append(data[off:off + size])
    return blobs


def entries(blob):
    pos = 0
    while pos + 16 <= len(blob):
        magic, ver, hsize, fsize = struct.unpack_from("<IHHQ", blob, pos)
        if magic != MAGIC:
            pos += 8  # padding between containers
            continue
        e = pos + hsize
        end = pos + hsize + fsize
        while e + 16 <= end:
            kind, ever, ehs, padded = struct.unpack_from("<HHIQ", blob, e)
            comp_size, _, ptxver, sm = struct.unpack_from("<IIII", blob, e + 16)
            flags = struct.unpack_from("<Q", blob, e + 40)[0]
            raw_size = struct.unpack_from("<Q", blob, e + 56)[0] if ehs >= 64 else 0
            payload = blob[e + ehs:e + ehs + padded]
            yield {"kind": {1: "PTX", 2: "ELF"}.get(kind, f"kind{kind}"), "sm": sm,
                   "ptxver": ptxver, "flags": flags, "payload": payload,
                   "comp_size": comp_size, "raw_size": raw_size}
            e += ehs + padded
        pos = end


def decode(entry):
    """The uncompressed payload, or None when it cannot be decoded here."""
    p, fl = entry["payload"], entry["flags"]
    if fl & 0x8000:
        data = p[:entry["comp_size"]] if entry["comp_size"] else p
        if not shutil.which("zstd"):
            return None
        r = subprocess.run(["zstd", "-dc"], input=data, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
        return r.stdout if r.returncode == 0 else None
    if fl & 0x2000:
        return None
    return p


def main(argv):
    mode = "list"
    files = []
    for a in argv:
        if a == "--ptx":
            mode = "ptx"
        elif a == "--elf-symbols":
            mode = "syms"
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            files.append(a)
    if len(files) != 1:
        print("usage: fatbin_list.py [--ptx|--elf-symbols] FILE", file=sys.stderr)
        return 2
    try:
        with open(files[0], "rb") as f:
            data = f.read()
    except OSError as e:
        print(f"fatbin_list.py: {files[0]}: {e.strerror}", file=sys.stderr)
        return 1
    found = 0
    for blob in containers(data):
        for ent in entries(blob):
            found += 1
            if mode == "list":
                extra = ""
                if ent["kind"] == "PTX":
                    extra = f" ptx {ent['ptxver'] >> 16}.{ent['ptxver'] & 0xFFFF}"
                comp = "zstd" if ent["flags"] & 0x8000 else \
                    "lz4" if ent["flags"] & 0x2000 else "uncompressed"
                print(f"{ent['kind']} sm_{ent['sm']}{extra} {comp} {len(ent['payload'])} bytes")
            elif mode == "ptx" and ent["kind"] == "PTX":
                text = decode(ent)
                if text is None:
                    print(f"fatbin_list.py: cannot decode a compressed PTX image (sm_{ent['sm']})",
                          file=sys.stderr)
                    return 3
                sys.stdout.write(text.rstrip(b"\0").decode("utf-8", "replace"))
            elif mode == "syms" and ent["kind"] == "ELF":
                for s in elf_symbols(ent["payload"]):
                    print(s)
    if not found:
        print(f"fatbin_list.py: no fat binary in {files[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| grep -q`
    sys.exit(main(sys.argv[1:]))
