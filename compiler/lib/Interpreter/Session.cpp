//===- Session.cpp - blk source or IR to runnable kernels ------------------===//
#include "blk/Interpreter/Session.h"

#include "blk/Driver/Frontend.h"
#include "blk/IRGen/Build.h"
#include "blk/Support/DiagnosticRenderer.h"
#include "blk/Transforms/Pipeline.h"

#include "mlir/Pass/PassManager.h"

#include <sstream>

namespace blk::interp {

static llvm::Error fail(const std::string &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

Session::Session() { prepareContext(context); }
Session::~Session() = default;

llvm::Expected<std::unique_ptr<Session>> Session::load(const std::string &path,
                                                       const SessionOptions &options) {
  std::unique_ptr<Session> s(new Session());
  if (llvm::StringRef(path).ends_with(".mlir")) {
    auto parsed = parseModuleFile(s->context, path);
    if (!parsed)
      return parsed.takeError();
    s->moduleOp = std::move(*parsed);
    // Hand-written IR is block IR as IRGen leaves it: lowered as IRGen's is.
    mlir::PassManager lowering(&s->context, mlir::ModuleOp::getOperationName());
    buildLoweringPipeline(lowering);
    if (mlir::failed(lowering.run(*s->moduleOp)))
      return fail("the lowering passes failed on `" + path + "`");
    if (options.optimize) {
      mlir::PassManager pm(&s->context, mlir::ModuleOp::getOperationName());
      buildOptimizationPipeline(pm);
      if (mlir::failed(pm.run(*s->moduleOp)))
        return fail("the optimisation pipeline failed on `" + path + "`");
    }
    return s;
  }
  FrontendOptions feOptions;
  feOptions.defines = options.defines;
  feOptions.includeDirs = options.includeDirs;
  feOptions.binDir = options.binDir;
  Frontend fe(feOptions);
  std::string error;
  FileId file = fe.loadFile(path, error);
  if (!file)
    return fail(error);
  bool ok = fe.process(file);
  std::string rendered;
  if (options.printDiagnostics) {
    options.printDiagnostics(fe);
  } else {
    std::ostringstream text;
    renderText(fe.getDiagnostics().getDiagnostics(), fe.getSourceManager(), text);
    rendered = text.str();
  }
  // With a printDiagnostics callback the diagnostics are already out: the
  // error then carries no text of its own.
  if (!ok)
    return fail(rendered);
  s->moduleOp = lowerToBlockIR(fe, file, s->context, options.optimize, BuildOptions{});
  if (!s->moduleOp)
    return fail("IRGen failed on `" + path + "`");
  return s;
}

llvm::Expected<Kernel *> Session::kernel(llvm::StringRef name,
                                         const std::map<std::string, int64_t> &config) {
  std::vector<mlir::func::FuncOp> fns = findKernels(*moduleOp, name, config);
  if (fns.empty())
    return fail("no kernel `" + name.str() + "`" + (config.empty() ? "" : " with that config"));
  std::string entry = fns.front().getSymName().str();
  for (auto &[cached, kernel] : kernels)
    if (cached == entry)
      return kernel.get();
  auto created = Kernel::create(fns.front());
  if (!created)
    return created.takeError();
  kernels.emplace_back(entry, std::move(*created));
  return kernels.back().second.get();
}

llvm::Error Session::run(llvm::StringRef name, const std::vector<Arg> &args,
                         const LaunchOptions &options,
                         const std::map<std::string, int64_t> &config) {
  llvm::Expected<Kernel *> k = kernel(name, config);
  if (!k)
    return k.takeError();
  return (*k)->launch(mem, args, options);
}

} // namespace blk::interp
