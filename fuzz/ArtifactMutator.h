//===- ArtifactMutator.h - seeded mutations of blk artifacts ---*- C++ -*-===//
//
// The smoke driver's mutations (ArtifactSmoke.cpp): a fixed seed gives the
// same mutant on every machine, so a ctest run covers a fixed set of inputs
// and a crash is reproduced by its file and seed. Knows where the fatbin and
// ELF keep their offsets and sizes, so that many mutants break exactly one
// of them instead of a code byte.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_FUZZ_ARTIFACTMUTATOR_H
#define BLK_FUZZ_ARTIFACTMUTATOR_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace blk::fuzz {

using Bytes = std::vector<uint8_t>;

/// A little-endian integer field of an input: offset and width in bytes.
struct Field {
  size_t offset;
  unsigned width;
};

/// The container, entry, ELF header, section header and symbol fields of
/// `input` (a fatbin as blkc writes it; fewer, or none, for anything else).
std::vector<Field> findFields(const Bytes &input);

/// Mutant `seed` of corpus[index] (whose fields are `fields`): one to three
/// of bit flips, a truncation, a splice with another corpus file, an integer
/// overwritten with a boundary value (0, all ones, the input's size, ...) at
/// a field or anywhere, or a JSON number or bracket of the manifest changed.
Bytes mutate(const std::vector<Bytes> &corpus, size_t index,
             const std::vector<Field> &fields, uint64_t seed);

} // namespace blk::fuzz

#endif // BLK_FUZZ_ARTIFACTMUTATOR_H
