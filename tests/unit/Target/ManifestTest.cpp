//===- ManifestTest.cpp - manifest JSON from blk IR attributes ------------===//
#include "blk/Target/Manifest.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"


#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace blk::target;
using Json = nlohmann::ordered_json;

namespace {
class ManifestTest : public ::testing::Test {
protected:
  ManifestTest() {
    context.loadDialect<mlir::func::FuncDialect>();
    // Only attributes are read: the blk dialect's types may stay opaque.
    context.allowUnregisteredDialects();
  }

  llvm::Expected<std::string> build(llvm::StringRef ir, const ManifestOptions &options) {
    module = mlir::parseSourceString<mlir::ModuleOp>(ir, &context);
    if (!module)
      return llvm::createStringError("test IR does not parse");
    return buildManifest(*module, options);
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};
} // namespace

// Two specialisations of one kernel with @grid, and a kernel without.
static const char *kTwoKernels = R"mlir(
module attributes {blk.source = "samples/double.blk", blk.source_hash = "fnv1a64:0123456789abcdef"} {
  func.func @double_grid__BLOCK_1024__w4(%x: !blk.ptr<f32> {blk.aligned = 16 : i32},
      %out: !blk.ptr<f32>, %n: i32 {blk.multiple_of = 16 : i32})
      attributes {blk.kernel = "double_grid", blk.num_warps = 4 : i32, blk.num_stages = 3 : i32,
                  blk.config = {BLOCK = 1024 : i64, ZFLAG = true},
                  blk.param_names = ["x", "out", "n"], blk.param_types = ["*f32", "*f32", "i32"],
                  blk.const_params = ["ZFLAG:bool", "BLOCK:i32"], blk.autotune_key = ["n"],
                  blk.grid_source = ["cdiv(n, BLOCK)"],
                  blk.grid = "[{\"op\": \"cdiv\", \"args\": [{\"param\": 2}, {\"int\": 1024}]}]"} {
    return
  }
  func.func @helper() {
    return
  }
  func.func @double_grid__BLOCK_256__w8(%x: !blk.ptr<f32> {blk.aligned = 16 : i32},
      %out: !blk.ptr<f32>, %n: i32 {blk.multiple_of = 16 : i32})
      attributes {blk.kernel = "double_grid", blk.num_warps = 8 : i32, blk.num_stages = 2 : i32,
                  blk.config = {BLOCK = 256 : i64, ZFLAG = false},
                  blk.param_names = ["x", "out", "n"], blk.param_types = ["*f32", "*f32", "i32"],
                  blk.const_params = ["ZFLAG:bool", "BLOCK:i32"], blk.autotune_key = ["n"],
                  blk.grid_source = ["cdiv(n, BLOCK)"],
                  blk.grid = "[{\"op\": \"cdiv\", \"args\": [{\"param\": 2}, {\"int\": 256}]}]"} {
    return
  }
  func.func @copy__w4(%a: !blk.ptr<u8>, %k: i64)
      attributes {blk.kernel = "copy", blk.num_warps = 4 : i32,
                  blk.param_names = ["a", "k"], blk.param_types = ["*u8", "u64"]} {
    return
  }
}
)mlir";

