//===- FatbinReaderTest.cpp - fatbin walking and manifest extraction ------===//
#include "FixtureUtil.h"
#include "MiniElf.h"

#include "blk/runtime/Error.h"
#include "blk/runtime/FatbinReader.h"

#include <cstring>
#include <random>

using namespace blk;
using namespace blk::test;

namespace {

/// The message of the blk::Error `fn` throws ("" if it throws none).
template <class Fn> std::string errorOf(Fn fn) {
  try {
    fn();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(FatbinReader, ListsCubinAndPtxImages) {
  BLK_REQUIRE_FIXTURE("kernels_multi");
  auto bytes = fixtureBytes("kernels_multi");
  FatbinReader r(bytes.data(), bytes.size(), "multi.fatbin");
  ASSERT_EQ(r.images().size(), 3u);
  EXPECT_EQ(r.images()[0].kind, ImageKind::Cubin);
  EXPECT_EQ(r.images()[0].arch, 80u);
  EXPECT_EQ(r.images()[1].kind, ImageKind::Cubin);
  EXPECT_EQ(r.images()[1].arch, 90u);
  EXPECT_EQ(r.images()[2].kind, ImageKind::Ptx);
  EXPECT_EQ(r.images()[2].arch, 90u);
  EXPECT_FALSE(r.images()[0].compressed);
  EXPECT_EQ(r.describe(), "cubin sm_80, cubin sm_90, PTX compute_90");
  EXPECT_EQ(r.payload(r.images()[0]).substr(0, 4), "\x7f"
                                                   "ELF");
  EXPECT_NE(r.payload(r.images()[2]).find(".target sm_90"),
            std::string_view::npos);
}

TEST(FatbinReader, ReadsManifestFromCubin) {
  BLK_REQUIRE_FIXTURE("kernels");
  auto bytes = fixtureBytes("kernels");
  FatbinReader r(bytes.data(), bytes.size(), "kernels.fatbin");
  EXPECT_EQ(r.manifestJson(), fixtureManifestJson());
}

TEST(FatbinReader, ReadsManifestFromCubinImageDirectly) {
  BLK_REQUIRE_FIXTURE("kernels");
  auto bytes = fixtureBytes("kernels");
  FatbinReader r(bytes.data(), bytes.size(), "kernels.fatbin");
  std::optional<std::string> m =
      readElfSymbol(r.payload(r.images()[0]), "__blk_manifest", "cubin");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(*m, fixtureManifestJson());
  EXPECT_FALSE(
      readElfSymbol(r.payload(r.images()[0]), "no_such_symbol", "cubin")
          .has_value());
}

TEST(FatbinReader, ReadsManifestFromPtxOnlyArtifact) {
  BLK_REQUIRE_FIXTURE("kernels_ptx");
  auto bytes = fixtureBytes("kernels_ptx");
  FatbinReader r(bytes.data(), bytes.size(), "ptx.fatbin");
  EXPECT_EQ(r.describe(), "PTX compute_90");
  EXPECT_EQ(r.manifestJson(), fixtureManifestJson());
}

TEST(FatbinReader, ReadsManifestFromConstantBank) {
  BLK_REQUIRE_FIXTURE("kernels_const");
  auto bytes = fixtureBytes("kernels_const");
  FatbinReader r(bytes.data(), bytes.size(), "const.fatbin");
  EXPECT_EQ(r.manifestJson(), fixtureManifestJson());
}

TEST(FatbinReader, ArchitectureCompatibility) {
  BLK_REQUIRE_FIXTURE("kernels_sm80");
  auto sm80 = fixtureBytes("kernels_sm80");
  FatbinReader a(sm80.data(), sm80.size(), "sm80.fatbin");
  EXPECT_TRUE(a.hasCodeFor(80));
  EXPECT_TRUE(a.hasCodeFor(86));  // same major, newer minor
  EXPECT_FALSE(a.hasCodeFor(90)); // cubins do not cross majors
  EXPECT_FALSE(a.hasCodeFor(75));
  auto both = fixtureBytes("kernels");
  FatbinReader b(both.data(), both.size(), "kernels.fatbin");
  EXPECT_TRUE(b.hasCodeFor(90));
  EXPECT_TRUE(b.hasCodeFor(100)); // through the PTX
  EXPECT_FALSE(b.hasCodeFor(89));
  EXPECT_TRUE(imageRunsOn(ImageKind::Ptx, 80, 90));
  EXPECT_FALSE(imageRunsOn(ImageKind::Ptx, 100, 90));
}

TEST(FatbinReader, ArchSpecificImagesRunOnTheirArchOnly) {
  BLK_REQUIRE_FIXTURE("kernels_sm90a");
  auto bytes = fixtureBytes("kernels_sm90a");
  FatbinReader r(bytes.data(), bytes.size(), "a.fatbin");
  EXPECT_EQ(r.describe(), "cubin sm_90a, PTX compute_90a");
  EXPECT_TRUE(r.images()[0].archSpecific);
  EXPECT_EQ(r.images()[0].arch, 90u);
  EXPECT_TRUE(r.hasCodeFor(90));
  EXPECT_FALSE(r.hasCodeFor(100)); // not even through the PTX
  EXPECT_FALSE(imageRunsOn(ImageKind::Cubin, 90, 91, true));
  EXPECT_EQ(r.manifestJson(), fixtureManifestJson());
}

TEST(FatbinReader, CompressedImagesAreListedButManifestRefused) {
  BLK_REQUIRE_FIXTURE("kernels_compressed");
  auto bytes = fixtureBytes("kernels_compressed");
  FatbinReader r(bytes.data(), bytes.size(), "c.fatbin");
  ASSERT_EQ(r.images().size(), 2u);
  EXPECT_TRUE(r.images()[0].compressed);
  std::string msg = errorOf([&] { r.manifestJson(); });
  EXPECT_NE(msg.find("c.fatbin: no blk manifest"), std::string::npos) << msg;
  EXPECT_NE(msg.find("build without compression"), std::string::npos) << msg;
}

TEST(FatbinReader, RefusesArtifactWithoutManifest) {
  BLK_REQUIRE_FIXTURE("kernels_nomanifest");
  auto bytes = fixtureBytes("kernels_nomanifest");
  FatbinReader r(bytes.data(), bytes.size(), "plain.fatbin");
  EXPECT_EQ(errorOf([&] { r.manifestJson(); }),
            "blk: plain.fatbin: no blk manifest (symbol `__blk_manifest`) in "
            "any image; the file holds cubin sm_90");
}

TEST(FatbinReader, RefusesBadMagic) {
  std::vector<unsigned char> bytes(64, 0);
  bytes[0] = 0x7f;
  bytes[1] = 'E';
  EXPECT_EQ(errorOf([&] { FatbinReader(bytes.data(), bytes.size(), "x.bin"); }),
            "blk: x.bin: not a fatbin: bad magic 0x457f (expected 0xba55ed50)");
}

TEST(FatbinReader, RefusesTinyAndEmptyInputs) {
  unsigned char b[4] = {0x50, 0xed, 0x55, 0xba};
  EXPECT_EQ(errorOf([&] { FatbinReader(b, 4, "t.fatbin"); }),
            "blk: t.fatbin: not a fatbin: 4 bytes, shorter than a fatbin "
            "header");
  EXPECT_NE(errorOf([&] { FatbinReader(nullptr, 0, "n"); }), "");
}

TEST(FatbinReader, RefusesTruncatedContainer) {
  BLK_REQUIRE_FIXTURE("kernels");
  auto bytes = fixtureBytes("kernels");
  bytes.resize(bytes.size() / 2);
  std::string msg =
      errorOf([&] { FatbinReader(bytes.data(), bytes.size(), "half.fatbin"); });
  EXPECT_EQ(msg.rfind("blk: half.fatbin: truncated fatbin: container at "
                      "offset 0 declares",
                      0),
            0u)
      << msg;
}

TEST(FatbinReader, RefusesTruncatedEntry) {
  BLK_REQUIRE_FIXTURE("kernels");
  auto bytes = fixtureBytes("kernels");
  // Inflate the first entry's payload size beyond the container.
  uint64_t huge = 1ull << 40;
  std::memcpy(bytes.data() + 16 + 8, &huge, 8);
  std::string msg =
      errorOf([&] { FatbinReader(bytes.data(), bytes.size(), "e.fatbin"); });
  EXPECT_NE(msg.find("truncated fatbin: entry at offset 16 declares"),
            std::string::npos)
      << msg;
}

TEST(FatbinReader, RefusesCorruptElf) {
  BLK_REQUIRE_FIXTURE("kernels");
  auto bytes = fixtureBytes("kernels");
  FatbinReader probe(bytes.data(), bytes.size(), "k");
  size_t elf = probe.images()[0].offset;
  uint64_t badShoff = 1ull << 50; // section headers far out of bounds
  std::memcpy(bytes.data() + elf + 0x28, &badShoff, 8);
  FatbinReader r(bytes.data(), bytes.size(), "k.fatbin");
  EXPECT_EQ(errorOf([&] { r.manifestJson(); }),
            "blk: k.fatbin: image 0: corrupt ELF: section headers out of "
            "bounds");
}

TEST(FatbinReader, PtxByteArrayParsing) {
  std::string ptx = ".version 8.0\n.global .align 1 .b8 __blk_manifest[4] = "
                    "{123, 0x7d, 0, 0};\n.visible .entry k() { ret; }\n";
  EXPECT_EQ(readPtxByteArray(ptx, "__blk_manifest", "p").value(), "{}");
  EXPECT_FALSE(readPtxByteArray(".extern .global .b8 __blk_manifest[];\n",
                                "__blk_manifest", "p")
                   .has_value());
  EXPECT_FALSE(readPtxByteArray("x_blk_manifest", "__blk_manifest", "p"));
  // The backend's layout: 32 bytes a line, after a comment.
  std::string backend =
      ".address_size 64\n\n// blk manifest (docs/manifest.md)\n"
      ".visible .global .align 1 .b8 __blk_manifest[3] = {\n"
      "  91, 49,\n  93\n};\n";
  EXPECT_EQ(readPtxByteArray(backend, "__blk_manifest", "p").value(), "[1]");
  EXPECT_NE(errorOf([&] {
              readPtxByteArray(".global .b8 __blk_manifest[1] = {300};",
                               "__blk_manifest", "p");
            }),
            "");
}

// Random damage (truncation, bit flips, random bytes) must give either a
// result or a blk::Error, never a crash or another exception.
TEST(FatbinReader, SurvivesRandomCorruption) {
  BLK_REQUIRE_FIXTURE("kernels_multi");
  const auto original = fixtureBytes("kernels_multi");
  std::mt19937_64 rng(12345);
  int refused = 0, read = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<unsigned char> bytes = original;
    switch (round % 3) {
    case 0: // truncate
      bytes.resize(rng() % bytes.size());
      break;
    case 1: // flip bytes in the headers and ELF structures
      for (int k = 0; k < 4; ++k)
        bytes[rng() % std::min<size_t>(bytes.size(), 4096)] ^=
            static_cast<unsigned char>(1 + rng() % 255);
      break;
    default: // random bytes after a valid container header
      for (size_t i = 16; i < bytes.size(); ++i)
        bytes[i] = static_cast<unsigned char>(rng());
      break;
    }
    try {
      FatbinReader r(bytes.data(), bytes.size(), "fuzz");
      (void)r.describe();
      (void)r.manifestJson();
      ++read;
    } catch (const Error &) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 1000);
  EXPECT_GT(read, 10); // harmless flips in code bytes still read
}

// Hand-made ELFs (MiniElf.h) with one field patched: the reader must refuse
// each with a blk::Error, never read outside the image (issue 19).
std::string elfError(const MiniElf &e) {
  return errorOf([&] { readElfSymbol(e.view(), "__blk_manifest", "img"); });
}

TEST(FatbinReader, ReadsManifestFromMiniElf) {
  MiniElf e = makeMiniElf("{\"schema\": 1}", "k 1 2 3 4 5 6\n");
  EXPECT_EQ(readElfSymbol(e.view(), "__blk_manifest", "img").value(),
            "{\"schema\": 1}");
  EXPECT_EQ(readElfSymbol(e.view(), "__blk_resources", "img").value(),
            "k 1 2 3 4 5 6\n");
}

TEST(FatbinReader, RefusesNobitsStringTable) {
  MiniElf e = makeMiniElf("{}");
  e.put<uint32_t>(e.shType(MiniElf::kStrtab), 8 /*SHT_NOBITS*/);
  EXPECT_EQ(elfError(e), "blk: img: corrupt ELF: string table (section 2) "
                         "has no bytes in the file (SHT_NOBITS)");
  e.put<uint64_t>(e.shOffset(MiniElf::kStrtab), 1ull << 50);
  EXPECT_EQ(elfError(e), "blk: img: corrupt ELF: string table (section 2) "
                         "has no bytes in the file (SHT_NOBITS)");
}

TEST(FatbinReader, RefusesStringTableBeyondTheFile) {
  MiniElf e = makeMiniElf("{}");
  uint64_t n = e.bytes.size();
  e.put<uint64_t>(e.shSize(MiniElf::kStrtab), n); // offset + n > n
  EXPECT_EQ(elfError(e),
            "blk: img: corrupt ELF: string table (section 2) out of bounds");
  // offset + size wraps to a small number.
  e.put<uint64_t>(e.shOffset(MiniElf::kStrtab), ~0ull - 7);
  e.put<uint64_t>(e.shSize(MiniElf::kStrtab), 16);
  EXPECT_EQ(elfError(e),
            "blk: img: corrupt ELF: string table (section 2) out of bounds");
}

TEST(FatbinReader, RefusesWrappingSymbolAndSectionRanges) {
  MiniElf e = makeMiniElf("{\"schema\": 1}");
  // st_value + st_size wraps past 2^64.
  e.put<uint64_t>(e.symValue(MiniElf::kSymManifest), ~0ull - 3);
  e.put<uint64_t>(e.symSize(MiniElf::kSymManifest), 8);
  EXPECT_EQ(elfError(e), "blk: img: corrupt ELF: symbol `__blk_manifest` "
                         "lies outside its section");
  // sh_offset + sh_size of the symbol's section wraps.
  MiniElf f = makeMiniElf("{\"schema\": 1}");
  f.put<uint64_t>(f.shOffset(MiniElf::kData), ~0ull - 7);
  EXPECT_EQ(elfError(f), "blk: img: corrupt ELF: section 4 out of bounds");
  // The symbol table's own range wraps.
  MiniElf g = makeMiniElf("{}");
  g.put<uint64_t>(g.shOffset(MiniElf::kSymtab), ~0ull - 23);
  g.put<uint64_t>(g.shSize(MiniElf::kSymtab), 48);
  EXPECT_EQ(elfError(g),
            "blk: img: corrupt ELF: symbol table (section 3) out of bounds");
}

TEST(FatbinReader, RefusesNobitsSymbolSection) {
  MiniElf e = makeMiniElf("{}");
  e.put<uint32_t>(e.shType(MiniElf::kData), 8 /*SHT_NOBITS*/);
  e.put<uint64_t>(e.shOffset(MiniElf::kData), 1ull << 50);
  EXPECT_EQ(elfError(e), "blk: img: symbol `__blk_manifest` has no "
                         "initialiser");
}

// Every single-field patch of the section headers and symbols to a hostile
// value gives a result or a blk::Error (run under ASan to see reads).
TEST(FatbinReader, SurvivesHostileHeaderFields) {
  const uint64_t hostile[] = {0,          1,          8,
                              0x7fffffff, 0xffffffff, 1ull << 50,
                              ~0ull - 23, ~0ull - 7,  ~0ull};
  MiniElf base = makeMiniElf("{\"schema\": 1}", "k 1 2 3 4 5 6\n");
  std::vector<size_t> fields;
  for (unsigned i = 0; i < MiniElf::kNumSections; ++i)
    for (size_t f :
         {base.shType(i), base.shAddr(i), base.shOffset(i), base.shSize(i)})
      fields.push_back(f);
  for (unsigned i = 0; i < 4; ++i)
    for (size_t f : {base.symValue(i), base.symSize(i)})
      fields.push_back(f);
  for (size_t field : fields)
    for (uint64_t v : hostile) {
      MiniElf e = base;
      if (field % 8 == 4) // sh_type: 4 bytes
        e.put<uint32_t>(field, uint32_t(v));
      else
        e.put<uint64_t>(field, v);
      for (const char *name : {"__blk_manifest", "__blk_resources"}) {
        try {
          (void)readElfSymbol(e.view(), name, "img");
        } catch (const Error &) {
        }
      }
    }
  // Pairs: a section turned SHT_NOBITS whose offset or size is also hostile.
  for (unsigned i = 1; i < MiniElf::kNumSections; ++i)
    for (size_t field : {base.shOffset(i), base.shSize(i)})
      for (uint64_t v : hostile) {
        MiniElf e = base;
        e.put<uint32_t>(e.shType(i), 8 /*SHT_NOBITS*/);
        e.put<uint64_t>(field, v);
        try {
          (void)readElfSymbol(e.view(), "__blk_manifest", "img");
        } catch (const Error &) {
        }
      }
}

TEST(FatbinReader, ReadBinaryFileNamesMissingPath) {
  std::string msg = errorOf([] { readBinaryFile("/nonexistent/x.fatbin"); });
  EXPECT_EQ(msg.rfind("blk: /nonexistent/x.fatbin: cannot open", 0), 0u) << msg;
}

} // namespace
