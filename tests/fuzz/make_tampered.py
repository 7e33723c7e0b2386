#!/usr/bin/env python3
"""Writes the tampered-artifact set: real blkc fatbins broken on purpose.

    make_tampered.py --out DIR A.fatbin [B.fatbin ...]

For each input it writes DIR/<stem>.<case>.fatbin, one per case below: the
container (sizes that wrap, bad header sizes), the cubin ELF (SHT_NOBITS
tables with huge offsets, `sh_offset + sh_size` and `st_value + st_size`
that wrap, `.nv.info` symbol index 0xFFFFFFFF), the manifest JSON (100000
levels of nesting, `num_warps` 4294967297 or 33 or 2^58 so that 32 x
num_warps overflows, threads != 32 x (num_warps + producer_warps),
producer_warps other than 0 or 4, negative num_stages, empty
names and names with a NUL, `kernels: []`, ...), truncations at many
offsets and seeded byte flips. DIR/expected.tsv lists `file<TAB>text`: the
readers must refuse the file with a message containing `text`, or, for `*`
(random flips, which may leave the file valid), either accept it or refuse
it cleanly. The set is the same for the same inputs (fixed seeds).
Checked by check_tampered.py (tests/fuzz/CMakeLists.txt). Standard library only.
"""
import argparse
import copy
import json
import os
import random
import struct

from artifact_format import (KIND_ELF, KIND_PTX, SH_LINK, SH_OFFSET, SH_SIZE,
                             SH_TYPE, SHT_NOBITS, ST_SHNDX, ST_SIZE, ST_VALUE,
                             Elf, read_fatbin, u16, u32, write_fatbin)

MANIFEST = "__blk_manifest"
RESOURCES = "__blk_resources"
U64_MAX = 2**64 - 1
DEPTH = 100000  # the outside trial's nesting depth


class Artifact:
    """A parsed input fatbin and its manifest; each case works on copies."""

    def __init__(self, data):
        self.data = data
        self.entries = read_fatbin(data)
        cubin = next(e for e in self.entries if e.kind == KIND_ELF)
        self.manifest_text = Elf(cubin.payload).symbol_bytes(MANIFEST).rstrip(b"\0")
        self.manifest = json.loads(self.manifest_text)

    def cubin_entries(self, edit):
        """Copies of the entries, `edit(elf)` applied to every cubin."""
        entries = copy.deepcopy(self.entries)
        for entry in entries:
            if entry.kind == KIND_ELF:
                elf = Elf(entry.payload)
                edit(elf)
                entry.payload = bytes(elf.b)
        return entries

    def with_cubins(self, edit):
        """The fatbin with `edit(elf)` applied to every cubin."""
        return write_fatbin(self.cubin_entries(edit))

    def with_manifest(self, text):
        """The fatbin whose cubins hold manifest bytes `text` instead."""
        return self.with_cubins(lambda elf: elf.replace_symbol_bytes(MANIFEST, text))

    def with_json(self, edit):
        m = copy.deepcopy(self.manifest)
        edit(m)
        return self.with_manifest(json.dumps(m).encode())


# --- the cases: name -> (build(artifact) -> bytes or None, expected text) ---

def container(at, fmt, value):
    def build(a):
        b = bytearray(a.data)
        struct.pack_into("<" + fmt, b, at, value)
        return bytes(b)
    return build


def entries_edit(edit):
    def build(a):
        entries = copy.deepcopy(a.entries)
        entries = edit(entries) or entries
        return write_fatbin(entries)
    return build


def set_flags(entries, flag):
    for e in entries:
        struct.pack_into("<Q", e.header, 40, struct.unpack_from("<Q", e.header, 40)[0] | flag)


def set_kind(entries, kind):
    for e in entries:
        struct.pack_into("<H", e.header, 0, kind)


def after_manifest(ptx, old, new):
    """`ptx` with `old` replaced by `new` from the manifest's definition on."""
    at = ptx.index(MANIFEST.encode() + b"[")
    return ptx[:at] + ptx[at:].replace(old, new, -1 if new == b" " else 1)


def ptx_only(text):
    """Only the PTX entry, its manifest initialiser replaced by `text(ptx)`."""
    def edit(entries):
        ptx = [e for e in entries if e.kind == KIND_PTX]
        for e in ptx:
            e.payload = text(e.payload)
        return ptx
    return edit


def elf(edit):
    return lambda a: a.with_cubins(edit)


def section_field(pick, field, fmt, value):
    """Sets field `field` of the section `pick(elf)` selects."""
    def edit(e):
        e.put(fmt, e.shdr(pick(e)) + field, value)
    return edit


