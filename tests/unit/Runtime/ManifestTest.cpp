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
  EXPECT_EQ(configKey(s), "BLOCK=1024 num_warps=4 num_stages=3");
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
                        "u64", "f16", "bf16", "f32", "f64", "f8e4m3", "f8e5m2"}) {
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
  EXPECT_EQ(scalarKindSize(ScalarKind::F8E4M3), 1u);
  EXPECT_TRUE(isFloatKind(ScalarKind::F8E5M2));
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

// `persistent` is a boolean, and its grid has one axis (the launch clamps x).
TEST(Manifest, RefusesBadPersistent) {
  EXPECT_EQ(parseError(withKernel(R"({"name": "k", "params": [],
      "specializations": [{"entry": "k", "persistent": 1, "grid": [{"int": 4}]}]})")),
            "blk: m.fatbin: bad manifest: kernels[0] (`k`).specializations[0]"
            ".persistent: expected a boolean");
  EXPECT_EQ(parseError(withKernel(R"({"name": "k", "params": [],
      "specializations": [{"entry": "k", "persistent": true,
        "grid": [{"int": 4}, {"int": 2}]}]})")),
            "blk: m.fatbin: bad manifest: kernels[0] (`k`).specializations[0]"
            ".persistent: a persistent specialisation walks a one-axis grid, found 2 axes");
  Manifest m = parseManifest(withKernel(R"({"name": "k", "params": [],
      "specializations": [{"entry": "k", "persistent": true, "grid": [{"int": 4}]}]})"),
                             "m.fatbin");
  EXPECT_TRUE(m.kernels[0].specializations[0].persistent);
  EXPECT_EQ(configKey(m.kernels[0].specializations[0]), "num_warps=4 num_stages=3 persistent=1");
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

/// A one-kernel manifest whose one specialisation has `fields` added.
std::string withSpec(const std::string &fields) {
  return withKernel(R"({"name": "k", "params": [{"name": "n", "type": "i32"}],
      "specializations": [{"entry": "k", )" +
                    fields + "}]}");
}

const std::string kSpecAt =
    "blk: m.fatbin: bad manifest: kernels[0] (`k`).specializations[0]";

// Issue 19: every integer is range-checked into its field before narrowing.
TEST(Manifest, RangeChecksIntegersBeforeNarrowing) {
  EXPECT_EQ(parseError(withSpec(R"("num_warps": 4294967297)")),
            kSpecAt + ".num_warps: 4294967297 is not a power of two from 1 "
                      "to 32");
  EXPECT_EQ(parseError(withSpec(R"("num_warps": 18446744073709551615)")),
            kSpecAt + ".num_warps: 18446744073709551615 is out of range "
                      "(a 64-bit signed integer)");
  EXPECT_EQ(parseError(withSpec(R"("num_stages": 4294967297)")),
            kSpecAt + ".num_stages: 4294967297 is out of range (1 to "
                      "2147483647)");
  EXPECT_EQ(parseError(withSpec(R"("threads": 4294967424)")),
            kSpecAt + ": bad launch shape: 4294967424 threads, 4 warps");
  EXPECT_EQ(parseError(R"({"schema": 4294967297, "kernels": []})"),
            "blk: m.fatbin: bad manifest: schema: unsupported schema "
            "4294967297 (this runtime reads schema 1)");
  EXPECT_EQ(parseError(withSpec(R"("config": {"B": 9223372036854775808})")),
            kSpecAt + ".config.B: 9223372036854775808 is out of range (a "
                      "64-bit signed integer)");
  EXPECT_EQ(parseError(withSpec(R"("grid": [{"int": 18446744073709551615}])")),
            kSpecAt + ".grid[0].int: 18446744073709551615 is out of range "
                      "(a 64-bit signed integer)");
  EXPECT_EQ(parseError(withKernel(R"({"name": "k",
      "params": [{"name": "n", "type": "i32",
                  "multiple_of": 18446744073709551615}],
      "specializations": [{"entry": "k"}]})")),
            "blk: m.fatbin: bad manifest: kernels[0] (`k`).params[0]"
            ".multiple_of: 18446744073709551615 is out of range (a 64-bit "
            "signed integer)");
}

TEST(Manifest, ChecksLaunchShape) {
  for (const char *w : {"0", "-4", "3", "33", "64"})
    EXPECT_EQ(parseError(withSpec(std::string("\"num_warps\": ") + w)),
              kSpecAt + ".num_warps: " + w +
                  " is not a power of two from 1 "
                  "to 32")
        << w;
  for (const char *s : {"0", "-1"})
    EXPECT_EQ(parseError(withSpec(std::string("\"num_stages\": ") + s)),
              kSpecAt + ".num_stages: " + s +
                  " is out of range (1 to "
                  "2147483647)")
        << s;
  // Code built for 128 threads must not be launched with 64.
  EXPECT_EQ(parseError(withSpec(R"("num_warps": 4, "threads": 64)")),
            kSpecAt + ".threads: 64, but num_warps 4 means 128 threads");
  EXPECT_EQ(parseError(withSpec(R"("num_warps": 32, "threads": 1024,
                                   "num_stages": 1)")),
            "");
  for (int w = 1; w <= 32; w *= 2)
    EXPECT_EQ(parseError(withSpec("\"num_warps\": " + std::to_string(w))), "")
        << w;
}

// A warp-specialised entry (docs/manifest.md `producer_warps`) is launched
// with its producer warpgroup besides its num_warps warps.
TEST(Manifest, CountsProducerWarpsInTheLaunchShape) {
  Manifest m = parseManifest(withSpec(R"("num_warps": 8, "producer_warps": 4,
                                        "threads": 384, "config": {"BM": 128})"),
                             "m.fatbin");
  const Specialization &s = m.kernels[0].specializations[0];
  EXPECT_EQ(s.numWarps, 8);
  EXPECT_EQ(s.producerWarps, 4);
  EXPECT_EQ(s.threads, 384);
  // Without `config_key` the runtime's twin of blkc's key tells it apart
  // from the same values without producers.
  EXPECT_EQ(s.configKey, "BM=128 num_warps=8 num_stages=3 warp_specialize=1");
  // `threads` defaults to the launch shape with the producers.
  EXPECT_EQ(parseManifest(withSpec(R"("num_warps": 8, "producer_warps": 4)"), "m.fatbin")
                .kernels[0]
                .specializations[0]
                .threads,
            384);
  // Absent means none.
  Manifest without = parseManifest(withSpec(R"("num_warps": 8)"), "m.fatbin");
  const Specialization &plain = without.kernels[0].specializations[0];
  EXPECT_EQ(plain.producerWarps, 0);
  EXPECT_EQ(plain.configKey, "num_warps=8 num_stages=3");
}

TEST(Manifest, RefusesOtherProducerWarps) {
  EXPECT_EQ(parseError(withSpec(R"("num_warps": 8, "producer_warps": 3, "threads": 352)")),
            kSpecAt + ".producer_warps: 3 is not 0 or 4");
  EXPECT_EQ(parseError(withSpec(R"("num_warps": 8, "producer_warps": -4)")),
            kSpecAt + ".producer_warps: -4 is not 0 or 4");
  // Code built for 384 threads must not be launched with 256.
  EXPECT_EQ(parseError(withSpec(R"("num_warps": 8, "producer_warps": 4, "threads": 256)")),
            kSpecAt + ".threads: 256, but num_warps 8 and producer_warps 4 mean 384 threads");
  // 32 + 4 warps are more than a program may have.
  EXPECT_EQ(parseError(withSpec(R"("num_warps": 32, "producer_warps": 4)")),
            kSpecAt + ": bad launch shape: 1152 threads, 32 warps");
}

TEST(Manifest, ChecksNames) {
  EXPECT_EQ(parseError(withKernel(R"({"name": "", "params": [],
      "specializations": [{"entry": "k"}]})")),
            "blk: m.fatbin: bad manifest: kernels[0].name: empty name");
  EXPECT_EQ(parseError(withKernel(R"({"name": "k\u0000x", "params": [],
      "specializations": [{"entry": "k"}]})")),
            "blk: m.fatbin: bad manifest: kernels[0].name: the name holds a "
            "NUL character");
  EXPECT_EQ(parseError(withKernel(R"({"name": "k", "params": [],
      "specializations": [{"entry": "k\u0000"}]})")),
            kSpecAt + ".entry: the name holds a NUL character");
  EXPECT_EQ(parseError(withKernel(R"({"name": "k",
      "params": [{"name": "a\u0000", "type": "i32"}],
      "specializations": [{"entry": "k"}]})")),
            "blk: m.fatbin: bad manifest: kernels[0] (`k`).params[0].name: "
            "the name holds a NUL character");
  // A long name is cut short in messages.
  std::string longName(100000, 'n');
  std::string msg =
      parseError(withKernel(R"({"name": ")" + longName + R"(", "params": 3})"));
  EXPECT_NE(msg.find("params: expected an array"), std::string::npos) << msg;
  EXPECT_LT(msg.size(), 300u);
}

TEST(Manifest, RefusesEmptyKernelList) {
  EXPECT_EQ(parseError(R"({"schema": 1, "kernels": []})"),
            "blk: m.fatbin: bad manifest: kernels: expected a non-empty "
            "array");
}

TEST(Manifest, BoundsNesting) {
  // 100k levels: refused before anything walks the tree recursively.
  const size_t deep = 100000;
  std::string when = std::string(deep, '[') + "1" + std::string(deep, ']');
  std::string variant = withKernel(
      R"({"name": "k", "params": [{"name": "n", "type": "i32"}],
          "specialize": [0], "specializations": [{"entry": "k",
          "variants": [{"entry": "k__v1", "when": [)" +
      when + "]}]}]}");
  EXPECT_EQ(parseError(variant), "blk: m.fatbin: bad manifest: the JSON is "
                                 "nested more than 256 levels deep");
  std::string grid;
  for (size_t i = 0; i < deep; ++i)
    grid += R"({"op": "neg", "args": [)";
  grid += R"({"int": 1})";
  for (size_t i = 0; i < deep; ++i)
    grid += "]}";
  EXPECT_EQ(parseError(withSpec("\"grid\": [" + grid + "]")),
            "blk: m.fatbin: bad manifest: the JSON is nested more than 256 "
            "levels deep");
  // Within the document's bound, a grid expression has its own: 64 levels.
  grid.clear();
  for (size_t i = 0; i < 65; ++i)
    grid += R"({"op": "neg", "args": [)";
  grid += R"({"int": 1})";
  for (size_t i = 0; i < 65; ++i)
    grid += "]}";
  std::string msg = parseError(withSpec("\"grid\": [" + grid + "]"));
  EXPECT_NE(msg.find("grid expression nested more than 64 levels deep"),
            std::string::npos)
      << msg;
  EXPECT_LT(msg.size(), 300u);
  // A bad value is described, not dumped whole, in the message.
  std::string wide = "[";
  for (int i = 0; i < 20000; ++i)
    wide += (i ? ",[" : "[") + std::to_string(i) + "]";
  wide += "]";
  msg = parseError(withKernel(
      R"({"name": "k", "params": [{"name": "n", "type": "i32"}],
          "specialize": [0], "specializations": [{"entry": "k",
          "variants": [{"entry": "k__v1", "when": [)" +
      wide + "]}]}]}"));
  EXPECT_NE(msg.find("class an array is not 1, 16 or 0"), std::string::npos)
      << msg.substr(0, 400);
  EXPECT_LT(msg.size(), 300u);
}

} // namespace
