//===- TensorMapTest.cpp - tensor maps: manifest and evaluation -----------===//
//
// docs/manifest.md "Tensor maps": parsing the `tensor_maps` of every entry
// kind and refusing malformed ones, and the driver-free launch step that
// evaluates dims and strides over checked arguments into the arguments of
// cuTensorMapEncodeTiled, with the driver's rules as errors naming the
// parameter. Launches over the fake driver: TensorMapLaunchTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "FixtureUtil.h"

#include "blk/runtime/Error.h"
#include "blk/runtime/TensorMap.h"

#include <array>

using namespace blk;
using namespace blk::test;

namespace {

/// A manifest of one kernel k(a: *f16, x: *f32, M: i32, K: i64, s: f32)
/// whose one specialisation has `maps` (JSON) as its tensor maps.
std::string kernelWithMaps(const std::string &maps) {
  return R"({"schema": 1, "kernels": [{"name": "k", "params": [
      {"name": "a", "type": "*f16"}, {"name": "x", "type": "*f32"},
      {"name": "M", "type": "i32"}, {"name": "K", "type": "i64"},
      {"name": "s", "type": "f32"}],
      "specializations": [{"entry": "k__w4", "tensor_maps": )" +
         maps + "}]}]}";
}

/// A valid map of `a`: f16 [K - 0, M] with stride cdiv(K, 2) * 2, box
/// 64 x 128, swizzle 128 (64 f16 = 128 bytes).
const char *const kMapOfA = R"({"param": 0, "elem": "f16",
    "dims": [{"op": "sub", "args": [{"param": 3}, {"int": 0}]}, {"param": 2}],
    "strides": [{"op": "mul", "args": [{"op": "cdiv", "args": [{"param": 3}, {"int": 2}]},
                                       {"int": 2}]}],
    "box": [64, 128], "swizzle": 128})";

/// kMapOfA with `key`'s value replaced by `value` (JSON).
std::string mapOfAWith(const std::string &key, const std::string &value) {
  std::string map = kMapOfA;
  size_t at = map.find("\"" + key + "\": ");
  size_t start = at + key.size() + 4;
  size_t end = start;
  int depth = 0;
  for (; end < map.size(); ++end) {
    char c = map[end];
    if (c == '[' || c == '{')
      ++depth;
    if (c == ']' || c == '}') {
      if (depth == 0)
        break;
      --depth;
    }
    if (c == ',' && depth == 0)
      break;
  }
  return map.replace(start, end - start, value);
}

TEST(TensorMapManifest, ParsesEveryField) {
  Manifest m = parseManifest(kernelWithMaps(std::string("[") + kMapOfA + R"(,
      {"param": 1, "elem": "f32", "dims": [{"int": 7}], "strides": [], "box": [4],
       "swizzle": 0}])"),
                             "m.fatbin");
  const KernelDesc &k = m.kernels[0];
  const std::vector<TensorMapDesc> &maps = k.specializations[0].tensorMaps;
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_EQ(maps[0].param, 0u);
  EXPECT_EQ(maps[0].elem, ScalarKind::F16);
  ASSERT_EQ(maps[0].dims.size(), 2u);
  EXPECT_EQ(maps[0].dims[0].op, GridExpr::Op::Sub);
  EXPECT_EQ(maps[0].dims[1].kind, GridExpr::Kind::Param);
  ASSERT_EQ(maps[0].strides.size(), 1u);
  EXPECT_EQ(maps[0].box, (std::vector<uint32_t>{64, 128}));
  EXPECT_EQ(maps[0].swizzle, 128u);
  EXPECT_EQ(maps[1].param, 1u);
  EXPECT_EQ(maps[1].elem, ScalarKind::F32);
  EXPECT_TRUE(maps[1].strides.empty());
  EXPECT_EQ(formatTensorMap(maps[0], k),
            "`a`: f16 dims [K - 0, M] strides [cdiv(K, 2) * 2] box [64, 128] "
            "swizzle 128");
  EXPECT_EQ(formatTensorMap(maps[1], k),
            "`x`: f32 dims [7] strides [] box [4] swizzle 0");
  // Absent or null: none (older manifests, kernels without TMA).
  EXPECT_TRUE(parseManifest(kernelWithMaps("null"), "m")
                  .kernels[0]
                  .specializations[0]
                  .tensorMaps.empty());
  EXPECT_TRUE(parseManifest(test::fixtureManifestJson(), "m")
                  .kernels[0]
                  .specializations[0]
                  .tensorMaps.empty());
}

