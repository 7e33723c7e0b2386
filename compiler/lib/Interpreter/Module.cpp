//===- Module.cpp - contexts, parsing and kernel lookup --------------------===//
#include "blk/Interpreter/Interpreter.h"

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"
#include "blk/IR/BlkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace blk::interp {

using namespace mlir;

void prepareContext(MLIRContext &ctx) {
  // blkgpu only to parse the back end's IR (encodings, convert_layout); its
  // passes and the emitter stay out of the interpreter.
  ctx.loadDialect<func::FuncDialect, arith::ArithDialect, math::MathDialect, scf::SCFDialect,
                  blk::BlkDialect, blk::gpu::BlkGpuDialect>();
}

/// Collects parser diagnostics into `text`.
static llvm::Expected<OwningOpRef<ModuleOp>> parseWith(MLIRContext &ctx,
                                                 std::unique_ptr<llvm::MemoryBuffer> buffer) {
  llvm::SourceMgr mgr;
  mgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  std::string text;
  llvm::raw_string_ostream os(text);
  SourceMgrDiagnosticHandler handler(mgr, &ctx, os);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(mgr, ParserConfig(&ctx));
  if (!module)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), os.str());
  return module;
}

llvm::Expected<OwningOpRef<ModuleOp>> parseModule(MLIRContext &ctx, StringRef text,
                                            StringRef bufferName) {
  return parseWith(ctx, llvm::MemoryBuffer::getMemBufferCopy(text, bufferName));
}

llvm::Expected<OwningOpRef<ModuleOp>> parseModuleFile(MLIRContext &ctx, StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read " + path + ": " + buffer.getError().message());
  return parseWith(ctx, std::move(*buffer));
}

std::vector<func::FuncOp> findKernels(ModuleOp module, StringRef name,
                                      const std::map<std::string, int64_t> &defines) {
  std::vector<func::FuncOp> found;
  for (func::FuncOp fn : module.getOps<func::FuncOp>()) {
    auto kernelAttr = fn->getAttrOfType<StringAttr>("blk.kernel");
    if (!(kernelAttr ? kernelAttr.getValue() == name : fn.getSymName() == name) &&
        fn.getSymName() != name)
      continue;
    // Value variants (@specialize) compute what the generic entry does, so a
    // kernel name means the generic entry; a variant's own symbol picks it
    // (the back-end oracle runs each variant the arguments allow).
    if (fn->hasAttr("blk.variant_of") && fn.getSymName() != name)
      continue;
    auto config = fn->getAttrOfType<DictionaryAttr>("blk.config");
    bool matches = true;
    for (const auto &[key, value] : defines) {
      auto v = config ? dyn_cast_or_null<IntegerAttr>(config.get(key)) : IntegerAttr();
      // A bool const parameter is an i1 attribute: `true` is 1 (-D
      // NAME=true), not its sign extension -1.
      if (!v || (v.getType().isInteger(1) ? int64_t(v.getValue().getZExtValue())
                                          : v.getValue().getSExtValue()) != value)
        matches = false;
    }
    if (matches && !fn.isExternal())
      found.push_back(fn);
  }
  return found;
}

} // namespace blk::interp
