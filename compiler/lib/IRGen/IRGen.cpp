//===- IRGen.cpp - one func.func per kernel specialisation ----------------===//
//
// Builds the module: per kernel and error-free specialisation a func.func
// named by Sema's mangled entry name, whose arguments are the runtime
// parameters in launch order (with `blk.aligned` / `blk.multiple_of`), and
// whose attributes carry what docs/manifest.md needs. Bodies: Emitter.
//
//===----------------------------------------------------------------------===//
#include "blk/IRGen/IRGen.h"
#include "Emitter.h"
#include "ValueVariants.h"

#include "blk/IR/BlkDialect.h"
#include "blk/Support/ConfigAttrs.h"
#include "blk/Support/Exp2OnFma.h"
#include "blk/Support/Fnv1a.h"
#include "blk/Support/Persistent.h"
#include "blk/Support/WarpSpecialize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace blk {

std::string hashSource(std::string_view text) { return "fnv1a64:" + hex16(fnv1a64(text)); }

static ArrayAttr stringArray(OpBuilder &b, const std::vector<std::string> &items) {
  SmallVector<Attribute> attrs;
  for (const std::string &s : items)
    attrs.push_back(b.getStringAttr(s));
  return b.getArrayAttr(attrs);
}

/// `{bucket = "pow2" | "exact" | array<i64: …>, restore = [...], zero = [...]}`
/// (docs/ir.md); the key travels in `blk.autotune_key`.
static DictionaryAttr autotuneAttr(OpBuilder &b, const sema::AutotuneInfo &autotune) {
  Attribute bucket;
  switch (autotune.bucket) {
  case sema::AutotuneBucket::Pow2: bucket = b.getStringAttr("pow2"); break;
  case sema::AutotuneBucket::Exact: bucket = b.getStringAttr("exact"); break;
  case sema::AutotuneBucket::List: bucket = b.getDenseI64ArrayAttr(autotune.bucketBounds); break;
  }
  return b.getDictionaryAttr({b.getNamedAttr("bucket", bucket),
                              b.getNamedAttr("restore", stringArray(b, autotune.restore)),
                              b.getNamedAttr("zero", stringArray(b, autotune.zero))});
}

/// The attributes the manifest is built from (docs/ir.md, "Kernels").
static void addKernelAttributes(OpBuilder &b, func::FuncOp func,
                                const sema::KernelInfo &kernel,
                                const sema::Specialization &spec) {
  func->setAttr("blk.kernel", b.getStringAttr(kernel.name));
  func->setAttr("blk.num_warps", b.getI32IntegerAttr(spec.numWarps));
  func->setAttr("blk.num_stages", b.getI32IntegerAttr(spec.numStages));
  if (!spec.tma)
    func->setAttr(kNoTmaAttr, b.getUnitAttr());
  if (spec.programsPerSm > 0)
    func->setAttr(kProgramsPerSmAttr, b.getI32IntegerAttr(spec.programsPerSm));
  if (spec.exp2OnFma > 0)
    func->setAttr(kExp2OnFmaAttr, b.getI32IntegerAttr(spec.exp2OnFma));
  if (spec.warpSpecialize)
    func->setAttr(kWarpSpecializeAttr, b.getUnitAttr());
  if (spec.persistent)
    func->setAttr(kPersistentAttr, b.getUnitAttr());
  SmallVector<NamedAttribute> config;
  for (const sema::ConfigValue &c : spec.config) {
    Attribute value = c.value.isBool()
                          ? Attribute(b.getBoolAttr(c.value.getBool()))
                          : Attribute(b.getI64IntegerAttr(c.value.getInt()));
    config.push_back(b.getNamedAttr(c.name, value));
  }
  func->setAttr("blk.config", b.getDictionaryAttr(config));
  std::vector<std::string> names, types, consts;
  for (unsigned index : kernel.runtimeParams) {
    names.push_back(kernel.params[index].name);
    types.push_back(kernel.params[index].typeSpelling);
  }
  for (unsigned index : kernel.constParams)
    consts.push_back(kernel.params[index].name + ":" +
                     kernel.params[index].typeSpelling);
  func->setAttr("blk.param_names", stringArray(b, names));
  func->setAttr("blk.param_types", stringArray(b, types));
  func->setAttr("blk.const_params", stringArray(b, consts));
  func->setAttr("blk.autotune_key", stringArray(b, kernel.autotuneKey));
  if (kernel.autotune)
    func->setAttr("blk.autotune", autotuneAttr(b, *kernel.autotune));
  func->setAttr("blk.grid_source", stringArray(b, kernel.gridSource));
  if (!kernel.specialize.empty()) {
    SmallVector<int32_t> launchIndices;
    for (unsigned index : kernel.specialize)
      launchIndices.push_back(kernel.params[index].runtimeIndex);
    func->setAttr("blk.specialize", b.getDenseI32ArrayAttr(launchIndices));
  }
  if (!spec.gridJson.empty())
    func->setAttr("blk.grid", b.getStringAttr(spec.gridJson));
  if (!spec.requirementsJson.empty())
    func->setAttr("blk.requires", b.getStringAttr(spec.requirementsJson));
}

