//===- ManifestTest.cpp - manifest parsing and validation -----------------===//
#include "FixtureUtil.h"

#include "blk/runtime/Error.h"
#include "blk/runtime/Manifest.h"

using namespace blk;
using namespace blk::test;

namespace {

/// A one-kernel manifest whose kernel object is `kernel`.
std::string withKernel(const std::string &kernel) {
  return R"({"schema": 1, "kernels": [)" + kernel + "]}";
}

TEST(Manifest, ParsesTheDocumentedExample) {
  Manifest m = parseManifest(R"json({
    "schema": 1, "compiler": "blkc 0.1.0", "source": "samples/double.blk",
    "source_hash": "fnv1a64:0123456789abcdef", "archs": ["sm_90"],
    "kernels": [{
      "name": "double_grid",
      "params": [
        {"name": "x",   "type": "*f32", "aligned": 16},
        {"name": "out", "type": "*f32"},
        {"name": "n",   "type": "i32",  "multiple_of": 16}],
      "const_params": [{"name": "BLOCK", "type": "i32"}],
      "autotune_key": ["n"],
      "grid_source": ["cdiv(n, BLOCK)"],
      "specializations": [{
        "entry": "double_grid__BLOCK_1024__w4", "config": {"BLOCK": 1024},
        "num_warps": 4, "num_stages": 3, "threads": 128,
        "shared_static": 0, "shared_dynamic": 0,
        "grid": [{"op": "cdiv", "args": [{"param": 2}, {"int": 1024}]}]}]
    }]})json",
                             "double.fatbin");
  EXPECT_EQ(m.compiler, "blkc 0.1.0");
  EXPECT_EQ(m.source, "samples/double.blk");
  EXPECT_EQ(m.sourceHash, "fnv1a64:0123456789abcdef");
  ASSERT_EQ(m.archs.size(), 1u);
  ASSERT_EQ(m.kernels.size(), 1u);
  const KernelDesc &k = m.kernels[0];
  EXPECT_EQ(m.findKernel("double_grid"), &k);
  EXPECT_EQ(m.findKernel("nope"), nullptr);
  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_EQ(k.params[0].type, (ParamType{ScalarKind::F32, true}));
  EXPECT_EQ(k.params[0].aligned, 16u);
  EXPECT_EQ(k.params[2].multipleOf, 16);
  EXPECT_EQ(k.constParams[0].name, "BLOCK");
  EXPECT_EQ(k.autotuneKey, std::vector<std::string>{"n"});
  EXPECT_EQ(k.gridSource, std::vector<std::string>{"cdiv(n, BLOCK)"});
  const Specialization &s = k.specializations[0];
  EXPECT_EQ(s.entry, "double_grid__BLOCK_1024__w4");
  ASSERT_EQ(s.config.size(), 1u);
  EXPECT_EQ(s.config[0].name, "BLOCK");
  EXPECT_EQ(s.config[0].intValue, 1024);
  EXPECT_EQ(s.threads, 128);
  ASSERT_EQ(s.grid.size(), 1u);
  EXPECT_EQ(s.grid[0].kind, GridExpr::Kind::Op);
  EXPECT_EQ(s.grid[0].op, GridExpr::Op::Cdiv);
  EXPECT_EQ(s.grid[0].args[0].kind, GridExpr::Kind::Param);
  EXPECT_EQ(s.grid[0].args[1].value, 1024);
  EXPECT_EQ(formatConfig(s), "BLOCK=1024 num_warps=4");
}

TEST(Manifest, ParsesTheFixtureManifest) {
  Manifest m = parseManifest(test::fixtureManifestJson(), "kernels.fatbin");
  ASSERT_EQ(m.kernels.size(), 8u);
  EXPECT_EQ(m.kernels[0].specializations.size(), 2u);
  EXPECT_EQ(m.findKernel("fill2d")->specializations[0].grid.size(), 2u);
  EXPECT_TRUE(m.findKernel("no_grid")->specializations[0].grid.empty());
  EXPECT_EQ(m.findKernel("big_shared")->specializations[0].sharedDynamic,
            65536u);
}

TEST(Manifest, DefaultsThreadsFromWarps) {
  Manifest m = parseManifest(withKernel(R"({"name": "k", "params": [],
      "specializations": [{"entry": "k__w8", "num_warps": 8}]})"),
                             "m");
  EXPECT_EQ(m.kernels[0].specializations[0].threads, 256);
}

TEST(Manifest, TypeSpellings) {
  for (const char *t : {"i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32",
                        "u64", "f16", "bf16", "f32", "f64"}) {
    std::optional<ParamType> s = parseParamType(t);
    ASSERT_TRUE(s) << t;
    EXPECT_EQ(formatParamType(*s), t);
    std::optional<ParamType> p = parseParamType(std::string("*") + t);
    ASSERT_TRUE(p) << t;
    EXPECT_TRUE(p->pointer);
  }
  EXPECT_EQ(parseParamType("bool")->elem, ScalarKind::I1);
  EXPECT_FALSE(parseParamType("f8"));
  EXPECT_FALSE(parseParamType("**f32"));
  EXPECT_EQ(scalarKindSize(ScalarKind::BF16), 2u);
}

