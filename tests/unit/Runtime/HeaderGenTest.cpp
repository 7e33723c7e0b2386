//===- HeaderGenTest.cpp - generated launcher headers ---------------------===//
//
// Generates the launcher header for the fixture manifest and compiles it,
// with a program using it, as C++17 against runtime/include alone.
//
//===----------------------------------------------------------------------===//
#include "FixtureUtil.h"

#include "blk/runtime/Error.h"
#include "blk/runtime/HeaderGen.h"
#include "blk/runtime/Manifest.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace blk;
namespace fs = std::filesystem;

namespace {

Manifest fixtureManifest() {
  return parseManifest(test::fixtureManifestJson(), "kernels.fatbin");
}

/// Writes `header` and a program `body` using it into a fresh directory and
/// compiles the program with -std=c++17 against runtime/include alone, plus
/// `flags`. Returns the compiler's exit status; the log goes to `log`.
int compileWithHeader(const std::string &test, const std::string &header,
                      const std::string &body, std::string &log,
                      const std::string &flags = "") {
  fs::path dir = fs::path(BLK_TEST_TMPDIR) / test;
  fs::create_directories(dir);
  std::ofstream(dir / "kernels.hpp") << header;
  std::ofstream(dir / "use.cpp") << "#include \"kernels.hpp\"\n" << body;
  std::string cmd = std::string(BLK_CXX_COMPILER) +
                    " -std=c++17 -Wall -Wextra -Werror -pedantic "
                    "-fsyntax-only -I " BLK_RT_INCLUDE_DIR " " + flags + " " +
                    (dir / "use.cpp").string() + " > " +
                    (dir / "log.txt").string() + " 2>&1";
  int status = std::system(cmd.c_str());
  std::ifstream in(dir / "log.txt");
  log.assign(std::istreambuf_iterator<char>(in), {});
  return status;
}

const char *const kUse = R"(
void use(const blk::Context &ctx, blk::DeviceBuffer<float> &x,
         blk::DeviceBuffer<float> &y, blk::DeviceBuffer<int32_t> &i,
         const blk::Stream &stream) {
  kernels_blk::module m(ctx);
  m.double_grid(x, y, 10);
  m.double_grid(stream, x, y, 10);
  m.double_grid(blk::Grid{3}, x, y, 10);
  m.add_i32(i, i, i, 5);
  m.no_grid(blk::Grid{4}, i);
  m.scale_f64(blk::DevicePtr<double>(), blk::DevicePtr<double>(), 2.0, 7);
  kernels_blk::double_grid_kernel k(m.get(),
                                    kernels_blk::double_grid_configs[1]);
  k(x, y, 5);
  static_assert(kernels_blk::double_grid_configs[1].BLOCK == 256, "");
  static_assert(kernels_blk::double_grid_configs[1].num_warps == 2, "");
  static_assert(kernels_blk::fill2d_configs[0].BN == 32, "");
  const blk::Kernel &raw = m.double_grid.kernel();
  (void)raw;
}
int main() { return 0; }
)";