def sections(*edits):
    def edit(e):
        for one in edits:
            one(e)
    return edit


def symbol_field(name, field, fmt, value):
    return lambda e: e.put(fmt, e.symbol(name) + field, value)


def manifest_section(e):
    return u16(e.b, e.symbol(MANIFEST) + ST_SHNDX)


def nv_info_record(e, attr):
    """File offset of the first EIFMT_SVAL record with attribute `attr`."""
    i = e.find_section(".nv.info")
    start = struct.unpack_from("<Q", e.b, e.shdr(i) + SH_OFFSET)[0]
    size = struct.unpack_from("<Q", e.b, e.shdr(i) + SH_SIZE)[0]
    at, last = start, None
    while at + 4 <= start + size:
        fmt, a, n = e.b[at], e.b[at + 1], u16(e.b, at + 2)
        if fmt == 4 and (attr is None or a == attr):
            last = at
            if attr is not None:
                return at
        at += 4 + (n if fmt == 4 else 0)
    if last is None:
        raise KeyError("no .nv.info record")
    return last


def nvinfo_symbol(e):
    e.put("I", nv_info_record(e, 0x2F) + 4, 0xFFFFFFFF)  # EIATTR_REGCOUNT


def nvinfo_size(e):
    e.put("H", nv_info_record(e, None) + 2, 0xFFFF)  # the last sized record


def shared_size(e):
    """A `.nv.shared.<entry>` section (no bytes in the file) of 8 GiB."""
    for i in range(e.shnum):
        name = e.section_name(i)
        if name.startswith(".nv.shared.") and not name.startswith(".nv.shared.reserved"):
            e.put("Q", e.shdr(i) + SH_SIZE, 2**33)
            return
    raise KeyError(".nv.shared.<entry> section")


def rename_manifest(e):
    strtab = e.shdr(e.strtab())
    e.b[struct.unpack_from("<Q", e.b, strtab + SH_OFFSET)[0] + u32(e.b, e.symbol(MANIFEST))] ^= 0x20


def spec(m):
    return m["kernels"][0]["specializations"][0]


def int_kernel(m):
    """(kernel, index) of the first kernel with a scalar integer parameter."""
    for k in m["kernels"]:
        for i, p in enumerate(k["params"]):
            if p["type"].lstrip("iu").isdigit():
                return k, i
    raise KeyError("no kernel with an integer parameter")


def set_spec(key, value):
    return lambda a: a.with_json(lambda m: spec(m).__setitem__(key, value))


def set_kernel(key, value):
    return lambda a: a.with_json(lambda m: m["kernels"][0].__setitem__(key, value))


def set_param(key, value):
    return lambda a: a.with_json(lambda m: m["kernels"][0]["params"][0].__setitem__(key, value))


def json_edit(edit):
    return lambda a: a.with_json(edit)


def raw_manifest(text):
    return lambda a: a.with_manifest(text)


def with_text(a, edit, text):
    """The manifest after `edit(m)`, its string "@TEXT@" replaced by the JSON
    text `text` (deep nesting is built as text: json.dumps recurses)."""
    m = copy.deepcopy(a.manifest)
    edit(m)
    return a.with_manifest(json.dumps(m).replace('"@TEXT@"', text).encode())


def grid_of(levels):
    """The first specialisation's grid: `levels` nested `neg` of 1."""
    text = '{"op": "neg", "args": [' * levels + '{"int": 1}' + "]}" * levels
    return lambda a: with_text(a, lambda m: spec(m).update(grid=["@TEXT@"]), text)


def deep_when(levels):
    """A value variant whose `when` class is `levels` nested arrays."""
    def edit(m):
        k, i = int_kernel(m)
        k["specialize"] = [i]
        k["specializations"][0]["variants"] = [{"entry": "tampered_v", "when": ["@TEXT@"]}]
    return lambda a: with_text(a, edit, "[" * levels + "1" + "]" * levels)


def specialize(value):
    def edit(m):
        k, i = int_kernel(m)
        k["specialize"] = value if value is not None else [i]
    return json_edit(edit)


def grid(dims):
    return set_spec("grid", dims)


def variants_alone(m):
    m["kernels"][0].pop("specialize", None)
    spec(m)["variants"] = [{"entry": "tampered_v", "when": [1]}]


