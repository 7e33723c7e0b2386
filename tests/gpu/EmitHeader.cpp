//===- EmitHeader.cpp - write the launcher header of an artifact ----------===//
//
// Test tool: `blkrt-emit-header IN.fatbin OUT.hpp` does what
// `blkc build --emit-header` does, from an existing artifact's manifest, so
// the generated launchers can be compiled and run without blkc.
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
    std::fprintf(stderr, "usage: blkrt-emit-header IN.fatbin OUT.hpp\n");
    return 2;
  }
  try {
    std::vector<unsigned char> bytes = blk::readBinaryFile(argv[1]);
    blk::FatbinReader reader(bytes.data(), bytes.size(), argv[1]);
    blk::Manifest m = blk::parseManifest(reader.manifestJson(), argv[1]);
    blk::HeaderOptions options;
    options.fatbinPath = argv[1];
    std::ofstream(argv[2]) << blk::generateLauncherHeader(m, options);
  } catch (const blk::Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