TEST(TensorMapManifest, ParsesVariantsAndAssumedVariants) {
  Manifest m =
      parseManifest(R"({"schema": 1, "kernels": [{"name": "k", "params": [
      {"name": "a", "type": "*f16"}, {"name": "M", "type": "i32"}, {"name": "K", "type": "i64"}],
      "specialize": [2],
      "specializations": [{"entry": "k__w4",
        "variants": [{"entry": "k__w4__vd", "when": [16], "tensor_maps": [
          {"param": 0, "elem": "bf16", "dims": [{"param": 2}], "strides": [], "box": [8],
           "swizzle": 0}]}],
        "assumed": [{"entry": "k__w4__auto", "assume": [{"param": 0, "aligned": 16}],
          "tensor_maps": [{"param": 0, "elem": "f8e4m3", "dims": [{"param": 2}, {"param": 1}],
            "strides": [{"param": 2}], "box": [128, 2], "swizzle": 128}]}]}]}]})",
                    "m.fatbin");
  const Specialization &s = m.kernels[0].specializations[0];
  EXPECT_TRUE(s.tensorMaps.empty());
  ASSERT_EQ(s.variants[0].tensorMaps.size(), 1u);
  EXPECT_EQ(s.variants[0].tensorMaps[0].elem, ScalarKind::BF16);
  ASSERT_EQ(s.assumed[0].tensorMaps.size(), 1u);
  EXPECT_EQ(s.assumed[0].tensorMaps[0].elem, ScalarKind::F8E4M3);
  EXPECT_EQ(s.assumed[0].tensorMaps[0].box, (std::vector<uint32_t>{128, 2}));
}

