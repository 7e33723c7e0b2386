//===- Grid.cpp - evaluate the manifest form of `@grid` --------------------===//
//
// Node forms (docs/manifest.md): {"int": v}, {"param": i} and
// {"op": add|sub|mul|div|mod|cdiv|min|max|neg, "args": [...]}, 64-bit,
// division truncating. A tree deeper than the manifest's bound (64 levels)
// and arithmetic that overflows i64 are errors, so a crafted or huge
// expression can neither exhaust the stack nor hit undefined behaviour.
// Test: tests/unit/Interpreter/KernelTest.cpp (GridJson*).
//
//===----------------------------------------------------------------------===//
#include "blk/Interpreter/Interpreter.h"

#include <nlohmann/json.hpp>

#include <cstdint>

namespace blk::interp {

static llvm::Error gridError(const std::string &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "@grid: " + msg);
}

/// How deep one grid expression may nest below its root (the root is depth
/// 0): docs/manifest.md's bound, which the runtime's reader applies to the
/// same tree.
constexpr unsigned kMaxGridNesting = 64;

static llvm::Expected<int64_t> evalNode(const nlohmann::json &node, const std::vector<Arg> &args,
                                        unsigned depth) {
  if (depth > kMaxGridNesting)
    return gridError("an expression nests more than " + std::to_string(kMaxGridNesting) +
                     " levels");
  if (!node.is_object())
    return gridError("expected an object");
  if (node.contains("int"))
    return node["int"].get<int64_t>();
  if (node.contains("param")) {
    size_t index = node["param"].get<size_t>();
    if (index >= args.size() || args[index].kind != Arg::Kind::Int)
      return gridError("parameter " + std::to_string(index) + " is not an integer scalar");
    return args[index].i;
  }
  std::string op = node.value("op", "");
  std::vector<int64_t> v;
  // By reference: json::value() would copy the subtree (recursively, so a
  // deep one would exhaust the stack before the depth check below it).
  static const nlohmann::json kNoArgs = nlohmann::json::array();
  auto found = node.find("args");
  const nlohmann::json &argList = found != node.end() ? *found : kNoArgs;
  if (!argList.is_array())
    return gridError("`args` must be an array");
  for (const nlohmann::json &a : argList) {
    llvm::Expected<int64_t> x = evalNode(a, args, depth + 1);
    if (!x)
      return x.takeError();
    v.push_back(*x);
  }
  // Arithmetic that would overflow i64 is an error, not undefined behaviour.
  auto overflow = [&] { return gridError("`" + op + "` overflows a 64-bit integer"); };
  int64_t r = 0;
  if (op == "neg" && v.size() == 1) {
    if (__builtin_sub_overflow(int64_t(0), v[0], &r))
      return overflow();
    return r;
  }
  if (v.size() != 2)
    return gridError("bad node `" + op + "`");
  int64_t a = v[0], b = v[1];
  if ((op == "div" || op == "mod" || op == "cdiv") && b == 0)
    return gridError("division by zero");
  if ((op == "div" || op == "mod" || op == "cdiv") && b == -1 && a == INT64_MIN)
    return overflow();
  if (op == "add") return __builtin_add_overflow(a, b, &r) ? overflow() : llvm::Expected<int64_t>(r);
  if (op == "sub") return __builtin_sub_overflow(a, b, &r) ? overflow() : llvm::Expected<int64_t>(r);
  if (op == "mul") return __builtin_mul_overflow(a, b, &r) ? overflow() : llvm::Expected<int64_t>(r);
  if (op == "div") return a / b;
  if (op == "mod") return a % b;
  if (op == "cdiv") {
    if (__builtin_add_overflow(a, b - 1, &r))
      return overflow();
    return r / b;
  }
  if (op == "min") return std::min(a, b);
  if (op == "max") return std::max(a, b);
  return gridError("unknown op `" + op + "`");
}

llvm::Expected<std::array<int64_t, 3>> evalGridJson(const std::string &json,
                                                    const std::vector<Arg> &args) {
  nlohmann::json tree = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!tree.is_array() || tree.empty() || tree.size() > 3)
    return gridError("expected an array of 1 to 3 expressions");
  std::array<int64_t, 3> grid{1, 1, 1};
  try { // nlohmann::json throws on a node of the wrong JSON type
    for (size_t k = 0; k < tree.size(); ++k) {
      llvm::Expected<int64_t> v = evalNode(tree[k], args, 0);
      if (!v)
        return v.takeError();
      grid[k] = *v;
    }
  } catch (const nlohmann::json::exception &e) {
    return gridError(e.what());
  }
  return grid;
}

} // namespace blk::interp
