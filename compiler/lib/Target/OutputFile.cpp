//===- OutputFile.cpp - write a build output only when it changes ---------===//
#include "blk/Target/OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace blk::target {

llvm::Error writeFileIfChanged(llvm::StringRef path, llvm::StringRef bytes) {
  uint64_t size = 0;
  if (!llvm::sys::fs::file_size(path, size) && size == bytes.size()) {
    auto existing = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                                /*RequiresNullTerminator=*/false);
    if (existing && (*existing)->getBuffer() == bytes)
      return llvm::Error::success();
  }
  std::error_code ec;
  llvm::raw_fd_ostream file(path, ec, llvm::sys::fs::OF_None);
  if (!ec) {
    file << bytes;
    file.close();
    ec = file.error();
  }
  if (ec)
    return llvm::createStringError("cannot write `" + path.str() + "`: " + ec.message());
  return llvm::Error::success();
}

} // namespace blk::target
