//===- MakePersistent.cpp - --blk-make-persistent -------------------------===//
//
// `@config(…, persistent = true)` (blk/Support/Persistent.h): the runtime
// launches min(@grid, SMs × programs per SM) programs, and this pass makes
// each of them compute, in turn, the programs program_id(0),
// program_id(0) + num_programs(0), … of the full one-axis `@grid`. The count
// is computed from the arguments as the runtime computes the launch (the
// folded `blk.grid`, in 64-bit arithmetic), so a kernel written one tile per
// program becomes a persistent one without the loop written out.
// Test: tests/lit/transforms/make-persistent.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/IR/BlkOps.h"
#include "blk/Support/Persistent.h"
#include "blk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/Support/JSON.h"

namespace blk {
#define GEN_PASS_DEF_MAKEPERSISTENT
#include "blk/Transforms/Passes.h.inc"
} // namespace blk

using namespace mlir;

namespace {

/// Emits one node of a folded `@grid` (docs/manifest.md) as i64 arithmetic
/// on the func's arguments; returns null (and reports) on a node it cannot
/// read.
class GridEmitter {
public:
  GridEmitter(OpBuilder &b, func::FuncOp fn) : b(b), fn(fn), loc(fn.getLoc()) {}

  Value emit(const llvm::json::Value &node) {
    const llvm::json::Object *o = node.getAsObject();
    if (!o)
      return fail("a node is not an object");
    if (std::optional<int64_t> v = o->getInteger("int"))
      return b.create<arith::ConstantIntOp>(loc, *v, 64);
    if (std::optional<int64_t> index = o->getInteger("param"))
      return param(*index);
    std::optional<llvm::StringRef> op = o->getString("op");
    const llvm::json::Array *args = o->getArray("args");
    if (!op || !args || args->empty())
      return fail("a node is neither `int`, `param` nor an `op` with `args`");
    SmallVector<Value> values;
    for (const llvm::json::Value &arg : *args) {
      values.push_back(emit(arg));
      if (!values.back())
        return nullptr;
    }
    if (*op == "neg")
      return b.create<arith::SubIOp>(loc, b.create<arith::ConstantIntOp>(loc, 0, 64), values[0]);
    if (values.size() != 2)
      return fail("`" + op->str() + "` takes two operands");
    Value x = values[0], y = values[1];
    if (*op == "add") return b.create<arith::AddIOp>(loc, x, y);
    if (*op == "sub") return b.create<arith::SubIOp>(loc, x, y);
    if (*op == "mul") return b.create<arith::MulIOp>(loc, x, y);
    if (*op == "div") return b.create<arith::DivSIOp>(loc, x, y);
    if (*op == "mod") return b.create<arith::RemSIOp>(loc, x, y);
    if (*op == "cdiv") return b.create<arith::CeilDivSIOp>(loc, x, y);
    if (*op == "min") return b.create<arith::MinSIOp>(loc, x, y);
    if (*op == "max") return b.create<arith::MaxSIOp>(loc, x, y);
    return fail("unknown op `" + op->str() + "`");
  }

private:
  /// A runtime parameter as the runtime reads it: an unsigned type
  /// (`blk.param_types`) zero-extended, a signed one sign-extended.
  Value param(int64_t index) {
    if (index < 0 || index >= int64_t(fn.getNumArguments()))
      return fail("parameter " + std::to_string(index) + " out of range");
    Value arg = fn.getArgument(unsigned(index));
    auto type = dyn_cast<IntegerType>(arg.getType());
    if (!type)
      return fail("parameter " + std::to_string(index) + " is not an integer");
    if (type.getWidth() == 64)
      return arg;
    auto types = fn->getAttrOfType<ArrayAttr>("blk.param_types");
    auto spelled = types && index < int64_t(types.size())
                       ? dyn_cast<StringAttr>(types[unsigned(index)])
                       : StringAttr();
    bool isUnsigned = type.getWidth() == 1 || (spelled && spelled.getValue().starts_with("u"));
    if (isUnsigned)
      return b.create<arith::ExtUIOp>(loc, b.getI64Type(), arg);
    return b.create<arith::ExtSIOp>(loc, b.getI64Type(), arg);
  }

  Value fail(const std::string &why) {
    fn.emitError("internal compiler error (blk-make-persistent): `blk.grid`: ") << why;
    return nullptr;
  }

  OpBuilder &b;
  func::FuncOp fn;
  Location loc;
};

/// Wraps `fn`'s body in the loop over the `@grid`'s programs; false (with
/// an error reported) when `fn` is not what Sema and IRGen make of a
/// persistent config.
bool makePersistent(func::FuncOp fn) {
  auto gridText = fn->getAttrOfType<StringAttr>("blk.grid");
  if (!gridText || !fn.getBody().hasOneBlock()) {
    fn.emitError("internal compiler error (blk-make-persistent): a persistent func needs "
                 "`blk.grid` and a body of one block");
    return false;
  }
  llvm::Expected<llvm::json::Value> grid = llvm::json::parse(gridText.getValue());
  const llvm::json::Array *axes = grid ? grid->getAsArray() : nullptr;
  if (!axes || axes->size() != 1) {
    if (!grid)
      llvm::consumeError(grid.takeError());
    fn.emitError("internal compiler error (blk-make-persistent): `blk.grid` is not one axis");
    return false;
  }
  Block &entry = fn.front();
  SmallVector<Operation *> body;
  for (Operation &op : entry.without_terminator())
    body.push_back(&op);

  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Location loc = fn.getLoc();
  Value count64 = GridEmitter(b, fn).emit((*axes)[0]);
  if (!count64)
    return false;
  Type i32 = b.getI32Type();
  Value count = b.create<arith::TruncIOp>(loc, i32, count64);
  Value first = b.create<blk::ProgramIdOp>(loc, i32, 0);
  Value step = b.create<blk::NumProgramsOp>(loc, i32, 0);
  auto loop = b.create<scf::ForOp>(loc, first, count, step);
  Operation *yield = loop.getBody()->getTerminator();
  for (Operation *op : body)
    op->moveBefore(yield);
  SmallVector<Operation *> replaced;
  loop.getBody()->walk([&](Operation *op) {
    if (auto id = dyn_cast<blk::ProgramIdOp>(op); id && id.getAxis() == 0) {
      id.replaceAllUsesWith(loop.getInductionVar());
      replaced.push_back(op);
    } else if (auto n = dyn_cast<blk::NumProgramsOp>(op); n && n.getAxis() == 0) {
      n.replaceAllUsesWith(count);
      replaced.push_back(op);
    }
  });
  for (Operation *op : replaced)
    op->erase();
  return true;
}

struct MakePersistent : blk::impl::MakePersistentBase<MakePersistent> {
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp fn) {
      if (fn->hasAttr(blk::kPersistentAttr) && !makePersistent(fn))
        signalPassFailure();
    });
  }
};

} // namespace