TEST(TensorMapManifest, RefusesMalformedMaps) {
  const std::string at =
      "blk: m.fatbin: bad manifest: kernels[0] (`k`).specializations[0]"
      ".tensor_maps";
  auto bad = [](const std::string &maps) {
    return parseError(kernelWithMaps(maps));
  };
  auto badMap = [&](const std::string &key, const std::string &value) {
    return bad("[" + mapOfAWith(key, value) + "]");
  };
  EXPECT_EQ(bad(std::string("[") + kMapOfA + "]"), "");
  EXPECT_EQ(bad("{}"), at + ": expected an array of at most 16 tensor maps");
  std::string seventeen = "[";
  for (int i = 0; i < 17; ++i)
    seventeen += std::string(i ? "," : "") + kMapOfA;
  EXPECT_EQ(bad(seventeen + "]"),
            at + ": expected an array of at most 16 tensor maps");
  EXPECT_EQ(bad("[7]"), at + "[0]: expected an object");
  EXPECT_EQ(badMap("param", "5"), at + "[0].param: 5 is out of range (0 to 4)");
  EXPECT_EQ(badMap("param", "2"),
            at + "[0].param: parameter `M` is not a pointer");
  EXPECT_EQ(badMap("elem", "\"f17\""),
            at + "[0].elem: `f17` is not a scalar type");
  EXPECT_EQ(badMap("elem", "\"*f16\""),
            at + "[0].elem: `*f16` is not a scalar type");
  EXPECT_EQ(badMap("dims", "[]"), at + "[0].dims: expected 1 to 5 expressions");
  EXPECT_EQ(badMap("dims", R"([{"int": 1}, {"int": 1}, {"int": 1}, {"int": 1},
                               {"int": 1}, {"int": 1}])"),
            at + "[0].dims: expected 1 to 5 expressions");
  EXPECT_EQ(badMap("dims", R"([{"param": 1}, {"param": 2}])"),
            at + "[0].dims[0]: grid uses parameter `x`, which is not a scalar "
                 "integer");
  EXPECT_EQ(badMap("dims", R"([{"param": 3}, {"param": 4}])"),
            at + "[0].dims[1]: grid uses parameter `s`, which is not a scalar "
                 "integer");
  EXPECT_EQ(badMap("strides", "[]"),
            at + "[0].strides: expected 1 expression(s), one per dimension "
                 "after the first");
  EXPECT_EQ(badMap("strides", R"([{"op": "pow", "args": []}])"),
            at + "[0].strides[0]: unknown grid operator `pow`");
  EXPECT_EQ(badMap("box", "[64]"),
            at + "[0].box: expected 2 sizes, one per dimension");
  EXPECT_EQ(badMap("box", "[64, 0]"),
            at + "[0].box[1]: 0 is out of range (1 to 256)");
  EXPECT_EQ(badMap("box", "[64, 257]"),
            at + "[0].box[1]: 257 is out of range (1 to 256)");
  EXPECT_EQ(badMap("box", "[64, \"8\"]"),
            at + "[0].box[1]: expected an integer");
  EXPECT_EQ(badMap("swizzle", "16"),
            at + "[0].swizzle: 16 is not 0, 32, 64 or 128");
  EXPECT_EQ(badMap("box", "[12, 8]"),
            at + "[0].box: the inner box dimension is 24 bytes (12 x f16), not "
                 "a multiple of 16");
  EXPECT_EQ(
      badMap("box", "[128, 8]"),
      at +
          "[0].box: the inner box dimension is 256 bytes (128 x f16), over the "
          "128-byte swizzle span");
  EXPECT_EQ(badMap("swizzle", "64"),
            at + "[0].box: the inner box dimension is 128 bytes (64 x f16), "
                 "over the 64-byte "
                 "swizzle span");
  // Without a swizzle a row of the box may be longer than 128 bytes.
  EXPECT_EQ(bad("[" +
                mapOfAWith("swizzle", "0")
                    .replace(mapOfAWith("swizzle", "0").find("[64, 128]"), 9,
                             "[256, 1]") +
                "]"),
            "");
  EXPECT_EQ(
      bad(R"([{"param": 0, "elem": "f16", "strides": [], "box": [8], "swizzle": 0}])"),
      at + "[0]: missing \"dims\"");
  EXPECT_EQ(
      bad(R"([{"param": 0, "elem": "f16", "dims": [{"int": 8}], "strides": [],
                     "box": [8]}])"),
      at + "[0]: missing \"swizzle\"");
}

/// The tensor maps of kernelWithMaps(`maps`), compiled, and arguments.
class TensorMapEval : public ::testing::Test {
protected:
  void load(const std::string &maps) {
    m = parseManifest(kernelWithMaps(maps), "m.fatbin");
    programs = compileTensorMaps(m.kernels[0].specializations[0].tensorMaps,
                                 m.kernels[0]);
  }
  /// Evaluates map `i` for a = `a`, M = `rows`, K = `cols`; "" or the error.
  std::string eval(size_t i, uint64_t a, int32_t rows, int64_t cols) {
    std::array<ArgValue, 5> v{
        {ArgTraits<const half *>::make(reinterpret_cast<const half *>(a)),
         ArgTraits<float *>::make(reinterpret_cast<float *>(0x2000)),
         ArgTraits<int32_t>::make(rows), ArgTraits<int64_t>::make(cols),
         ArgTraits<float>::make(1.0f)}};
    checkArguments(m.kernels[0], v.data(), v.size());
    try {
      evaluateTensorMap(programs.at(i), m.kernels[0], v.data(), out);
    } catch (const Error &e) {
      EXPECT_EQ(e.kernel(), "k");
      return e.what();
    }
    return "";
  }
  Manifest m;
  std::vector<TensorMapProgram> programs;
  TensorMapArgs out;
};

