//===- Interpreter.h - C++ API of the blk CPU interpreter -------*- C++ -*-===//
//
// Runs a kernel specialisation's `blk` IR on the CPU over host buffers, with
// every masked-in access bounds-checked (docs/language.md, "Interpreter").
// It also runs `blkgpu` IR (after any back-end pass): encodings and
// `blkgpu.*` attributes are ignored, `convert_layout` is the identity.
//
//   mlir::MLIRContext ctx;
//   blk::interp::prepareContext(ctx);
//   auto module = blk::interp::parseModule(ctx, irText);        // or IRGen's
//   auto fns = blk::interp::findKernels(**module, "double_grid", {{"BLOCK", 8}});
//   auto kernel = blk::interp::Kernel::create(fns.front());
//   blk::interp::Memory mem;
//   BufferId x = mem.create("x", {ElemKind::F32}, 7), out = ...;
//   llvm::Error err = (*kernel)->launch(mem, {Arg::buffer(x), Arg::buffer(out),
//                                            Arg::integer(7)}, {});
//   mem.get(out)->readFloat(3);
//
// Tests: tests/unit/Interpreter/, tests/lit/interp/.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_INTERPRETER_INTERPRETER_H
#define BLK_INTERPRETER_INTERPRETER_H

#include "blk/Interpreter/Memory.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <functional>
#include <map>
#include <memory>

namespace blk::interp {

struct KernelPlan;

/// Loads the dialects the interpreter executes (func, arith, math, scf) into
/// `ctx`, with the `blk` dialect and `blkgpu` (the back end's IR, whose
/// layouts the interpreter ignores).
void prepareContext(mlir::MLIRContext &ctx);
/// Parses blk IR from `text` (named `bufferName` in diagnostics).
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
parseModule(mlir::MLIRContext &ctx, llvm::StringRef text, llvm::StringRef bufferName = "<ir>");
/// Parses a .mlir file.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> parseModuleFile(mlir::MLIRContext &ctx,
                                                                  llvm::StringRef path);

/// Specialisations in `module` of kernel `name` (its `blk.kernel` attribute,
/// or the function's symbol) whose `blk.config` holds every `defines` entry,
/// in module order. A value variant (`blk.variant_of`) only by its symbol.
std::vector<mlir::func::FuncOp> findKernels(mlir::ModuleOp module, llvm::StringRef name,
                                            const std::map<std::string, int64_t> &defines);

/// One kernel argument: a buffer (for pointer parameters) or a scalar.
struct Arg {
  enum class Kind { Buffer, Int, Float } kind = Kind::Int;
  BufferId buffer = 0;
  int64_t i = 0;
  double f = 0;
  static Arg ofBuffer(BufferId id) { return {Kind::Buffer, id, 0, 0}; }
  static Arg ofInt(int64_t v) { return {Kind::Int, 0, v, 0}; }
  static Arg ofFloat(double v) { return {Kind::Float, 0, 0, v}; }
};

/// A runtime parameter of a specialisation.
struct ParamInfo {
  std::string name;
  bool isPointer = false;
  /// The scalar type, or the pointee type of a pointer.
  DataType type;
};

/// How to launch.
struct LaunchOptions {
  /// Programs per axis; nullopt evaluates the kernel's `@grid`.
  std::optional<std::array<int64_t, 3>> grid;
  /// Programs run on this many threads (1: in order, deterministic).
  unsigned threads = 1;
  /// Receives the text of `print` ops (default: stdout), one program's
  /// output at a time.
  std::function<void(const std::string &)> printSink;
};

/// A kernel specialisation prepared for interpretation.
class Kernel {
public:
  ~Kernel();
  /// Analyses `fn`; fails on an op or type the interpreter does not support.
  static llvm::Expected<std::unique_ptr<Kernel>> create(mlir::func::FuncOp fn);

  /// The blk kernel name (`blk.kernel`, else the symbol).
  const std::string &name() const { return kernelName; }
  /// The function symbol (mangled specialisation name).
  std::string entry() { return fn.getSymName().str(); }
  /// Runtime parameters in launch order.
  const std::vector<ParamInfo> &params() const { return paramInfos; }
  /// The `blk.config` values.
  const std::map<std::string, int64_t> &config() const { return configValues; }
  /// True if the kernel has `@grid` (a `blk.grid` attribute).
  bool hasGrid() const { return !gridJson.empty(); }
  /// Evaluates `@grid` for `args`: the programs launched. A persistent
  /// entry launches at most kInterpreterPersistentPrograms of its `@grid`'s
  /// (blk/Support/Persistent.h), each walking several.
  llvm::Expected<std::array<int64_t, 3>> evalGrid(const std::vector<Arg> &args) const;

  /// Runs every program of the grid over `mem`. A bad access or failed
  /// assert stops the launch with an error rendered as
  /// `file:line:col: error: …` plus the source line and a caret.
  llvm::Error launch(Memory &mem, const std::vector<Arg> &args,
                     const LaunchOptions &options) const;

private:
  Kernel() = default;
  mutable mlir::func::FuncOp fn;
  std::unique_ptr<KernelPlan> plan;
  std::string kernelName, gridJson;
  bool persistent = false;
  std::vector<ParamInfo> paramInfos;
  std::map<std::string, int64_t> configValues;
};

/// Evaluates a manifest-form grid (docs/manifest.md) against scalar args.
llvm::Expected<std::array<int64_t, 3>> evalGridJson(const std::string &json,
                                                    const std::vector<Arg> &args);

} // namespace blk::interp

#endif // BLK_INTERPRETER_INTERPRETER_H