TEST_F(ManifestTest, MatchesTheSchema) {
  ManifestOptions options;
  options.archs = {"sm_80", "sm_90"};
  options.compiler = "blkc 9.9.9";
  options.shared["double_grid__BLOCK_256__w8"] = {2048, 512};
  auto text = build(kTwoKernels, options);
  ASSERT_TRUE(static_cast<bool>(text)) << llvm::toString(text.takeError());
  Json expected = Json::parse(R"json({
    "schema": 1, "compiler": "blkc 9.9.9", "source": "samples/double.blk",
    "source_hash": "fnv1a64:0123456789abcdef", "archs": ["sm_80", "sm_90"],
    "kernels": [{
      "name": "double_grid",
      "params": [{"name": "x", "type": "*f32", "aligned": 16, "access": "none"},
                 {"name": "out", "type": "*f32", "access": "none"},
                 {"name": "n", "type": "i32", "multiple_of": 16}],
      "const_params": [{"name": "ZFLAG", "type": "bool"}, {"name": "BLOCK", "type": "i32"}],
      "autotune_key": ["n"], "grid_source": ["cdiv(n, BLOCK)"],
      "specializations": [
        {"entry": "double_grid__BLOCK_1024__w4", "config": {"ZFLAG": true, "BLOCK": 1024},
         "config_key": "ZFLAG=true BLOCK=1024 num_warps=4 num_stages=3", "num_warps": 4, "num_stages": 3, "threads": 128, "shared_static": 0, "shared_dynamic": 0,
         "grid": [{"op": "cdiv", "args": [{"param": 2}, {"int": 1024}]}]},
        {"entry": "double_grid__BLOCK_256__w8", "config": {"ZFLAG": false, "BLOCK": 256},
         "config_key": "ZFLAG=false BLOCK=256 num_warps=8 num_stages=2", "num_warps": 8, "num_stages": 2, "threads": 256, "shared_static": 2048, "shared_dynamic": 512,
         "grid": [{"op": "cdiv", "args": [{"param": 2}, {"int": 256}]}]}]
    }, {
      "name": "copy",
      "params": [{"name": "a", "type": "*u8", "access": "none"}, {"name": "k", "type": "u64"}],
      "const_params": [], "autotune_key": [], "grid_source": [],
      "specializations": [
        {"entry": "copy__w4", "config": {}, "config_key": "num_warps=4 num_stages=1",
         "num_warps": 4, "num_stages": 1, "threads": 128,
         "shared_static": 0, "shared_dynamic": 0}]
    }]})json");
  Json actual = Json::parse(*text);
  EXPECT_EQ(actual, expected) << actual.dump(2);
  // ordered_json compares order too: the key order of docs/manifest.md.
  EXPECT_EQ(actual.dump(), expected.dump());
  EXPECT_EQ(text->find('\n'), std::string::npos) << "manifest is written compactly";
}

// `@autotune` beyond its key and `@requires`, as IRGen writes them
// (docs/ir.md), and a float const value in the config key.
static const char *kTuned = R"mlir(
module {
  func.func @mm__BM_64__w4(%c: !blk.ptr<f32>, %m: i32)
      attributes {blk.kernel = "mm", blk.num_warps = 4 : i32, blk.num_stages = 3 : i32,
                  blk.config = {BM = 64 : i64, S = 1.0e-01 : f64},
                  blk.param_names = ["c", "m"], blk.param_types = ["*f32", "i32"],
                  blk.const_params = ["BM:i32", "S:f32"], blk.autotune_key = ["m"],
                  blk.autotune = {bucket = array<i64: 1, 16, 64>, restore = ["c"], zero = []},
                  blk.requires = "[{\"op\": \"le\", \"args\": [{\"param\": 1}, {\"int\": 64}]}]"} {
    return
  }
  func.func @mm__BM_64__w4__auto(%c: !blk.ptr<f32>, %m: i32)
      attributes {blk.kernel = "mm", blk.num_warps = 4 : i32, blk.variant_of = "mm__BM_64__w4",
                  blk.variant_assume = array<i64: 1, 2, 16>,
                  blk.param_names = ["c", "m"], blk.param_types = ["*f32", "i32"]} {
    return
  }
  func.func @mm__BM_128__w8(%c: !blk.ptr<f32>, %m: i32)
      attributes {blk.kernel = "mm", blk.num_warps = 8 : i32, blk.num_stages = 3 : i32,
                  blk.config = {BM = 128 : i64, S = 2.5e+00 : f64},
                  blk.param_names = ["c", "m"], blk.param_types = ["*f32", "i32"],
                  blk.const_params = ["BM:i32", "S:f32"], blk.autotune_key = ["m"],
                  blk.autotune = {bucket = "exact", restore = ["c"], zero = []}} {
    return
  }
}
)mlir";

TEST_F(ManifestTest, AutotuneRequiresAndConfigKey) {
  auto text = build(kTuned, {});
  ASSERT_TRUE(static_cast<bool>(text)) << llvm::toString(text.takeError());
  Json kernel = Json::parse(*text)["kernels"][0];
  // The kernel-level fields come from its first specialisation.
  EXPECT_EQ(kernel["autotune"].dump(),
            R"({"key":["m"],"bucket":[1,16,64],"restore":["c"],"zero":[]})");
  Json first = kernel["specializations"][0], second = kernel["specializations"][1];
  EXPECT_EQ(first["config_key"], "BM=64 S=0.1 num_warps=4 num_stages=3");
  EXPECT_EQ(second["config_key"], "BM=128 S=2.5 num_warps=8 num_stages=3");
  EXPECT_EQ(first["requires"].dump(), R"([{"op":"le","args":[{"param":1},{"int":64}]}])");
  EXPECT_FALSE(second.contains("requires")) << "absent when nothing is required";
  EXPECT_FALSE(first.contains("code_hash")) << "no code given, no hash";
}

