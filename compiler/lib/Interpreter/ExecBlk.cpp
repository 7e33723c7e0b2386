//===- ExecBlk.cpp - executor cases of the `blk` dialect ops ---------------===//
#include "Executor.h"

#include "blk/Interpreter/Format.h"

namespace blk::interp {

using namespace mlir;

bool Executor::execShape(Operation &op, const OpPlan &p) {
  auto operand = [&](unsigned k) -> const Block & { return get(op.getOperand(k)); };
  Block r;
  switch (p.kind) {
  case OpKind::MakeRange: r = makeRange(p.start, p.end); break;
  case OpKind::Splat: r = splat(operand(0), p.result.shape); break;
  case OpKind::Broadcast: r = broadcastTo(operand(0), p.result.shape); break;
  case OpKind::Reshape: r = reshape(operand(0), p.result.shape); break;
  case OpKind::Trans: r = permute(operand(0), p.order); break;
  case OpKind::AddPtr: r = addPtr(operand(0), operand(1)); break;
  case OpKind::PtrCast: // same address, new element type
    r = operand(0);
    r.pointee = p.result.pointee;
    break;
  case OpKind::PtrToInt: // the encoding is the address: equal exactly when the pointers are
    r = operand(0);
    r.kind = ElemKind::I64;
    break;
  case OpKind::ExpandDims: {
    const Block &a = operand(0);
    int64_t axis = p.axis < 0 ? p.axis + int64_t(a.shape.size()) + 1 : p.axis;
    r = expandDims(a, axis);
    break;
  }
  default: break;
  }
  set(op.getResult(0), std::move(r));
  return true;
}

bool Executor::execMemory(Operation &op, const OpPlan &p) {
  auto operand = [&](int k) -> const Block * { return k < 0 ? nullptr : &get(op.getOperand(k)); };
  const Block &ptrs = get(op.getOperand(0));
  std::optional<AccessFault> fault;
  Block out;
  switch (p.kind) {
  case OpKind::Load:
    fault = loadBlock(mem, ptrs, operand(p.maskIdx), operand(p.otherIdx), p.result.kind, out);
    break;
  case OpKind::Store:
    fault = storeBlock(mem, ptrs, *operand(1), operand(p.maskIdx));
    break;
  case OpKind::AtomicRmw:
    fault = atomicRmw(mem, p.rmw, ptrs, *operand(1), operand(p.maskIdx), out);
    break;
  case OpKind::AtomicCas:
    fault = atomicCas(mem, ptrs, *operand(1), *operand(2), out);
    break;
  default: break;
  }
  if (fault)
    return failAt(p, fault->message, ptrs.shape, fault->element);
  if (op.getNumResults())
    set(op.getResult(0), std::move(out));
  return true;
}

bool Executor::execPrint(Operation &op, const OpPlan &p) {
  std::vector<const Block *> values;
  for (Value v : op.getOperands())
    values.push_back(&get(v));
  printSink += formatPrintOp(p.text, values, pid, mem);
  return true;
}

bool Executor::execAssert(Operation &op, const OpPlan &p) {
  const Block &cond = get(op.getOperand(0));
  for (size_t k = 0; k < cond.size(); ++k)
    if (!cond.truth(k))
      return failAt(p, "assertion failed" + (p.text.empty() ? "" : ": " + p.text), cond.shape, k);
  return true;
}

} // namespace blk::interp
