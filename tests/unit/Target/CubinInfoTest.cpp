//===- CubinInfoTest.cpp - resource reader on hand-made, hostile cubins ---===//
//
// readCubinResources and patchElfSymbol on the small ELF of
// tests/unit/Runtime/MiniElf.h with single fields patched (issue 19): each
// must give an llvm::Error, never read outside the image. No CUDA needed.
//
//===----------------------------------------------------------------------===//
#include "../Runtime/MiniElf.h"

#include "blk/Target/CubinInfo.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace blk::target;
using blk::test::makeMiniElf;
using blk::test::MiniElf;

namespace {

std::string resourceTable() {
  EntryResources k;
  k.entry = "k";
  k.registers = 40;
  k.spillStores = 12;
  return formatResourceTable({k});
}

/// readCubinResources's error for `e` ("" when it reads).
std::string resourceError(const MiniElf &e) {
  auto entries = readCubinResources(e.bytes);
  if (entries)
    return "";
  return llvm::toString(entries.takeError());
}

TEST(CubinInfo, ReadsMiniElf) {
  MiniElf e = makeMiniElf("{}", resourceTable());
  auto entries = readCubinResources(e.bytes);
  ASSERT_TRUE(static_cast<bool>(entries)) << llvm::toString(entries.takeError());
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ((*entries)[0].entry, "k");
  EXPECT_EQ((*entries)[0].registers, 40u);
  EXPECT_EQ((*entries)[0].spillStores, 12u);
  // Without the table: the .nv.info record alone.
  MiniElf bare = makeMiniElf("{}");
  auto fromInfo = readCubinResources(bare.bytes);
  ASSERT_TRUE(static_cast<bool>(fromInfo)) << llvm::toString(fromInfo.takeError());
  ASSERT_EQ(fromInfo->size(), 1u);
  EXPECT_EQ((*fromInfo)[0].entry, "k");
  EXPECT_EQ((*fromInfo)[0].registers, 40u);
  EXPECT_FALSE((*fromInfo)[0].spillsKnown);
}

TEST(CubinInfo, RefusesWrappingSymbolRange) {
  // st_value + st_size wraps to 8, below the section's size.
  MiniElf e = makeMiniElf("{}", resourceTable());
  e.put<uint64_t>(e.symValue(MiniElf::kSymResources), ~0ull - 7);
  e.put<uint64_t>(e.symSize(MiniElf::kSymResources), 16);
  EXPECT_EQ(resourceError(e), "symbol `__blk_resources` lies outside its section");
  std::vector<uint8_t> image = e.bytes;
  llvm::Error patched =
      patchElfSymbol(image, kResourceSymbol, std::string(16, ' '));
  EXPECT_EQ(llvm::toString(std::move(patched)),
            "symbol `__blk_resources` lies outside its section");
}

TEST(CubinInfo, RefusesWrappingSectionRange) {
  // sh_offset + sh_size of the symbol's section wraps to below the file size.
  MiniElf e = makeMiniElf("{}", resourceTable());
  e.put<uint64_t>(e.shOffset(MiniElf::kData), ~0ull - 7);
  EXPECT_EQ(resourceError(e), "symbol `__blk_resources` lies outside its section");
  std::vector<uint8_t> image = e.bytes;
  EXPECT_EQ(llvm::toString(patchElfSymbol(image, "__blk_manifest", "{}")),
            "symbol `__blk_manifest` lies outside its section");
}

TEST(CubinInfo, RefusesNvInfoSymbolIndexOutOfRange) {
  // 0xFFFFFFFF and 0xFFFFFFFE are DenseMap<uint32_t>'s empty and tombstone
  // keys; 4 is one past the table.
  for (uint32_t index : {0xFFFFFFFFu, 0xFFFFFFFEu, 4u, 1000u}) {
    MiniElf e = makeMiniElf("{}", "", {{index, 40}});
    EXPECT_EQ(resourceError(e), ".nv.info record names symbol " + std::to_string(index) +
                                    ", past the symbol table's 4 symbols")
        << index;
  }
}

TEST(CubinInfo, SurvivesHostileHeaderFields) {
  const uint64_t hostile[] = {0,          1,          8,         0x7fffffff, 0xffffffff,
                              1ull << 50, ~0ull - 23, ~0ull - 7, ~0ull};
  MiniElf base = makeMiniElf("{}", resourceTable());
  std::vector<size_t> fields;
  for (unsigned i = 0; i < MiniElf::kNumSections; ++i)
    for (size_t f : {base.shType(i), base.shAddr(i), base.shOffset(i), base.shSize(i)})
      fields.push_back(f);
  for (unsigned i = 0; i < 4; ++i)
    for (size_t f : {base.symShndx(i), base.symValue(i), base.symSize(i)})
      fields.push_back(f);
  fields.push_back(base.nvInfoOffset + 4); // the record's symbol index
  for (size_t field : fields)
    for (uint64_t v : hostile) {
      MiniElf e = base;
      if (field % 8 == 4) // sh_type, the record's symbol: 4 bytes
        e.put<uint32_t>(field, uint32_t(v));
      else if (field % 8 == 6) // st_shndx: 2 bytes
        e.put<uint16_t>(field, uint16_t(v));
      else
        e.put<uint64_t>(field, v);
      auto entries = readCubinResources(e.bytes);
      if (!entries)
        llvm::consumeError(entries.takeError());
      std::vector<uint8_t> image = e.bytes;
      llvm::consumeError(patchElfSymbol(image, kResourceSymbol, resourceTable()));
    }
  // Pairs: a section turned SHT_NOBITS whose offset or size is also hostile.
  for (unsigned i = 1; i < MiniElf::kNumSections; ++i)
    for (size_t field : {base.shOffset(i), base.shSize(i)})
      for (uint64_t v : hostile) {
        MiniElf e = base;
        e.put<uint32_t>(e.shType(i), 8 /*SHT_NOBITS*/);
        e.put<uint64_t>(field, v);
        auto entries = readCubinResources(e.bytes);
        if (!entries)
          llvm::consumeError(entries.takeError());
      }
}

} // namespace
