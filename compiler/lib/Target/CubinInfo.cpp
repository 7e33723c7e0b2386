//===- CubinInfo.cpp - Resource usage read back from a cubin -------------===//
//
// `.nv.info` holds records `{u8 format, u8 attribute, u16 value-or-size}`;
// format 4 (EIFMT_SVAL) is followed by `size` payload bytes, the others are
// the 4 bytes alone. Per-function attributes carry `{u32 symbol, u32 value}`.
// Attribute numbers checked against `ptxas -v` output (tests/unit/Target).
//
//===----------------------------------------------------------------------===//
#include "blk/Target/CubinInfo.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Endian.h"

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

llvm::Expected<std::vector<EntryResources>> readCubinResources(llvm::ArrayRef<uint8_t> cubin) {
  auto elf = openElf(cubin);
  if (!elf)
    return elf.takeError();
  auto sections = elf->sections();
  if (!sections)
    return sections.takeError();

  // Symbol index -> name, from the (single) symbol table.
  llvm::DenseMap<uint32_t, std::string> symbolNames;
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
      symbolNames[i] = name->str();
    }
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
    if (name->starts_with(".nv.shared.") && !name->starts_with(".nv.shared.reserved"))
      sharedBySection[name->drop_front(strlen(".nv.shared."))] = section.sh_size;
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
      if (at + size > bytes.size())
        return llvm::createStringError(".nv.info record runs past its section");
      if (size == 8 && (attr == kAttrRegCount || attr == kAttrFrameSize)) {
        uint32_t symbol = llvm::support::endian::read32le(&bytes[at]);
        uint32_t value = llvm::support::endian::read32le(&bytes[at + 4]);
        EntryResources &entry = entryFor(symbolNames.lookup(symbol));
        (attr == kAttrRegCount ? entry.registers : entry.stackFrame) = value;
      }
      at += size;
    }
  }
  for (EntryResources &entry : entries)
    entry.sharedBytes = sharedBySection.lookup(entry.entry);
  return entries;
}

} // namespace blk::target
