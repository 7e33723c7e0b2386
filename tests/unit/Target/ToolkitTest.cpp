//===- ToolkitTest.cpp - nvJitLink, fatbinary and cubin resources --------===//
//
// Needs the CUDA toolkit (not a GPU); each test skips with the reason when
// libnvJitLink or fatbinary is missing.
//
//===----------------------------------------------------------------------===//
#include "blk/Target/CubinInfo.h"
#include "blk/Target/Fatbin.h"
#include "blk/Target/Manifest.h"
#include "blk/Target/NvJitLink.h"
#include "blk/Target/ResourceLimits.h"

#include "llvm/Object/ELF.h"
#include "llvm/Support/Endian.h"

#include <gtest/gtest.h>

using namespace blk::target;

// A kernel using 1 KiB of static shared memory.
static const char *kKernelPtx = R"ptx(
.version 7.8
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b64 %rd<3>;
  .reg .f32 %f<3>;
  .shared .align 4 .b8 smem[1024];
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.f32 %f1, [%rd2];
  st.shared.f32 [smem], %f1;
  bar.sync 0;
  ld.shared.f32 %f2, [smem+4];
  st.global.f32 [%rd2], %f2;
  ret;
}
)ptx";

/// The kernel with a manifest embedded the way blkc embeds it.
static std::string kernelWithManifest() {
  auto ptx = embedManifestInPtx(kKernelPtx, "{\"schema\":1}");
  return ptx ? *ptx : llvm::toString(ptx.takeError());
}

namespace {
class ToolkitTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto linker = NvJitLink::load(toolkit);
    if (!linker)
      GTEST_SKIP() << "no CUDA toolkit: " << llvm::toString(linker.takeError());
    jit = std::move(*linker);
  }
  CudaToolkit toolkit = CudaToolkit::fromEnvironment();
  std::unique_ptr<NvJitLink> jit;
  std::string kPtx = kernelWithManifest();
};
} // namespace

static bool hasSymbol(const std::vector<uint8_t> &cubin, llvm::StringRef wanted) {
  llvm::StringRef data(reinterpret_cast<const char *>(cubin.data()), cubin.size());
  auto elf = llvm::object::ELF64LEFile::create(data);
  if (!elf)
    return llvm::consumeError(elf.takeError()), false;
  auto sections = elf->sections();
  if (!sections)
    return llvm::consumeError(sections.takeError()), false;
  for (const auto &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_SYMTAB)
      continue;
    auto symbols = elf->symbols(&section);
    auto strings = elf->getStringTableForSymtab(section);
    if (!symbols || !strings)
      return false;
    for (const auto &symbol : *symbols) {
      auto name = symbol.getName(*strings);
      if (name && *name == wanted)
        return true;
    }
  }
  return false;
}

TEST_F(ToolkitTest, CompilesPtxAndReportsResources) {
  for (const GpuArch &arch : validArchs()) {
    auto cubin = jit->compile(kPtx, arch, 3);
    ASSERT_TRUE(static_cast<bool>(cubin)) << arch.name << ": " << llvm::toString(cubin.takeError());
    EXPECT_TRUE(hasSymbol(cubin->image, kManifestSymbol)) << arch.name << " dropped the manifest";
    ASSERT_EQ(cubin->resources.size(), 1u) << cubin->infoLog;
    const EntryResources &logged = cubin->resources[0];
    EXPECT_EQ(logged.entry, "k");
    EXPECT_GT(logged.registers, 0u);
    EXPECT_EQ(logged.sharedBytes, 1024u) << cubin->infoLog;
    EXPECT_EQ(logged.barriers, 1u);

    // The cubin records the same register count ptxas printed.
    auto stored = readCubinResources(cubin->image);
    ASSERT_TRUE(static_cast<bool>(stored)) << llvm::toString(stored.takeError());
    ASSERT_EQ(stored->size(), 1u);
    EXPECT_EQ((*stored)[0].entry, "k");
    EXPECT_EQ((*stored)[0].registers, logged.registers);
    EXPECT_EQ((*stored)[0].stackFrame, 0u);
    EXPECT_GE((*stored)[0].sharedBytes, 1024u);
  }
}

