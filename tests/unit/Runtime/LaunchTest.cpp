//===- LaunchTest.cpp - argument checking and grid evaluation -------------===//
#include "FixtureUtil.h"

#include "blk/runtime/DeviceBuffer.h"
#include "blk/runtime/Error.h"
#include "blk/runtime/Launch.h"
#include "blk/runtime/Manifest.h"

#include <array>

using namespace blk;

namespace {

class LaunchChecks : public ::testing::Test {
protected:
  Manifest m = parseManifest(test::fixtureManifestJson(), "kernels.fatbin");
  const KernelDesc &kernel(const char *name) { return *m.findKernel(name); }

  /// The blk::Error message of checking `args` against kernel `name`.
  template <class... Args>
  std::string check(const char *name, const Args &...args) {
    std::array<ArgValue, sizeof...(Args) ? sizeof...(Args) : 1> v{
        {ArgTraits<Args>::make(args)...}};
    last = v[0];
    try {
      checkArguments(kernel(name), v.data(), sizeof...(Args));
      values.assign(v.begin(), v.begin() + sizeof...(Args));
    } catch (const Error &e) {
      return e.what();
    }
    return "";
  }
  std::vector<ArgValue> values; ///< converted arguments of the last success
  ArgValue last;
};

TEST_F(LaunchChecks, AcceptsMatchingArguments) {
  DeviceBuffer<float> x, out; // empty buffers: address 0, no driver needed
  EXPECT_EQ(check("double_grid", x, out, int32_t(5000)), "");
  EXPECT_EQ(values[2].bits, 5000u);
  EXPECT_EQ(check("double_grid", DevicePtr<const float>(0x1000),
                  DevicePtr<float>(0x2000), 7),
            "");
  EXPECT_EQ(values[0].bits, 0x1000u);
}

TEST_F(LaunchChecks, NamesParameterOfWrongPointerType) {
  DeviceBuffer<float> f;
  DeviceBuffer<int32_t> i;
  EXPECT_EQ(check("add_i32", f, i, i, 10),
            "blk: kernel `add_i32`: argument 1 `a`: expected `*i32`, got "
            "DeviceBuffer<float> (`*f32`)");
  EXPECT_EQ(check("add_i32", i, i, DevicePtr<double>(0x100), 10),
            "blk: kernel `add_i32`: argument 3 `out`: expected `*i32`, got "
            "DevicePtr<double> (`*f64`)");
}

TEST_F(LaunchChecks, ScalarPointerMixups) {
  DeviceBuffer<float> x;
  EXPECT_EQ(check("double_grid", x, 3, 3),
            "blk: kernel `double_grid`: argument 2 `out`: expected `*f32`, "
            "got int32_t (`i32`)");
  EXPECT_EQ(check("double_grid", x, x, x),
            "blk: kernel `double_grid`: argument 3 `n`: expected `i32`, got "
            "DeviceBuffer<float> (`*f32`)");
}

TEST_F(LaunchChecks, CountMismatch) {
  DeviceBuffer<float> x;
  EXPECT_EQ(check("double_grid", x, x),
            "blk: kernel `double_grid`: expected 3 argument(s) (x: *f32, "
            "out: *f32, n: i32), got 2");
}

TEST_F(LaunchChecks, PointerAlignment) {
  EXPECT_EQ(check("double_grid", DevicePtr<float>(0x1000),
                  DevicePtr<float>(0x2002), 1),
            "blk: kernel `double_grid`: argument 2 `out`: pointer 0x2002 is "
            "misaligned for `*f32` (needs 4-byte alignment)");
  EXPECT_EQ(check("double_grid", DevicePtr<float>(0x1004),
                  DevicePtr<float>(0x2000), 1),
            "blk: kernel `double_grid`: argument 1 `x`: pointer 0x1004 "
            "violates the hint @aligned(16)");
  // DevicePtr arithmetic keeps the type: +1 float = 4 bytes.
  DevicePtr<float> base(0x1000);
  EXPECT_EQ((base + 4).address, 0x1010u);
}

TEST_F(LaunchChecks, MultipleOfHint) {
  DeviceBuffer<float> x;
  EXPECT_EQ(check("hinted", x, x, 1024), "");
  EXPECT_EQ(check("hinted", x, x, 1000),
            "blk: kernel `hinted`: argument 3 `n`: value 1000 violates the "
            "hint @multiple_of(16)");
}

TEST_F(LaunchChecks, IntegerConversions) {
  DeviceBuffer<double> d;
  // int -> i64 sign-extends; float -> f64 widens.
  EXPECT_EQ(check("scale_f64", d, d, 2.5f, -3), "");
  EXPECT_EQ(values[3].bits, uint64_t(int64_t(-3)));
  double s;
  std::memcpy(&s, &values[2].bits, 8);
  EXPECT_EQ(s, 2.5);
  // size_t / int64 -> i32 when the value fits.
  DeviceBuffer<float> x;
  EXPECT_EQ(check("double_grid", x, x, size_t(4096)), "");
  EXPECT_EQ(values[2].bits, 4096u);
  EXPECT_EQ(check("double_grid", x, x, int64_t(-5)), "");
  EXPECT_EQ(values[2].bits, 0xfffffffbu); // i32 -5, upper bits clear
  EXPECT_EQ(check("double_grid", x, x, int64_t(1) << 40),
            "blk: kernel `double_grid`: argument 3 `n`: expected `i32`, got "
            "int64_t (`i64`) with value 1099511627776, which does not fit");
  EXPECT_EQ(check("double_grid", x, x, uint32_t(3000000000u)),
            "blk: kernel `double_grid`: argument 3 `n`: expected `i32`, got "
            "uint32_t (`u32`) with value 3000000000, which does not fit");
}

TEST_F(LaunchChecks, FloatAndBoolMismatches) {
  DeviceBuffer<float> x;
  EXPECT_EQ(check("double_grid", x, x, 2.0),
            "blk: kernel `double_grid`: argument 3 `n`: expected `i32`, got "
            "double (`f64`)");
  EXPECT_EQ(check("double_grid", x, x, true),
            "blk: kernel `double_grid`: argument 3 `n`: expected `i32`, got "
            "bool (`i1`)");
  DeviceBuffer<double> d;
  EXPECT_EQ(check("scale_f64", d, d, 2, 1),
            "blk: kernel `scale_f64`: argument 3 `s`: expected `f64`, got "
            "int32_t (`i32`)");
  EXPECT_EQ(check("scale_f64", d, d, blk::half{0x3c00}, 1),
            "blk: kernel `scale_f64`: argument 3 `s`: expected `f64`, got "
            "blk::half (`f16`)");
}

TEST_F(LaunchChecks, VoidPointerMatchesAnyPointee) {
  void *raw = reinterpret_cast<void *>(0x4000);
  EXPECT_EQ(check("double_grid", raw, DevicePtr<void>(0x8000), 1), "");
  EXPECT_EQ(check("add_i32", raw, raw, raw, 1), "");
  EXPECT_EQ(check("double_grid", raw, reinterpret_cast<void *>(0x8001), 1),
            "blk: kernel `double_grid`: argument 2 `out`: pointer 0x8001 is "
            "misaligned for `*f32` (needs 4-byte alignment)");
}

/// Evaluates the grid of kernel `name`, first specialisation, over `args`.
template <class... Args>
Grid gridOf(const Manifest &m, const char *name, const Args &...args) {
  const KernelDesc &k = *m.findKernel(name);
  GridProgram p = compileGrid(k.specializations[0].grid, k.params, k.name);
  std::array<ArgValue, sizeof...(Args)> v{{ArgTraits<Args>::make(args)...}};
  checkArguments(k, v.data(), v.size());
  return evaluateGrid(p, v.data(), k.name);
}

TEST_F(LaunchChecks, GridFromManifest) {
  DeviceBuffer<float> x;
  Grid g = gridOf(m, "double_grid", x, x, 5000);
  EXPECT_EQ(g.x, 5);
  EXPECT_EQ(g.y, 1);
  EXPECT_EQ(g.z, 1);
  EXPECT_EQ(gridOf(m, "double_grid", x, x, 1024).x, 1);
  EXPECT_EQ(gridOf(m, "double_grid", x, x, 0).x, 0);
  Grid g2 = gridOf(m, "fill2d", x, 100, 65);
  EXPECT_EQ(g2.x, 7); // cdiv(100, 16)
  EXPECT_EQ(g2.y, 3); // cdiv(65, 32)
  EXPECT_EQ(g2.z, 1);
  DeviceBuffer<double> d;
  EXPECT_EQ(gridOf(m, "scale_f64", d, d, 1.0, int64_t(1) << 33).x, int64_t(1)
                                                                       << 26);
}

TEST(GridProgram, AllOperatorsTruncateLikeC) {
  Manifest m = parseManifest(R"({"schema": 1, "kernels": [{"name": "k",
      "params": [{"name": "a", "type": "i32"}, {"name": "b", "type": "u8"}],
      "specializations": [{"entry": "k", "grid": [
        {"op": "add", "args": [
          {"op": "mul", "args": [{"op": "div", "args": [{"param": 0}, {"int": 4}]}, {"int": 100}]},
          {"op": "mod", "args": [{"param": 0}, {"int": 4}]}]},
        {"op": "max", "args": [{"op": "neg", "args": [{"param": 1}]},
                               {"op": "min", "args": [{"int": 9}, {"op": "sub", "args": [{"param": 1}, {"int": 1}]}]}]},
        {"op": "cdiv", "args": [{"op": "neg", "args": [{"param": 0}]}, {"int": 4}]}
      ]}]}]})",
                             "ops");
  const KernelDesc &k = m.kernels[0];
  GridProgram p = compileGrid(k.specializations[0].grid, k.params, "k");
  EXPECT_EQ(p.dims, 3u);
  std::array<ArgValue, 2> v{
      {ArgTraits<int32_t>::make(-7), ArgTraits<uint8_t>::make(200)}};
  Grid g = evaluateGrid(p, v.data(), "k");
  EXPECT_EQ(g.x, -1 * 100 + -3); // -7/4 = -1, -7%4 = -3 (truncating)
  EXPECT_EQ(g.y, 9);             // max(-200, min(9, 199))
  EXPECT_EQ(g.z, 2);             // cdiv(7, 4)
}

