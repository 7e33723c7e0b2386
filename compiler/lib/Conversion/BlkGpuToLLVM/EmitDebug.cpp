//===- EmitDebug.cpp - blk.print (vprintf) and blk.assert (__assertfail) --===//
//
// print: one vprintf per element owned by this thread (copies print once),
// "pid (x, y, z) idx (i, j) <format>: v1, v2"; scalar-only prints come from
// thread 0. assert: if any element of this thread is false, call
// __assertfail(message, file, line, kernel, 1), which stops the kernel with
// the source location. Test: codegen/debug-ops.mlir.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "blk/IR/BlkOps.h"

#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace mlir;

namespace blk::gpu {

static std::pair<std::string, llvm::Value *> printable(llvm::IRBuilder<> &b, llvm::Value *v) {
  llvm::Type *t = v->getType();
  if (t->isFloatingPointTy())
    return {"%f", b.CreateFPExt(v, b.getDoubleTy())};
  if (t->isPointerTy())
    return {"%p", b.CreatePtrToInt(v, b.getInt64Ty())};
  if (t->getIntegerBitWidth() == 64)
    return {"%lld", v};
  if (t->getIntegerBitWidth() == 1)
    return {"%d", b.CreateZExt(v, b.getInt32Ty())};
  return {"%d", b.CreateSExt(v, b.getInt32Ty())};
}

/// Prints `operands` (blocks all of one shape and layout, plus scalars).
static void emitPrintLines(Emitter &e, PrintOp print, ArrayRef<Value> operands) {
  llvm::IRBuilder<> &b = e.b;
  std::optional<LayoutView> view;
  for (Value v : operands)
    if ((view = e.viewOf(v)))
      break;
  unsigned count = view ? view->numElems() : 1;
  llvm::Value *pred = view ? e.ownerPredicate(*view) : b.CreateICmpEQ(e.tid, e.i32(0));
  SmallVector<SmallVector<llvm::Value *>> cs;
  if (view)
    cs = e.coords(*view);
  auto vprintf = e.mod.getOrInsertFunction(
      "vprintf", llvm::FunctionType::get(b.getInt32Ty(), {b.getPtrTy(), b.getPtrTy()}, false));
  for (unsigned i = 0; i < count; ++i) {
    e.emitGuarded(pred, [&] {
      std::string fmt = "pid (%u, %u, %u) ";
      SmallVector<llvm::Value *> args;
      for (unsigned id : {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                          llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                          llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z})
        args.push_back(e.callIntrinsic(id, {}, {}));
      if (view) {
        fmt += "idx (";
        for (unsigned d = 0; d < cs[i].size(); ++d) {
          fmt += d ? ", %d" : "%d";
          args.push_back(cs[i][d]);
        }
        fmt += ") ";
      }
      fmt += print.getFormat().str();
      for (auto [k, v] : llvm::enumerate(operands)) {
        Elems &el = e.get(v);
        auto [spec, val] = printable(b, el[el.size() == 1 ? 0 : i]);
        fmt += (k ? ", " : ": ") + spec;
        args.push_back(val);
      }
      fmt += "\n";
      SmallVector<llvm::Type *> tys;
      for (llvm::Value *a : args)
        tys.push_back(a->getType());
      auto *st = llvm::StructType::get(e.ctx, tys);
      llvm::IRBuilder<> entryB(&e.fn->getEntryBlock(), e.fn->getEntryBlock().begin());
      llvm::Value *buf = entryB.CreateAlloca(st);
      for (auto [k, a] : llvm::enumerate(args))
        b.CreateStore(a, b.CreateStructGEP(st, buf, k));
      b.CreateCall(vprintf, {b.CreateGlobalStringPtr(fmt), buf});
    });
  }
}

static void emitPrint(Emitter &e, PrintOp print) {
  SmallVector<Value> operands(print.getOperands());
  std::optional<RankedTensorType> shape;
  bool uniform = true;
  for (Value v : operands)
    if (auto t = dyn_cast<RankedTensorType>(v.getType())) {
      uniform &= !shape || t == *shape;
      shape = t;
    }
  if (uniform)
    return emitPrintLines(e, print, operands);
  // Blocks of different shapes or layouts: one print per operand.
  for (Value v : operands)
    emitPrintLines(e, print, {v});
}

static void emitAssert(Emitter &e, AssertOp as) {
  llvm::IRBuilder<> &b = e.b;
  llvm::Value *anyFalse = b.getFalse();
  for (llvm::Value *c : e.get(as.getCond()))
    anyFalse = b.CreateOr(anyFalse, b.CreateNot(c));
  auto assertFail = e.mod.getOrInsertFunction(
      "__assertfail",
      llvm::FunctionType::get(b.getVoidTy(),
                              {b.getPtrTy(), b.getPtrTy(), b.getInt32Ty(), b.getPtrTy(),
                               b.getInt64Ty()},
                              false));
  e.emitGuarded(anyFalse, [&] {
    b.CreateCall(assertFail,
                 {b.CreateGlobalStringPtr(as.getMessage()), b.CreateGlobalStringPtr(as.getFile()),
                  b.getInt32(as.getLine()), b.CreateGlobalStringPtr(e.kernel.getSymName()),
                  b.getInt64(1)});
  });
}

llvm::Error Emitter::emitDebugOp(Operation *op) {
  if (auto print = dyn_cast<PrintOp>(op))
    emitPrint(*this, print);
  else
    emitAssert(*this, cast<AssertOp>(op));
  return llvm::Error::success();
}

} // namespace blk::gpu
