//===- PtxBuilder.h - one builder for every inline-PTX site -----*- C++ -*-===//
//
// LLVM 19's NVPTX backend has no intrinsics for predicated vector memory
// ops with `other`, `div.full.f32`, `red`, and (for the tensor-core work)
// wgmma, mbarrier and TMA, so the emitter writes inline PTX. This builder
// owns the error-prone parts: operand numbering (LLVM numbers outputs
// first, then inputs), constraint letters from LLVM types, inputs tied to
// an output (`"0"`: the same register in and out, as wgmma's accumulators
// need), predicate operands, and the memory clobber. Text refers to
// operands through the handles the builder returns; operands are numbered
// in the order of the calls, so make each call its own statement (the
// operands of one `+` chain are evaluated in no fixed order). Test: every PTX lit
// test in tests/lit/codegen/ (the text it produces is what ptxas reads).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_CONVERSION_BLKGPUTOLLVM_PTXBUILDER_H
#define BLK_LIB_CONVERSION_BLKGPUTOLLVM_PTXBUILDER_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/IRBuilder.h"

#include <string>

namespace blk::gpu {

class PtxBuilder {
public:
  explicit PtxBuilder(llvm::IRBuilder<> &b) : b(b) {}

  /// A handle for an output register of `type` (`=r`, `=f`, `=l`, ...).
  std::string output(llvm::Type *type);
  /// A handle for an input (constraint from its type).
  std::string input(llvm::Value *value);
  /// An input that must be in the same register as output `outputHandle`.
  std::string tiedInput(const std::string &outputHandle, llvm::Value *value);
  /// A predicate input (`b`); guard an instruction with `"@" + handle + " "`.
  std::string predicate(llvm::Value *pred);
  /// Appends one instruction (or several, `;`-separated) to the text.
  PtxBuilder &line(const llvm::Twine &text);
  /// The asm reads or writes memory the compiler cannot see.
  PtxBuilder &clobberMemory();

  /// Emits the call. Returns the single output, a struct of the outputs
  /// when there are several (see result()), or the call when none.
  llvm::Value *emit(bool hasSideEffects);
  /// Output `i` of the last emit().
  llvm::Value *result(unsigned i);

  /// Emits `text` alone (no operands) with side effects and a memory
  /// clobber: fences, commits and waits, which order memory LLVM cannot see.
  static void statement(llvm::IRBuilder<> &b, const llvm::Twine &text);

  /// The constraint letter of a register of `type` (`b` for i1, `h` for
  /// i16, `r`, `l` for i64 and pointers, `f`, `d`); `dl` sizes pointers
  /// (shared-memory ones are 32-bit: nvptx-short-ptr, PtxGen.cpp).
  static std::string constraintFor(llvm::Type *type, const llvm::DataLayout &dl);

private:
  const llvm::DataLayout &dataLayout() const;

  llvm::IRBuilder<> &b;
  std::vector<std::string> lines;
  llvm::SmallVector<llvm::Type *> outTypes;
  llvm::SmallVector<std::string> outCons;
  llvm::SmallVector<llvm::Value *> inValues;
  llvm::SmallVector<std::string> inCons;
  bool memory = false;
  llvm::Value *call = nullptr;
};

} // namespace blk::gpu

#endif // BLK_LIB_CONVERSION_BLKGPUTOLLVM_PTXBUILDER_H
