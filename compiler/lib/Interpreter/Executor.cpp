//===- Executor.cpp - op dispatch and structured control flow --------------===//
#include "Executor.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace blk::interp {

using namespace mlir;

static bool isTerminatorKind(OpKind k) {
  return k == OpKind::Return || k == OpKind::Yield || k == OpKind::Condition ||
         k == OpKind::CombinerReturn;
}

bool Executor::fail(const OpPlan &p, std::string message) {
  return failAt(p, message, {}, 0);
}

bool Executor::failAt(const OpPlan &p, const std::string &message, const Shape &shape,
                      size_t element) {
  std::string where = " in kernel `" + kernelName + "`, program (" + std::to_string(pid[0]) +
                      "," + std::to_string(pid[1]) + "," + std::to_string(pid[2]) + ")";
  if (!shape.empty())
    where += ", block element " + formatIndex(shape, int64_t(element));
  lastFault = RunFault{p.pos, message + where};
  return false;
}

bool Executor::runProgram(func::FuncOp fn, const std::vector<Block> &args,
                          std::array<int64_t, 3> programId) {
  pid = programId;
  env.clear();
  mbarrierPhases.clear();
  inFlight.clear();
  asyncGroups = 0;
  std::vector<Block> yielded;
  return runBlock(fn.getBody().front(), args, yielded);
}

bool Executor::runBlock(mlir::Block &block, const std::vector<Block> &args,
                        std::vector<Block> &yielded) {
  for (unsigned k = 0; k < block.getNumArguments(); ++k)
    set(block.getArgument(k), args[k]);
  for (Operation &op : block) {
    const OpPlan &p = plan.ops.find(&op)->second;
    if (isTerminatorKind(p.kind)) {
      yielded.clear();
      for (Value v : op.getOperands())
        yielded.push_back(get(v));
      return true;
    }
    if (!exec(op, p))
      return false;
  }
  return true;
}

bool Executor::execFor(Operation &op) {
  auto forOp = cast<scf::ForOp>(op);
  int64_t lb = get(forOp.getLowerBound()).asInt(0);
  int64_t ub = get(forOp.getUpperBound()).asInt(0);
  int64_t step = get(forOp.getStep()).asInt(0);
  const OpPlan &p = plan.ops.find(&op)->second;
  if (step <= 0)
    return fail(p, "scf.for step " + std::to_string(step) + " is not positive");
  ElemKind ivKind = plan.types.lookup(forOp.getInductionVar().getType()).kind;
  std::vector<Block> args(1 + forOp.getInitArgs().size()), yielded;
  for (unsigned k = 0; k < forOp.getInitArgs().size(); ++k)
    args[1 + k] = get(forOp.getInitArgs()[k]);
  mlir::Block &body = *forOp.getBody();
  for (int64_t iv = lb; iv < ub; iv += step) {
    args[0] = Block::scalarInt(ivKind, iv);
    if (!runBlock(body, args, yielded))
      return false;
    for (size_t k = 0; k < yielded.size(); ++k)
      args[1 + k] = std::move(yielded[k]);
  }
  for (unsigned k = 0; k < op.getNumResults(); ++k)
    set(op.getResult(k), std::move(args[1 + k]));
  return true;
}

bool Executor::execIf(Operation &op) {
  auto ifOp = cast<scf::IfOp>(op);
  bool cond = get(ifOp.getCondition()).truth(0);
  Region &region = cond ? ifOp.getThenRegion() : ifOp.getElseRegion();
  if (region.empty())
    return true;
  std::vector<Block> yielded;
  if (!runBlock(region.front(), {}, yielded))
    return false;
  for (unsigned k = 0; k < op.getNumResults(); ++k)
    set(op.getResult(k), std::move(yielded[k]));
  return true;
}

