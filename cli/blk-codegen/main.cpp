//===- main.cpp - blk-codegen-test: the GPU backend on a .mlir file -------===//
//
// blk-codegen-test FILE.mlir --emit=gpu-ir|llvm|llvm-opt|ptx|info
//                  [--arch=sm_90] [--ptx-version=80] [-O=3] [--lineinfo]
// `info` prints one line per kernel: entry, threads, static shared bytes.
//
//===----------------------------------------------------------------------===//
#include "blk/Conversion/Codegen.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

namespace cl = llvm::cl;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::opt<std::string> input(cl::Positional, cl::desc("<input .mlir>"), cl::init("-"));
  cl::opt<std::string> emit("emit", cl::desc("gpu-ir|llvm|llvm-opt|ptx|info"),
                            cl::init("ptx"));
  cl::opt<std::string> arch("arch", cl::desc("target architecture"), cl::init("sm_90"));
  cl::opt<unsigned> ptxVersion("ptx-version", cl::desc("PTX ISA (80 = 8.0)"), cl::init(80));
  cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimisation level"), cl::init(3));
  cl::opt<bool> lineInfo("lineinfo", cl::desc("source lines in the PTX (.loc)"), cl::init(false));
  cl::ParseCommandLineOptions(argc, argv, "blk GPU backend test driver\n");

  mlir::MLIRContext context;
  blk::loadCodegenDialects(context);
  llvm::SourceMgr sourceMgr;
  auto file = llvm::MemoryBuffer::getFileOrSTDIN(input);
  if (!file) {
    llvm::errs() << "error: cannot read '" << input << "'\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  auto module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  blk::CodegenOptions options;
  options.arch = arch;
  options.ptxVersion = ptxVersion;
  options.optLevel = optLevel;
  options.lineInfo = lineInfo;
  std::string sink;
  llvm::raw_string_ostream sinkOs(sink);
  if (emit == "gpu-ir")
    options.gpuIrOut = &llvm::outs();
  else if (emit == "llvm")
    options.llvmIrOut = &llvm::outs();
  else if (emit == "llvm-opt")
    options.llvmOptIrOut = &llvm::outs();
  else if (emit != "ptx" && emit != "info") {
    llvm::errs() << "error: unknown --emit=" << emit << "\n";
    return 1;
  }
  auto result = blk::compileToPtx(*module, options);
  if (!result) {
    llvm::errs() << llvm::toString(result.takeError()) << "\n";
    return 1;
  }
  if (emit == "ptx")
    llvm::outs() << result->ptx;
  if (emit == "info")
    for (const blk::KernelCodegenInfo &k : result->kernels)
      llvm::outs() << k.entry << " threads=" << k.threads
                   << " shared=" << k.sharedStatic << " dynamic=" << k.sharedDynamic << "\n";
  return 0;
}
