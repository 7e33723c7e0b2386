//===- Fatbin.cpp - Packing cubins and PTX with CUDA's fatbinary ---------===//
#include "blk/Target/Fatbin.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace blk::target {

/// Writes `bytes` to a new temporary file; its path goes into `path`.
static llvm::Error writeTemp(llvm::StringRef suffix, llvm::ArrayRef<uint8_t> bytes,
                             llvm::SmallVectorImpl<char> &path) {
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("blkc", suffix, fd, path))
    return llvm::createStringError("cannot create a temporary file: " + ec.message());
  llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
  out.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  out.close();
  if (out.has_error())
    return llvm::createStringError("cannot write temporary file `" +
                                   std::string(path.begin(), path.end()) + "`");
  return llvm::Error::success();
}

llvm::Expected<std::vector<uint8_t>> makeFatbin(const CudaToolkit &toolkit,
                                                llvm::ArrayRef<FatbinInput> images) {
  llvm::Expected<std::string> tool = toolkit.findFatbinary();
  if (!tool)
    return tool.takeError();

  std::vector<std::string> temps;
  auto removeTemps = llvm::make_scope_exit([&] {
    for (const std::string &temp : temps)
      llvm::sys::fs::remove(temp);
  });

  std::vector<std::string> args = {*tool, "--64", "--compress=false"};
  for (const FatbinInput &image : images) {
    llvm::SmallString<128> path;
    if (llvm::Error err = writeTemp(image.isPtx ? "ptx" : "cubin", image.bytes, path))
      return err;
    temps.push_back(std::string(path));
    args.push_back(std::string("--image3=kind=") + (image.isPtx ? "ptx" : "elf") +
                   ",sm=" + image.arch.fatbinSm() + ",file=" + std::string(path));
  }
  llvm::SmallString<128> outPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("blkc", "fatbin", outPath))
    return llvm::createStringError("cannot create a temporary file: " + ec.message());
  temps.push_back(std::string(outPath));
  args.push_back("--create=" + std::string(outPath));

  llvm::SmallString<128> errPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("blkc", "log", errPath))
    return llvm::createStringError("cannot create a temporary file: " + ec.message());
  temps.push_back(std::string(errPath));

  llvm::SmallVector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, errPath.str(), errPath.str()};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(*tool, argRefs, std::nullopt, redirects,
                                     /*secondsToWait=*/0, /*memoryLimit=*/0, &execError);
  if (rc != 0) {
    std::string log;
    if (auto buffer = llvm::MemoryBuffer::getFile(errPath))
      log = (*buffer)->getBuffer().trim().str();
    return llvm::createStringError("`" + *tool + "` failed (" +
                                   (execError.empty() ? "exit " + std::to_string(rc) : execError) +
                                   ")" + (log.empty() ? "" : ":\n" + log));
  }
  auto buffer = llvm::MemoryBuffer::getFile(outPath, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError("`" + *tool + "` wrote no fatbin: " +
                                   buffer.getError().message());
  llvm::StringRef data = (*buffer)->getBuffer();
  return std::vector<uint8_t>(data.begin(), data.end());
}

} // namespace blk::target
