//===- CubinInfo.cpp - Resource usage read back from a cubin -------------===//
//
// `.nv.info` holds records `{u8 format, u8 attribute, u16 value-or-size}`;
// format 4 (EIFMT_SVAL) is followed by `size` payload bytes, the others are
// the 4 bytes alone. Per-function attributes carry `{u32 symbol, u32 value}`.
// Attribute numbers checked against `ptxas -v` output (tests/unit/Target).
//
//===----------------------------------------------------------------------===//
#include "blk/Target/CubinInfo.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Object/ELF.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Endian.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace blk::target {

namespace {
constexpr uint8_t kFormatSizedValue = 0x04; // EIFMT_SVAL
constexpr uint8_t kAttrFrameSize = 0x11;    // EIATTR_FRAME_SIZE
constexpr uint8_t kAttrRegCount = 0x2f;     // EIATTR_REGCOUNT
} // namespace

static llvm::Expected<llvm::object::ELF64LEFile> openElf(llvm::ArrayRef<uint8_t> cubin) {
  llvm::StringRef data(reinterpret_cast<const char *>(cubin.data()), cubin.size());
  if (cubin.size() < 4 || !data.starts_with("\x7f" "ELF"))
    return llvm::createStringError("not an ELF image");
  return llvm::object::ELF64LEFile::create(data);
}

/// The file range [offset, offset + size) of global `symbol`'s initial bytes;
/// nullopt when the ELF has no such symbol.
static llvm::Expected<std::optional<std::pair<uint64_t, uint64_t>>>
findSymbolBytes(const llvm::object::ELF64LEFile &elf, llvm::StringRef symbol) {
  auto sections = elf.sections();
  if (!sections)
    return sections.takeError();
  for (const auto &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_SYMTAB)
      continue;
    auto symbols = elf.symbols(&section);
    if (!symbols)
      return symbols.takeError();
    auto strings = elf.getStringTableForSymtab(section);
    if (!strings)
      return strings.takeError();
    for (const auto &sym : *symbols) {
      auto name = sym.getName(*strings);
      if (!name || *name != symbol)
        continue;
      if (sym.st_shndx == 0 || sym.st_shndx >= sections->size())
        return llvm::createStringError("symbol `" + symbol.str() + "` has no section");
      const auto &home = (*sections)[sym.st_shndx];
      // Subtraction form: no sum of two file-controlled values can wrap.
      uint64_t fileSize = elf.getBufSize();
      uint64_t offset = home.sh_offset, size = home.sh_size;
      uint64_t value = sym.st_value, length = sym.st_size;
      if (home.sh_type == llvm::ELF::SHT_NOBITS || offset > fileSize ||
          size > fileSize - offset || value > size || length > size - value)
        return llvm::createStringError("symbol `" + symbol.str() + "` lies outside its section");
      return std::optional(std::make_pair(uint64_t(home.sh_offset + sym.st_value),
                                          uint64_t(sym.st_size)));
    }
  }
  return std::nullopt;
}

llvm::Error patchElfSymbol(llvm::MutableArrayRef<uint8_t> image, llvm::StringRef symbol,
                           llvm::StringRef bytes) {
  auto elf = openElf(image);
  if (!elf)
    return elf.takeError();
  auto range = findSymbolBytes(*elf, symbol);
  if (!range)
    return range.takeError();
  if (!*range)
    return llvm::createStringError("the cubin has no symbol `" + symbol.str() + "`");
  if ((*range)->second != bytes.size())
    return llvm::createStringError("symbol `" + symbol.str() + "` has " +
                                   std::to_string((*range)->second) + " bytes, not " +
                                   std::to_string(bytes.size()));
  std::copy(bytes.begin(), bytes.end(), image.begin() + (*range)->first);
  return llvm::Error::success();
}

std::string formatResourceTable(llvm::ArrayRef<EntryResources> entries) {
  std::string text;
  for (const EntryResources &entry : entries) {
    text += entry.entry;
    for (unsigned value : {entry.registers, entry.stackFrame, entry.spillStores,
                           entry.spillLoads, entry.sharedBytes, entry.barriers}) {
      std::string digits = std::to_string(value);
      text += " " + std::string(10 - std::min<size_t>(digits.size(), 10), '0') + digits;
    }
    text += "\n";
  }
  return text;
}

