"""Read and rewrite blk artifacts (docs/manifest.md) for the tampered set.

The layouts follow runtime/src/FatbinReader.cpp: a fatbin is containers of
entries (an entry header, then its payload: a cubin ELF or PTX text); a cubin
holds the manifest JSON as the initial bytes of symbol `__blk_manifest`.
Standard library only. Used by make_tampered.py (tests/fuzz/CMakeLists.txt).
"""
import struct

FATBIN_MAGIC = 0xBA55ED50
KIND_PTX, KIND_ELF = 1, 2
SHT_PROGBITS, SHT_SYMTAB, SHT_NOBITS = 1, 2, 8
SHDR_SIZE, SYM_SIZE = 64, 24
# Byte offsets of fields in an Elf64_Shdr and an Elf64_Sym.
SH_TYPE, SH_ADDR, SH_OFFSET, SH_SIZE, SH_LINK = 4, 16, 24, 32, 40
ST_SHNDX, ST_VALUE, ST_SIZE = 6, 8, 16


def u16(b, at):
    return struct.unpack_from("<H", b, at)[0]


def u32(b, at):
    return struct.unpack_from("<I", b, at)[0]


def u64(b, at):
    return struct.unpack_from("<Q", b, at)[0]


def pad8(b):
    return bytes(b) + b"\0" * (-len(b) % 8)


class Entry:
    """One fatbin entry: its header bytes (kept as written) and payload."""

    def __init__(self, header, payload):
        self.header = bytearray(header)
        self.payload = bytes(payload)

    @property
    def kind(self):
        return u16(self.header, 0)


def read_fatbin(data):
    """The entries of every container of `data` (must be a valid fatbin)."""
    entries, pos = [], 0
    while pos + 16 <= len(data) and u32(data, pos) == FATBIN_MAGIC:
        header_size, body = u16(data, pos + 6), u64(data, pos + 8)
        e, end = pos + header_size, pos + header_size + body
        while e < end:
            entry_header, size = u32(data, e + 4), u64(data, e + 8)
            start = e + entry_header
            entries.append(Entry(data[e:start], data[start:start + size]))
            e = start + size
        pos = end
    if not entries:
        raise ValueError("not a fatbin with entries")
    return entries


def write_fatbin(entries):
    """One container holding `entries`, payload sizes set from the bytes."""
    body = b""
    for entry in entries:
        payload = pad8(entry.payload)
        header = bytearray(entry.header)
        struct.pack_into("<Q", header, 8, len(payload))
        body += bytes(header) + payload
    return struct.pack("<IHHQ", FATBIN_MAGIC, 1, 16, len(body)) + body


class Elf:
    """A 64-bit little-endian ELF held as a bytearray, patched in place."""

    def __init__(self, data):
        self.b = bytearray(data)

    @property
    def shoff(self):
        return u64(self.b, 0x28)

    @property
    def shnum(self):
        return u16(self.b, 0x3C)

    def shdr(self, i):
        """File offset of section header `i`."""
        return self.shoff + SHDR_SIZE * i

    def section_bytes(self, i):
        at = self.shdr(i)
        off, size = u64(self.b, at + SH_OFFSET), u64(self.b, at + SH_SIZE)
        return self.b[off:off + size]

    def section_name(self, i):
        names = self.section_bytes(u16(self.b, 0x3E))
        at = u32(self.b, self.shdr(i))
        return names[at:names.index(b"\0", at)].decode()

    def find_section(self, name=None, type_=None):
        """Index of the first section with this name and/or type."""
        for i in range(self.shnum):
            if type_ is not None and u32(self.b, self.shdr(i) + SH_TYPE) != type_:
                continue
            if name is None or self.section_name(i) == name:
                return i
        raise KeyError(name or type_)

    def symtab(self):
        return self.find_section(type_=SHT_SYMTAB)

    def strtab(self):
        return u32(self.b, self.shdr(self.symtab()) + SH_LINK)

    def symbol(self, name):
        """File offset of the Elf64_Sym named `name`."""
        s = self.symtab()
        off, size = u64(self.b, self.shdr(s) + SH_OFFSET), u64(self.b, self.shdr(s) + SH_SIZE)
        strings = self.section_bytes(self.strtab())
        for at in range(off, off + size, SYM_SIZE):
            n = u32(self.b, at)
            if strings[n:strings.index(b"\0", n)] == name.encode():
                return at
        raise KeyError(name)

    def put(self, fmt, at, value):
        struct.pack_into("<" + fmt, self.b, at, value)

    def symbol_bytes(self, name):
        sym = self.symbol(name)
        home = self.shdr(u16(self.b, sym + ST_SHNDX))
        start = u64(self.b, home + SH_OFFSET) + u64(self.b, sym + ST_VALUE)
        return bytes(self.b[start:start + u64(self.b, sym + ST_SIZE)])

    def replace_symbol_bytes(self, name, data):
        """Points symbol `name` at `data`, in a new PROGBITS section appended
        with a copy of the section header table, so any length fits."""
        sym = self.symbol(name)
        home = u16(self.b, sym + ST_SHNDX)
        table = bytes(self.b[self.shoff:self.shoff + SHDR_SIZE * self.shnum])
        new_header = bytearray(self.b[self.shdr(home):self.shdr(home) + SHDR_SIZE])
        out = bytearray(pad8(self.b))
        data_off = len(out)
        out += pad8(data)
        struct.pack_into("<IQQQQ", new_header, 4, SHT_PROGBITS, 0, 0, data_off, len(data))
        new_shoff = len(out)
        out += table + new_header
        struct.pack_into("<Q", out, 0x28, new_shoff)
        struct.pack_into("<H", out, 0x3C, self.shnum + 1)
        index = self.shnum
        self.b = out
        self.put("H", sym + ST_SHNDX, index)
        self.put("Q", sym + ST_VALUE, 0)
        self.put("Q", sym + ST_SIZE, len(data))

