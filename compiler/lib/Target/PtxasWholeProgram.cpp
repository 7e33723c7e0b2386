//===- PtxasWholeProgram.cpp - ptxas for warp-specialised modules ---------===//
//
// Why not nvJitLink for these: see compileWholeProgram (NvJitLink.h).
// ptxas prints its report on stderr as nvJitLink's info log has it, but
// for the "bytes stack frame" lines, which lack the `ptxas` prefix the
// parser looks for.
// Test: tests/lit/target/warp-specialize-spills.test.
//
//===----------------------------------------------------------------------===//
#include "blk/Target/NvJitLink.h"

#include "TempFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace blk::target {

llvm::Expected<Cubin> compileWholeProgram(const CudaToolkit &toolkit, llvm::StringRef ptx,
                                          const GpuArch &arch, unsigned optLevel,
                                          bool lineInfo) {
  std::string tool = toolkit.ptxasPath();
  if (tool.empty())
    return llvm::createStringError("no ptxas in the CUDA toolkit at `" + toolkit.root +
                                   "` (" + toolkit.rootSource +
                                   "): a warp-specialised kernel needs it");
  TempFiles temps;
  llvm::SmallString<128> ptxPath, cubinPath;
  if (llvm::Error err = writeTemp("ptx", llvm::ArrayRef<uint8_t>(
                                             reinterpret_cast<const uint8_t *>(ptx.data()),
                                             ptx.size()),
                                  ptxPath))
    return err;
  temps.paths.push_back(std::string(ptxPath));
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("blkc", "cubin", cubinPath))
    return llvm::createStringError("cannot create a temporary file: " + ec.message());
  temps.paths.push_back(std::string(cubinPath));
  std::vector<std::string> args = {tool, "-arch=" + arch.name, optLevel == 0 ? "-O0" : "-O3",
                                   "-v", std::string(ptxPath), "-o", std::string(cubinPath)};
  if (lineInfo)
    args.push_back("-lineinfo");
  llvm::Expected<std::string> log = runTool(tool, args);
  if (!log)
    return log.takeError();
  auto buffer = llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError("`" + tool + "` wrote no cubin: " +
                                   buffer.getError().message());
  Cubin result;
  llvm::StringRef data = (*buffer)->getBuffer();
  result.image.assign(data.begin(), data.end());
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(*log).split(lines, '\n');
  for (llvm::StringRef line : lines)
    result.infoLog += (line.starts_with("ptxas") ? "" : "ptxas ") + line.str() + "\n";
  result.resources = parsePtxasInfoLog(result.infoLog);
  return result;
}

} // namespace blk::target
