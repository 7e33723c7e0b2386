//===- InspectTest.cpp - `blkc inspect` on built and corrupt artifacts ---===//
//
// Builds a real fatbin (hand-written PTX + a manifest, through nvJitLink and
// fatbinary) so the inspector is tested without the front end or backend.
// Skips with the reason when the CUDA toolkit is absent.
//
//===----------------------------------------------------------------------===//
#include "blk/Target/Fatbin.h"
#include "blk/Target/Inspect.h"
#include "blk/Target/Manifest.h"
#include "blk/Target/NvJitLink.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <random>

using namespace blk::target;

static const char *kPtx = R"ptx(
.version 8.0
.target sm_90
.address_size 64

.visible .entry double_grid__BLOCK_1024__w4(.param .u64 x, .param .u64 out, .param .u32 n)
{
  .reg .b64 %rd<4>;
  .reg .f32 %f<3>;
  .shared .align 4 .b8 smem[512];
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  ld.global.f32 %f1, [%rd1];
  st.shared.f32 [smem], %f1;
  bar.sync 0;
  ld.shared.f32 %f2, [smem+4];
  add.f32 %f2, %f2, %f2;
  st.global.f32 [%rd2], %f2;
  ret;
}
)ptx";

static const char *kManifest = R"json({"schema":1,"compiler":"blkc 0.1.0","source":"samples/double.blk",
"source_hash":"fnv1a64:0123456789abcdef","archs":["sm_90"],"kernels":[{"name":"double_grid",
"params":[{"name":"x","type":"*f32","aligned":16},{"name":"out","type":"*f32"},
{"name":"n","type":"i32","multiple_of":16}],"const_params":[{"name":"BLOCK","type":"i32"}],
"autotune_key":["n"],"grid_source":["cdiv(n, BLOCK)"],"specializations":[{
"entry":"double_grid__BLOCK_1024__w4","config":{"BLOCK":1024},"num_warps":4,"num_stages":3,
"threads":128,"shared_static":512,"shared_dynamic":0,
"grid":[{"op":"cdiv","args":[{"param":2},{"int":1024}]}]}]}]})json";

namespace {
class InspectTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto linker = NvJitLink::load(toolkit);
    if (!linker)
      GTEST_SKIP() << "no CUDA toolkit: " << llvm::toString(linker.takeError());
    if (auto tool = toolkit.findFatbinary(); !tool)
      GTEST_SKIP() << llvm::toString(tool.takeError());
    jit = std::move(*linker);
  }

  void TearDown() override {
    for (const std::string &path : temps)
      llvm::sys::fs::remove(path);
  }

  /// A fatbin of kPtx for sm_90 (cubin + PTX), with or without the manifest.
  std::vector<uint8_t> fatbin(bool withManifest) {
    std::string ptx = kPtx;
    if (withManifest) {
      auto embedded = embedManifestInPtx(ptx, kManifest);
      EXPECT_TRUE(static_cast<bool>(embedded));
      ptx = *embedded;
    }
    const GpuArch &sm90 = *lookupArch("sm_90");
    auto cubin = jit->compile(ptx, sm90, 3);
    EXPECT_TRUE(static_cast<bool>(cubin)) << llvm::toString(cubin.takeError());
    llvm::ArrayRef<uint8_t> ptxBytes(reinterpret_cast<const uint8_t *>(ptx.data()), ptx.size());
    auto bytes = makeFatbin(toolkit, {{sm90, false, cubin->image}, {sm90, true, ptxBytes}});
    EXPECT_TRUE(static_cast<bool>(bytes)) << llvm::toString(bytes.takeError());
    return *bytes;
  }

  std::string writeTemp(llvm::ArrayRef<uint8_t> bytes) {
    llvm::SmallString<128> path;
    int fd;
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("blk-inspect", "fatbin", fd, path));
    llvm::raw_fd_ostream out(fd, true);
    out.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
    temps.push_back(std::string(path));
    return temps.back();
  }

  /// inspectArtifact's error message for the file; empty when it succeeded.
  std::string inspectError(const std::string &path, std::string *output = nullptr) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::Error err = inspectArtifact(path, os);
    if (output)
      *output = text;
    if (!err)
      return {};
    EXPECT_TRUE(text.empty()) << "printed part of a refused artifact";
    return llvm::toString(std::move(err));
  }

  CudaToolkit toolkit = CudaToolkit::fromEnvironment();
  std::unique_ptr<NvJitLink> jit;
  std::vector<std::string> temps;
};
} // namespace