TEST(Manifest, RefusesMalformedJson) {
  EXPECT_EQ(parseError("{\"schema\": 1, "),
            "blk: m.fatbin: bad manifest: not valid JSON");
  EXPECT_EQ(parseError(""), "blk: m.fatbin: bad manifest: not valid JSON");
}

TEST(Manifest, RefusesOtherSchema) {
  EXPECT_EQ(parseError(R"({"schema": 2, "kernels": []})"),
            "blk: m.fatbin: bad manifest: schema: unsupported schema 2 (this "
            "runtime reads schema 1)");
  EXPECT_EQ(parseError(R"({"kernels": []})"),
            "blk: m.fatbin: bad manifest: manifest: missing \"schema\"");
}

TEST(Manifest, RefusesUnknownType) {
  EXPECT_EQ(parseError(withKernel(R"({"name": "k",
      "params": [{"name": "x", "type": "*f128"}],
      "specializations": [{"entry": "k"}]})")),
            "blk: m.fatbin: bad manifest: kernels[0] (`k`).params[0].type: "
            "unknown type `*f128`");
}

TEST(Manifest, RefusesBadGridReferences) {
  EXPECT_EQ(parseError(withKernel(R"({"name": "k",
      "params": [{"name": "n", "type": "i32"}],
      "specializations": [{"entry": "k", "grid": [{"param": 3}]}]})")),
            "blk: m.fatbin: bad manifest: kernels[0] (`k`).specializations[0]"
            ".grid[0]: parameter index 3 out of range");
  EXPECT_EQ(parseError(withKernel(R"({"name": "k",
      "params": [{"name": "x", "type": "*f32"}],
      "specializations": [{"entry": "k", "grid": [{"param": 0}]}]})")),
            "blk: m.fatbin: bad manifest: kernels[0] (`k`).specializations[0]"
            ".grid[0]: grid uses parameter `x`, which is not a scalar integer");
  EXPECT_EQ(parseError(withKernel(R"({"name": "k", "params": [],
      "specializations": [{"entry": "k",
        "grid": [{"op": "pow", "args": [{"int": 1}, {"int": 2}]}]}]})")),
            "blk: m.fatbin: bad manifest: kernels[0] (`k`).specializations[0]"
            ".grid[0]: unknown grid operator `pow`");
  EXPECT_EQ(parseError(withKernel(R"({"name": "k", "params": [],
      "specializations": [{"entry": "k",
        "grid": [{"op": "add", "args": [{"int": 1}]}]}]})")),
            "blk: m.fatbin: bad manifest: kernels[0] (`k`).specializations[0]"
            ".grid[0]: `add` takes 2 argument(s)");
  EXPECT_NE(parseError(withKernel(R"({"name": "k", "params": [],
      "specializations": [{"entry": "k", "grid": [{"int": 1}, {"int": 1},
        {"int": 1}, {"int": 1}]}]})")),
            "");
}

TEST(Manifest, RefusesStructuralErrors) {
  EXPECT_EQ(parseError(withKernel(R"({"name": "k", "params": []})")),
            "blk: m.fatbin: bad manifest: kernels[0] (`k`): missing "
            "\"specializations\"");
  EXPECT_EQ(parseError(withKernel(R"({"name": "k", "params": [],
      "specializations": []})")),
            "blk: m.fatbin: bad manifest: kernels[0] (`k`).specializations: "
            "expected a non-empty array");
  EXPECT_EQ(parseError(withKernel(R"({"name": 3})")),
            "blk: m.fatbin: bad manifest: kernels[0].name: expected a string");
  EXPECT_EQ(parseError(withKernel(R"({"name": "k", "params": [],
      "specializations": [{"entry": "k", "threads": 4096}]})")),
            "blk: m.fatbin: bad manifest: kernels[0] (`k`).specializations[0]: "
            "bad launch shape: 4096 threads, 4 warps");
  EXPECT_EQ(parseError(withKernel(R"({"name": "k", "params":
      [{"name": "x", "type": "*f32", "aligned": 12}],
      "specializations": [{"entry": "k"}]})")),
            "blk: m.fatbin: bad manifest: kernels[0] (`k`).params[0].aligned: "
            "not a power of two");
  EXPECT_NE(parseError(R"({"schema": 1, "kernels": [
      {"name": "k", "params": [], "specializations": [{"entry": "a"}]},
      {"name": "k", "params": [], "specializations": [{"entry": "b"}]}]})"),
            "");
  EXPECT_NE(parseError("[1, 2, 3]"), "");
  EXPECT_NE(parseError(R"({"schema": 1, "kernels": {}})"), "");
}

} // namespace