/// Emits one entry of `spec`: the generic one (`variant` empty) or the
/// value variant compiled for `variant`'s class of each `@specialize`d
/// parameter (ValueVariants.cpp).
static func::FuncOp createKernel(OpBuilder &b, irgen::Emitter &emitter,
                                 const sema::KernelInfo &kernel,
                                 const sema::Specialization &spec,
                                 ArrayRef<sema::ValueClass> variant = {}) {
  SmallVector<Type> argTypes;
  for (unsigned index : kernel.runtimeParams)
    argTypes.push_back(emitter.lowerType(kernel.params[index].type));
  std::string name = spec.entryName + irgen::variantSuffix(variant);
  auto func = b.create<func::FuncOp>(emitter.loc(kernel.decl), name,
                                     b.getFunctionType(argTypes, {}));
  for (auto [i, index] : llvm::enumerate(kernel.runtimeParams)) {
    const sema::KernelParam &param = kernel.params[index];
    if (param.aligned)
      func.setArgAttr(i, "blk.aligned", b.getI32IntegerAttr(*param.aligned));
    if (param.multipleOf)
      func.setArgAttr(i, "blk.multiple_of", b.getI32IntegerAttr(*param.multipleOf));
  }
  addKernelAttributes(b, func, kernel, spec);
  SmallVector<Location> argLocs;
  for (unsigned index : kernel.runtimeParams)
    argLocs.push_back(emitter.loc(kernel.params[index].decl));
  Block *entry = b.createBlock(&func.getBody(), {}, argTypes, argLocs);
  emitter.emitKernel(kernel, spec, *entry);
  if (!variant.empty())
    irgen::applyVariant(b, func, kernel, spec.entryName, variant);
  return func;
}

OwningOpRef<ModuleOp> generateIR(MLIRContext &context,
                                 const sema::SemaResult &result,
                                 const SourceManager &sm,
                                 const IRGenOptions &options) {
  context.loadDialect<BlkDialect, arith::ArithDialect, func::FuncDialect,
                      math::MathDialect, scf::SCFDialect>();
  OpBuilder b(&context);
  Location moduleLoc = UnknownLoc::get(&context);
  if (!result.modules.empty())
    moduleLoc = FileLineColLoc::get(&context, options.sourcePath, 1, 1);
  OwningOpRef<ModuleOp> module = ModuleOp::create(moduleLoc);
  (*module)->setAttr("blk.source", b.getStringAttr(options.sourcePath));
  (*module)->setAttr("blk.source_hash", b.getStringAttr(options.sourceHash));
  irgen::Emitter emitter(b, sm);
  for (const sema::KernelInfo &kernel : result.kernels) {
    for (const sema::Specialization &spec : kernel.specializations) {
      if (spec.hasErrors || !spec.body)
        continue;
      b.setInsertionPointToEnd(module->getBody());
      createKernel(b, emitter, kernel, spec);
      for (const SmallVector<sema::ValueClass> &variant : irgen::valueVariants(kernel)) {
        b.setInsertionPointToEnd(module->getBody());
        createKernel(b, emitter, kernel, spec, variant);
      }
    }
  }
  return module;
}

} // namespace blk
