//===- TuningRulesTest.cpp - the autotuner's rules that need no driver ----===//
//
// Key buckets, the nearest-bucket fallback, the median and the 2 % rule,
// the tuning-table format, the manifest fields the tuner reads (autotune,
// access, requires, config_key, code_hash, embedded tables) and the
// evaluation and rendering of `requires` conditions.
//
//===----------------------------------------------------------------------===//
#include "FixtureUtil.h"

#include "blk/runtime.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace blk;
using namespace blk::test;

namespace {

std::string tuneManifestJson() {
  std::ifstream in(std::string(BLK_RT_FIXTURE_SRC) + "/tune.json");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(TuningBuckets, PowersOfTwoAboveSixteen) {
  BucketRule pow2;
  for (auto [value, bucket] : {std::pair<int64_t, int64_t>{0, 0}, {1, 1}, {7, 7}, {16, 16},
                               {17, 32}, {32, 32}, {33, 64}, {1000, 1024}, {1024, 1024},
                               {4097, 8192}, {-5, -5}})
    EXPECT_EQ(bucketOf(pow2, value), bucket) << value;
  EXPECT_EQ(bucketOf(pow2, INT64_MAX), int64_t(1) << 62);
}

TEST(TuningBuckets, ExactAndListed) {
  BucketRule exact{BucketRule::Kind::Exact, {}};
  EXPECT_EQ(bucketOf(exact, 1000), 1000);
  BucketRule listed{BucketRule::Kind::List, {16, 256, 4096}};
  EXPECT_EQ(bucketOf(listed, 1), 16);
  EXPECT_EQ(bucketOf(listed, 16), 16);
  EXPECT_EQ(bucketOf(listed, 17), 256);
  EXPECT_EQ(bucketOf(listed, 4096), 4096);
  EXPECT_EQ(bucketOf(listed, 5000), 4096); // past the last bound: the last
}

TEST(TuningBuckets, NearestByLogDistance) {
  // log2(1000) = 9.97: 512 (9) is nearer than 2048 (11).
  EXPECT_EQ(nearestBucket({1000}, {{64}, {2048}, {512}}), 2u);
  EXPECT_EQ(nearestBucket({1000}, {{2048}, {500}}), 1u);
  // Ties go to the earlier candidate; mismatched lengths never match.
  EXPECT_EQ(nearestBucket({256}, {{128, 1}, {128}, {512}}), 1u);
  EXPECT_EQ(nearestBucket({256, 256}, {{512, 128}, {128, 512}}), 0u);
  EXPECT_EQ(nearestBucket({1}, {}), 0u);
  EXPECT_EQ(nearestBucket({0}, {{1}, {2}}), 0u); // values below 1 count as 1
}

TEST(TuningDecision, MedianOfOddEvenAndNone) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(TuningDecision, TheEarliestConfigKeepsItsPlaceWithinTwoPercent) {
  EXPECT_EQ(chooseConfig({1.0, 0.99}), 0u);   // 1 % faster: not enough
  EXPECT_EQ(chooseConfig({1.0, 0.981}), 0u);
  EXPECT_EQ(chooseConfig({1.0, 0.97}), 1u);   // 3 % faster: replaces it
  EXPECT_EQ(chooseConfig({1.0, 0.5, 0.4}), 2u);
  // Skipped configs (NaN) do not count; the earliest timed one is the
  // reference.
  double nan = std::nan("");
  EXPECT_EQ(chooseConfig({nan, 1.0, 0.99}), 1u);
  EXPECT_EQ(chooseConfig({nan, 1.0, 0.9}), 2u);
  EXPECT_EQ(chooseConfig({nan, nan}), 2u);
  EXPECT_EQ(chooseConfig({1.0, 0.9}, 0.2), 0u); // the margin is a parameter
}

TEST(TuningTableFormat, RoundTrips) {
  TuningTable t;
  t.deviceName = "NVIDIA H200";
  t.sm = 90;
  TuningEntry e;
  e.kernel = "matmul";
  e.key = {{"M", 4096}, {"N", 4096}, {"K", 512}};
  e.config = "BM=128 num_warps=8 num_stages=3";
  e.timings = {{"BM=128 num_warps=8 num_stages=3", "00000000000000ff", 1.25},
               {"BM=64 num_warps=4 num_stages=3", "", 2.5}};
  e.skipped = {{"BM=256 num_warps=8 num_stages=4", "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"}};
  t.entries = {e};
  std::string text = formatTuningTable(t);
  EXPECT_NE(text.find("\"format\": \"blk-tuning\""), std::string::npos) << text;
  TuningTable back = parseTuningTable(text, "t.json");
  EXPECT_EQ(back.deviceName, "NVIDIA H200");
  EXPECT_EQ(back.sm, 90u);
  ASSERT_EQ(back.entries.size(), 1u);
  const TuningEntry &b = back.entries[0];
  EXPECT_EQ(b.kernel, "matmul");
  EXPECT_EQ(b.key, e.key); // the key keeps its order
  EXPECT_EQ(b.config, e.config);
  ASSERT_EQ(b.timings.size(), 2u);
  EXPECT_EQ(b.timings[0].codeHash, "00000000000000ff");
  EXPECT_EQ(b.timings[1].ms, 2.5);
  EXPECT_EQ(b.skipped, e.skipped);
  EXPECT_EQ(formatTuningTable(back), text); // stable
}

std::string tableError(const std::string &json) {
  try {
    parseTuningTable(json, "t.json");
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(TuningTableFormat, RefusesMalformedTables) {
  EXPECT_EQ(tableError("{"), "blk: t.json: not valid JSON");
  EXPECT_EQ(tableError("[]"), "blk: t.json: expected a tuning table object");
  EXPECT_EQ(tableError(R"({"format": "other"})"),
            "blk: t.json: not a blk tuning table (\"format\": \"blk-tuning\" missing)");
  const std::string head = R"({"format": "blk-tuning", )";
  EXPECT_EQ(tableError(head + R"("version": 2})"),
            "blk: t.json.version: unsupported version 2 (this runtime reads version 1)");
  EXPECT_EQ(tableError(head + R"("version": 1, "entries": []})"),
            "blk: t.json: missing \"device\"");
  const std::string dev = head + R"("version": 1, "device": {"name": "G", "sm": 90}, )";
  EXPECT_EQ(tableError(dev + R"("entries": [{"kernel": "k", "key": {"n": 1.5}, "config": "c"}]})"),
            "blk: t.json.entries[0].key.n: expected an integer");
  EXPECT_EQ(tableError(dev + R"("entries": [{"kernel": "k", "key": {}}]})"),
            "blk: t.json.entries[0]: missing \"config\"");
  EXPECT_EQ(tableError(dev + R"("entries": [{"kernel": "k", "key": {}, "config": "c",
              "timings": [{"config": "c", "ms": -1}]}]})"),
            "blk: t.json.entries[0].timings[0].ms: expected a time in milliseconds");
  EXPECT_EQ(tableError(dev + R"("entries": []})"), "");
}

TEST(TuningManifest, ReadsTheTunerFields) {
  Manifest m = parseManifest(tuneManifestJson(), "tune.fatbin");
  const KernelDesc *inc = m.findKernel("inc");
  ASSERT_NE(inc, nullptr);
  EXPECT_TRUE(inc->autotune.enabled);
  EXPECT_EQ(inc->autotune.key, std::vector<uint32_t>{1});
  EXPECT_EQ(inc->autotune.bucket.kind, BucketRule::Kind::Pow2);
  EXPECT_EQ(inc->params[0].access, Access::ReadWrite);
  EXPECT_EQ(inc->params[1].access, Access::Unknown); // scalars have none
  EXPECT_EQ(inc->specializations[2].configKey, "BLOCK=256 num_warps=8 num_stages=3");
  EXPECT_EQ(inc->specializations[2].codeHash, "00000000000000a3");

  const KernelDesc *add1 = m.findKernel("add1");
  EXPECT_EQ(add1->autotune.bucket.kind, BucketRule::Kind::Exact);
  EXPECT_EQ(add1->params[1].access, Access::Write);
  // No config_key in the manifest: the runtime writes the same form.
  EXPECT_EQ(add1->specializations[1].configKey, "BLOCK=128 num_warps=4 num_stages=3");

  const KernelDesc *accum = m.findKernel("accum");
  EXPECT_EQ(accum->params[1].access, Access::Atomic);
  EXPECT_EQ(accum->autotune.zero, std::vector<uint32_t>{1});

  const KernelDesc *rows = m.findKernel("rows");
  ASSERT_EQ(rows->specializations[0].requirements.size(), 1u);
  EXPECT_EQ(formatGridExpr(rows->specializations[0].requirements[0], *rows), "n_cols <= 32");

  const KernelDesc *grid2 = m.findKernel("grid2");
  EXPECT_EQ(grid2->autotune.key, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(grid2->autotune.bucket.bounds, (std::vector<int64_t>{16, 256, 4096}));

  ASSERT_EQ(m.tuning.size(), 2u);
  EXPECT_EQ(m.tuning[0].deviceName, "Fake GPU");
  EXPECT_EQ(m.tuning[1].sm, 80u);
  EXPECT_EQ(m.tuning[0].entries[0].config, "BM=64 num_warps=2 num_stages=3");
}

TEST(TuningManifest, OlderManifestsTuneOnTheirKey) {
  Manifest m = parseManifest(fixtureManifestJson(), "kernels.fatbin");
  const KernelDesc *k = m.findKernel("double_grid");
  EXPECT_TRUE(k->autotune.enabled);
  EXPECT_EQ(k->autotune.key, std::vector<uint32_t>{2});
  EXPECT_EQ(k->params[0].access, Access::Unknown);
  EXPECT_FALSE(m.findKernel("add_i32")->autotune.enabled);
}

std::string withKernel(const std::string &params, const std::string &extra) {
  return R"({"schema": 1, "kernels": [{"name": "k", "params": [)" + params + "]," + extra +
         R"("specializations": [{"entry": "k__w4"}]}]})";
}

TEST(TuningManifest, RefusesBadAutotuneFields) {
  const std::string p = R"({"name": "x", "type": "*f32"}, {"name": "n", "type": "i32"})";
  const std::string at = "blk: m.fatbin: bad manifest: kernels[0] (`k`)";
  EXPECT_EQ(parseError(withKernel(p, R"("autotune": {"key": ["x"]},)")),
            at + ".autotune.key[0]: parameter `x` is not a scalar integer");
  EXPECT_EQ(parseError(withKernel(p, R"("autotune": {"key": ["m"]},)")),
            at + ".autotune.key[0]: no parameter `m`");
  EXPECT_EQ(parseError(withKernel(p, R"("autotune": {"key": ["n", "n"]},)")),
            at + ".autotune.key[1]: parameter `n` listed twice");
  EXPECT_EQ(parseError(withKernel(p, R"("autotune": {"restore": ["n"]},)")),
            at + ".autotune.restore[0]: parameter `n` is not a pointer");
  EXPECT_EQ(parseError(withKernel(p, R"("autotune": {"bucket": [16, 16]},)")),
            at + ".autotune.bucket: bounds must be positive and strictly ascending");
  EXPECT_EQ(parseError(withKernel(p, R"("autotune": {"bucket": "log"},)")),
            at + ".autotune.bucket: expected \"pow2\", \"exact\" or a non-empty array");
  EXPECT_EQ(parseError(withKernel(R"({"name": "n", "type": "i32", "access": "read"})", "")),
            at + ".params[0].access: only pointer parameters have an access");
  EXPECT_EQ(parseError(withKernel(R"({"name": "x", "type": "*f32", "access": "rw"})", "")),
            at + ".params[0].access: unknown access `rw`");
  EXPECT_EQ(parseError(withKernel(p, R"("autotune": {"key": ["n"], "bucket": [1, 8]},)")), "");
}

TEST(TuningRequirements, HoldOrFailPerArguments) {
  Manifest m = parseManifest(tuneManifestJson(), "tune.fatbin");
  const KernelDesc &rows = *m.findKernel("rows");
  GridProgram p = compileRequirements(rows.specializations[1].requirements, rows.params, "rows");
  ArgValue args[4];
  for (ArgValue &a : args)
    a.type = ParamType{ScalarKind::I32, false};
  args[3].bits = 128;
  EXPECT_TRUE(requirementsHold(p, args));
  args[3].bits = 129;
  EXPECT_FALSE(requirementsHold(p, args));
  EXPECT_TRUE(requirementsHold(GridProgram{}, args)); // none: always
  // Several conditions are all required; a division by zero fails one.
  GridExpr n{GridExpr::Kind::Param, 3, {}, {}};
  auto op = [](GridExpr::Op o, std::vector<GridExpr> a) {
    GridExpr e;
    e.kind = GridExpr::Kind::Op;
    e.op = o;
    e.args = std::move(a);
    return e;
  };
  auto lit = [](int64_t v) { return GridExpr{GridExpr::Kind::Int, v, {}, {}}; };
  std::vector<GridExpr> conds = {
      op(GridExpr::Op::Ge, {n, lit(16)}),
      op(GridExpr::Op::Eq, {op(GridExpr::Op::Mod, {n, lit(16)}), lit(0)}),
      op(GridExpr::Op::Not, {op(GridExpr::Op::Gt, {n, lit(4096)})})};
  GridProgram all = compileRequirements(conds, rows.params, "rows");
  for (auto [value, holds] : {std::pair<int64_t, bool>{32, true}, {8, false}, {33, false},
                              {4096, true}, {4112, false}}) {
    args[3].bits = uint64_t(value);
    EXPECT_EQ(requirementsHold(all, args), holds) << value;
  }
  GridProgram div = compileRequirements({op(GridExpr::Op::Div, {lit(1), n})}, rows.params, "rows");
  args[3].bits = 0;
  EXPECT_FALSE(requirementsHold(div, args));
  EXPECT_EQ(formatGridExpr(conds[1], rows), "(n_cols % 16) == 0");
  EXPECT_EQ(formatGridExpr(conds[2], rows), "!(n_cols > 4096)");
  EXPECT_EQ(formatGridExpr(op(GridExpr::Op::And, {conds[0], op(GridExpr::Op::Cdiv, {n, lit(2)})}), rows),
            "(n_cols >= 16) && cdiv(n_cols, 2)");
}

TEST(TuningCacheDirectory, EnvironmentOrder) {
  const char *saved[3] = {std::getenv("BLK_CACHE_DIR"), std::getenv("XDG_CACHE_HOME"),
                          std::getenv("HOME")};
  std::string keep[3];
  for (int i = 0; i < 3; ++i)
    keep[i] = saved[i] ? saved[i] : "";
  setenv("BLK_CACHE_DIR", "/a", 1);
  setenv("XDG_CACHE_HOME", "/b", 1);
  setenv("HOME", "/c", 1);
  EXPECT_EQ(tuningCacheDirectory(), "/a");
  unsetenv("BLK_CACHE_DIR");
  EXPECT_EQ(tuningCacheDirectory(), "/b/blk");
  setenv("XDG_CACHE_HOME", "", 1);
  EXPECT_EQ(tuningCacheDirectory(), "/c/.cache/blk");
  unsetenv("HOME");
  unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(tuningCacheDirectory(), "");
  const char *names[3] = {"BLK_CACHE_DIR", "XDG_CACHE_HOME", "HOME"};
  for (int i = 0; i < 3; ++i)
    if (saved[i])
      setenv(names[i], keep[i].c_str(), 1);
}

TEST(TuningModes, FromTheEnvironment) {
  for (auto [text, mode] : {std::pair{"off", AutotuneMode::Off}, {"cached", AutotuneMode::Cached},
                            {"on", AutotuneMode::On}, {"force", AutotuneMode::Force},
                            {"0", AutotuneMode::Off}, {"bogus", AutotuneMode::On}}) {
    setenv("BLK_AUTOTUNE", text, 1);
    EXPECT_EQ(autotuneModeFromEnvironment(), mode) << text;
  }
  unsetenv("BLK_AUTOTUNE");
  EXPECT_EQ(autotuneModeFromEnvironment(), AutotuneMode::On);
}

TEST(TuningReport, OneLinePerDecision) {
  AutotuneEvent e;
  e.kernel = "softmax";
  e.key = {{"n_cols", 1000}};
  e.bucket = {{"n_cols", 1024}};
  e.source = AutotuneSource::Tuned;
  e.config = "BLOCK=1024 num_warps=4 num_stages=3";
  e.timings = {{"BLOCK=1024 num_warps=4 num_stages=3", "", 0.0125}};
  e.skipped = {{"BLOCK=32 num_warps=1 num_stages=3", "CUDA_ERROR_X"}};
  e.tuningMs = 12.34;
  EXPECT_EQ(formatAutotuneEvent(e),
            "blk autotune: softmax [n_cols=1000->1024] tuned: BLOCK=1024 num_warps=4 "
            "num_stages=3 (BLOCK=1024 num_warps=4 num_stages=3: 0.0125 ms); skipped "
            "BLOCK=32 num_warps=1 num_stages=3: CUDA_ERROR_X [12.3 ms]");
}

} // namespace