TEST_F(ManifestTest, CodeHashCoversTheVariantsAndOnlyThem) {
  ManifestOptions options;
  options.entryCode["mm__BM_64__w4"] = ".entry a\n";
  options.entryCode["mm__BM_64__w4__auto"] = ".entry b\n";
  options.entryCode["mm__BM_128__w8"] = ".entry c\n";
  auto hashes = [&]() {
    auto text = build(kTuned, options);
    EXPECT_TRUE(static_cast<bool>(text)) << llvm::toString(text.takeError());
    Json specs = Json::parse(*text)["kernels"][0]["specializations"];
    return std::make_pair(specs[0]["code_hash"].get<std::string>(),
                          specs[1]["code_hash"].get<std::string>());
  };
  auto [first, second] = hashes();
  EXPECT_EQ(first.size(), 16u);
  EXPECT_EQ(first.find_first_not_of("0123456789abcdef"), std::string::npos) << first;
  EXPECT_NE(first, second);
  // A comment, a blank line or line info is not code.
  options.entryCode["mm__BM_64__w4"] = "// callseq 7\n.loc 1 2 3\n\n.entry a // x\n.file 1 \"k.blk\"\n";
  EXPECT_EQ(hashes(), std::make_pair(first, second));
  // The variant's code is part of its specialisation's hash, not another's.
  options.entryCode["mm__BM_64__w4__auto"] = ".entry B\n";
  auto [changed, unchanged] = hashes();
  EXPECT_NE(changed, first);
  EXPECT_EQ(unchanged, second);
  options.entryCode.erase("mm__BM_128__w8");
  auto missing = build(kTuned, options);
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()), "no code for entry `mm__BM_128__w8` (code_hash)");
}

/// A table of one device whose entries are `entries` (JSON text).
static TuningTable table(const std::string &entries) {
  auto parsed = parseTuningTable(
      R"({"format": "blk-tuning", "version": 1, "device": {"sm": 90, "name": "H200"},
          "entries": [)" + entries + "]}", "t.json");
  EXPECT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  return parsed ? std::move(*parsed) : TuningTable{};
}

TEST_F(ManifestTest, EmbedsTuningTablesNormalised) {
  ManifestOptions options;
  options.entryCode["mm__BM_64__w4"] = "a";
  options.entryCode["mm__BM_64__w4__auto"] = "b";
  options.entryCode["mm__BM_128__w8"] = "c";
  auto plain = build(kTuned, options);
  ASSERT_TRUE(static_cast<bool>(plain));
  std::string hash = Json::parse(*plain)["kernels"][0]["specializations"][1]["code_hash"];
  options.tuning.push_back(table(
      R"({"skipped": [{"reason": "slow", "config": "x"}], "config": "BM=64 S=0.1 num_warps=4 num_stages=3",
          "extra": 1, "key": {"m": 4096}, "kernel": "mm",
          "timings": [{"ms": 0.5, "code_hash": ")" + hash + R"(", "config": "BM=128 S=2.5 num_warps=8 num_stages=3"}]})"));
  std::vector<std::string> warnings;
  options.warnings = &warnings;
  auto text = build(kTuned, options);
  ASSERT_TRUE(static_cast<bool>(text)) << llvm::toString(text.takeError());
  // Fields in the documented order, unknown ones dropped.
  EXPECT_EQ(Json::parse(*text)["tuning"].dump(),
            R"([{"format":"blk-tuning","version":1,"device":{"name":"H200","sm":90},"entries":[)"
            R"({"kernel":"mm","key":{"m":4096},"config":"BM=64 S=0.1 num_warps=4 num_stages=3",)"
            R"("timings":[{"config":"BM=128 S=2.5 num_warps=8 num_stages=3","code_hash":")" +
                hash + R"(","ms":0.5}],"skipped":[{"config":"x","reason":"slow"}]}]}])");
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(Json::parse(*plain).contains("tuning"), false) << "no table, no field";

  // A timing on other code, and one of a config this build lacks, warn.
  options.tuning[0].entries[0].timings[0].codeHash = "0000000000000000";
  options.tuning[0].entries[0].timings.push_back({"BM=32 num_warps=1 num_stages=3", {}, 1.0});
  ASSERT_TRUE(static_cast<bool>(build(kTuned, options)));
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0], "t.json: entry 1: the timing of `mm` config `BM=128 S=2.5 num_warps=8 "
                         "num_stages=3` was tuned on a different build (code_hash "
                         "0000000000000000, this build's " + hash + ")");
  EXPECT_EQ(warnings[1], "t.json: entry 1: the timing of `mm` config `BM=32 num_warps=1 "
                         "num_stages=3` was tuned on a different build (this build has no such "
                         "config)");
}

