//===- FixtureUtil.h - access to the generated test artifacts
//--------------===//
#pragma once

#include "blk/runtime/Error.h"
#include "blk/runtime/FatbinReader.h"
#include "blk/runtime/Manifest.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

namespace blk::test {

/// Path of a generated fixture (fixtures/make_fixture.py).
inline std::string fixturePath(const std::string &name) {
  return std::string(BLK_RT_FIXTURE_DIR) + "/" + name + ".fatbin";
}

inline bool haveFixture(const std::string &name) {
  return std::ifstream(fixturePath(name)).good();
}

/// The fixture's bytes.
inline std::vector<unsigned char> fixtureBytes(const std::string &name) {
  return readBinaryFile(fixturePath(name));
}

/// The manifest the fixtures embed (kernels.json), as text.
inline std::string fixtureManifestJson() {
  std::ifstream in(std::string(BLK_RT_FIXTURE_SRC) + "/kernels.json");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// parseManifest's error message for `json` ("" when it parses).
inline std::string parseError(const std::string &json) {
  try {
    parseManifest(json, "m.fatbin");
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

} // namespace blk::test

/// Skips the test when the CUDA tools were missing at build time.
#define BLK_REQUIRE_FIXTURE(name)                                              \
  do {                                                                         \
    if (!::blk::test::haveFixture(name))                                       \
      GTEST_SKIP() << "fixture " << name                                       \
                   << " not built (no nvcc/ptxas/fatbinary)";                  \
  } while (0)
