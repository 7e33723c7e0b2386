//===- ArtifactFuzzer.cpp - libFuzzer target: blk artifact readers --------===//
//
// Feeds arbitrary bytes, as a fatbin, through checkArtifact (ArtifactCheck.h):
// `blkc inspect` in process, the runtime's load path and each image's ELF and
// PTX readers. A crash, sanitizer report or abort is a bug; a refusal with
// blk::Error is the expected answer to a broken artifact. See
// fuzz/CMakeLists.txt (and `make fuzz`) for how to build and run it.
//
//===----------------------------------------------------------------------===//
#include "ArtifactCheck.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  blk::fuzz::checkArtifact(data, size);
  return 0;
}