TEST_F(ManifestTest, RefusesTuningEntriesThatDoNotFit) {
  auto refusal = [&](const std::string &entries) {
    ManifestOptions options;
    options.tuning.push_back(table(entries));
    auto text = build(std::string(kTuned).substr(0, std::string(kTuned).rfind('}')) + R"mlir(
  func.func @plain__w4(%n: i32) attributes {blk.kernel = "plain", blk.num_warps = 4 : i32,
      blk.param_names = ["n"], blk.param_types = ["i32"]} { return }
}
)mlir", options);
    return text ? std::string("(accepted)") : llvm::toString(text.takeError());
  };
  const std::string config = R"("config": "BM=64 S=0.1 num_warps=4 num_stages=3")";
  EXPECT_EQ(refusal(R"({"kernel": "m", "key": {"m": 1}, )" + config + "}"),
            "t.json: entry 1: no kernel `m` in this build (did you mean `mm`?); kernels: `mm`, "
            "`plain`");
  EXPECT_EQ(refusal(R"({"kernel": "plain", "key": {}, "config": "num_warps=4 num_stages=1"})"),
            "t.json: entry 1: kernel `plain` has no `@autotune`");
  EXPECT_EQ(refusal(R"({"kernel": "mm", "key": {"m": 1, "n": 2}, )" + config + "}"),
            "t.json: entry 1: key `m`, `n` is not the autotune key of `mm`, `m`");
  EXPECT_EQ(refusal(R"({"kernel": "mm", "key": {"m": 1}, "config": "BM=64 num_warps=4"})"),
            "t.json: entry 1: kernel `mm` has no config `BM=64 num_warps=4`; configs: `BM=64 "
            "S=0.1 num_warps=4 num_stages=3`, `BM=128 S=2.5 num_warps=8 num_stages=3`");
  EXPECT_EQ(refusal(R"({"kernel": "mm", "key": {"m": 1}, )" + config + R"(},
                       {"kernel": "mm", "key": {"m": 2}, )" + config + R"(},
                       {"kernel": "mm", "key": {"m": 1}, )" + config + "}"),
            "t.json: entry 3: the same kernel and key as entry 1");
}

TEST_F(ManifestTest, DefaultCompilerVersion) {
  auto text = build(kTwoKernels, {});
  ASSERT_TRUE(static_cast<bool>(text));
  EXPECT_EQ(Json::parse(*text)["compiler"], compilerVersion());
  EXPECT_EQ(compilerVersion().rfind("blkc ", 0), 0u);
}

TEST_F(ManifestTest, MissingParamNamesIsAnError) {
  auto text = build(R"mlir(
    func.func @k__w4(%n: i32) attributes {blk.kernel = "k", blk.num_warps = 4 : i32,
                                          blk.param_types = ["i32"]} { return }
  )mlir", {});
  ASSERT_FALSE(static_cast<bool>(text));
  EXPECT_EQ(llvm::toString(text.takeError()),
            "kernel func `k__w4`: attribute `blk.param_names` must be an array of strings "
            "(see docs/ir.md)");
}

TEST_F(ManifestTest, ParamCountMismatchIsAnError) {
  auto text = build(R"mlir(
    func.func @k__w4(%n: i32, %m: i32) attributes {blk.kernel = "k", blk.num_warps = 4 : i32,
        blk.param_names = ["n"], blk.param_types = ["i32"]} { return }
  )mlir", {});
  ASSERT_FALSE(static_cast<bool>(text));
  EXPECT_NE(llvm::toString(text.takeError()).find("one entry per argument"), std::string::npos);
}

TEST_F(ManifestTest, BadGridIsAnError) {
  auto text = build(R"mlir(
    func.func @k__w4(%n: i32) attributes {blk.kernel = "k", blk.num_warps = 4 : i32,
        blk.param_names = ["n"], blk.param_types = ["i32"], blk.grid = "[1, 2, 3, 4]"} { return }
  )mlir", {});
  ASSERT_FALSE(static_cast<bool>(text));
  EXPECT_NE(llvm::toString(text.takeError()).find("`blk.grid` must hold a JSON array of 1 to 3"),
            std::string::npos);
}