TEST_F(ToolkitTest, StoresPtxasReportInTheCubin) {
  std::vector<EntryResources> placeholder = {EntryResources{"k"}};
  auto ptx = embedByteArrayInPtx(kPtx, kResourceSymbol, formatResourceTable(placeholder), "x");
  ASSERT_TRUE(static_cast<bool>(ptx));
  auto cubin = jit->compile(*ptx, *lookupArch("sm_90"), 3);
  ASSERT_TRUE(static_cast<bool>(cubin)) << llvm::toString(cubin.takeError());
  ASSERT_EQ(cubin->resources.size(), 1u);
  EntryResources logged = cubin->resources[0];
  logged.spillStores = 12; // Distinguishable from the ELF-derived values.
  ASSERT_FALSE(static_cast<bool>(
      patchElfSymbol(cubin->image, kResourceSymbol, formatResourceTable({logged}))));
  auto stored = readCubinResources(cubin->image);
  ASSERT_TRUE(static_cast<bool>(stored)) << llvm::toString(stored.takeError());
  ASSERT_EQ(stored->size(), 1u);
  EXPECT_TRUE((*stored)[0].spillsKnown);
  EXPECT_EQ((*stored)[0].spillStores, 12u);
  EXPECT_EQ((*stored)[0].registers, logged.registers);
  EXPECT_EQ((*stored)[0].sharedBytes, 1024u);
  // A table of another size does not fit the placeholder.
  llvm::Error err = patchElfSymbol(cubin->image, kResourceSymbol, "short");
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("has 68 bytes, not 5"), std::string::npos);
  llvm::Error missing = patchElfSymbol(cubin->image, "__nothing", "x");
  ASSERT_TRUE(static_cast<bool>(missing));
  EXPECT_EQ(llvm::toString(std::move(missing)), "the cubin has no symbol `__nothing`");
}

TEST(ResourceTableTest, RoundTripsAtFixedWidth) {
  EntryResources a{"k__BLOCK_8__w1", 10, 16, 4, 8, 2048, 1};
  EntryResources b{"other"};
  std::string text = formatResourceTable({a, b});
  EXPECT_EQ(text, "k__BLOCK_8__w1 0000000010 0000000016 0000000004 0000000008 0000002048 0000000001\n"
                  "other 0000000000 0000000000 0000000000 0000000000 0000000000 0000000000\n");
  std::vector<EntryResources> parsed = parseResourceTable(text);
  ASSERT_EQ(parsed.size(), 2u);
  EXPECT_EQ(parsed[0].entry, "k__BLOCK_8__w1");
  EXPECT_EQ(parsed[0].registers, 10u);
  EXPECT_EQ(parsed[0].stackFrame, 16u);
  EXPECT_EQ(parsed[0].spillStores, 4u);
  EXPECT_EQ(parsed[0].spillLoads, 8u);
  EXPECT_EQ(parsed[0].sharedBytes, 2048u);
  EXPECT_EQ(parsed[0].barriers, 1u);
  EXPECT_TRUE(parsed[0].spillsKnown);
  EXPECT_TRUE(parseResourceTable("garbage line\nk 1 2\n").empty());
}

TEST_F(ToolkitTest, ReportsPtxErrors) {
  auto cubin = jit->compile(".version 7.8\n.target sm_80\n.address_size 64\nbogus;\n",
                            *lookupArch("sm_90"), 3);
  ASSERT_FALSE(static_cast<bool>(cubin));
  std::string message = llvm::toString(cubin.takeError());
  EXPECT_NE(message.find("ptxas failed for sm_90"), std::string::npos) << message;
}

// When ptxas rejects the PTX of every kernel together, each kernel's own
// PTX tells which (blkc leaves those out; ResourceLimits.h).
TEST_F(ToolkitTest, FindsTheEntriesPtxasRejects) {
  std::string bad = ".version 7.8\n.target sm_80\n.address_size 64\n"
                    ".visible .entry bad()\n{\n  .reg .b32 %r<2>;\n  mov.u32 %r1, %undefined_reg;\n  ret;\n}\n";
  const GpuArch &sm90 = *lookupArch("sm_90");
  std::vector<Omission> rejected =
      findRejectedEntries(*jit, {"k", "bad", "k2"}, {kKernelPtx, bad, kKernelPtx}, sm90, 3);
  ASSERT_EQ(rejected.size(), 1u);
  EXPECT_EQ(rejected[0].entry, "bad");
  EXPECT_TRUE(llvm::StringRef(rejected[0].reason).starts_with("ptxas rejects it for sm_90: "))
      << rejected[0].reason;
  // ptxas's own line, not nvJitLink's header.
  EXPECT_NE(rejected[0].reason.find("line 7; error"), std::string::npos) << rejected[0].reason;
  EXPECT_EQ(rejected[0].reason.find('\n'), std::string::npos) << rejected[0].reason;
}

