//===- ArtifactCheck.h - an artifact through the readers ------*- C++ -*-===//
//
// The body of the artifact fuzzer, shared by the libFuzzer target
// (ArtifactFuzzer.cpp, clang) and the sanitized smoke driver that ctest runs
// (ArtifactSmoke.cpp, tests/fuzz/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_FUZZ_ARTIFACTCHECK_H
#define BLK_FUZZ_ARTIFACTCHECK_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace blk::fuzz {

/// Feeds `data` to what reads an artifact without a GPU: `blkc inspect` in
/// process (fatbin reader, manifest, cubin resource reader), the runtime's
/// load path (manifest, grid programs evaluated on sample arguments, launch
/// shape, launcher header) and each image's symbol readers alone. Returns 0
/// when the artifact is accepted, 1 when it is refused with an error (its
/// message, `blkc inspect`'s, in `*error` when given). Anything else (a
/// crash, a sanitizer report, an exception other than blk::Error escaping
/// the runtime's readers) is a bug and is left to crash.
int checkArtifact(const uint8_t *data, size_t size,
                  std::string *error = nullptr);

} // namespace blk::fuzz

#endif // BLK_FUZZ_ARTIFACTCHECK_H