TEST(GridProgram, DivisionByZeroIsAnError) {
  Manifest m = parseManifest(R"({"schema": 1, "kernels": [{"name": "k",
      "params": [{"name": "n", "type": "i32"}],
      "specializations": [{"entry": "k", "grid": [
        {"op": "cdiv", "args": [{"int": 10}, {"param": 0}]}]}]}]})",
                             "z");
  const KernelDesc &k = m.kernels[0];
  GridProgram p = compileGrid(k.specializations[0].grid, k.params, "k");
  ArgValue zero = ArgTraits<int32_t>::make(0);
  try {
    evaluateGrid(p, &zero, "k");
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "blk: kernel `k`: @grid divides by zero");
    EXPECT_EQ(e.kernel(), "k");
  }
}

TEST(LaunchShape, LimitsAndEmptyGrids) {
  Specialization spec;
  spec.threads = 128;
  LaunchLimits limits;
  EXPECT_TRUE(checkLaunchShape(Grid{4, 2}, spec, limits, "k"));
  EXPECT_FALSE(checkLaunchShape(Grid{0}, spec, limits, "k"));
  try {
    checkLaunchShape(Grid{1, 70000}, spec, limits, "k");
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "blk: kernel `k`: grid dimension y = 70000 is "
                           "outside [0, 65535]");
  }
  EXPECT_THROW(checkLaunchShape(Grid{-1}, spec, limits, "k"), Error);
  spec.sharedDynamic = 300 * 1024;
  EXPECT_THROW(checkLaunchShape(Grid{1}, spec, limits, "k"), Error);
}

} // namespace
