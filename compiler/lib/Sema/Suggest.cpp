//===- Suggest.cpp - "did you mean" by edit distance ----------------------===//
#include "blk/Sema/Suggest.h"

#include <utility>

namespace blk::sema {

std::optional<std::string> blkTypeFor(std::string_view foreign) {
  static const std::pair<std::string_view, std::string_view> kAliases[] = {
      {"float", "f32"},   {"float32", "f32"}, {"fp32", "f32"},     {"double", "f64"},
      {"float64", "f64"}, {"fp64", "f64"},    {"half", "f16"},     {"float16", "f16"},
      {"fp16", "f16"},    {"bfloat16", "bf16"}, {"bfloat", "bf16"}, {"int", "i32"},
      {"int32", "i32"},   {"long", "i64"},    {"int64", "i64"},    {"short", "i16"},
      {"int16", "i16"},   {"char", "i8"},     {"int8", "i8"},      {"uint8", "u8"},
      {"uint16", "u16"},  {"uint32", "u32"},  {"unsigned", "u32"}, {"uint64", "u64"},
      {"int1", "i1"},     {"f8", "f8e4m3` or `f8e5m2"}, {"fp8", "f8e4m3` or `f8e5m2"},
      {"float8", "f8e4m3` or `f8e5m2"}, {"float8e4nv", "f8e4m3"}, {"float8_e4m3fn", "f8e4m3"},
      {"float8e5", "f8e5m2"}, {"float8_e5m2", "f8e5m2"}};
  for (auto [from, to] : kAliases)
    if (from == foreign)
      return std::string(to);
  return std::nullopt;
}

std::string didYouMean(const std::string &name) { return "did you mean `" + name + "`?"; }

} // namespace blk::sema
