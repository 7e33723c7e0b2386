//===- Build.h - `blkc build`: source to an emitted stage -------*- C++ -*-===//
//
// The compile pipeline behind `blkc build` as a library call (library
// BlkBuild, which links the GPU back end):
//   load -> parse -> Sema -> lowerToBlockIR -> [GPU back end] -> emit
// Each `--emit` stage is one row of a table in Build.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DRIVER_BUILD_H
#define BLK_DRIVER_BUILD_H

#include "blk/Driver/FrontendOptions.h"
#include "blk/IRGen/Build.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace blk {

/// The `--emit` values this build of blkc supports, in pipeline order.
std::vector<std::string> buildEmitKinds();

/// Runs `blkc build`: diagnostics go to stderr (text) and the emitted stage
/// to `options.output` or `out`. Returns the exit status (0 ok, 1 errors in
/// the code, 2 usage errors).
int runBuild(const BuildOptions &options, const FrontendOptions &frontend,
             llvm::raw_ostream &out);

} // namespace blk

#endif // BLK_DRIVER_BUILD_H
