//===- Arch.cpp - GPU architectures accepted by --arch -------------------===//
#include "blk/Target/Arch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

namespace blk::target {

// PTX versions: the first ISA release supporting each target (PTX ISA docs,
// "Release notes"); LLVM 19's NVPTX backend knows them all.
static const GpuArch kArchs[] = {
    {"sm_80", 80, false, 70},
    {"sm_86", 86, false, 71},
    {"sm_89", 89, false, 78},
    {"sm_90", 90, false, 78},
    {"sm_90a", 90, true, 80},
};

llvm::ArrayRef<GpuArch> validArchs() { return kArchs; }

std::string validArchNames() {
  std::string names;
  for (const GpuArch &arch : kArchs) {
    if (!names.empty())
      names += ", ";
    names += arch.name;
  }
  return names;
}

const GpuArch *lookupArch(llvm::StringRef name) {
  for (const GpuArch &arch : kArchs)
    if (arch.name == name)
      return &arch;
  return nullptr;
}

const GpuArch *archForCapability(unsigned major, unsigned minor) {
  const unsigned sm = major * 10 + minor;
  const GpuArch *best = nullptr;
  for (const GpuArch &arch : kArchs) {
    // An `a` cubin loads only on its own capability; a plain one on every
    // later minor of its major.
    bool loads = arch.archSpecific ? arch.smVersion == sm
                                   : arch.smVersion / 10 == major && arch.smVersion <= sm;
    if (loads)
      best = &arch; // kArchs is oldest first: the last match is the newest
  }
  if (best || major * 10 < kArchs[0].smVersion)
    return best;
  // Newer than every arch: the newest portable PTX, JIT-compiled by the driver.
  for (const GpuArch &arch : llvm::reverse(kArchs))
    if (!arch.archSpecific && arch.smVersion / 10 < major)
      return &arch;
  return nullptr;
}

/// Position of an arch in kArchs, which is ordered oldest first.
static size_t archRank(const GpuArch &arch) {
  return &arch - kArchs;
}

llvm::Expected<std::vector<GpuArch>> parseArchList(llvm::StringRef list) {
  llvm::SmallVector<llvm::StringRef> parts;
  list.split(parts, ',');
  std::vector<const GpuArch *> found;
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (part.empty())
      return llvm::createStringError(
          "empty architecture in --arch `" + list.str() +
          "` (valid values: " + validArchNames() + ")");
    const GpuArch *arch = lookupArch(part);
    if (!arch)
      return llvm::createStringError(
          "unknown GPU architecture `" + part.str() +
          "` in --arch (valid values: " + validArchNames() + ")");
    if (!llvm::is_contained(found, arch))
      found.push_back(arch);
  }
  std::sort(found.begin(), found.end(),
            [](const GpuArch *a, const GpuArch *b) { return archRank(*a) < archRank(*b); });
  std::vector<GpuArch> archs;
  for (const GpuArch *arch : found)
    archs.push_back(*arch);
  return archs;
}

} // namespace blk::target
