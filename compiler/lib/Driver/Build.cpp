//===- Build.cpp - `blkc build`: source to an emitted stage ---------------===//
//
// One row per `--emit` stage; each stage runs the ones before it: the front
// end, lowerToBlockIR (IRGen + blk passes) and, from gpu-ir on, the GPU back
// end (runTargetStage). Errors in the user's code were reported by the front
// end (exit 1). Tests: tests/lit/irgen/, tests/lit/target/.
//
//===----------------------------------------------------------------------===//
#include "blk/Driver/Build.h"

#include "blk/AST/ASTDumper.h"
#include "blk/IR/Registration.h"
#include "blk/Sema/Sema.h"
#include "blk/Support/DiagnosticRenderer.h"
#include "blk/Target/OutputFile.h"

#include "mlir/IR/DialectRegistry.h"

#include "llvm/Support/FileSystem.h"

#include <chrono>
#include <functional>
#include <iostream>
#include <sstream>

using namespace mlir;

namespace blk {

namespace {
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// One `--emit` stage: writes its output for the analysed `file`.
struct EmitStage {
  const char *name;
  std::function<int(Frontend &, FileId, const BuildOptions &,
                    llvm::raw_ostream &, BuildTimes &)>
      run;
};

void printModule(ModuleOp module, const BuildOptions &options,
                 llvm::raw_ostream &os) {
  OpPrintingFlags flags;
  if (options.printLocations) {
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
    flags.useLocalScope(); // inline loc(...) instead of #loc aliases
  }
  module.print(os, flags);
  os << "\n";
}

int emitIR(Frontend &fe, FileId file, const BuildOptions &options,
           llvm::raw_ostream &os, BuildTimes &times, bool optimize) {
  DialectRegistry registry;
  registerBlkIRDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module =
      lowerToBlockIR(fe, file, context, optimize, options, &times);
  if (!module)
    return 1;
  printModule(*module, options, os);
  return 0;
}

/// gpu-ir, llvm, ptx, fatbin: the optimised blk IR through the GPU backend.
int emitTarget(Frontend &fe, FileId file, const BuildOptions &options,
               llvm::raw_ostream &os, BuildTimes &times, const char *stage) {
  DialectRegistry registry;
  registerBlkIRDialects(registry);
  MLIRContext context(registry);
  target::TargetBuildOptions target = options.target;
  target.jobs = target::resolveJobs(target.jobs);
  // -j1 is serial all through (MLIR's pass manager too), e.g. to time it.
  if (target.jobs == 1)
    context.disableMultithreading();
  OwningOpRef<ModuleOp> module = lowerToBlockIR(fe, file, context, true, options, &times);
  if (!module)
    return 1;
  std::vector<std::string> sources; // the depfile's: main file, then imports
  for (const ast::Module *source : fe.getSemaResult(file)->modules)
    sources.push_back(fe.getSourceManager().getPath(source->file));
  target.verbose |= options.timeStages;
  target.printAfter = options.printAfter;
  target.printAfterAll = options.printAfterAll;
  target.warningsAsErrors = fe.getOptions().warningsAsErrors;
  return target::runTargetStage(*module, stage, target, options.output, sources, os);
}

const std::vector<EmitStage> &stages() {
  static const std::vector<EmitStage> table = {
      {"ast",
       [](Frontend &fe, FileId file, const BuildOptions &, llvm::raw_ostream &os,
          BuildTimes &) {
         std::ostringstream text;
         ast::dumpAST(*fe.getModule(file), fe.getSourceManager(), text);
         os << text.str();
         return 0;
       }},
      {"ir",
       [](Frontend &fe, FileId file, const BuildOptions &o, llvm::raw_ostream &os,
          BuildTimes &t) { return emitIR(fe, file, o, os, t, false); }},
      {"ir-opt",
       [](Frontend &fe, FileId file, const BuildOptions &o, llvm::raw_ostream &os,
          BuildTimes &t) { return emitIR(fe, file, o, os, t, true); }},
      {"gpu-ir",
       [](Frontend &fe, FileId file, const BuildOptions &o, llvm::raw_ostream &os,
          BuildTimes &t) { return emitTarget(fe, file, o, os, t, "gpu-ir"); }},
      {"llvm",
       [](Frontend &fe, FileId file, const BuildOptions &o, llvm::raw_ostream &os,
          BuildTimes &t) { return emitTarget(fe, file, o, os, t, "llvm"); }},
      {"ptx",
       [](Frontend &fe, FileId file, const BuildOptions &o, llvm::raw_ostream &os,
          BuildTimes &t) { return emitTarget(fe, file, o, os, t, "ptx"); }},
      {"fatbin",
       [](Frontend &fe, FileId file, const BuildOptions &o, llvm::raw_ostream &os,
          BuildTimes &t) { return emitTarget(fe, file, o, os, t, "fatbin"); }},
  };
  return table;
}
} // namespace

std::vector<std::string> buildEmitKinds() {
  std::vector<std::string> kinds;
  for (const EmitStage &stage : stages())
    kinds.push_back(stage.name);
  return kinds;
}

int runBuild(const BuildOptions &options, const FrontendOptions &frontend,
             llvm::raw_ostream &out) {
  const std::vector<EmitStage> &table = stages();
  auto stage = std::find_if(table.begin(), table.end(), [&](const EmitStage &s) {
    return options.emit == s.name;
  });
  if (stage == table.end()) {
    std::cerr << "blkc: error: unknown --emit value `" << options.emit << "`\n";
    return 2;
  }
  Frontend fe(frontend);
  std::string error;
  FileId file = fe.loadFile(options.input, error);
  if (!file) {
    std::cerr << "blkc: error: " << error << "\n";
    return 2;
  }
  BuildTimes times;
  auto start = Clock::now();
  bool ok = fe.process(file);
  times.frontend = msSince(start);
  renderText(fe.getDiagnostics().getDiagnostics(), fe.getSourceManager(), std::cerr,
             TextStyle{options.colorDiagnostics});
  if (!ok || fe.getDiagnostics().hasErrors())
    return 1;
  int status;
  if (options.output.empty() || options.output == "-") {
    status = stage->run(fe, file, options, out, times);
  } else {
    // Built in memory and written only when it differs from the file on
    // disk (OutputFile.h); a stage that fails removes an older output.
    std::string bytes;
    llvm::raw_string_ostream buffer(bytes);
    status = stage->run(fe, file, options, buffer, times);
    if (status != 0) {
      llvm::sys::fs::remove(options.output);
    } else if (llvm::Error err = target::writeFileIfChanged(options.output, bytes)) {
      std::cerr << "blkc: error: " << llvm::toString(std::move(err)) << "\n";
      return 2;
    }
  }
  if (options.timeStages)
    std::cerr << "blkc: time: frontend " << times.frontend << " ms, irgen "
              << times.irgen << " ms, optimize " << times.optimize
              << " ms, specializations " << times.specializations << "\n";
  return status;
}

} // namespace blk
