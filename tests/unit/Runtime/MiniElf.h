//===- MiniElf.h - a small hand-made cubin-shaped ELF for reader tests ----===//
//
// Builds a valid 64-bit little-endian ELF with the sections the artifact
// readers look at, so that tests can patch single fields (offsets, sizes,
// types, symbol values) and check the readers refuse them cleanly. Needs no
// CUDA toolkit. Used by tests/unit/Runtime and tests/unit/Target.
//
// Layout: ELF header, section data (8-byte aligned), section headers.
//   sections: 0 null, 1 .shstrtab, 2 .strtab, 3 .symtab (link 2),
//             4 .nv.global.init (manifest bytes, then resource bytes),
//             5 .nv.info (one EIATTR_REGCOUNT record per entry in `regcounts`)
//   symbols:  0 null, 1 __blk_manifest, 2 __blk_resources, 3 k (function)
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace blk::test {

struct MiniElf {
  enum : unsigned {
    kShstrtab = 1,
    kStrtab = 2,
    kSymtab = 3,
    kData = 4,
    kNvInfo = 5,
    kNumSections = 6
  };
  enum : unsigned { kSymManifest = 1, kSymResources = 2, kSymKernel = 3 };

  std::vector<unsigned char> bytes;
  uint64_t shoff = 0;
  uint64_t symtabOffset = 0;
  uint64_t nvInfoOffset = 0;

  /// File offset of section header `i` and of the fields inside it.
  size_t shdr(unsigned i) const { return size_t(shoff) + 64 * i; }
  size_t shType(unsigned i) const { return shdr(i) + 4; }
  size_t shAddr(unsigned i) const { return shdr(i) + 16; }
  size_t shOffset(unsigned i) const { return shdr(i) + 24; }
  size_t shSize(unsigned i) const { return shdr(i) + 32; }
  /// File offset of symbol `i` and of its fields.
  size_t sym(unsigned i) const { return size_t(symtabOffset) + 24 * i; }
  size_t symShndx(unsigned i) const { return sym(i) + 6; }
  size_t symValue(unsigned i) const { return sym(i) + 8; }
  size_t symSize(unsigned i) const { return sym(i) + 16; }

  template <class T> void put(size_t at, T v) {
    std::memcpy(bytes.data() + at, &v, sizeof(T));
  }
  template <class T> T get(size_t at) const {
    T v;
    std::memcpy(&v, bytes.data() + at, sizeof(T));
    return v;
  }
  std::string_view view() const {
    return {reinterpret_cast<const char *>(bytes.data()), bytes.size()};
  }
};

/// A MiniElf holding `manifest` as __blk_manifest, `resources` as
/// __blk_resources, and a `.nv.info` REGCOUNT record {symbol, value} for
/// each pair in `regcounts`.
inline MiniElf
makeMiniElf(const std::string &manifest, const std::string &resources = "",
            std::vector<std::pair<uint32_t, uint32_t>> regcounts = {
                {MiniElf::kSymKernel, 40}}) {
  MiniElf e;
  std::vector<unsigned char> &b = e.bytes;
  b.assign(64, 0);
  auto align = [&] {
    while (b.size() % 8)
      b.push_back(0);
  };
  auto append = [&](const void *p, size_t n) {
    const auto *c = static_cast<const unsigned char *>(p);
    b.insert(b.end(), c, c + n);
  };
  auto appendU = [&](uint64_t v, size_t n) { append(&v, n); };

  // String tables: names are offsets into these.
  static const char shstrText[] = "\0.shstrtab\0.strtab\0.symtab\0"
                                  ".nv.global.init\0.nv.info";
  const std::string shstr(shstrText, sizeof shstrText); // ends in a NUL
  const uint32_t shName[MiniElf::kNumSections] = {0, 1, 11, 19, 27, 43};
  static const char strText[] = "\0__blk_manifest\0__blk_resources\0k";
  const std::string str(strText, sizeof strText);
  const uint32_t symName[4] = {0, 1, 16, 32};

  struct Range {
    uint64_t off = 0, size = 0;
  } range[MiniElf::kNumSections];
  auto section = [&](unsigned i, const void *p, size_t n) {
    align();
    range[i] = {b.size(), n};
    append(p, n);
  };
  section(MiniElf::kShstrtab, shstr.data(), shstr.size());
  section(MiniElf::kStrtab, str.data(), str.size());

  std::vector<unsigned char> syms(24 * 4, 0);
  auto setSym = [&](unsigned i, uint8_t info, uint16_t shndx, uint64_t value,
                    uint64_t size) {
    unsigned char *s = syms.data() + 24 * i;
    std::memcpy(s, &symName[i], 4);
    s[4] = info;
    std::memcpy(s + 6, &shndx, 2);
    std::memcpy(s + 8, &value, 8);
    std::memcpy(s + 16, &size, 8);
  };
  setSym(1, 0x11 /*GLOBAL OBJECT*/, MiniElf::kData, 0, manifest.size());
  setSym(2, 0x11, MiniElf::kData, manifest.size(), resources.size());
  setSym(3, 0x12 /*GLOBAL FUNC*/, MiniElf::kData, 0, 0);
  section(MiniElf::kSymtab, syms.data(), syms.size());
  e.symtabOffset = range[MiniElf::kSymtab].off;

  std::string data = manifest + resources;
  section(MiniElf::kData, data.data(), data.size());

  std::vector<unsigned char> info;
  for (auto [symbol, value] : regcounts) {
    unsigned char rec[12] = {0x04, 0x2f, 8, 0};
    std::memcpy(rec + 4, &symbol, 4);
    std::memcpy(rec + 8, &value, 4);
    info.insert(info.end(), rec, rec + 12);
  }
  section(MiniElf::kNvInfo, info.data(), info.size());
  e.nvInfoOffset = range[MiniElf::kNvInfo].off;

  align();
  e.shoff = b.size();
  const uint32_t types[MiniElf::kNumSections] = {0, 3, 3, 2, 1, 0x70000000};
  for (unsigned i = 0; i < MiniElf::kNumSections; ++i) {
    appendU(shName[i], 4);
    appendU(types[i], 4);
    appendU(0, 8);             // flags
    appendU(0, 8);             // addr
    appendU(range[i].off, 8);  // offset
    appendU(range[i].size, 8); // size
    appendU(i == MiniElf::kSymtab ? unsigned(MiniElf::kStrtab) : 0u, 4); // link
    appendU(i == MiniElf::kSymtab ? 1 : 0, 4);                           // info
    appendU(i == 0 ? 0 : 1, 8);                 // addralign
    appendU(i == MiniElf::kSymtab ? 24 : 0, 8); // entsize
  }

  // ELF header.
  const unsigned char ident[16] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33, 7};
  std::memcpy(b.data(), ident, 16);
  e.put<uint16_t>(16, 2);   // ET_EXEC
  e.put<uint16_t>(18, 190); // EM_CUDA
  e.put<uint32_t>(20, 1);
  e.put<uint64_t>(40, e.shoff);
  e.put<uint16_t>(52, 64); // ehsize
  e.put<uint16_t>(58, 64); // shentsize
  e.put<uint16_t>(60, MiniElf::kNumSections);
  e.put<uint16_t>(62, MiniElf::kShstrtab);
  return e;
}

} // namespace blk::test
