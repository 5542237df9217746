"""Compression bombs: small bodies that inflate to 200 MiB of zeros, one per Content-Encoding."""

from __future__ import annotations

import struct
import zlib

INFLATED_SIZE = 200 * 1024 * 1024
_ZEROS = bytes(1024 * 1024)


class Bombs:
    """Built once (about a second of CPU, off the event loop) and served from memory."""

    def __init__(self) -> None:
        raw = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate, wrapped below two ways
        body = b"".join(raw.compress(_ZEROS) for _ in range(INFLATED_SIZE // len(_ZEROS))) + raw.flush()
        crc, adler = 0, 1
        for _ in range(INFLATED_SIZE // len(_ZEROS)):
            crc = zlib.crc32(_ZEROS, crc)
            adler = zlib.adler32(_ZEROS, adler)
        size = struct.pack("<I", INFLATED_SIZE & 0xFFFFFFFF)
        # RFC 1952 member: magic, deflate, no flags, no mtime, max compression, unknown OS.
        self.gzip = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + body + struct.pack("<I", crc) + size
        # RFC 1950 stream: what HTTP's "deflate" coding means.
        self.deflate = b"\x78\xda" + body + struct.pack(">I", adler)
        # gzip of the gzip bomb: two layers, for "Content-Encoding: gzip, gzip".
        self.stacked_gzip = zlib.compress(self.gzip, 9, wbits=31)
        try:
            import brotli
        except ImportError:
            self.brotli = None
        else:
            compressor = brotli.Compressor(quality=5)
            self.brotli = b"".join(compressor.process(_ZEROS) for _ in range(INFLATED_SIZE // len(_ZEROS)))
            self.brotli += compressor.finish()
