//===- FatbinReader.cpp - fatbin container and ELF symbol reader
//-----------===//
//
// Fatbin layout (little-endian), as written by CUDA 13's `fatbinary`:
//   container header, 16 bytes: u32 magic 0xBA55ED50, u16 version 1,
//     u16 header size (16), u64 size of the entries that follow.
//   entry header (64 bytes for cubin, 80 for PTX): u16 kind (1 PTX, 2 ELF),
//     u16 version 0x0101, u32 header size, u64 padded payload size,
//     u32 compressed size @16, u32 @20, u16 minor/u16 major version @24,
//     u32 arch @28 (90 = sm_90), u32 name offset/length @32/@36,
//     u64 flags @40 (0x1 64-bit, 0x10 linux, 0x2000 LZ4, 0x8000 ZSTD,
//     0x100000 arch-specific: sm_90a has arch 90 and this flag),
//     u64 @48, u64 uncompressed size @56; the payload follows the header.
// Several containers may be concatenated.
//
//===----------------------------------------------------------------------===//
#include "blk/runtime/FatbinReader.h"
#include "blk/runtime/Error.h"
#include "HexString.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

namespace blk {
namespace {

constexpr uint32_t kFatbinMagic = 0xBA55ED50u;
constexpr size_t kContainerHeaderSize = 16;
constexpr size_t kMinEntryHeaderSize = 64;
constexpr uint64_t kFlagCompressedLz4 = 0x2000;
constexpr uint64_t kFlagCompressedZstd = 0x8000;
constexpr uint64_t kFlagArchSpecific = 0x100000;
constexpr const char *kManifestSymbol = "__blk_manifest";

template <class T> T load(const unsigned char *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

int hexDigit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

std::string stripTrailingNuls(std::string s) {
  while (!s.empty() && s.back() == '\0')
    s.pop_back();
  return s;
}

} // namespace

bool imageRunsOn(ImageKind kind, unsigned arch, unsigned sm,
                 bool archSpecific) {
  if (archSpecific)
    return kind != ImageKind::Other && arch == sm;
  if (kind == ImageKind::Cubin)
    return arch / 10 == sm / 10 && arch % 10 <= sm % 10;
  if (kind == ImageKind::Ptx)
    return arch != 0 && arch <= sm;
  return false;
}

FatbinReader::FatbinReader(const void *data, size_t size, std::string origin)
    : data_(static_cast<const unsigned char *>(data)), size_(size),
      origin_(std::move(origin)) {
  auto fail = [&](const std::string &what) {
    throw Error(origin_ + ": " + what);
  };
  if (!data_ || size_ < kContainerHeaderSize)
    fail("not a fatbin: " + std::to_string(size_) +
         " bytes, shorter than a fatbin header");
  size_t pos = 0;
  while (pos + kContainerHeaderSize <= size_ &&
         load<uint32_t>(data_ + pos) == kFatbinMagic) {
    uint16_t headerSize = load<uint16_t>(data_ + pos + 6);
    uint64_t bodySize = load<uint64_t>(data_ + pos + 8);
    if (headerSize < kContainerHeaderSize || headerSize > size_ - pos)
      fail("corrupt fatbin: bad container header size " +
           std::to_string(headerSize));
    size_t body = pos + headerSize;
    if (bodySize > size_ - body)
      fail("truncated fatbin: container at offset " + std::to_string(pos) +
           " declares " + std::to_string(bodySize) + " bytes, " +
           std::to_string(size_ - body) + " remain");
    size_t end = body + bodySize;
    size_t e = body;
    while (e < end) {
      if (end - e < kMinEntryHeaderSize)
        fail("truncated fatbin: entry header at offset " + std::to_string(e));
      uint16_t kind = load<uint16_t>(data_ + e);
      uint32_t entryHeader = load<uint32_t>(data_ + e + 4);
      uint64_t payloadSize = load<uint64_t>(data_ + e + 8);
      if (entryHeader < kMinEntryHeaderSize || entryHeader > end - e)
        fail("corrupt fatbin: entry at offset " + std::to_string(e) +
             " has header size " + std::to_string(entryHeader));
      if (payloadSize > end - e - entryHeader)
        fail("truncated fatbin: entry at offset " + std::to_string(e) +
             " declares " + std::to_string(payloadSize) + " bytes, " +
             std::to_string(end - e - entryHeader) + " remain");
      uint64_t flags = load<uint64_t>(data_ + e + 40);
      FatbinImage image;
      image.kind = kind == 1   ? ImageKind::Ptx
                   : kind == 2 ? ImageKind::Cubin
                               : ImageKind::Other;
      image.arch = load<uint32_t>(data_ + e + 28);
      image.offset = e + entryHeader;
      image.size = payloadSize;
      image.compressed =
          (flags & (kFlagCompressedLz4 | kFlagCompressedZstd)) != 0;
      image.archSpecific = (flags & kFlagArchSpecific) != 0;
      images_.push_back(image);
      e += entryHeader + payloadSize;
    }
    pos = end;
  }
  if (pos == 0)
    fail("not a fatbin: bad magic " + detail::hexString(load<uint32_t>(data_)) +
         " (expected " + detail::hexString(kFatbinMagic) + ")");
  if (images_.empty())
    fail("corrupt fatbin: no device images");
}

std::string_view FatbinReader::payload(const FatbinImage &image) const {
  return std::string_view(reinterpret_cast<const char *>(data_) + image.offset,
                          image.size);
}

std::string FatbinReader::describe() const {
  std::string s;
  for (const FatbinImage &image : images_) {
    if (!s.empty())
      s += ", ";
    switch (image.kind) {
    case ImageKind::Cubin:
      s += "cubin sm_" + std::to_string(image.arch);
      break;
    case ImageKind::Ptx:
      s += "PTX compute_" + std::to_string(image.arch);
      break;
    case ImageKind::Other:
      s += "unknown image (arch " + std::to_string(image.arch) + ")";
      break;
    }
    if (image.archSpecific && image.kind != ImageKind::Other)
      s += "a";
    if (image.compressed)
      s += " (compressed)";
  }
  return s;
}

bool FatbinReader::hasCodeFor(unsigned sm) const {
  for (const FatbinImage &image : images_)
    if (imageRunsOn(image.kind, image.arch, sm, image.archSpecific))
      return true;
  return false;
}

std::string FatbinReader::manifestJson() const {
  // Prefer a cubin: its symbol table is exact, the PTX scan a fallback.
  bool sawCompressed = false;
  for (ImageKind wanted : {ImageKind::Cubin, ImageKind::Ptx}) {
    for (size_t i = 0; i < images_.size(); ++i) {
      const FatbinImage &image = images_[i];
      if (image.kind != wanted)
        continue;
      if (image.compressed) {
        sawCompressed = true;
        continue;
      }
      std::string where = origin_ + ": image " + std::to_string(i);
      std::optional<std::string> bytes =
          wanted == ImageKind::Cubin
              ? readElfSymbol(payload(image), kManifestSymbol, where)
              : readPtxByteArray(payload(image), kManifestSymbol, where);
      if (bytes)
        return *bytes;
    }
  }
  std::string msg = origin_ + ": no blk manifest (symbol `" +
                    std::string(kManifestSymbol) + "`) in any image; the " +
                    "file holds " + describe();
  if (sawCompressed)
    msg += "; compressed images cannot be read: build without compression";
  throw Error(msg);
}

std::optional<std::string> readElfSymbol(std::string_view elf,
                                         std::string_view symbol,
                                         const std::string &origin) {
  auto fail = [&](const std::string &what) -> std::optional<std::string> {
    throw Error(origin + ": corrupt ELF: " + what);
  };
  const auto *p = reinterpret_cast<const unsigned char *>(elf.data());
  size_t n = elf.size();
  if (n < 64 || std::memcmp(p,
                            "\x7f"
                            "ELF",
                            4) != 0)
    return fail("bad ELF magic");
  if (p[4] != 2 || p[5] != 1)
    return fail("not a 64-bit little-endian ELF");
  uint64_t shoff = load<uint64_t>(p + 0x28);
  uint16_t shentsize = load<uint16_t>(p + 0x3A);
  uint16_t shnum = load<uint16_t>(p + 0x3C);
  if (shnum == 0)
    return std::nullopt;
  if (shentsize < 64 || shoff > n || uint64_t(shnum) * shentsize > n - shoff)
    return fail("section headers out of bounds");
  auto section = [&](unsigned i) { return p + shoff + size_t(i) * shentsize; };
  auto sectionType = [&](unsigned i) { return load<uint32_t>(section(i) + 4); };
  // The [offset, offset+size) of a section's bytes, checked to lie in the
  // file (subtraction form: no sum can wrap). A SHT_NOBITS section has no
  // bytes in the file, whatever its offset says: reading it is an error.
  // `role` names the section in messages ("" for a plain "section N").
  auto sectionBytes = [&](unsigned i, const char *role, uint64_t &off,
                          uint64_t &size) {
    const unsigned char *sh = section(i);
    off = load<uint64_t>(sh + 24);
    size = load<uint64_t>(sh + 32);
    std::string name =
        *role ? std::string(role) + " (section " + std::to_string(i) + ")"
              : "section " + std::to_string(i);
    if (sectionType(i) == 8 /*SHT_NOBITS*/)
      fail(name + " has no bytes in the file (SHT_NOBITS)");
    if (off > n || size > n - off)
      fail(name + " out of bounds");
  };
  for (unsigned s = 0; s < shnum; ++s) {
    if (sectionType(s) != 2 /*SHT_SYMTAB*/)
      continue;
    uint32_t strIndex = load<uint32_t>(section(s) + 40);
    if (strIndex >= shnum)
      return fail("symbol table links to a missing string table");
    uint64_t symOff, symSize, strOff, strSize;
    sectionBytes(s, "symbol table", symOff, symSize);
    sectionBytes(strIndex, "string table", strOff, strSize);
    for (uint64_t at = 0; at <= symSize && symSize - at >= 24; at += 24) {
      const unsigned char *sym = p + symOff + at;
      uint32_t nameOff = load<uint32_t>(sym);
      if (nameOff >= strSize)
        continue;
      const char *name = reinterpret_cast<const char *>(p + strOff + nameOff);
      size_t maxLen = strSize - nameOff;
      if (symbol.size() >= maxLen || name[symbol.size()] != '\0' ||
          std::memcmp(name, symbol.data(), symbol.size()) != 0)
        continue;
      uint16_t shndx = load<uint16_t>(sym + 6);
      uint64_t value = load<uint64_t>(sym + 8);
      uint64_t size = load<uint64_t>(sym + 16);
      if (shndx == 0 || shndx >= shnum)
        return fail("symbol `" + std::string(symbol) +
                    "` is not defined in a section");
      const unsigned char *sh = section(shndx);
      if (sectionType(shndx) == 8 /*SHT_NOBITS*/)
        throw Error(origin + ": symbol `" + std::string(symbol) +
                    "` has no initialiser");
      uint64_t secOff, secSize;
      sectionBytes(shndx, "", secOff, secSize);
      uint64_t addr = load<uint64_t>(sh + 16);
      uint64_t rel = (addr != 0 && value >= addr) ? value - addr : value;
      if (rel > secSize || size > secSize - rel)
        return fail("symbol `" + std::string(symbol) +
                    "` lies outside its section");
      return stripTrailingNuls(
          std::string(reinterpret_cast<const char *>(p + secOff + rel), size));
    }
  }
  return std::nullopt;
}

std::optional<std::string> readPtxByteArray(std::string_view ptx,
                                            std::string_view symbol,
                                            const std::string &origin) {
  auto isIdent = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           c == '$' || c == '%';
  };
  size_t pos = 0;
  while ((pos = ptx.find(symbol, pos)) != std::string_view::npos) {
    size_t at = pos;
    pos += symbol.size();
    if ((at > 0 && isIdent(ptx[at - 1])) || pos >= ptx.size() ||
        ptx[pos] != '[')
      continue;
    size_t close = ptx.find(']', pos);
    size_t brace = ptx.find('{', pos);
    size_t semi = ptx.find(';', pos);
    if (close == std::string_view::npos || brace == std::string_view::npos ||
        semi == std::string_view::npos || brace > semi)
      continue; // a use or a declaration without initialiser
    size_t end = ptx.find('}', brace);
    if (end == std::string_view::npos)
      throw Error(origin + ": unterminated initialiser of `" +
                  std::string(symbol) + "` in PTX");
    std::string bytes;
    size_t i = brace + 1;
    while (i < end) {
      char c = ptx[i];
      if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
        ++i;
        continue;
      }
      // Decimal or 0x-prefixed hexadecimal, as PTX writes byte initialisers.
      unsigned base = 10;
      if (c == '0' && i + 1 < end && (ptx[i + 1] == 'x' || ptx[i + 1] == 'X')) {
        base = 16;
        i += 2;
      }
      unsigned v = 0;
      size_t digits = 0;
      for (; i < end; ++i, ++digits) {
        int d = hexDigit(ptx[i]);
        if (d < 0 || unsigned(d) >= base)
          break;
        v = v * base + unsigned(d);
        if (v > 255)
          break;
      }
      if (digits == 0 || v > 255)
        throw Error(origin + ": bad byte in the PTX initialiser of `" +
                    std::string(symbol) + "`");
      bytes.push_back(static_cast<char>(v));
    }
    return stripTrailingNuls(std::move(bytes));
  }
  return std::nullopt;
}

std::vector<unsigned char> readBinaryFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(path + ": cannot open: " + std::strerror(errno));
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  if (in.bad())
    throw Error(path + ": read error");
  return bytes;
}

} // namespace blk
