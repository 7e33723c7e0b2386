//===- EmitHeader.cpp - launcher header from a prebuilt sample fatbin -----===//
//
// `blk-sample-emit-header IN.fatbin OUT.hpp`: the header `blkc build
// --emit-header` writes, made from the artifact's manifest alone. Lets a
// runtime-only build (-DBLK_BUILD_COMPILER=OFF, no blkc) build the sample
// host programs from fatbins compiled elsewhere (BLK_SAMPLES_FATBIN_DIR).
//
//===----------------------------------------------------------------------===//
#include "blk/runtime/Error.h"
#include "blk/runtime/FatbinReader.h"
#include "blk/runtime/HeaderGen.h"
#include "blk/runtime/Manifest.h"

#include <cstdio>
#include <fstream>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: blk-sample-emit-header IN.fatbin OUT.hpp\n");
    return 2;
  }
  try {
    std::vector<unsigned char> bytes = blk::readBinaryFile(argv[1]);
    blk::FatbinReader reader(bytes.data(), bytes.size(), argv[1]);
    blk::Manifest manifest = blk::parseManifest(reader.manifestJson(), argv[1]);
    blk::HeaderOptions options;
    options.fatbinPath = argv[1];
    std::ofstream out(argv[2]);
    out << blk::generateLauncherHeader(manifest, options);
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", argv[2]);
      return 1;
    }
  } catch (const blk::Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