TEST_F(TensorMapEval, DimsAndByteStridesFromArguments) {
  load(std::string("[") + kMapOfA + "]");
  ASSERT_EQ(programs.size(), 1u);
  EXPECT_EQ(programs[0].dataType, TensorMapDataType::Float16);
  EXPECT_EQ(programs[0].elemBytes, 2u);
  ASSERT_EQ(eval(0, 0x10000, 300, 4000), "");
  EXPECT_EQ(out.base, 0x10000u);
  EXPECT_EQ(out.rank, 2u);
  EXPECT_EQ(out.dataType, TensorMapDataType::Float16);
  EXPECT_EQ(out.swizzle, 128u);
  EXPECT_EQ(out.dims[0], 4000u);    // K - 0
  EXPECT_EQ(out.dims[1], 300u);     // M
  EXPECT_EQ(out.strides[0], 8000u); // cdiv(K, 2) * 2 elements of 2 bytes
  EXPECT_EQ(out.box[0], 64u);
  EXPECT_EQ(out.box[1], 128u);
  EXPECT_EQ(out.elementStrides[0], 1u);
  EXPECT_EQ(out.elementStrides[1], 1u);
  EXPECT_EQ(describeTensorMapArgs(out),
            "base 0x10000, dims [4000, 300], strides [8000] bytes, box [64, "
            "128], swizzle 128");
  // cdiv rounds the stride up: K = 4001 gives 4002 elements, 8004 bytes.
  EXPECT_EQ(eval(0, 0x10000, 300, 4001),
            "blk: kernel `k`: tensor map of `a`: stride of dim 1 (`cdiv(K, 2) "
            "* 2`) is 8004 "
            "bytes, not a multiple of 16");
  ASSERT_EQ(eval(0, 0x10000, 1, 8), "");
  EXPECT_EQ(out.strides[0], 16u);
}

TEST_F(TensorMapEval, SameInputsComparesBaseDimsAndStrides) {
  load(std::string("[") + kMapOfA + "]");
  ASSERT_EQ(eval(0, 0x10000, 300, 4000), "");
  TensorMapArgs first = out;
  EXPECT_FALSE(TensorMapArgs().sameInputs(first)); // nothing encoded yet
  ASSERT_EQ(eval(0, 0x10000, 300, 4000), "");
  EXPECT_TRUE(out.sameInputs(first));
  ASSERT_EQ(eval(0, 0x10010, 300, 4000), "");
  EXPECT_FALSE(out.sameInputs(first));
  ASSERT_EQ(eval(0, 0x10000, 301, 4000), "");
  EXPECT_FALSE(out.sameInputs(first));
  ASSERT_EQ(eval(0, 0x10000, 300, 4008), "");
  EXPECT_FALSE(out.sameInputs(first));
}

TEST_F(TensorMapEval, RefusesWhatTheDriverWould) {
  load(std::string("[") + kMapOfA + R"(,
      {"param": 0, "elem": "f16", "dims": [{"op": "div", "args": [{"int": 8}, {"param": 2}]}],
       "strides": [], "box": [8], "swizzle": 0},
      {"param": 0, "elem": "u8", "dims": [{"param": 3}, {"int": 2}],
       "strides": [{"op": "sub", "args": [{"int": 16}, {"param": 2}]}], "box": [16, 1],
       "swizzle": 0},
      {"param": 0, "elem": "f16", "dims": [{"param": 3}, {"int": 2}],
       "strides": [{"op": "div", "args": [{"param": 3}, {"param": 2}]}], "box": [8, 1],
       "swizzle": 0}])");
  const std::string map = "blk: kernel `k`: tensor map of `a`: ";
  EXPECT_EQ(eval(0, 0x10008, 300, 4000),
            map + "base address 0x10008 is not 16-byte aligned");
  // An empty dim is encoded as 1: the kernel never reads such a map.
  EXPECT_EQ(eval(0, 0x10000, 0, 4000), "");
  EXPECT_EQ(out.dims[1], 1u);
  EXPECT_EQ(eval(0, 0x10000, -3, 4000), "");
  EXPECT_EQ(out.dims[1], 1u);
  EXPECT_EQ(eval(0, 0x10000, 300, (int64_t(1) << 32) + 2),
            map + "dim 0 (`K - 0`) is 4294967298, not in 1..2^32");
  EXPECT_EQ(eval(0, 0x10000, 300, 4004),
            map + "stride of dim 1 (`cdiv(K, 2) * 2`) is 8008 bytes, not a "
                  "multiple of 16");
  // K = -16 also makes the stride (cdiv(K, 2) * 2) negative: refused.
  EXPECT_EQ(eval(0, 0x10000, 1, -16),
            map + "stride of dim 1 (`cdiv(K, 2) * 2`) is -16 elements, negative");
  EXPECT_EQ(eval(1, 0x10000, 0, 8), map + "dim 0 (`8 / M`) divides by zero");
  EXPECT_EQ(eval(1, 0x10000, 9, 8), "");
  EXPECT_EQ(out.dims[0], 1u);
  // u8: a stride of 16 - M elements is 16 - M bytes.
  EXPECT_EQ(eval(2, 0x10000, 0, 8), "");
  EXPECT_EQ(out.dataType, TensorMapDataType::UInt8);
  EXPECT_EQ(out.strides[0], 16u);
  EXPECT_EQ(eval(2, 0x10000, 32, 8),
            map + "stride of dim 1 (`16 - M`) is -16 elements, negative");
  EXPECT_EQ(eval(2, 0x10000, -2147483000, 8),
            map + "stride of dim 1 (`16 - M`) is "
                  "2147483016 bytes, not a multiple of 16");
  EXPECT_EQ(eval(3, 0x10000, 0, 8),
            map + "stride of dim 1 (`K / M`) divides by zero");
  // A stride of 2^36 x 8 f16 elements is 2^40 bytes: one step too many.
  load(R"([{"param": 0, "elem": "f16", "dims": [{"int": 8}, {"int": 2}],
            "strides": [{"op": "mul", "args": [{"param": 3}, {"int": 8}]}], "box": [8, 1],
            "swizzle": 0}])");
  EXPECT_EQ(eval(0, 0x10000, 1, int64_t(1) << 36),
            map + "stride of dim 1 (`K * 8`) is 549755813888 elements, 2^40 "
                  "bytes or more");
  ASSERT_EQ(eval(0, 0x10000, 1, (int64_t(1) << 36) - 1), "");
  EXPECT_EQ(out.strides[0], (uint64_t(1) << 40) - 16);
}

