//===- Mangle.h - specialisation entry names --------------------*- C++ -*-===//
//
// The stable entry name of one kernel specialisation (docs/ir.md):
//   `<kernel>__<NAME>_<value>…__w<num_warps>[__ws][__p]`
// const params in declaration order; negative values as `m5`, booleans as 0/1;
// `__ws` when the config sets `warp_specialize`, `__p` when it sets
// `persistent` (so that each is another entry).
// A kernel without const params is `<kernel>__w<num_warps>`.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SEMA_MANGLE_H
#define BLK_SEMA_MANGLE_H

#include "blk/Sema/ConstValue.h"

#include <string>
#include <utility>
#include <vector>

namespace blk::sema {

/// One const parameter's value in a specialisation.
struct ConfigValue {
  std::string name;
  ConstValue value;
};

/// `double_grid__BLOCK_1024__w4`; `matmul__BM_128…__w8__ws` warp-specialised,
/// `…__w8__ws__p` also persistent.
std::string mangleEntryName(const std::string &kernel,
                            const std::vector<ConfigValue> &config,
                            int64_t numWarps, bool warpSpecialize,
                            bool persistent = false);

} // namespace blk::sema

#endif // BLK_SEMA_MANGLE_H
