//===- HeaderGen.h - typed C++ launchers from a manifest ---------*- C++
//-*-===//
//
// `blkc build --emit-header x.hpp` writes, from the manifest, one typed
// launcher class per kernel (parameters as blk::DevicePtr<float>, int32_t...;
// configs as named constants) and a `module` class that loads the fatbin
// (embedded bytes or a path) and binds every kernel. The header compiles with
// -std=c++17 against runtime/include alone. Driver-free.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "blk/runtime/Manifest.h"

#include <string>
#include <vector>

namespace blk {

/// What generateLauncherHeader writes besides the kernels.
struct HeaderOptions {
  /// The fatbin the `module` class loads by default (used when no image is
  /// embedded): the `-o` path as given to blkc, after --prefix-map. The
  /// header writes it as the default of the macro fatbinPathMacro(ns).
  std::string fatbinPath;
  /// When non-empty, these bytes (the fatbin) are embedded in the header and
  /// loaded from memory instead of fatbinPath.
  std::vector<unsigned char> embeddedImage;
  /// The C++ namespace; empty: the source file's stem + "_blk".
  std::string namespaceName;
};

/// The launcher header for `manifest`. Throws blk::Error if neither a path
/// nor an image is given.
std::string generateLauncherHeader(const Manifest &manifest,
                                   const HeaderOptions &options);

/// The macro that overrides the header's default fatbin path:
/// `<NAMESPACE>_FATBIN_PATH` in upper case (`double_blk` ->
/// `DOUBLE_BLK_FATBIN_PATH`). blk_add_module defines it.
std::string fatbinPathMacro(const std::string &namespaceName);

/// A valid C++ identifier for a blk name (C++ keywords get a `_` suffix).
std::string cppIdentifier(const std::string &name);

} // namespace blk
