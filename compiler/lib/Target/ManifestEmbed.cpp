//===- ManifestEmbed.cpp - The manifest as a PTX global ------------------===//
//
// `.visible` keeps the symbol in the cubin that nvJitLink writes (where
// runtime/src/FatbinReader.cpp reads it from `.nv.global.init`) even though
// no kernel references it. Test: tests/unit/Target/ManifestTest.cpp and
// ToolkitTest.cpp (the symbol survives ptxas).
//
//===----------------------------------------------------------------------===//
#include "blk/Target/Manifest.h"

#include "llvm/Support/raw_ostream.h"

namespace blk::target {

llvm::Expected<std::string> embedManifestInPtx(llvm::StringRef ptx, llvm::StringRef json) {
  return embedByteArrayInPtx(ptx, kManifestSymbol, json, "blk manifest (docs/manifest.md)");
}

llvm::Expected<std::string> embedByteArrayInPtx(llvm::StringRef ptx, llvm::StringRef symbol,
                                                llvm::StringRef json, llvm::StringRef comment) {
  size_t directive = ptx.find("\n.address_size");
  if (directive == llvm::StringRef::npos)
    return llvm::createStringError("backend PTX has no `.address_size` directive");
  size_t lineEnd = ptx.find('\n', directive + 1);
  if (lineEnd == llvm::StringRef::npos)
    lineEnd = ptx.size();

  std::string out;
  out.reserve(ptx.size() + json.size() * 5 + 128);
  llvm::raw_string_ostream os(out);
  os << ptx.take_front(lineEnd) << "\n\n// " << comment << "\n"
     << ".visible .global .align 1 .b8 " << symbol << "[" << json.size() << "] = {";
  for (size_t i = 0; i < json.size(); ++i) {
    // Short lines keep the PTX readable and diffable.
    os << (i == 0 ? "" : ",") << (i % 32 == 0 ? "\n  " : " ")
       << static_cast<unsigned>(static_cast<unsigned char>(json[i]));
  }
  os << "\n};" << ptx.drop_front(lineEnd);
  return out;
}

} // namespace blk::target
