//===- BuiltinDocs.cpp - Signatures and docs of blk built-ins -------------===//

#include "blk/Lsp/BuiltinDocs.h"

namespace blk::lsp {

const std::vector<BuiltinDoc> &builtinDocs() {
  static const std::vector<BuiltinDoc> kDocs = {
      // program
      {"program_id", "program_id(axis) -> i32",
       "index of this program along grid axis 0, 1 or 2"},
      {"num_programs", "num_programs(axis) -> i32",
       "number of programs along grid axis 0, 1 or 2"},
      // creation
      {"arange", "arange(start, end) -> i32[end - start]",
       "consecutive integers start..end-1; both compile-time, the length a "
       "power of two"},
      {"zeros", "zeros(shape, dtype) -> dtype[shape]",
       "a block of zeros; every dimension a compile-time power of two"},
      {"full", "full(shape, value, dtype) -> dtype[shape]",
       "a block filled with `value` (may be a runtime scalar)"},
      // memory
      {"load",
       "load(ptrs, mask: m, other: v, cache: \"…\") -> T[shape of ptrs]",
       "loads through a pointer or pointer block; masked-off lanes read "
       "`other`"},
      {"store", "store(ptrs, value, mask: m)",
       "stores `value` (broadcast to the pointer shape) where `mask` is true"},
      {"atomic_add", "atomic_add(ptrs, value, mask: m) -> old",
       "atomic add; returns the previous values"},
      {"atomic_max", "atomic_max(ptrs, value, mask: m) -> old",
       "atomic maximum; returns the previous values"},
      {"atomic_min", "atomic_min(ptrs, value, mask: m) -> old",
       "atomic minimum; returns the previous values"},
      {"atomic_and", "atomic_and(ptrs, value, mask: m) -> old",
       "atomic bitwise and; returns the previous values"},
      {"atomic_or", "atomic_or(ptrs, value, mask: m) -> old",
       "atomic bitwise or; returns the previous values"},
      {"atomic_xor", "atomic_xor(ptrs, value, mask: m) -> old",
       "atomic bitwise xor; returns the previous values"},
      {"atomic_xchg", "atomic_xchg(ptrs, value, mask: m) -> old",
       "atomic exchange; returns the previous values"},
      {"atomic_cas", "atomic_cas(ptr, cmp, val) -> old",
       "atomic compare-and-swap; returns the previous value"},
      // shape
      {"broadcast_to", "broadcast_to(x, shape) -> T[shape]",
       "broadcasts `x` NumPy-style to `shape`"},
      {"reshape", "reshape(x, shape) -> T[shape]",
       "same elements, new shape (same element count)"},
      {"trans", "trans(x) -> T[N, M]", "transposes a 2-D block"},
      {"permute", "permute(x, dims) -> T[…]",
       "reorders the dimensions of `x` by `dims`"},
      {"expand_dims", "expand_dims(x, axis) -> T[…]",
       "inserts a dimension of size 1 at `axis`"},
      // select
      {"where", "where(cond, a, b)",
       "elementwise select: `a` where `cond` is true, else `b`"},
      {"maximum", "maximum(a, b)", "elementwise maximum"},
      {"minimum", "minimum(a, b)", "elementwise minimum"},
      {"clamp", "clamp(x, lo, hi)", "elementwise clamp of `x` into [lo, hi]"},
      // reduce
      {"sum", "sum(x[, axis])",
       "sum along `axis`; without axis, of all elements (a scalar)"},
      {"max", "max(x[, axis])",
       "maximum along `axis`; without axis, of all elements"},
      {"min", "min(x[, axis])",
       "minimum along `axis`; without axis, of all elements"},
      {"prod", "prod(x[, axis])",
       "product along `axis`; without axis, of all elements"},
      {"argmax", "argmax(x[, axis]) -> i32",
       "index of the maximum along `axis`"},
      {"argmin", "argmin(x[, axis]) -> i32",
       "index of the minimum along `axis`"},
      {"cumsum", "cumsum(x, axis)", "inclusive prefix sum (scan) along `axis`"},
      // math
      {"exp", "exp(x)", "elementwise e^x"},
      {"exp2", "exp2(x)", "elementwise 2^x"},
      {"log", "log(x)", "elementwise natural logarithm"},
      {"log2", "log2(x)", "elementwise base-2 logarithm"},
      {"sqrt", "sqrt(x)", "elementwise square root"},
      {"rsqrt", "rsqrt(x)", "elementwise 1 / sqrt(x)"},
      {"abs", "abs(x)", "elementwise absolute value"},
      {"floor", "floor(x)", "elementwise round toward -inf"},
      {"ceil", "ceil(x)", "elementwise round toward +inf"},
      {"sin", "sin(x)", "elementwise sine"},
      {"cos", "cos(x)", "elementwise cosine"},
      {"tanh", "tanh(x)", "elementwise hyperbolic tangent"},
      {"erf", "erf(x)", "elementwise error function"},
      {"sigmoid", "sigmoid(x)", "elementwise 1 / (1 + e^-x)"},
      {"fma", "fma(a, b, c)", "elementwise fused a * b + c"},
      // linear algebra
      {"dot", "dot(a, b[, acc]) -> [M, N]",
       "matrix product [M,K] x [K,N] (+ acc [M,N]); f32/i32 accumulate, M, N, "
       "K >= 16"},
      // misc
      {"cdiv", "cdiv(a, b)", "ceiling division (a + b - 1) / b"},
      {"multiple_of", "multiple_of(x, k)",
       "hint: every value of `x` is a multiple of `k`"},
      {"max_contiguous", "max_contiguous(x, k)",
       "hint: the first `k` values of `x` are contiguous"},
      {"print", "print(\"fmt\", values…)", "device-side printf"},
      {"assert", "assert(cond, \"msg\")",
       "device-side assertion (debug builds)"},
      {"range", "range(end) | range(start, end[, step])",
       "the iteration space of a `for` loop"},
      {"static_range", "static_range(start, end[, step])",
       "a `for` range that is always unrolled"},
  };
  return kDocs;
}

const BuiltinDoc *findDoc(const std::vector<BuiltinDoc> &docs, std::string_view name) {
  for (const BuiltinDoc &doc : docs)
    if (doc.name == name)
      return &doc;
  return nullptr;
}

const BuiltinDoc *findBuiltinDoc(std::string_view name) { return findDoc(builtinDocs(), name); }

const std::vector<BuiltinDoc> &attributeDocs() {
  static const std::vector<BuiltinDoc> kDocs = {
      {"config",
       "@config(NAME = value, …, num_warps = W, num_stages = S, programs_per_sm = P, "
       "warp_specialize = B, tma = B, exp2_on_fma = N, persistent = B)",
       "one specialisation to compile; `warp_specialize = true` adds a producer warpgroup "
       "(4 warps) that issues the TMA loads on sm_90a; `exp2_on_fma = N` computes one f32 "
       "exp2 in N on the FMA units instead of MUFU; `persistent = true` launches about "
       "one program per SM, each walking the `@grid`'s programs"},
      {"autotune", "@autotune(key = [args…], bucket = pow2 | exact | [b…], restore = [p…], zero = [q…])",
       "time the configs per key value (bucketed) and keep the fastest; the timing "
       "restores or zeroes the listed buffers"},
      {"requires", "@requires(cond)",
       "a config is valid only for arguments where `cond` holds (over integer params, "
       "const params, comparisons, && || !): never launched or tuned otherwise"},
      {"grid", "@grid(e0[, e1[, e2]])", "launch grid over scalar params and constants"},
      {"specialize", "@specialize(p, …)",
       "entries for integer args equal to 1 / multiples of 16, picked at launch"},
      {"aligned", "@aligned(N)", "parameter hint, pointer aligned to N bytes"},
      {"multiple_of", "@multiple_of(N)", "parameter hint, value a multiple of N"}};
  return kDocs;
}

const std::vector<BuiltinDoc> &autotuneKeywordDocs() {
  static const std::vector<BuiltinDoc> kDocs = {
      {"key", "key = [args…]", "runtime integer params: one tuning per (bucketed) value"},
      {"bucket", "bucket = pow2 | exact | [1, 16, 64, …]",
       "how key values are grouped: up to a power of two (default), as they are, or up to "
       "the next bound"},
      {"restore", "restore = [p, …]", "pointer params saved before timing and put back after"},
      {"zero", "zero = [q, …]", "pointer params set to zero before each timed run"}};
  return kDocs;
}

const std::vector<BuiltinDoc> &bucketDocs() {
  static const std::vector<BuiltinDoc> kDocs = {
      {"pow2", "bucket = pow2", "round each key value up to a power of two (the default)"},
      {"exact", "bucket = exact", "tune every distinct key value"}};
  return kDocs;
}

const std::vector<std::string_view> &keywords() {
  static const std::vector<std::string_view> kKeywords = {
      "kernel", "fn",   "let",   "var",    "const",        "if",       "else",
      "for",    "in",   "while", "return", "break",        "continue", "import",
      "as",     "true", "false", "None",   "static_assert"};
  return kKeywords;
}

const std::vector<std::string_view> &scalarTypeNames() {
  static const std::vector<std::string_view> kTypes = {
      "i1",  "i8",  "i16", "i32",  "i64", "u8",  "u16",
      "u32", "u64", "f16", "bf16", "f32", "f64", "f8e4m3", "f8e5m2", "bool"};
  return kTypes;
}

} // namespace blk::lsp
