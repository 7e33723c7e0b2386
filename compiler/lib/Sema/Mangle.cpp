//===- Mangle.cpp - specialisation entry names ----------------------------===//
#include "blk/Sema/Mangle.h"

#include "blk/Support/Persistent.h"
#include "blk/Support/WarpSpecialize.h"

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
                            int64_t numWarps, bool warpSpecialize, bool persistent) {
  // `k__BM_64_BN_32__w4`: the config pairs are joined by `_`, the groups by `__`.
  std::string out = kernel;
  for (size_t i = 0; i < config.size(); ++i)
    out += (i ? "_" : "__") + config[i].name + "_" + mangleValue(config[i].value);
  return out + "__w" + std::to_string(numWarps) + (warpSpecialize ? kWarpSpecializeSuffix : "") +
         (persistent ? kPersistentSuffix : "");
}

} // namespace blk::sema
