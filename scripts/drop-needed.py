#!/usr/bin/env python3
"""Copies an x86-64/AArch64 ELF executable without the given DT_NEEDED entries (what `patchelf
--remove-needed` does), so the dynamic loader no longer loads those libraries at start-up.

    scripts/drop-needed.py IN OUT SONAME [SONAME...]

Why: SwiftPM puts a system library's pkg-config `-l` flags on the link line of every product
that depends on it, before any linker option a package could set, so `--as-needed` cannot drop
libxml2 from `gannet`, which only opens it with dlopen when it parses XML; nor the `-lstdc++`
that `--static-swift-stdlib` adds after the Swift runtime, once `gannet` links GCC's static
libstdc++.a ahead of it (docs/performance.md, "Start-up"). Refuses (exit 1) when the binary has
no such entry or still needs a symbol that only that library could give: a versioned reference
to it (`.gnu.version_r`) is refused here, and scripts/build-deb.sh checks the result with
`ldd -r`.
"""
import shutil
import struct
import sys

DT_NULL, DT_NEEDED, DT_STRTAB, DT_VERNEED, DT_VERNEEDNUM = 0, 1, 5, 0x6FFFFFFE, 0x6FFFFFFF
PT_LOAD, PT_DYNAMIC = 1, 2


def fail(message: str) -> None:
    print(f"drop-needed: {message}", file=sys.stderr)
    sys.exit(1)


def main() -> None:
    if len(sys.argv) < 4:
        fail("usage: drop-needed.py IN OUT SONAME [SONAME...]")
    source, target, sonames = sys.argv[1], sys.argv[2], [name.encode() for name in sys.argv[3:]]
    with open(source, "rb") as f:
        data = bytearray(f.read())
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        fail(f"{source} is not a little-endian 64-bit ELF file")
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    loads, dynamic = [], None
    for index in range(phnum):
        p_type, _, p_offset, p_vaddr, _, p_filesz, _, _ = struct.unpack_from("<IIQQQQQQ", data, phoff + index * phentsize)
        if p_type == PT_LOAD:
            loads.append((p_vaddr, p_offset, p_filesz))
        elif p_type == PT_DYNAMIC:
            dynamic = (p_offset, p_filesz)
    if dynamic is None:
        fail(f"{source} has no dynamic section")

    def file_offset(address: int) -> int:
        for vaddr, offset, size in loads:
            if vaddr <= address < vaddr + size:
                return offset + address - vaddr
        fail(f"address {address:#x} is in no loaded segment")
        return 0

    entries = []
    for position in range(dynamic[0], dynamic[0] + dynamic[1], 16):
        tag, value = struct.unpack_from("<qQ", data, position)
        entries.append((tag, value))
        if tag == DT_NULL:
            break
    tags = dict(entries)
    strtab = file_offset(tags[DT_STRTAB])

    def string(offset: int) -> bytes:
        start = strtab + offset
        return bytes(data[start:data.index(b"\0", start)])

    # A versioned reference to the library would be left dangling: the loader checks each
    # Verneed's file is loaded.
    if DT_VERNEED in tags:
        position = file_offset(tags[DT_VERNEED])
        for _ in range(tags.get(DT_VERNEEDNUM, 0)):
            _, _, vn_file, _, vn_next = struct.unpack_from("<HHIII", data, position)
            if string(vn_file) in sonames:
                fail(f"{source} needs versioned symbols of {string(vn_file).decode()}")
            position += vn_next
    kept = entries
    for soname in sonames:
        remaining = [(tag, value) for tag, value in kept if not (tag == DT_NEEDED and string(value) == soname)]
        if len(remaining) == len(kept):
            fail(f"{source} does not need {soname.decode()}")
        kept = remaining
    kept += [(DT_NULL, 0)] * (len(entries) - len(kept))  # the dynamic section keeps its size
    for index, (tag, value) in enumerate(kept):
        struct.pack_into("<qQ", data, dynamic[0] + index * 16, tag, value)
    with open(target, "wb") as f:
        f.write(data)
    shutil.copymode(source, target)


if __name__ == "__main__":
    main()