TEST(TensorMapProgram, DataTypesAndTooDeepExpressions) {
  EXPECT_EQ(tensorMapDataType(ScalarKind::F16), TensorMapDataType::Float16);
  EXPECT_EQ(tensorMapDataType(ScalarKind::BF16), TensorMapDataType::BFloat16);
  EXPECT_EQ(tensorMapDataType(ScalarKind::F32), TensorMapDataType::Float32);
  EXPECT_EQ(tensorMapDataType(ScalarKind::F64), TensorMapDataType::Float64);
  EXPECT_EQ(tensorMapDataType(ScalarKind::I32), TensorMapDataType::Int32);
  EXPECT_EQ(tensorMapDataType(ScalarKind::U32), TensorMapDataType::UInt32);
  EXPECT_EQ(tensorMapDataType(ScalarKind::I64), TensorMapDataType::Int64);
  EXPECT_EQ(tensorMapDataType(ScalarKind::U64), TensorMapDataType::UInt64);
  EXPECT_EQ(tensorMapDataType(ScalarKind::I16), TensorMapDataType::UInt16);
  EXPECT_EQ(tensorMapDataType(ScalarKind::U16), TensorMapDataType::UInt16);
  for (ScalarKind k : {ScalarKind::I1, ScalarKind::I8, ScalarKind::U8,
                       ScalarKind::F8E4M3, ScalarKind::F8E5M2})
    EXPECT_EQ(tensorMapDataType(k), TensorMapDataType::UInt8)
        << scalarKindName(k);
  // 40 nested `add`s each waiting for its right operand: past the stack.
  std::string deep = R"({"param": 2})";
  for (int i = 0; i < 40; ++i)
    deep = R"({"op": "add", "args": [{"int": 1}, )" + deep + "]}";
  Manifest m = parseManifest(
      kernelWithMaps(
          R"([{"param": 0, "elem": "f16", "dims": [{"int": 8},
      )" + deep +
          R"(], "strides": [{"int": 8}], "box": [8, 1], "swizzle": 0}])"),
      "m");
  try {
    compileTensorMaps(m.kernels[0].specializations[0].tensorMaps, m.kernels[0]);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_STREQ(
        e.what(),
        "blk: kernel `k`: tensor map of `a`: dim 1 expression too deep "
        "to evaluate");
  }
}

} // namespace
