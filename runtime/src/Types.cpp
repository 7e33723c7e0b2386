//===- Types.cpp - blk type spellings
//--------------------------------------===//
#include "blk/runtime/Types.h"

namespace blk {

namespace {
struct KindInfo {
  const char *name;
  unsigned size;
};
constexpr KindInfo kKinds[] = {{"i1", 1},  {"i8", 1},  {"i16", 2},  {"i32", 4},
                               {"i64", 8}, {"u8", 1},  {"u16", 2},  {"u32", 4},
                               {"u64", 8}, {"f16", 2}, {"bf16", 2}, {"f32", 4},
                               {"f64", 8}};
} // namespace

const char *scalarKindName(ScalarKind kind) {
  return kKinds[static_cast<unsigned>(kind)].name;
}

unsigned scalarKindSize(ScalarKind kind) {
  return kKinds[static_cast<unsigned>(kind)].size;
}

bool isIntegerKind(ScalarKind kind) { return kind <= ScalarKind::U64; }

bool isSignedKind(ScalarKind kind) {
  return kind >= ScalarKind::I8 && kind <= ScalarKind::I64;
}

bool isFloatKind(ScalarKind kind) { return kind >= ScalarKind::F16; }

std::optional<ParamType> parseParamType(std::string_view spelling) {
  ParamType type;
  if (!spelling.empty() && spelling.front() == '*') {
    type.pointer = true;
    spelling.remove_prefix(1);
  }
  if (spelling == "bool") {
    type.elem = ScalarKind::I1;
    return type;
  }
  for (unsigned i = 0; i < sizeof(kKinds) / sizeof(kKinds[0]); ++i) {
    if (spelling == kKinds[i].name) {
      type.elem = static_cast<ScalarKind>(i);
      return type;
    }
  }
  return std::nullopt;
}

std::string formatParamType(ParamType type) {
  return (type.pointer ? "*" : "") + std::string(scalarKindName(type.elem));
}

} // namespace blk
