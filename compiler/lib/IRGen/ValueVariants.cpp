//===- ValueVariants.cpp - entries per class of @specialize'd arguments ---===//
//
// Triton specialises integer arguments equal to 1 or divisible by 16 when it
// JIT-compiles a launch; blk compiles ahead of time, so `@specialize(p, …)`
// asks for one entry per combination of those classes and the runtime picks
// the entry that matches the arguments of each launch (docs/manifest.md,
// "Value variants"). A stride known to be 1 makes an axis contiguous (16-byte
// accesses, coalescing, the layout conversion of a transpose); one known to
// be a multiple of 16 keeps every row 16-byte aligned.
//
//===----------------------------------------------------------------------===//
#include "ValueVariants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <numeric>

using namespace mlir;

namespace blk::irgen {

using sema::ValueClass;

/// The classes parameter `param` can take at a launch the runtime accepts.
static SmallVector<ValueClass> possibleClasses(const sema::KernelParam &param) {
  SmallVector<ValueClass> classes = {ValueClass::Any};
  int64_t m = param.multipleOf.value_or(1);
  if (m == 1) // `@multiple_of(m > 1)` rules out 1
    classes.push_back(ValueClass::One);
  if (m % 16 != 0) // `@multiple_of(16k)` already says it
    classes.push_back(ValueClass::MultipleOf16);
  return classes;
}

SmallVector<SmallVector<ValueClass>> valueVariants(const sema::KernelInfo &kernel) {
  SmallVector<SmallVector<ValueClass>> combos = {{}};
  for (unsigned index : kernel.specialize) {
    SmallVector<SmallVector<ValueClass>> next;
    for (const SmallVector<ValueClass> &prefix : combos)
      for (ValueClass c : possibleClasses(kernel.params[index])) {
        next.push_back(prefix);
        next.back().push_back(c);
      }
    combos = std::move(next);
  }
  // The first combination is all-Any: the generic entry, emitted anyway
  // (without @specialize, the only one).
  combos.erase(combos.begin());
  return combos;
}

std::string variantSuffix(ArrayRef<ValueClass> variant) {
  if (variant.empty())
    return "";
  std::string s = "__v";
  for (ValueClass c : variant)
    s += c == ValueClass::One ? '1' : c == ValueClass::MultipleOf16 ? 'd' : 'x';
  return s;
}

void applyVariant(OpBuilder &b, func::FuncOp func, const sema::KernelInfo &kernel,
                  StringRef genericEntry, ArrayRef<ValueClass> variant) {
  Block &entry = func.getBody().front();
  SmallVector<int32_t> when;
  for (auto [index, c] : llvm::zip(kernel.specialize, variant)) {
    const sema::KernelParam &param = kernel.params[index];
    BlockArgument arg = entry.getArgument(unsigned(param.runtimeIndex));
    when.push_back(int32_t(c));
    if (c == ValueClass::One) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&entry);
      Value one = b.create<arith::ConstantOp>(arg.getLoc(), b.getIntegerAttr(arg.getType(), 1));
      arg.replaceAllUsesWith(one);
    } else if (c == ValueClass::MultipleOf16) {
      int64_t m = std::lcm<int64_t>(param.multipleOf.value_or(1), 16);
      func.setArgAttr(unsigned(param.runtimeIndex), "blk.multiple_of",
                      b.getI32IntegerAttr(int32_t(m)));
    }
  }
  func->setAttr("blk.variant_of", b.getStringAttr(genericEntry));
  func->setAttr("blk.variant_when", b.getDenseI32ArrayAttr(when));
}

} // namespace blk::irgen