TEST_F(ManifestTest, MissingNumWarpsIsAnError) {
  auto text = build(R"mlir(
    func.func @k(%n: i32) attributes {blk.kernel = "k",
        blk.param_names = ["n"], blk.param_types = ["i32"]} { return }
  )mlir", {});
  ASSERT_FALSE(static_cast<bool>(text));
  EXPECT_NE(llvm::toString(text.takeError()).find("`blk.num_warps` must be an integer"),
            std::string::npos);
}

// `blk.warp_specialize` (docs/ir.md): the entry launches a producer
// warpgroup besides its `blk.num_warps` warps.
TEST_F(ManifestTest, WarpSpecializedEntryCountsItsProducers) {
  auto text = build(R"mlir(
    func.func @k__w8__ws(%n: i32) attributes {blk.kernel = "k", blk.num_warps = 8 : i32,
        blk.warp_specialize, blk.param_names = ["n"], blk.param_types = ["i32"]} { return }
    func.func @k__w8(%n: i32) attributes {blk.kernel = "k", blk.num_warps = 8 : i32,
        blk.param_names = ["n"], blk.param_types = ["i32"]} { return }
  )mlir", {});
  ASSERT_TRUE(static_cast<bool>(text)) << llvm::toString(text.takeError());
  Json specs = Json::parse(*text)["kernels"][0]["specializations"];
  EXPECT_EQ(specs[0]["producer_warps"], 4);
  EXPECT_EQ(specs[0]["threads"], 384);
  EXPECT_EQ(specs[0]["config_key"], "num_warps=8 num_stages=1 warp_specialize=1");
  EXPECT_FALSE(specs[1].contains("producer_warps")) << "absent when there are none";
  EXPECT_EQ(specs[1]["threads"], 256);
  EXPECT_EQ(specs[1]["config_key"], "num_warps=8 num_stages=1");
}

TEST_F(ManifestTest, WarpSpecializedEntryFitsOneProgram) {
  auto text = build(R"mlir(
    func.func @k__w32__ws(%n: i32) attributes {blk.kernel = "k", blk.num_warps = 32 : i32,
        blk.warp_specialize, blk.param_names = ["n"], blk.param_types = ["i32"]} { return }
  )mlir", {});
  ASSERT_FALSE(static_cast<bool>(text));
  EXPECT_NE(llvm::toString(text.takeError())
                .find("`blk.warp_specialize` needs `blk.num_warps` at most 28"),
            std::string::npos);
}

TEST(ManifestEmbedTest, AddsTheGlobalAfterTheModuleDirectives) {
  auto ptx = embedManifestInPtx("//\n.version 8.0\n.target sm_90\n.address_size 64\n\n"
                                ".visible .entry k()\n{\n  ret;\n}\n",
                                "{\"a\":1}");
  ASSERT_TRUE(static_cast<bool>(ptx)) << llvm::toString(ptx.takeError());
  EXPECT_EQ(*ptx, "//\n.version 8.0\n.target sm_90\n.address_size 64\n\n"
                  "// blk manifest (docs/manifest.md)\n"
                  ".visible .global .align 1 .b8 __blk_manifest[7] = {\n"
                  "  123, 34, 97, 34, 58, 49, 125\n};\n"
                  "\n.visible .entry k()\n{\n  ret;\n}\n");
}

TEST(ManifestEmbedTest, BreaksLongArraysIntoLines) {
  std::string json(40, 'x');
  auto ptx = embedManifestInPtx(".version 8.0\n.address_size 64", json);
  ASSERT_TRUE(static_cast<bool>(ptx));
  EXPECT_NE(ptx->find("[40] = {\n  120,"), std::string::npos) << *ptx;
  EXPECT_NE(ptx->find("120, 120,\n  120, 120"), std::string::npos) << *ptx;
}

TEST(ManifestEmbedTest, NeedsAddressSize) {
  auto ptx = embedManifestInPtx(".version 8.0\n", "{}");
  ASSERT_FALSE(static_cast<bool>(ptx));
  EXPECT_EQ(llvm::toString(ptx.takeError()), "backend PTX has no `.address_size` directive");
}
