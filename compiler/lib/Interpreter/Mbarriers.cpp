//===- Mbarriers.cpp - mbarriers and warp specialisation in the interpreter ===//
//
// A copy is complete when issued (LocalMemory.cpp), so an mbarrier only
// counts its completed phases: `mbarrier_init` sets every slot of a ring
// to 0, an `mbarrier_expect` (its TMA copies landed at once) or an
// `mbarrier_arrive` completes one phase, and `mbarrier_wait` for parity P
// passes when the slot's current phase has another parity (P's phase is
// the one that completed last, as mbarrier.try_wait.parity reads it). One
// arrival completes a phase because one side of the interpreter stands for
// all the threads that arrive on the GPU: the producer's one thread, or
// every consumer warp at once.
//
// A blkgpu.warp_specialize runs its two regions as two sides that take
// turns, on two threads of which one runs at a time: the consumers first;
// a side that waits on a phase not yet complete hands the turn to the
// other, which runs until it waits too (or ends) and hands it back once
// that phase is complete. So a ring of S slots holds at most S tiles, as on
// the GPU, and a slot is overwritten only after the consumers released it.
// A wait that nothing will complete (both sides waiting, or one waiting
// after the other ended) is reported as the hang it would be on the GPU,
// naming both waits. Tests: tests/lit/interp/warp-specialize.mlir,
// tests/lit/interp/backend-oracle-ws.test.
//
//===----------------------------------------------------------------------===//
#include "Executor.h"

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"

#include <condition_variable>
#include <mutex>
#include <thread>

using namespace mlir;

namespace blk::interp {

/// The two sides of a warp_specialize: side 0 the consumers, 1 the
/// producer. Only the side whose turn it is (`running`) touches the
/// executor; the other blocks on `turn`.
struct Executor::Sides {
  std::mutex m;
  std::condition_variable turn;
  int running = 0;
  bool done[2] = {false, false};
  /// A fault or a hang: both sides stop, the fault already reported.
  bool stopped = false;
  /// What a waiting side waits for (null when it is not waiting), what its
  /// wait is, for the report of a hang, and where.
  std::function<bool()> ready[2];
  std::string waiting[2];
  const OpPlan *waitOp[2] = {nullptr, nullptr};
};

static const char *sideName(int side) { return side == 0 ? "the consumers" : "the producer"; }

/// "the consumers wait for" / "the producer waits for".
static std::string waitsFor(int side) {
  return std::string(sideName(side)) + (side == 0 ? " wait for " : " waits for ");
}

/// Whether `side` can take the turn: it has not ended and is either not
/// waiting (not started yet) or waiting for what is now ready.
static bool canRun(Executor::Sides &s, int side) {
  return !s.done[side] && (!s.ready[side] || s.ready[side]());
}

/// What `side` waits for, and where.
static std::string waitOf(const Executor::Sides &s, int side) {
  return s.waiting[side] + " (line " + std::to_string(s.waitOp[side]->pos.line) + ")";
}

/// Why `side`, which cannot run, never will (the other has the turn).
static std::string whyStuck(const Executor::Sides &s, int side) {
  return s.done[side] ? std::string(sideName(side)) + " ended" : waitsFor(side) + waitOf(s, side);
}

bool Executor::waitUntil(const OpPlan &p, const std::function<bool()> &ready,
                         const std::string &what) {
  if (ready())
    return true;
  if (!sides)
    return fail(p, what + " never completes: nothing else arrives on it (the program would "
                          "hang on the GPU)");
  std::unique_lock<std::mutex> lock(sides->m);
  int self = sides->running, other = 1 - self;
  if (!canRun(*sides, other)) {
    sides->stopped = true;
    sides->turn.notify_all();
    return fail(p, waitsFor(self) + what + ", which never " +
                       "completes: " + whyStuck(*sides, other) +
                       " (the program would hang on the GPU)");
  }
  sides->ready[self] = ready;
  sides->waiting[self] = what;
  sides->waitOp[self] = &p;
  sides->running = other;
  sides->turn.notify_all();
  sides->turn.wait(lock, [&] { return sides->running == self || sides->stopped; });
  sides->ready[self] = nullptr;
  // Stopped: the fault that stopped it is the one to report.
  return !sides->stopped;
}

bool Executor::execWarpSpecialize(Operation &op, const OpPlan &p) {
  auto ws = cast<gpu::WarpSpecializeOp>(op);
  if (sides)
    return fail(p, "a blkgpu.warp_specialize inside another");
  Sides s;
  sides = &s;
  // A side that ends hands the turn to the other, or reports the other's
  // wait as a hang when nothing is left to complete it.
  auto end = [&](int self, bool ok) {
    std::lock_guard<std::mutex> lock(s.m);
    s.done[self] = true;
    int other = 1 - self;
    if (!ok) {
      s.stopped = true;
    } else if (!s.done[other] && !s.stopped) {
      if (canRun(s, other)) {
        s.running = other;
      } else {
        fail(*s.waitOp[other], waitsFor(other) + waitOf(s, other) +
                                   ", which never completes: " + sideName(self) +
                                   " ended (the program would hang on the GPU)");
        s.stopped = true;
      }
    }
    s.turn.notify_all();
  };
  auto runRegion = [&](Region &region) {
    std::vector<Block> yielded;
    return region.empty() || runBlock(region.front(), {}, yielded);
  };
  bool producerOk = false;
  std::thread producer([&] {
    {
      std::unique_lock<std::mutex> lock(s.m);
      s.turn.wait(lock, [&] { return s.running == 1 || s.stopped; });
      if (s.stopped)
        return;
    }
    producerOk = runRegion(ws.getProducer());
    end(1, producerOk);
  });
  bool consumersOk = runRegion(ws.getConsumer());
  end(0, consumersOk);
  producer.join();
  sides = nullptr;
  return consumersOk && producerOk && !s.stopped;
}

bool Executor::execMbarrier(Operation &op, const OpPlan &p) {
  // Every mbarrier op names its barrier first (mbarrier_init: the ring).
  SlotKey key;
  if (std::string error = slotKeyOf(op.getOperand(0), key); !error.empty())
    return fail(p, error);
  if (auto init = dyn_cast<gpu::MbarrierInitOp>(op)) {
    for (int64_t k = 0, n = init.getBarriers().getType().getShape()[0]; k < n; ++k)
      mbarrierPhases[{key.first, key.second + size_t(k)}] = 0;
    return true;
  }
  auto arrive = [&](Value pred) {
    if (!pred || get(pred).truth(0))
      ++mbarrierPhases[key];
    return true;
  };
  if (auto expect = dyn_cast<gpu::MbarrierExpectOp>(op))
    return arrive(expect.getPred());
  if (auto arrival = dyn_cast<gpu::MbarrierArriveOp>(op))
    return arrive(arrival.getPred());
  auto wait = cast<gpu::MbarrierWaitOp>(op);
  uint64_t parity = uint64_t(get(wait.getPhase()).asInt(0)) & 1;
  uint64_t completed = mbarrierPhases[key];
  std::string what = "phase parity " + std::to_string(parity) + " of mbarrier slot " +
                     std::to_string(key.second) + " (" + std::to_string(completed) +
                     (completed == 1 ? " phase" : " phases") + " completed)";
  if (!waitUntil(
          p, [this, key, parity] { return mbarrierPhases[key] % 2 != parity; }, what))
    return false;
  // The TMA copies on this barrier have landed and are visible to the waiter.
  for (auto it = inFlight.begin(); it != inFlight.end();)
    it = it->second.tma && it->second.barrier == key ? inFlight.erase(it) : std::next(it);
  return true;
}

} // namespace blk::interp
