//===- Executor.h - runs one program of a kernel (internal) -----*- C++ -*-===//
//
// Walks the kernel body once per program, holding every SSA value as a
// whole Block in an environment. Control flow (scf) is interpreted
// structurally; each op does its work on whole blocks (BlockOps.h).
// A failure (bad access, failed assert) stops the program with a RunFault.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_INTERPRETER_EXECUTOR_H
#define BLK_LIB_INTERPRETER_EXECUTOR_H

#include "Plan.h"

#include <array>
#include <functional>
#include <map>

namespace blk::interp {

/// Why a program stopped: the message (without "error: ") and where. The
/// message ends with the kernel, the program and, for a block op, the
/// element: "... in kernel `k`, program (1,0,0), block element [2]".
struct RunFault {
  SourcePos pos;
  std::string message;
};

/// Executes programs of one kernel; one Executor per thread.
class Executor {
public:
  Executor(const KernelPlan &plan, std::string kernelName, Memory &mem,
           std::array<int64_t, 3> grid, std::string &printSink)
      : plan(plan), kernelName(std::move(kernelName)), mem(mem), grid(grid),
        printSink(printSink) {}

  /// Runs program `pid` of `fn` with `args`; false on a fault (see fault()).
  bool runProgram(mlir::func::FuncOp fn, const std::vector<Block> &args,
                  std::array<int64_t, 3> pid);
  const RunFault &fault() const { return lastFault; }

  /// The two sides of a blkgpu.warp_specialize taking turns (Mbarriers.cpp).
  struct Sides;

private:
  const Block &get(mlir::Value v) const { return env.find(v)->second; }
  void set(mlir::Value v, Block b) { env[v] = std::move(b); }
  bool fail(const OpPlan &p, std::string message);
  bool failAt(const OpPlan &p, const std::string &message, const Shape &shape, size_t element);

  bool runBlock(mlir::Block &block, const std::vector<Block> &args,
                std::vector<Block> &yielded);
  bool exec(mlir::Operation &op, const OpPlan &p);
  bool execFor(mlir::Operation &op);
  bool execIf(mlir::Operation &op);
  bool execWhile(mlir::Operation &op);
  bool execReduceOrScan(mlir::Operation &op, const OpPlan &p);
  bool execMemory(mlir::Operation &op, const OpPlan &p);
  bool execPrint(mlir::Operation &op, const OpPlan &p);
  bool execAssert(mlir::Operation &op, const OpPlan &p);
  bool execShape(mlir::Operation &op, const OpPlan &p);
  bool execLocalMemory(mlir::Operation &op, const OpPlan &p);
  /// blkgpu.wgmma: a dot whose operands are shared-memory slots.
  bool execTensorCoreDot(mlir::Operation &op, const OpPlan &p);
  /// blkgpu.async_copy: a masked load (zeros where off) into a slot.
  bool execAsyncCopy(mlir::Operation &op, const OpPlan &p);
  /// blkgpu.tma_load: the block of the map's tensor at the coordinates
  /// (zeros outside the tensor) into a slot, unless `pred` is false.
  bool execTmaLoad(mlir::Operation &op, const OpPlan &p);
  /// Copies the slot `memdesc` names out of its buffer; an error message
  /// when the buffer cannot be traced.
  std::string readSlot(mlir::Value memdesc, Block &out);
  /// Overwrites the slot `memdesc` names with `block` (of the view's
  /// shape); an error message as for readSlot.
  std::string writeSlot(mlir::Value memdesc, const Block &block);
  /// The local_alloc'd buffer a memdesc value names and the first element
  /// of its slot; an error message when a slot index is out of range or
  /// the buffer is not used directly.
  std::string slotOf(mlir::Value memdesc, mlir::Value &buffer, size_t &first);
  /// blkgpu.mbarrier_init / _expect / _arrive / _wait (Mbarriers.cpp).
  bool execMbarrier(mlir::Operation &op, const OpPlan &p);
  /// blkgpu.warp_specialize: its producer and consumers take turns.
  bool execWarpSpecialize(mlir::Operation &op, const OpPlan &p);
  /// Waits until `ready()`, letting the other side of a warp_specialize
  /// run meanwhile; false (with a fault) when nothing can make it ready.
  bool waitUntil(const OpPlan &p, const std::function<bool()> &ready,
                 const std::string &what);

  const KernelPlan &plan;
  std::string kernelName;
  Memory &mem;
  std::array<int64_t, 3> grid;
  std::array<int64_t, 3> pid{0, 0, 0};
  std::string &printSink;
  llvm::DenseMap<mlir::Value, Block> env;
  RunFault lastFault;
  /// A buffer and the first element of one of its slots (an mbarrier or a
  /// ring slot).
  using SlotKey = std::pair<const void *, size_t>;
  /// The slot a memdesc (or a memdesc_trans view of one) names.
  std::string slotKeyOf(mlir::Value memdesc, SlotKey &key);
  /// Completed phases of each mbarrier.
  std::map<SlotKey, uint64_t> mbarrierPhases;
  /// A copy into a slot that nothing has waited for yet: a cp.async of
  /// group `group` (async_wait completes it), or a tma_load on `barrier`
  /// (an mbarrier_wait on it does). Reading the slot before is a race on
  /// the GPU, and an error here (LocalMemory.cpp).
  struct InFlight {
    bool tma = false;
    uint64_t group = 0;
    SlotKey barrier;
  };
  std::map<SlotKey, InFlight> inFlight;
  /// cp.async groups committed so far; copies issued since are in group
  /// `asyncGroups`.
  uint64_t asyncGroups = 0;
  /// The two sides of the warp_specialize being run; null outside one.
  Sides *sides = nullptr;
};

} // namespace blk::interp

#endif // BLK_LIB_INTERPRETER_EXECUTOR_H
