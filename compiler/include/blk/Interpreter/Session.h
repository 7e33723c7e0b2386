//===- Session.h - load blk source or IR and run its kernels ----*- C++ -*-===//
//
// The convenient face of the interpreter, for tests, `blkc run` and the
// samples' CPU fallback:
//
//   auto session = blk::interp::Session::load("samples/double_grid.blk");
//   auto &s = **session;
//   BufferId x = s.upload<float>("x", {0, 1, 2}), out = s.upload<float>("out", {0, 0, 0});
//   llvm::Error err = s.run("double_grid", {Arg::ofBuffer(x), Arg::ofBuffer(out),
//                                           Arg::ofInt(3)}, {}, {{"BLOCK", 8}});
//   std::vector<float> result = s.download<float>(out);
//
// Library blkInterpreterSession (links the front end and IRGen).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_INTERPRETER_SESSION_H
#define BLK_INTERPRETER_SESSION_H

#include "blk/Interpreter/Interpreter.h"

#include "mlir/IR/MLIRContext.h"

#include <cstring>
#include <functional>
#include <type_traits>

namespace blk {
class Frontend;
}

namespace blk::interp {

/// How to load a session.
struct SessionOptions {
  /// `-D NAME=VALUE` for blk source (adds to / overrides every @config).
  std::vector<std::pair<std::string, std::string>> defines;
  /// `-I DIR` import search path for blk source.
  std::vector<std::string> includeDirs;
  /// Directory of the compiler binary (stdlib lookup); empty: the default.
  std::string binDir;
  /// Run the optimisation pipeline on the IR before interpreting it.
  bool optimize = false;
  /// Prints the front end's diagnostics; unset: they are rendered as text
  /// into the error returned by load().
  std::function<void(blk::Frontend &)> printDiagnostics;
};

/// A module of blk IR (from a .blk or .mlir file) with its buffers.
class Session {
public:
  ~Session();
  /// Compiles blk source through Sema and IRGen, or parses a `.mlir` file.
  static llvm::Expected<std::unique_ptr<Session>> load(const std::string &path,
                                                       const SessionOptions &options = {});

  /// The first specialisation of kernel `name` whose config holds every
  /// `config` entry (prepared once and cached).
  llvm::Expected<Kernel *> kernel(llvm::StringRef name,
                                  const std::map<std::string, int64_t> &config = {});
  /// Runs kernel `name` over this session's memory.
  llvm::Error run(llvm::StringRef name, const std::vector<Arg> &args,
                  const LaunchOptions &options = {},
                  const std::map<std::string, int64_t> &config = {});

  mlir::ModuleOp module() { return *moduleOp; }
  Memory &memory() { return mem; }

  /// A buffer holding `data` (float, double, int8/16/32/64_t, uint8/16/32/64_t).
  template <typename T> BufferId upload(const std::string &name, const std::vector<T> &data) {
    BufferId id = mem.create(name, dataTypeOf<T>(), data.size());
    std::memcpy(mem.get(id)->bytes.data(), data.data(), data.size() * sizeof(T));
    return id;
  }
  /// The contents of buffer `id` as T (sizeof(T) must be the element size).
  template <typename T> std::vector<T> download(BufferId id) const {
    const Buffer &buf = *mem.get(id);
    std::vector<T> out(buf.bytes.size() / sizeof(T));
    std::memcpy(out.data(), buf.bytes.data(), out.size() * sizeof(T));
    return out;
  }

private:
  template <typename T> static DataType dataTypeOf() {
    if constexpr (std::is_same_v<T, float>)
      return {ElemKind::F32, false};
    else if constexpr (std::is_same_v<T, double>)
      return {ElemKind::F64, false};
    else {
      static_assert(std::is_integral_v<T>, "upload: unsupported element type");
      constexpr ElemKind kinds[] = {ElemKind::I8, ElemKind::I16, ElemKind::I32, ElemKind::I64};
      constexpr int index = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
      return {kinds[index], std::is_unsigned_v<T>};
    }
  }

  Session();
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> moduleOp;
  Memory mem;
  std::vector<std::pair<std::string, std::unique_ptr<Kernel>>> kernels;
};

} // namespace blk::interp

#endif // BLK_INTERPRETER_SESSION_H
