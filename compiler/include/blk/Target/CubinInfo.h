//===- CubinInfo.h - Resource usage read back from a cubin ----*- C++ -*-===//
//
// `blkc inspect` reports registers, stack and shared memory per entry for
// each architecture of a fatbin. ptxas records them in the cubin itself (the
// `.nv.info` attribute section and `.nv.shared.<entry>` sections), so they
// are read from there rather than stored twice.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_CUBININFO_H
#define BLK_TARGET_CUBININFO_H

#include "blk/Target/NvJitLink.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace blk::target {

/// Name of the global, in each cubin blkc writes, that holds ptxas's report
/// for that cubin (see formatResourceTable).
constexpr llvm::StringLiteral kResourceSymbol = "__blk_resources";

/// Resource usage of every function of a cubin that has a register count:
/// registers, stackFrame (per-thread local memory, spills included) and
/// sharedBytes (static) from the ELF attributes; when the cubin carries
/// `__blk_resources`, ptxas's exact report instead (spills included,
/// spillsKnown set). Fails on a malformed ELF.
llvm::Expected<std::vector<EntryResources>> readCubinResources(llvm::ArrayRef<uint8_t> cubin);

/// The `__blk_resources` text: one line per entry, `<entry> <registers>
/// <stack> <spill stores> <spill loads> <shared> <barriers>`, numbers as 10
/// digits. Fixed width, so the zero placeholder compiled into the cubin can
/// be overwritten with ptxas's report without moving any byte.
std::string formatResourceTable(llvm::ArrayRef<EntryResources> entries);

/// Parses formatResourceTable's text (spillsKnown set); skips bad lines.
std::vector<EntryResources> parseResourceTable(llvm::StringRef text);

/// Overwrites the initial bytes of global `symbol` in an ELF image with
/// `bytes`, which must have the symbol's size.
llvm::Error patchElfSymbol(llvm::MutableArrayRef<uint8_t> elf, llvm::StringRef symbol,
                           llvm::StringRef bytes);

} // namespace blk::target

#endif // BLK_TARGET_CUBININFO_H
