//===- Mangle.cpp - specialisation entry names ----------------------------===//
#include "blk/Sema/Mangle.h"

namespace blk::sema {

static std::string mangleValue(const ConstValue &v) {
  if (v.isBool())
    return v.getBool() ? "1" : "0";
  int64_t i = v.getInt();
  if (i < 0)
    return "m" + std::to_string(-(uint64_t)i);
  return std::to_string(i);
}

std::string mangleEntryName(const std::string &kernel,
                            const std::vector<ConfigValue> &config,
                            int64_t numWarps) {
  std::string out = kernel + "_";
  for (const ConfigValue &c : config)
    out += "_" + c.name + "_" + mangleValue(c.value);
  return out + "__w" + std::to_string(numWarps);
}

} // namespace blk::sema