bool Executor::execWhile(Operation &op) {
  auto whileOp = cast<scf::WhileOp>(op);
  std::vector<Block> args, cond, yielded;
  for (Value v : whileOp.getInits())
    args.push_back(get(v));
  while (true) {
    if (!runBlock(whileOp.getBefore().front(), args, cond))
      return false;
    std::vector<Block> carried(std::make_move_iterator(cond.begin() + 1),
                               std::make_move_iterator(cond.end()));
    if (!cond[0].truth(0)) {
      for (unsigned k = 0; k < op.getNumResults(); ++k)
        set(op.getResult(k), std::move(carried[k]));
      return true;
    }
    if (!runBlock(whileOp.getAfter().front(), carried, yielded))
      return false;
    args.swap(yielded);
  }
}

bool Executor::exec(Operation &op, const OpPlan &p) {
  auto operand = [&](unsigned k) -> const Block & { return get(op.getOperand(k)); };
  auto result = [&](Block b) { set(op.getResult(0), std::move(b)); return true; };
  switch (p.kind) {
  case OpKind::Constant: return result(p.constant);
  case OpKind::Binary: return result(binary(p.bin, operand(0), operand(1)));
  case OpKind::Unary: return result(unary(p.un, operand(0)));
  case OpKind::Fma: return result(fusedMulAdd(operand(0), operand(1), operand(2)));
  case OpKind::Cmp: return result(compare(p.cmp, operand(0), operand(1)));
  case OpKind::Select: return result(select(operand(0), operand(1), operand(2)));
  case OpKind::Cast: return result(cast(p.castOp, operand(0), p.result.kind));
  case OpKind::For: return execFor(op);
  case OpKind::If: return execIf(op);
  case OpKind::While: return execWhile(op);
  case OpKind::ProgramId: return result(Block::scalarInt(p.result.kind, pid[p.axis % 3]));
  case OpKind::NumPrograms: return result(Block::scalarInt(p.result.kind, grid[p.axis % 3]));
  case OpKind::Identity: return result(operand(0));
  // Programs run one at a time, each op on whole blocks: nothing to wait for.
  case OpKind::Barrier: return true;
  case OpKind::LocalMemory: return execLocalMemory(op, p);
  case OpKind::Mbarrier: return execMbarrier(op, p);
  case OpKind::WarpSpecialize: return execWarpSpecialize(op, p);
  case OpKind::Dot: return result(dot(operand(0), operand(1), operand(2)));
  case OpKind::Reduce:
  case OpKind::Scan: return execReduceOrScan(op, p);
  case OpKind::Load:
  case OpKind::Store:
  case OpKind::AtomicRmw:
  case OpKind::AtomicCas: return execMemory(op, p);
  case OpKind::Print: return execPrint(op, p);
  case OpKind::Assert: return execAssert(op, p);
  case OpKind::MakeRange:
  case OpKind::Splat:
  case OpKind::Broadcast:
  case OpKind::ExpandDims:
  case OpKind::Reshape:
  case OpKind::Trans:
  case OpKind::AddPtr:
  case OpKind::PtrCast:
  case OpKind::PtrToInt: return execShape(op, p);
  case OpKind::Return:
  case OpKind::Yield:
  case OpKind::Condition:
  case OpKind::CombinerReturn: return true;
  }
  return true;
}

bool Executor::execReduceOrScan(Operation &op, const OpPlan &p) {
  std::vector<Block> inputs, results;
  for (Value v : op.getOperands())
    inputs.push_back(get(v));
  mlir::Block &body = op.getRegion(0).front();
  Combiner combine = [&](const std::vector<Block> &lhs, const std::vector<Block> &rhs,
                         std::vector<Block> &out) {
    if (p.fastCombiner) {
      out.push_back(binary(*p.fastCombiner, lhs[0], rhs[0]));
      return true;
    }
    std::vector<Block> args = lhs;
    args.insert(args.end(), rhs.begin(), rhs.end());
    return runBlock(body, args, out);
  };
  int64_t rank = int64_t(inputs.front().shape.size());
  int64_t axis = p.axis < 0 ? p.axis + rank : p.axis;
  bool ok = p.kind == OpKind::Reduce ? reduceAlong(inputs, axis, combine, results)
                                     : scanAlong(inputs, axis, p.reverse, combine, results);
  if (!ok)
    return false;
  for (unsigned k = 0; k < op.getNumResults(); ++k)
    set(op.getResult(k), std::move(results[k]));
  return true;
}

} // namespace blk::interp
