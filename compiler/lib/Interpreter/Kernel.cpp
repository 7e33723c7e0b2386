//===- Kernel.cpp - prepare a specialisation and launch its grid -----------===//
//
// Programs run in linear order (axis 0 fastest) on one thread, or are handed
// out to N threads from an atomic counter. Each thread owns an Executor;
// buffers are shared (atomics lock their buffer). When programs fault on
// several threads, the fault of the lowest program index is reported, so the
// report does not depend on scheduling.
//
//===----------------------------------------------------------------------===//
#include "blk/Interpreter/Interpreter.h"

#include "Executor.h"
#include "blk/Support/Persistent.h"

#include "llvm/Support/MemoryBuffer.h"

#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

namespace blk::interp {

using namespace mlir;

Kernel::~Kernel() = default;

static DataType dataTypeOf(const TypeInfo &info, StringRef blkSpelling) {
  DataType t{info.kind == ElemKind::Ptr ? info.pointee : info.kind, false};
  std::optional<DataType> named = parseDataType(blkSpelling.ltrim('*'));
  if (named && named->kind == t.kind)
    t.isUnsigned = named->isUnsigned;
  return t;
}

llvm::Expected<std::unique_ptr<Kernel>> Kernel::create(func::FuncOp fn) {
  std::unique_ptr<Kernel> k(new Kernel());
  k->fn = fn;
  k->plan = std::make_unique<KernelPlan>();
  std::string error;
  if (!buildPlan(fn, *k->plan, error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), error);
  auto kernelAttr = fn->getAttrOfType<StringAttr>("blk.kernel");
  k->kernelName = kernelAttr ? kernelAttr.getValue().str() : fn.getSymName().str();
  if (auto grid = fn->getAttrOfType<StringAttr>("blk.grid"))
    k->gridJson = grid.getValue().str();
  k->persistent = fn->hasAttr(kPersistentAttr);
  if (auto config = fn->getAttrOfType<DictionaryAttr>("blk.config"))
    for (NamedAttribute a : config)
      if (auto v = dyn_cast<IntegerAttr>(a.getValue()))
        k->configValues[a.getName().str()] = v.getValue().getSExtValue();
  auto names = fn->getAttrOfType<ArrayAttr>("blk.param_names");
  auto types = fn->getAttrOfType<ArrayAttr>("blk.param_types");
  for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
    ParamInfo p;
    auto name = names && i < names.size() ? dyn_cast<StringAttr>(names[i]) : StringAttr();
    p.name = name ? name.getValue().str() : "arg" + std::to_string(i);
    auto spelled = types && i < types.size() ? dyn_cast<StringAttr>(types[i]) : StringAttr();
    const TypeInfo &info = k->plan->types[fn.getArgument(i).getType()];
    p.isPointer = info.kind == ElemKind::Ptr;
    p.type = dataTypeOf(info, spelled ? spelled.getValue() : "");
    k->paramInfos.push_back(p);
  }
  return k;
}

llvm::Expected<std::array<int64_t, 3>> Kernel::evalGrid(const std::vector<Arg> &args) const {
  if (gridJson.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "kernel `" + kernelName + "` has no @grid: pass --grid");
  llvm::Expected<std::array<int64_t, 3>> grid = evalGridJson(gridJson, args);
  if (!grid)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "kernel `" + kernelName + "` " +
                                       llvm::toString(grid.takeError()));
  if (persistent)
    (*grid)[0] = std::min<int64_t>((*grid)[0], kInterpreterPersistentPrograms);
  return grid;
}

/// "file:line:col: error: msg" plus the source line and a caret when the
/// file can be read, in the gutter style of blk's diagnostic renderer
/// (compiler/lib/Support/DiagnosticRenderer.cpp).
static std::string renderFault(const RunFault &f) {
  std::string out = f.pos.file.empty()
                        ? std::string("error: ")
                        : f.pos.file + ":" + std::to_string(f.pos.line) + ":" +
                              std::to_string(f.pos.col) + ": error: ";
  out += f.message + "\n";
  auto buffer = llvm::MemoryBuffer::getFile(f.pos.file);
  if (f.pos.file.empty() || !buffer || f.pos.line == 0)
    return out;
  StringRef text = (*buffer)->getBuffer();
  for (unsigned l = 1; l < f.pos.line && !text.empty(); ++l)
    text = text.split('\n').second;
  StringRef line = text.split('\n').first.rtrim('\r');
  char gutter[32];
  std::snprintf(gutter, sizeof gutter, "%5u | ", f.pos.line);
  out += gutter + line.str() + "\n      | ";
  for (unsigned c = 1; c < f.pos.col && c - 1 < line.size(); ++c)
    out += line[c - 1] == '\t' ? '\t' : ' ';
  return out + "^\n";
}

static Block argBlock(const ParamInfo &p, const Arg &a) {
  if (p.isPointer) {
    Block b = Block::zeros(ElemKind::Ptr, {}, p.type.kind);
    b.i[0] = encodePointer(a.buffer, 0);
    return b;
  }
  return a.kind == Arg::Kind::Float ? Block::scalarFloat(p.type.kind, a.f)
                                    : Block::scalarInt(p.type.kind, a.i);
}

llvm::Error Kernel::launch(Memory &mem, const std::vector<Arg> &args,
                           const LaunchOptions &options) const {
  auto error = [](const std::string &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
  };
  if (args.size() != paramInfos.size())
    return error("kernel `" + kernelName + "` takes " + std::to_string(paramInfos.size()) +
                 " arguments, got " + std::to_string(args.size()));
  std::vector<Block> blocks;
  for (size_t k = 0; k < args.size(); ++k) {
    if (paramInfos[k].isPointer != (args[k].kind == Arg::Kind::Buffer))
      return error("argument `" + paramInfos[k].name + "` must be " +
                   (paramInfos[k].isPointer ? "a buffer" : "a scalar"));
    blocks.push_back(argBlock(paramInfos[k], args[k]));
  }
  std::array<int64_t, 3> grid;
  if (options.grid) {
    grid = *options.grid;
  } else {
    llvm::Expected<std::array<int64_t, 3>> g = evalGrid(args);
    if (!g)
      return g.takeError();
    grid = *g;
  }
  for (int64_t g : grid)
    if (g < 0)
      return error("grid dimensions must not be negative");
  auto sink = options.printSink ? options.printSink : [](const std::string &s) {
    std::fwrite(s.data(), 1, s.size(), stdout);
  };
  int64_t total = grid[0] * grid[1] * grid[2];
  std::atomic<int64_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex lock; // guards the sink and the fault
  int64_t faultIndex = total;
  RunFault fault;
  auto worker = [&] {
    std::string printed;
    Executor exec(*plan, kernelName, mem, grid, printed);
    for (int64_t p = next++; p < total && !stop; p = next++) {
      std::array<int64_t, 3> pid{p % grid[0], (p / grid[0]) % grid[1], p / (grid[0] * grid[1])};
      bool ok = exec.runProgram(fn, blocks, pid);
      std::lock_guard<std::mutex> guard(lock);
      if (!printed.empty())
        sink(printed);
      printed.clear();
      if (!ok && p < faultIndex) {
        faultIndex = p;
        fault = exec.fault();
        stop = true;
      }
    }
  };
  unsigned threads = std::max(1u, std::min<unsigned>(options.threads, unsigned(total)));
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back(worker);
    for (std::thread &t : pool)
      t.join();
  }
  if (faultIndex < total)
    return error(renderFault(fault));
  return llvm::Error::success();
}

} // namespace blk::interp
