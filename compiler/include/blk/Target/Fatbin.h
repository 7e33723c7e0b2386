//===- Fatbin.h - Packing cubins and PTX with CUDA's fatbinary -*- C++ -*-===//
//
// The fatbin layout belongs to NVIDIA, so blkc does not write it: it runs the
// toolkit's `fatbinary` on temporary files, entries not compressed (the
// runtime's reader, runtime/src/FatbinReader.cpp, does not decompress).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_FATBIN_H
#define BLK_TARGET_FATBIN_H

#include "blk/Target/Arch.h"
#include "blk/Target/CudaToolkit.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace blk::target {

/// One image for the fatbin: a cubin (ELF) or PTX text for one arch.
struct FatbinInput {
  GpuArch arch;
  bool isPtx = false;
  llvm::ArrayRef<uint8_t> bytes;
};

/// Runs `fatbinary` over the images and returns the fatbin's bytes.
llvm::Expected<std::vector<uint8_t>> makeFatbin(const CudaToolkit &toolkit,
                                                llvm::ArrayRef<FatbinInput> images);

} // namespace blk::target

#endif // BLK_TARGET_FATBIN_H
