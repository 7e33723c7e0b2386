//===- FatbinReader.h - walk a CUDA fatbin and find the manifest -*- C++
//-*-===//
//
// Reads the CUDA fatbin container (docs/manifest.md, "Where the manifest
// lives") without a GPU or driver: lists its device images (cubin / PTX, their
// architectures) and extracts the bytes of the `__blk_manifest` symbol from an
// ELF image (any section holding initialised data: `.nv.global.init`,
// `.nv.constant*`...) or, failing that, from the PTX text. Every malformed
// input is a blk::Error naming the artifact, never a crash.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blk {

/// What a device image in a fatbin holds.
enum class ImageKind { Ptx, Cubin, Other };

/// One device image (fatbin entry) of an artifact.
struct FatbinImage {
  ImageKind kind = ImageKind::Other;
  unsigned arch = 0;         ///< 90 for sm_90 / compute_90
  size_t offset = 0;         ///< payload offset in the artifact
  size_t size = 0;           ///< payload size (padded) in bytes
  bool compressed = false;   ///< LZ4 / ZSTD entry: the driver can load it,
                             ///< but its manifest cannot be read here
  bool archSpecific = false; ///< sm_90a-style: runs on exactly `arch` only
};

/// Reads a fatbin held in memory (not owned: keep the bytes alive).
class FatbinReader {
public:
  /// Walks the container. `origin` names the artifact in messages. Throws
  /// blk::Error on a bad magic, a truncated header or entry, or no images.
  FatbinReader(const void *data, size_t size, std::string origin);

  /// The device images, in file order.
  const std::vector<FatbinImage> &images() const { return images_; }
  /// The payload bytes of an image.
  std::string_view payload(const FatbinImage &image) const;
  /// The manifest JSON. Throws blk::Error when no image carries one.
  std::string manifestJson() const;
  /// "cubin sm_80, cubin sm_90a, PTX compute_90".
  std::string describe() const;
  /// Whether some image can run on a device of compute capability `sm`
  /// (a cubin of the same major version and no newer minor, or PTX no newer
  /// than the device, which the driver compiles).
  bool hasCodeFor(unsigned sm) const;
  /// The artifact's name as used in messages.
  const std::string &origin() const { return origin_; }

private:
  const unsigned char *data_;
  size_t size_;
  std::string origin_;
  std::vector<FatbinImage> images_;
};

/// True when an image of `kind` built for `arch` runs on `sm` (see
/// hasCodeFor); an arch-specific image (sm_90a) only on exactly `arch`.
bool imageRunsOn(ImageKind kind, unsigned arch, unsigned sm,
                 bool archSpecific = false);

/// The bytes of symbol `symbol` in a 64-bit ELF (trailing NULs removed);
/// nullopt when the ELF has no such symbol. Throws blk::Error when the ELF is
/// malformed or the symbol has no initialised bytes.
std::optional<std::string> readElfSymbol(std::string_view elf,
                                         std::string_view symbol,
                                         const std::string &origin);

/// The initialiser bytes of `.global .b8 symbol[N] = {...}` in PTX text
/// (trailing NULs removed); nullopt when the PTX does not define it.
std::optional<std::string> readPtxByteArray(std::string_view ptx,
                                            std::string_view symbol,
                                            const std::string &origin);

/// Reads a whole file. Throws blk::Error naming the path on failure.
std::vector<unsigned char> readBinaryFile(const std::string &path);

} // namespace blk
