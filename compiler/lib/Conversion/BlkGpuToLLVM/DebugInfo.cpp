//===- DebugInfo.cpp - source lines for PTX and SASS (--lineinfo) ---------===//
//
// With line info on, every instruction carries the DILocation of the op it
// lowers (the innermost file:line:col of the op's location: for code
// inlined from a `fn`, the line in the fn's file), so PTX gets `.loc`
// directives, nvJitLink's `-lineinfo` keeps them in the cubin, and Nsight
// Compute and `cuobjdump`/`nvdisasm` map SASS to `.blk` lines. The compile
// unit is DebugDirectivesOnly: line tables, no variables, and the code is
// the same as without (LLVM keeps debug info out of codegen decisions).
// File names go through --prefix-map (they reach the PTX `.file` lines and
// the cubin). Tests: tests/lit/codegen/lineinfo.mlir,
// tests/lit/target/build-reproducible.test.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DIBuilder.h"

using namespace mlir;

namespace blk::gpu {

static FileLineColLoc innermostFileLoc(Location loc) {
  FileLineColLoc found;
  loc->walk([&](Location l) {
    if (auto flc = dyn_cast<FileLineColLoc>(l)) {
      found = flc;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

llvm::DIFile *Emitter::debugFileFor(llvm::StringRef path) {
  if (!prefixMap)
    return debugBuilder->createFile(path, "");
  return debugBuilder->createFile(prefixMap->apply(std::string_view(path.data(), path.size())),
                                  "");
}

void Emitter::beginDebugInfo() {
  FileLineColLoc loc = innermostFileLoc(kernel.getLoc());
  std::string file = loc ? loc.getFilename().str() : "<unknown>";
  debugBuilder = std::make_unique<llvm::DIBuilder>(mod);
  llvm::DIFile *diFile = debugFileFor(file);
  llvm::DICompileUnit *cu = debugBuilder->createCompileUnit(
      llvm::dwarf::DW_LANG_C_plus_plus, diFile, "blkc", /*isOptimized=*/true, "", 0, "",
      llvm::DICompileUnit::DebugDirectivesOnly);
  unsigned line = loc ? loc.getLine() : 0;
  debugScope = debugBuilder->createFunction(
      cu, kernel.getSymName(), kernel.getSymName(), diFile, line,
      debugBuilder->createSubroutineType(debugBuilder->getOrCreateTypeArray({})), line,
      llvm::DINode::FlagZero,
      llvm::DISubprogram::SPFlagDefinition | llvm::DISubprogram::SPFlagOptimized);
  fn->setSubprogram(debugScope);
  debugFile = file;
  if (!mod.getModuleFlag("Debug Info Version"))
    mod.addModuleFlag(llvm::Module::Warning, "Debug Info Version",
                      llvm::DEBUG_METADATA_VERSION);
  if (!mod.getModuleFlag("Dwarf Version"))
    mod.addModuleFlag(llvm::Module::Warning, "Dwarf Version", 2);
}

void Emitter::setLocation(Location loc) {
  if (!debugBuilder)
    return;
  FileLineColLoc flc = innermostFileLoc(loc);
  if (!flc) {
    b.SetCurrentDebugLocation(llvm::DebugLoc());
    return;
  }
  llvm::DIScope *scope = debugScope;
  if (flc.getFilename() != debugFile) {
    // Code inlined from another file (a `fn` of an import): its lines are
    // in that file.
    auto &fileScope = debugFileScopes[flc.getFilename()];
    if (!fileScope)
      fileScope = debugBuilder->createLexicalBlockFile(
          debugScope, debugFileFor(flc.getFilename()));
    scope = fileScope;
  }
  b.SetCurrentDebugLocation(llvm::DILocation::get(ctx, flc.getLine(), flc.getColumn(), scope));
}

void Emitter::endDebugInfo() {
  if (!debugBuilder)
    return;
  b.SetCurrentDebugLocation(llvm::DebugLoc());
  debugBuilder->finalize();
}

} // namespace blk::gpu