TEST_F(InspectTest, DescribesTheArtifact) {
  std::string path = writeTemp(fatbin(true));
  std::string text;
  ASSERT_EQ(inspectError(path, &text), "");
  for (const char *expected :
       {"source:   samples/double.blk (fnv1a64:0123456789abcdef)\n",
        "compiler: blkc 0.1.0, manifest schema 1\n", "archs:    sm_90\n",
        "kernel double_grid(x: *f32 @aligned(16), out: *f32, n: i32 @multiple_of(16))\n",
        "  const params: BLOCK: i32\n", "  autotune key: n\n", "  @grid: cdiv(n, BLOCK)\n",
        "  specialization double_grid__BLOCK_1024__w4\n", "    config: BLOCK=1024\n",
        "    num_warps 4, num_stages 3, threads 128\n",
        "    shared memory: 512 B static, 0 B dynamic\n", "    grid: (cdiv(n, 1024))\n"})
    EXPECT_NE(text.find(expected), std::string::npos) << "missing: " << expected << "\n" << text;
  // Resources come from the cubin: registers > 0, at least the 512 B declared.
  size_t line = text.find("    sm_90: ");
  ASSERT_NE(line, std::string::npos) << text;
  unsigned registers = 0, local = 0, shared = 0;
  ASSERT_EQ(sscanf(text.c_str() + line, "    sm_90: %u registers, %u B local (stack and spills), %u B shared",
                   &registers, &local, &shared), 3) << text;
  EXPECT_GT(registers, 0u);
  EXPECT_EQ(local, 0u);
  EXPECT_GE(shared, 512u);
}

TEST_F(InspectTest, PrintsTheRawManifest) {
  std::string path = writeTemp(fatbin(true));
  std::string text;
  llvm::raw_string_ostream os(text);
  ASSERT_FALSE(static_cast<bool>(inspectArtifact(path, os, {/*rawJson=*/true})));
  EXPECT_EQ(text, std::string(kManifest) + "\n");
}

TEST_F(InspectTest, RefusesATruncatedFatbin) {
  std::vector<uint8_t> bytes = fatbin(true);
  for (size_t keep : {size_t(3), size_t(20), bytes.size() / 2, bytes.size() - 1}) {
    std::string message = inspectError(writeTemp(llvm::ArrayRef(bytes).take_front(keep)));
    EXPECT_NE(message, "") << "accepted a fatbin cut to " << keep << " bytes";
  }
}

TEST_F(InspectTest, RefusesRandomBytes) {
  std::mt19937 rng(42);
  std::vector<uint8_t> bytes(4096);
  for (uint8_t &byte : bytes)
    byte = rng() & 0xff;
  std::string message = inspectError(writeTemp(bytes));
  EXPECT_NE(message.find("blk-inspect"), std::string::npos) << "names the file: " << message;
}

TEST_F(InspectTest, RefusesAFatbinWithoutManifest) {
  std::string message = inspectError(writeTemp(fatbin(false)));
  EXPECT_NE(message.find("no blk manifest"), std::string::npos) << message;
}

TEST_F(InspectTest, RefusesCorruptedImages) {
  // Flip bytes throughout the payload: every outcome must be an error or a
  // description, never a crash.
  std::vector<uint8_t> good = fatbin(true);
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<uint8_t> bytes = good;
    for (int flips = 0; flips < 8; ++flips)
      bytes[16 + rng() % (bytes.size() - 16)] ^= uint8_t(1u << (rng() % 8));
    std::string path = writeTemp(bytes);
    std::string text;
    inspectError(path, &text);
    llvm::sys::fs::remove(path);
    temps.pop_back();
  }
}

TEST_F(InspectTest, InspectsBytesInMemoryAsTheFile) {
  // The fuzzers' entry point: the same description, under the name given.
  std::vector<uint8_t> bytes = fatbin(true);
  std::string path = writeTemp(bytes), fromFile, fromBytes;
  ASSERT_EQ(inspectError(path, &fromFile), "");
  llvm::raw_string_ostream os(fromBytes);
  ASSERT_FALSE(static_cast<bool>(inspectArtifactBytes(bytes, path, os)));
  EXPECT_EQ(fromBytes, fromFile);
  std::string cut;
  llvm::raw_string_ostream cutOs(cut);
  llvm::Error err = inspectArtifactBytes(llvm::ArrayRef(bytes).take_front(20), "mem.fatbin", cutOs);
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_EQ(llvm::toString(std::move(err)),
            "blk: mem.fatbin: truncated fatbin: container at offset 0 declares " +
                std::to_string(bytes.size() - 16) + " bytes, 4 remain");
  EXPECT_EQ(cut, "");
}

TEST(InspectMissingFileTest, NamesTheFile) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::Error err = inspectArtifact("/nonexistent/x.fatbin", os);
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("/nonexistent/x.fatbin"), std::string::npos);
  EXPECT_EQ(text, "");
}