CASES = {
    # The fatbin container.
    "bad-magic": (container(0, "I", 0x464C457F), "not a fatbin: bad magic"),
    "container-header-size-0": (container(6, "H", 0), "bad container header size 0"),
    "container-body-wraps": (container(8, "Q", U64_MAX), "truncated fatbin: container at offset 0 declares 18446744073709551615 bytes"),
    "container-empty": (lambda a: struct.pack("<IHHQ", 0xBA55ED50, 1, 16, 0), "corrupt fatbin: no device images"),
    "entry-header-size-huge": (container(16 + 4, "I", 0xFFFFFFFF), "corrupt fatbin: entry at offset 16 has header size 4294967295"),
    "entry-header-size-8": (container(16 + 4, "I", 8), "corrupt fatbin: entry at offset 16 has header size 8"),
    "entry-payload-wraps": (container(16 + 8, "Q", U64_MAX), "truncated fatbin: entry at offset 16 declares 18446744073709551615 bytes"),
    "entry-payload-wraps-to-0": (container(16 + 8, "Q", 2**64 - 64), "truncated fatbin: entry at offset 16 declares 18446744073709551552 bytes"),
    "all-compressed": (entries_edit(lambda es: set_flags(es, 0x2000)), "compressed images cannot be read"),
    "all-unknown-kind": (entries_edit(lambda es: set_kind(es, 7)), "no blk manifest (symbol `__blk_manifest`) in any image; the file holds unknown image"),
    "no-manifest-symbol": (lambda a: write_fatbin([e for e in a.cubin_entries(rename_manifest) if e.kind == KIND_ELF]), "no blk manifest"),
    "ptx-bad-byte": (entries_edit(ptx_only(lambda p: after_manifest(p, b"{", b"{256, "))), "bad byte in the PTX initialiser of `__blk_manifest`"),
    "ptx-unterminated": (entries_edit(ptx_only(lambda p: after_manifest(p, b"}", b" "))), "unterminated initialiser of `__blk_manifest` in PTX"),
    # The cubin ELF: tables and symbols.
    "strtab-nobits-huge-offset": (elf(sections(section_field(lambda e: e.strtab(), SH_TYPE, "I", SHT_NOBITS), section_field(lambda e: e.strtab(), SH_OFFSET, "Q", 2**63 + 12345))), "has no bytes in the file (SHT_NOBITS)"),
    # No longer SHT_SYMTAB: the manifest comes from the PTX, the resource reader finds no symbols.
    "symtab-nobits": (elf(section_field(lambda e: e.symtab(), SH_TYPE, "I", SHT_NOBITS)), ".nv.info record names symbol"),
    "strtab-offset-size-wrap": (elf(sections(section_field(lambda e: e.strtab(), SH_OFFSET, "Q", 2**64 - 16), section_field(lambda e: e.strtab(), SH_SIZE, "Q", 32))), "string table (section"),
    "symtab-offset-size-wrap": (elf(sections(section_field(lambda e: e.symtab(), SH_OFFSET, "Q", 64), section_field(lambda e: e.symtab(), SH_SIZE, "Q", 2**64 - 32))), "symbol table (section"),
    "manifest-section-wrap": (elf(sections(section_field(manifest_section, SH_OFFSET, "Q", 2**64 - 8), section_field(manifest_section, SH_SIZE, "Q", 16))), "out of bounds"),
    "manifest-section-nobits": (elf(section_field(manifest_section, SH_TYPE, "I", SHT_NOBITS)), "symbol `__blk_manifest` has no initialiser"),
    "symtab-link-missing": (elf(section_field(lambda e: e.symtab(), SH_LINK, "I", 0xFFFF)), "symbol table links to a missing string table"),
    "section-headers-wrap": (elf(lambda e: e.put("Q", 0x28, 2**64 - 64)), "section headers out of bounds"),
    "section-entsize-0": (elf(lambda e: e.put("H", 0x3A, 0)), "section headers out of bounds"),
    "symbol-value-size-wrap": (elf(sections(symbol_field(MANIFEST, ST_VALUE, "Q", 2**64 - 16), symbol_field(MANIFEST, ST_SIZE, "Q", 32))), "symbol `__blk_manifest` lies outside its section"),
    "symbol-size-huge": (elf(symbol_field(MANIFEST, ST_SIZE, "Q", U64_MAX)), "symbol `__blk_manifest` lies outside its section"),
    "symbol-no-section": (elf(symbol_field(MANIFEST, ST_SHNDX, "H", 0)), "symbol `__blk_manifest` is not defined in a section"),
    "symbol-section-past-end": (elf(symbol_field(MANIFEST, ST_SHNDX, "H", 0xFFF0)), "symbol `__blk_manifest` is not defined in a section"),
    # The cubin ELF: what only the resource reader (`blkc inspect`) reads.
    "nvinfo-symbol-ffffffff": (elf(nvinfo_symbol), ".nv.info record names symbol 4294967295, past the symbol table's"),
    "nvinfo-record-too-long": (elf(nvinfo_size), ".nv.info record runs past its section"),
    "shared-section-huge": (elf(shared_size), "declares 8589934592 bytes of shared memory"),
    "resources-symbol-wrap": (elf(sections(symbol_field(RESOURCES, ST_VALUE, "Q", 2**64 - 16), symbol_field(RESOURCES, ST_SIZE, "Q", 32))), "symbol `__blk_resources` lies outside its section"),
    # The manifest: nesting.
    "json-arrays-100k": (raw_manifest(b'{"schema": 1, "kernels": ' + b"[" * DEPTH + b"]" * DEPTH + b"}"), "the JSON is nested more than 256 levels deep"),
    "json-objects-100k": (raw_manifest(b'{"a":' * DEPTH + b"1" + b"}" * DEPTH), "the JSON is nested more than 256 levels deep"),
    "json-unclosed-100k": (raw_manifest(b"[" * DEPTH), "not valid JSON"),
    "grid-nested-100": (grid_of(100), "grid expression nested more than 64 levels deep"),
    "grid-nested-100k": (grid_of(DEPTH), "the JSON is nested more than 256 levels deep"),
    "when-nested-200": (deep_when(200), "is not 1, 16 or 0"),
    "when-nested-100k": (deep_when(DEPTH), "the JSON is nested more than 256 levels deep"),
    # The manifest: integers and launch shape.
    "num-warps-4294967297": (set_spec("num_warps", 4294967297), "num_warps: 4294967297 is not a power of two from 1 to 32"),
    "num-warps-33": (set_spec("num_warps", 33), "num_warps: 33 is not a power of two from 1 to 32"),
    "num-warps-2^58": (set_spec("num_warps", 2**58), "is not a power of two from 1 to 32"),
    "num-warps-int64-max": (set_spec("num_warps", 2**63 - 1), "is not a power of two from 1 to 32"),
    "num-warps-uint64-max": (set_spec("num_warps", U64_MAX), "18446744073709551615 is out of range (a 64-bit signed integer)"),
    "num-warps-negative": (set_spec("num_warps", -4), "num_warps: -4 is not a power of two"),
    "threads-not-32-warps": (json_edit(lambda m: spec(m).update(num_warps=4, threads=64)), "threads: 64, but num_warps 4 means 128 threads"),
    "threads-huge": (json_edit(lambda m: spec(m).update(num_warps=4, threads=4294967424)), "bad launch shape: 4294967424 threads"),
    "threads-negative": (set_spec("threads", -128), "bad launch shape: -128 threads"),
    "producer-warps-3": (json_edit(lambda m: spec(m).update(num_warps=8, producer_warps=3, threads=352)), "producer_warps: 3 is not 0 or 4"),
    "threads-without-producers": (json_edit(lambda m: spec(m).update(num_warps=8, producer_warps=4, threads=256)), "threads: 256, but num_warps 8 and producer_warps 4 mean 384 threads"),
    "num-stages-negative": (set_spec("num_stages", -1), "num_stages: -1 is out of range (1 to 2147483647)"),
    "num-stages-2^31": (set_spec("num_stages", 2**31), "num_stages: 2147483648 is out of range"),
    "shared-dynamic-2^31": (set_spec("shared_dynamic", 2**31), "bad shared memory size"),
    "shared-static-negative": (set_spec("shared_static", -1), "bad shared memory size"),
    "aligned-3": (set_param("aligned", 3), "aligned: not a power of two"),
    "multiple-of-negative": (set_param("multiple_of", -16), "multiple_of: negative"),
    "config-uint64-max": (json_edit(lambda m: spec(m).setdefault("config", {}).update(X=U64_MAX)), "is out of range (a 64-bit signed integer)"),
    "config-string": (json_edit(lambda m: spec(m).setdefault("config", {}).update(X="1")), "expected a number or boolean"),
    "schema-2": (json_edit(lambda m: m.update(schema=2)), "unsupported schema 2"),
    "schema-string": (json_edit(lambda m: m.update(schema="1")), "expected an integer"),
    # The manifest: names and lists.
    "kernels-empty": (json_edit(lambda m: m.update(kernels=[])), "kernels: expected a non-empty array"),
    "kernels-missing": (json_edit(lambda m: m.pop("kernels")), 'missing "kernels"'),
    "kernel-twice": (json_edit(lambda m: m["kernels"].append(m["kernels"][0])), "listed twice"),
    "specializations-empty": (set_kernel("specializations", []), "specializations: expected a non-empty array"),
    "kernel-name-empty": (set_kernel("name", ""), "kernels[0].name: empty name"),
    "kernel-name-nul": (set_kernel("name", "dou\0ble"), "the name holds a NUL character"),
    "entry-empty": (set_spec("entry", ""), "empty entry name"),
    "entry-nul": (json_edit(lambda m: spec(m).update(entry=spec(m)["entry"] + "\0x")), "the name holds a NUL character"),
    "param-name-nul": (set_param("name", "\0"), "the name holds a NUL character"),
    "param-type-unknown": (set_param("type", "*f33"), "unknown type `*f33`"),
    "grid-4-dims": (grid([{"int": 1}] * 4), "expected 1 to 3 expressions"),
    "grid-param-ffffffff": (grid([{"param": 0xFFFFFFFF}]), "parameter index 4294967295 out of range"),
    "grid-param-negative": (grid([{"param": -1}]), "parameter index -1 out of range"),
    "grid-op-unknown": (grid([{"op": "pow", "args": [{"int": 2}, {"int": 3}]}]), "unknown grid operator `pow`"),
    "grid-op-arity": (grid([{"op": "add", "args": [{"int": 2}]}]), "`add` takes 2 argument(s)"),
    "grid-int-uint64-max": (grid([{"int": U64_MAX}]), "is out of range (a 64-bit signed integer)"),
    "specialize-ffffffff": (specialize([0xFFFFFFFF]), "parameter index 4294967295 out of range"),
    "specialize-too-many": (specialize([0] * 100), "may be specialised"),
    "variants-without-specialize": (json_edit(variants_alone), "value variants but the kernel has no"),
    "json-invalid-utf8": (raw_manifest(b'{"schema": 1, "kernels": ["\xff\xfe"]}'), "not valid JSON"),
    "json-empty": (raw_manifest(b""), "not valid JSON"),
}


