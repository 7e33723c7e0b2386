//===- TempFile.cpp - temporary files for the toolkit's executables -------===//
#include "TempFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace blk::target {

llvm::Error writeTemp(llvm::StringRef suffix, llvm::ArrayRef<uint8_t> bytes,
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

llvm::Expected<std::string> runTool(const std::string &tool, llvm::ArrayRef<std::string> args) {
  llvm::SmallString<128> logPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("blkc", "log", logPath))
    return llvm::createStringError("cannot create a temporary file: " + ec.message());
  TempFiles temps{{std::string(logPath)}};
  llvm::SmallVector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath.str(), logPath.str()};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(tool, argRefs, std::nullopt, redirects,
                                     /*secondsToWait=*/0, /*memoryLimit=*/0, &execError);
  std::string log;
  if (auto buffer = llvm::MemoryBuffer::getFile(logPath))
    log = (*buffer)->getBuffer().str();
  if (rc != 0)
    return llvm::createStringError("`" + tool + "` failed (" +
                                   (execError.empty() ? "exit " + std::to_string(rc) : execError) +
                                   ")" + (log.empty() ? "" : ":\n" + llvm::StringRef(log).trim().str()));
  return log;
}

TempFiles::~TempFiles() {
  for (const std::string &path : paths)
    llvm::sys::fs::remove(path);
}

} // namespace blk::target
