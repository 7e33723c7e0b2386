//===- Grid.cpp - evaluate the manifest form of `@grid` --------------------===//
//
// Node forms (docs/manifest.md): {"int": v}, {"param": i} and
// {"op": add|sub|mul|div|mod|cdiv|min|max|neg, "args": [...]}, 64-bit,
// division truncating.
//
//===----------------------------------------------------------------------===//
#include "blk/Interpreter/Interpreter.h"

#include <nlohmann/json.hpp>

namespace blk::interp {

static llvm::Error gridError(const std::string &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "@grid: " + msg);
}

static llvm::Expected<int64_t> evalNode(const nlohmann::json &node, const std::vector<Arg> &args) {
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
  for (const nlohmann::json &a : node.value("args", nlohmann::json::array())) {
    llvm::Expected<int64_t> x = evalNode(a, args);
    if (!x)
      return x.takeError();
    v.push_back(*x);
  }
  if (op == "neg" && v.size() == 1)
    return -v[0];
  if (v.size() != 2)
    return gridError("bad node `" + op + "`");
  int64_t a = v[0], b = v[1];
  if ((op == "div" || op == "mod" || op == "cdiv") && b == 0)
    return gridError("division by zero");
  if (op == "add") return a + b;
  if (op == "sub") return a - b;
  if (op == "mul") return a * b;
  if (op == "div") return a / b;
  if (op == "mod") return a % b;
  if (op == "cdiv") return (a + b - 1) / b;
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
      llvm::Expected<int64_t> v = evalNode(tree[k], args);
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