def truncations(a):
    """The fatbin cut at many offsets, and its first cubin cut with the
    container's sizes fixed up (so the ELF reader sees the short image)."""
    n = len(a.data)
    cuts = sorted({0, 1, 8, 15, 16, 17, 32, 63, 64, 79, 80, 81, n - 1} |
                  {n * i // 16 for i in range(1, 16)})
    for cut in cuts:
        yield "cut-%d" % cut, a.data[:cut], "not a fatbin" if cut < 16 else "truncated fatbin"
    cubin = next(e for e in a.entries if e.kind == KIND_ELF)
    table_end = Elf(cubin.payload).shdr(Elf(cubin.payload).shnum)
    for cut in sorted({0, 4, 63, 64, 100} | {table_end * i // 8 for i in range(1, 8)} |
                      {table_end - 64, table_end - 9}):
        entries = copy.deepcopy(a.entries)
        first = next(e for e in entries if e.kind == KIND_ELF)
        first.payload = first.payload[:cut]
        yield "cubin-cut-%d" % cut, write_fatbin(entries), "corrupt ELF"


def flips(a, count):
    """`count` copies with 1 to 8 bytes XORed at seeded random offsets."""
    for seed in range(count):
        rng = random.Random(seed)
        b = bytearray(a.data)
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] ^= rng.randrange(1, 256)
        yield "flip-%02d" % seed, bytes(b), "*"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--flips", type=int, default=16)
    parser.add_argument("fatbins", nargs="+")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    expected = []
    for path in args.fatbins:
        stem = os.path.splitext(os.path.basename(path))[0]
        with open(path, "rb") as f:
            a = Artifact(f.read())
        made = []
        for name, (build, text) in CASES.items():
            try:
                made.append((name, build(a), text))
            except KeyError as e:  # the input lacks what the case breaks
                print("make_tampered: %s: skipped %s (no %s)" % (stem, name, e))
        made += list(truncations(a)) + list(flips(a, args.flips))
        for name, data, text in made:
            file = "%s.%s.fatbin" % (stem, name)
            with open(os.path.join(args.out, file), "wb") as f:
                f.write(data)
            expected.append("%s\t%s\n" % (file, text))
    with open(os.path.join(args.out, "expected.tsv"), "w") as f:
        f.writelines(expected)
    print("make_tampered: %d files in %s" % (len(expected), args.out))


if __name__ == "__main__":
    main()
