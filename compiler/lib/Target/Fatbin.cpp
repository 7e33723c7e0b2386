//===- Fatbin.cpp - Packing cubins and PTX with CUDA's fatbinary ---------===//
#include "blk/Target/Fatbin.h"

#include "TempFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"



namespace blk::target {

llvm::Expected<std::vector<uint8_t>> makeFatbin(const CudaToolkit &toolkit,
                                                llvm::ArrayRef<FatbinInput> images) {
  llvm::Expected<std::string> tool = toolkit.findFatbinary();
  if (!tool)
    return tool.takeError();

  TempFiles temps;

  std::vector<std::string> args = {*tool, "--64", "--compress=false"};
  for (const FatbinInput &image : images) {
    llvm::SmallString<128> path;
    if (llvm::Error err = writeTemp(image.isPtx ? "ptx" : "cubin", image.bytes, path))
      return err;
    temps.paths.push_back(std::string(path));
    args.push_back(std::string("--image3=kind=") + (image.isPtx ? "ptx" : "elf") +
                   ",sm=" + image.arch.fatbinSm() + ",file=" + std::string(path));
  }
  llvm::SmallString<128> outPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("blkc", "fatbin", outPath))
    return llvm::createStringError("cannot create a temporary file: " + ec.message());
  temps.paths.push_back(std::string(outPath));
  args.push_back("--create=" + std::string(outPath));

  if (llvm::Expected<std::string> log = runTool(*tool, args); !log)
    return log.takeError();
  auto buffer = llvm::MemoryBuffer::getFile(outPath, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError("`" + *tool + "` wrote no fatbin: " +
                                   buffer.getError().message());
  llvm::StringRef data = (*buffer)->getBuffer();
  return std::vector<uint8_t>(data.begin(), data.end());
}

} // namespace blk::target