// A fatal ptxas error (no "error" in its line) is the reason given, not
// the closing "Ptx assembly aborted due to errors": here a wgmma whose 128
// accumulator registers cannot fit a 32-register cap.
TEST_F(ToolkitTest, GivesPtxasFatalLineAsTheReason) {
  std::string acc;
  for (int i = 0; i < 128; ++i)
    acc += (i ? ", %f" : "%f") + std::to_string(i);
  std::string stores;
  for (int i = 0; i < 128; ++i)
    stores += "  st.global.f32 [%rd1+" + std::to_string(4 * i) + "], %f" + std::to_string(i) + ";\n";
  std::string big = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                    ".visible .entry big(.param .u64 p)\n.maxnreg 32\n{\n"
                    "  .reg .f32 %f<128>;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p];\n"
                    "  wgmma.fence.sync.aligned;\n"
                    "  wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {" +
                    acc +
                    "}, %rd1, %rd1, 0, 1, 1, 0, 0;\n"
                    "  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;\n" +
                    stores + "  ret;\n}\n";
  std::vector<Omission> rejected =
      findRejectedEntries(*jit, {"big"}, {big}, *lookupArch("sm_90a"), 3);
  ASSERT_EQ(rejected.size(), 1u);
  EXPECT_NE(rejected[0].reason.find("Insufficient registers"), std::string::npos)
      << rejected[0].reason;
  EXPECT_EQ(rejected[0].reason.find("aborted"), std::string::npos) << rejected[0].reason;
}

TEST_F(ToolkitTest, PacksAnUncompressedFatbin) {
  if (auto tool = toolkit.findFatbinary(); !tool)
    GTEST_SKIP() << llvm::toString(tool.takeError());
  const GpuArch &sm80 = *lookupArch("sm_80"), &sm90 = *lookupArch("sm_90");
  auto cubin80 = jit->compile(kPtx, sm80, 3);
  auto cubin90 = jit->compile(kPtx, sm90, 3);
  ASSERT_TRUE(cubin80 && cubin90);
  llvm::ArrayRef<uint8_t> ptx(reinterpret_cast<const uint8_t *>(kPtx.data()), kPtx.size());
  auto fatbin = makeFatbin(toolkit, {{sm80, false, cubin80->image},
                                     {sm90, false, cubin90->image},
                                     {sm90, true, ptx}});
  ASSERT_TRUE(static_cast<bool>(fatbin)) << llvm::toString(fatbin.takeError());
  ASSERT_GE(fatbin->size(), 16u);
  EXPECT_EQ(llvm::support::endian::read32le(fatbin->data()), 0xBA55ED50u);
  // Not compressed: the PTX text and both cubins appear verbatim.
  std::string bytes(fatbin->begin(), fatbin->end());
  EXPECT_NE(bytes.find("__blk_manifest[12] = {"), std::string::npos);
  std::string image80(cubin80->image.begin(), cubin80->image.end());
  EXPECT_NE(bytes.find(image80), std::string::npos);
}

TEST(ToolkitMissingTest, NamesWhereItLooked) {
  CudaToolkit toolkit = CudaToolkit::fromCudaHome("/nonexistent/cuda");
  EXPECT_EQ(toolkit.rootSource, "CUDA_HOME");
  auto linker = NvJitLink::load(toolkit);
  ASSERT_FALSE(static_cast<bool>(linker));
  std::string message = llvm::toString(linker.takeError());
  EXPECT_NE(message.find("/nonexistent/cuda/lib64/libnvJitLink.so.13"), std::string::npos)
      << message;
  EXPECT_NE(message.find("--emit=ptx"), std::string::npos);
  auto tool = toolkit.findFatbinary();
  ASSERT_FALSE(static_cast<bool>(tool));
  EXPECT_NE(llvm::toString(tool.takeError()).find("`/nonexistent/cuda/bin/fatbinary`"),
            std::string::npos);
}

TEST(ToolkitMissingTest, DefaultRoot) {
  EXPECT_EQ(CudaToolkit::fromCudaHome(nullptr).root, "/usr/local/cuda");
  EXPECT_EQ(CudaToolkit::fromCudaHome("").rootSource, "default");
}

TEST(PtxasLogTest, ParsesEveryEntry) {
  const char *log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'big' for 'sm_90'\n"
      "ptxas info    : Function properties for big\n"
      "ptxas         .     256 bytes stack frame, 12 bytes spill stores, 8 bytes spill loads\n"
      "ptxas info    : Used 24 registers, used 1 barriers, 1024 bytes smem\n"
      "ptxas info    : Compile time = 35.637 ms\n"
      "ptxas info    : Compiling entry function 'small' for 'sm_90'\n"
      "ptxas info    : Function properties for small\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 8 registers, used 0 barriers\n"
      "info    : used 8 registers, used 0 barriers, 0 stack, 0 bytes smem\n";
  std::vector<EntryResources> entries = parsePtxasInfoLog(log);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].entry, "big");
  EXPECT_EQ(entries[0].registers, 24u);
  EXPECT_EQ(entries[0].stackFrame, 256u);
  EXPECT_EQ(entries[0].spillStores, 12u);
  EXPECT_EQ(entries[0].spillLoads, 8u);
  EXPECT_EQ(entries[0].sharedBytes, 1024u);
  EXPECT_EQ(entries[0].barriers, 1u);
  EXPECT_EQ(entries[1].entry, "small");
  EXPECT_EQ(entries[1].registers, 8u);
  EXPECT_EQ(entries[1].sharedBytes, 0u);
}