TEST(HeaderGen, WritesTypedLaunchers) {
  HeaderOptions options;
  options.fatbinPath = "/opt/x/kernels.fatbin";
  std::string h = generateLauncherHeader(fixtureManifest(), options);
  EXPECT_NE(h.find("namespace kernels_blk {"), std::string::npos);
  EXPECT_NE(h.find("/// `kernel double_grid(x: *f32 @aligned(16), out: *f32, "
                   "n: i32, const BLOCK: i32)`"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("void operator()(blk::DevicePtr<float> x, "
                   "blk::DevicePtr<float> out, int32_t n) const"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("{1024, 4}, // double_grid__BLOCK_1024__w4"),
            std::string::npos);
  EXPECT_NE(h.find("#ifndef KERNELS_BLK_FATBIN_PATH\n"
                   "#define KERNELS_BLK_FATBIN_PATH \"/opt/x/kernels.fatbin\"\n"
                   "#endif\n"
                   "inline constexpr const char kFatbinPath[] = "
                   "KERNELS_BLK_FATBIN_PATH;"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("double s, int64_t n"), std::string::npos);
  // no @grid: only the explicit-grid call operators
  size_t noGrid = h.find("class no_grid_kernel");
  ASSERT_NE(noGrid, std::string::npos);
  EXPECT_EQ(
      h.find("void operator()(blk::DevicePtr<int32_t> out) const", noGrid),
      std::string::npos);
}

TEST(HeaderGen, CompilesAsCxx17AgainstRuntimeHeadersAlone) {
  HeaderOptions options;
  options.fatbinPath = "/opt/x/kernels.fatbin";
  std::string log;
  EXPECT_EQ(compileWithHeader(
                "path", generateLauncherHeader(fixtureManifest(), options),
                kUse, log),
            0)
      << log;
}

const char *const kPathIs = R"(
constexpr bool same(const char *a, const char *b) {
  return *a == *b && (*a == 0 || same(a + 1, b + 1));
}
static_assert(same(kernels_blk::kFatbinPath, EXPECTED), "kFatbinPath");
int main() { return 0; }
)";

TEST(HeaderGen, FatbinPathIsADefaultTheMacroOverrides) {
  HeaderOptions options;
  options.fatbinPath = "build/kernels.fatbin";
  std::string h = generateLauncherHeader(fixtureManifest(), options);
  std::string log;
  EXPECT_EQ(compileWithHeader("path-default", h, kPathIs, log,
                              "'-DEXPECTED=\"build/kernels.fatbin\"'"),
            0)
      << log;
  EXPECT_EQ(compileWithHeader("path-macro", h, kPathIs, log,
                              "'-DEXPECTED=\"/opt/k.fatbin\"' "
                              "'-DKERNELS_BLK_FATBIN_PATH=\"/opt/k.fatbin\"'"),
            0)
      << log;
  // The check itself can fail: the default is not the macro's value.
  EXPECT_NE(compileWithHeader("path-mismatch", h, kPathIs, log,
                              "'-DEXPECTED=\"/opt/k.fatbin\"'"),
            0);
}

TEST(HeaderGen, SourceHashIsNotInTheHeader) {
  HeaderOptions options;
  options.fatbinPath = "kernels.fatbin";
  Manifest a = fixtureManifest(), b = fixtureManifest();
  a.sourceHash = "fnv1a64:0000000000000001";
  b.sourceHash = "fnv1a64:0000000000000002";
  std::string h = generateLauncherHeader(a, options);
  EXPECT_EQ(h, generateLauncherHeader(b, options));
  EXPECT_EQ(h.find("fnv1a64"), std::string::npos) << h;
}

TEST(HeaderGen, FatbinPathMacroIsTheNamespaceInUpperCase) {
  EXPECT_EQ(fatbinPathMacro("double_blk"), "DOUBLE_BLK_FATBIN_PATH");
  EXPECT_EQ(fatbinPathMacro("_3d_blk"), "_3D_BLK_FATBIN_PATH");
}

TEST(HeaderGen, EmbeddedImageCompiles) {
  HeaderOptions options;
  options.embeddedImage = {0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0};
  options.namespaceName = "kernels_blk";
  std::string h = generateLauncherHeader(fixtureManifest(), options);
  EXPECT_NE(h.find("alignas(8) inline constexpr unsigned char "
                   "kFatbinImage[] = {\n    80, 237, 85, 186, 1, 0, 16, 0,"),
            std::string::npos)
      << h;
  EXPECT_EQ(h.find("kFatbinPath"), std::string::npos);
  std::string log;
  EXPECT_EQ(compileWithHeader("embedded", h, kUse, log), 0) << log;
}

TEST(HeaderGen, WrongPointerTypeDoesNotCompile) {
  HeaderOptions options;
  options.fatbinPath = "k.fatbin";
  std::string log;
  EXPECT_NE(compileWithHeader(
                "negative", generateLauncherHeader(fixtureManifest(), options),
                R"(
void use(const blk::Context &ctx, blk::DeviceBuffer<int32_t> &i) {
  kernels_blk::module m(ctx);
  m.double_grid(i, i, 10); // *f32 parameters
}
int main() { return 0; }
)",
                log),
            0);
  EXPECT_NE(log.find("double_grid"), std::string::npos) << log;
}

TEST(HeaderGen, IdentifiersAvoidKeywords) {
  EXPECT_EQ(cppIdentifier("double"), "double_");
  EXPECT_EQ(cppIdentifier("module"), "module_");
  EXPECT_EQ(cppIdentifier("softmax"), "softmax");
  EXPECT_EQ(cppIdentifier("9lives"), "_9lives");
}

TEST(HeaderGen, NamespaceFromTheSourceStem) {
  Manifest m = fixtureManifest();
  m.source = "/src/samples/double.blk"; // a keyword stem still gives a name
  HeaderOptions options;
  options.fatbinPath = "double.fatbin";
  EXPECT_NE(generateLauncherHeader(m, options).find("namespace double_blk {"),
            std::string::npos);
  options.namespaceName = "mine";
  EXPECT_NE(generateLauncherHeader(m, options).find("namespace mine {"),
            std::string::npos);
}

TEST(HeaderGen, NeedsAPathOrAnImage) {
  EXPECT_THROW(generateLauncherHeader(fixtureManifest(), HeaderOptions{}),
               Error);
}

} // namespace