std::vector<EntryResources> parseResourceTable(llvm::StringRef text) {
  std::vector<EntryResources> entries;
  llvm::SmallVector<llvm::StringRef> lines, fields;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    fields.clear();
    line.split(fields, ' ');
    if (fields.size() != 7)
      continue;
    EntryResources entry;
    entry.entry = fields[0].str();
    unsigned *values[] = {&entry.registers, &entry.stackFrame, &entry.spillStores,
                          &entry.spillLoads, &entry.sharedBytes, &entry.barriers};
    bool ok = true;
    for (size_t i = 0; i < 6; ++i)
      ok &= !fields[i + 1].getAsInteger(10, *values[i]);
    if (!ok)
      continue;
    entry.spillsKnown = true;
    entries.push_back(std::move(entry));
  }
  return entries;
}

llvm::Expected<std::vector<EntryResources>> readCubinResources(llvm::ArrayRef<uint8_t> cubin) {
  auto elf = openElf(cubin);
  if (!elf)
    return elf.takeError();
  auto sections = elf->sections();
  if (!sections)
    return sections.takeError();

  // Symbol index -> name, from the first symbol table (a cubin has one). A
  // vector, not a map keyed by the file's index: every index is checked.
  std::vector<std::string> symbolNames;
  for (const auto &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_SYMTAB)
      continue;
    auto symbols = elf->symbols(&section);
    if (!symbols)
      return symbols.takeError();
    auto strings = elf->getStringTableForSymtab(section);
    if (!strings)
      return strings.takeError();
    for (size_t i = 0; i < symbols->size(); ++i) {
      auto name = (*symbols)[i].getName(*strings);
      if (!name)
        return name.takeError();
      symbolNames.push_back(name->str());
    }
    break;
  }

  std::vector<EntryResources> entries;
  auto entryFor = [&](llvm::StringRef name) -> EntryResources & {
    for (EntryResources &entry : entries)
      if (entry.entry == name)
        return entry;
    entries.push_back({});
    entries.back().entry = name.str();
    return entries.back();
  };

  llvm::StringMap<unsigned> sharedBySection;
  for (const auto &section : *sections) {
    auto name = elf->getSectionName(section);
    if (!name)
      return name.takeError();
    if (name->starts_with(".nv.shared.") && !name->starts_with(".nv.shared.reserved")) {
      if (section.sh_size > std::numeric_limits<unsigned>::max())
        return llvm::createStringError("section `" + name->str() + "` declares " +
                                       std::to_string(section.sh_size) +
                                       " bytes of shared memory");
      sharedBySection[name->drop_front(strlen(".nv.shared."))] = unsigned(section.sh_size);
    }
    if (*name != ".nv.info")
      continue;
    auto contents = elf->getSectionContents(section);
    if (!contents)
      return contents.takeError();
    llvm::ArrayRef<uint8_t> bytes = *contents;
    for (size_t at = 0; at + 4 <= bytes.size();) {
      uint8_t format = bytes[at], attr = bytes[at + 1];
      uint16_t size = llvm::support::endian::read16le(&bytes[at + 2]);
      at += 4;
      if (format != kFormatSizedValue)
        continue;
      if (size > bytes.size() - at)
        return llvm::createStringError(".nv.info record runs past its section");
      if (size == 8 && (attr == kAttrRegCount || attr == kAttrFrameSize)) {
        uint32_t symbol = llvm::support::endian::read32le(&bytes[at]);
        uint32_t value = llvm::support::endian::read32le(&bytes[at + 4]);
        if (symbol >= symbolNames.size())
          return llvm::createStringError(".nv.info record names symbol " + std::to_string(symbol) +
                                         ", past the symbol table's " +
                                         std::to_string(symbolNames.size()) + " symbols");
        EntryResources &entry = entryFor(symbolNames[symbol]);
        (attr == kAttrRegCount ? entry.registers : entry.stackFrame) = value;
      }
      at += size;
    }
  }
  for (EntryResources &entry : entries)
    entry.sharedBytes = sharedBySection.lookup(entry.entry);

  // ptxas's own report, when blkc stored it: exact, spills included.
  auto range = findSymbolBytes(*elf, kResourceSymbol);
  if (!range)
    return range.takeError();
  if (*range) {
    llvm::StringRef text(reinterpret_cast<const char *>(cubin.data()) + (*range)->first,
                         (*range)->second);
    for (EntryResources &reported : parseResourceTable(text))
      entryFor(reported.entry) = reported;
  }
  return entries;
}

} // namespace blk::target
