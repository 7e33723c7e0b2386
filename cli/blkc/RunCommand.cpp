//===- RunCommand.cpp - `blkc run`: interpret a kernel on the CPU ---------===//
//
// blkc run FILE -k KERNEL [-D NAME=VALUE]... [-I DIR]... [--grid X[,Y[,Z]]]
//          --arg NAME=SPEC... [--print NAME]... [--out NAME=PATH]...
//          [--threads N] [--opt|--no-opt] [--check-uninit]
// FILE is blk source or blk IR (.mlir). Specs: blk/Interpreter/ArgSpec.h.
// Exit 0; 1 for errors in the kernel (compile errors, out-of-bounds
// accesses, failed asserts); 2 for usage errors (naming the parameter).
// Tests: tests/lit/interp/.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "blk/Interpreter/ArgSpec.h"
#include "blk/Interpreter/Format.h"
#include "blk/Interpreter/Session.h"
#include "blk/Sema/Sema.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>

using namespace blkc;
namespace interp = blk::interp;

namespace {
/// A NAME=VALUE flag split at the first '='.
bool splitAssignment(const std::string &text, std::string &name, std::string &value) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    return false;
  name = text.substr(0, eq);
  value = text.substr(eq + 1);
  return true;
}

int parseGrid(const std::string &text, std::array<int64_t, 3> &grid) {
  llvm::SmallVector<llvm::StringRef, 3> parts;
  llvm::StringRef(text).split(parts, ',');
  if (parts.size() > 3)
    return usageError("--grid takes at most 3 dimensions, got `" + text + "`");
  grid = {1, 1, 1};
  for (size_t k = 0; k < parts.size(); ++k) {
    std::optional<int64_t> v = interp::parseIntLiteral(parts[k].trim());
    if (!v || *v < 0)
      return usageError("bad --grid `" + text + "`: expected X[,Y[,Z]]");
    grid[k] = *v;
  }
  return 0;
}

} // namespace

int blkc::runKernel(const RunFlags &flags, const ToolContext &tool) {
  std::map<std::string, int64_t> defines;
  for (const std::string &d : flags.frontend.defines) {
    std::string name, value;
    std::optional<int64_t> v;
    if (splitAssignment(d, name, value))
      v = value == "true" ? 1 : value == "false" ? 0 : interp::parseIntLiteral(value);
    if (!v)
      return usageError("`-D " + d + "` must have the form NAME=VALUE with an integer VALUE");
    // The launch keys shape the specialisations (Sema applies them) but
    // are not const parameters to select by.
    if (!blk::sema::isLaunchKey(name))
      defines[name] = *v;
  }
  if (!std::ifstream(flags.file))
    return usageError("cannot read `" + flags.file + "`");
  blk::FrontendOptions frontend;
  std::string error;
  if (!toFrontendOptions(flags.frontend, tool, frontend, error))
    return usageError(error);
  interp::SessionOptions options;
  options.defines = frontend.defines;
  options.includeDirs = frontend.includeDirs;
  options.binDir = frontend.binDir;
  options.optimize = flags.opt;
  options.printDiagnostics = [&](blk::Frontend &fe) {
    printDiagnostics(fe, flags.frontend.diagnosticsFormat, stderrStyle(flags.frontend.color));
  };
  auto session = interp::Session::load(flags.file, options);
  if (!session) {
    std::string text = llvm::toString(session.takeError());
    if (!text.empty())
      std::cerr << text << (text.back() == '\n' ? "" : "\n");
    return 1;
  }
  if (interp::findKernels((*session)->module(), flags.kernel, defines).empty())
    return usageError("no kernel `" + flags.kernel + "`" +
                      (defines.empty() ? "" : " with the given -D values") + " in `" +
                      flags.file + "`");
  auto kernel = (*session)->kernel(flags.kernel, defines);
  if (!kernel) {
    std::cerr << llvm::toString(kernel.takeError()) << "\n";
    return 1;
  }
  interp::Memory &mem = (*session)->memory();
  const std::vector<interp::ParamInfo> &params = (*kernel)->params();
  auto findParam = [&](const std::string &name) -> const interp::ParamInfo * {
    for (const interp::ParamInfo &p : params)
      if (p.name == name)
        return &p;
    return nullptr;
  };

  std::map<std::string, std::string> specs;
  for (const std::string &a : flags.args) {
    std::string name, spec;
    if (!splitAssignment(a, name, spec))
      return usageError("`--arg " + a + "` must have the form NAME=SPEC");
    if (!findParam(name))
      return usageError("kernel `" + flags.kernel + "` has no parameter `" + name + "`");
    if (!specs.emplace(name, spec).second)
      return usageError("argument `" + name + "` given twice");
  }
  interp::ArgSpecOptions specOptions;
  specOptions.checkUninit = flags.checkUninit;
  std::vector<interp::Arg> args;
  for (const interp::ParamInfo &p : params) {
    auto it = specs.find(p.name);
    if (it == specs.end())
      return usageError("missing argument `" + p.name + "`: pass --arg " + p.name + "=" +
                        (p.isPointer ? "SPEC" : "VALUE"));
    llvm::Expected<interp::Arg> arg = interp::makeArg(p, it->second, mem, specOptions);
    if (!arg)
      return usageError(llvm::toString(arg.takeError()));
    args.push_back(*arg);
  }
  std::vector<std::pair<std::string, std::string>> outs;
  for (const std::string &o : flags.outs) {
    std::string name, path;
    if (!splitAssignment(o, name, path))
      return usageError("`--out " + o + "` must have the form NAME=PATH");
    outs.emplace_back(name, path);
  }
  auto bufferOf = [&](const std::string &name) -> interp::Buffer * {
    for (size_t k = 0; k < params.size(); ++k)
      if (params[k].name == name && params[k].isPointer)
        return mem.get(args[k].buffer);
    return nullptr;
  };
  for (const std::string &name : flags.prints)
    if (!bufferOf(name))
      return usageError("--print " + name + ": not a pointer parameter of `" + flags.kernel + "`");
  for (const auto &[name, path] : outs)
    if (!bufferOf(name))
      return usageError("--out " + name + ": not a pointer parameter of `" + flags.kernel + "`");

  interp::LaunchOptions launch;
  launch.threads = flags.threads;
  if (!flags.grid.empty()) {
    std::array<int64_t, 3> grid;
    if (int rc = parseGrid(flags.grid, grid))
      return rc;
    launch.grid = grid;
  } else if (!(*kernel)->hasGrid()) {
    return usageError("kernel `" + flags.kernel + "` has no @grid: pass --grid X[,Y[,Z]]");
  }
  if (llvm::Error err = (*kernel)->launch(mem, args, launch)) {
    std::fflush(stdout);
    // A fault is rendered with its position and source line; a launch
    // error (the @grid cannot be evaluated) is a one-line message.
    std::string text = llvm::toString(std::move(err));
    if (text.empty() || text.back() != '\n')
      text = "blkc: error: " + text + "\n";
    std::cerr << text;
    return 1;
  }
  for (const std::string &name : flags.prints)
    std::printf("%s = %s\n", name.c_str(), interp::formatBuffer(*bufferOf(name)).c_str());
  std::fflush(stdout);
  for (const auto &[name, path] : outs) {
    interp::Buffer *buf = bufferOf(name);
    std::ofstream file(path, std::ios::binary);
    file.write(reinterpret_cast<const char *>(buf->bytes.data()), std::streamsize(buf->bytes.size()));
    if (!file)
      return usageError("cannot write `" + path + "`");
  }
  return 0;
}

void blkc::registerRunCommand(CLI::App &app, ToolContext &ctx) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App *cmd = app.add_subcommand("run", "Run a kernel on the CPU interpreter (bounds-checked)");
  cmd->add_option("FILE", flags->file, "blk source or blk IR (.mlir)")->required();
  cmd->add_option("-k,--kernel", flags->kernel, "Kernel to run")->required();
  addFrontendFlags(cmd, flags->frontend);
  cmd->add_option("--grid", flags->grid, "Programs per axis (default: the kernel's @grid)")
      ->type_name("X[,Y[,Z]]");
  cmd->add_option("--arg", flags->args,
                  "Argument: a literal for scalars; zeros:T:N, iota:T:N, fill:T:N:V, "
                  "rand:T:N[:SEED], empty:T:N or file:T:PATH for pointers")
      ->type_name("NAME=SPEC");
  cmd->add_option("--print", flags->prints, "Print a buffer after the run: NAME = [v0, v1, ...]")
      ->type_name("NAME");
  cmd->add_option("--out", flags->outs, "Write a buffer to a raw file")->type_name("NAME=PATH");
  cmd->add_option("--threads", flags->threads, "Run programs on N threads (default 1: in order)")
      ->check(CLI::Range(1u, 1024u));
  auto *opt = cmd->add_flag("--opt", flags->opt, "Run the optimisation pipeline first");
  cmd->add_flag("--no-opt", flags->noOpt, "Run the IR as generated (default)")->excludes(opt);
  cmd->add_flag("--check-uninit", flags->checkUninit,
                "Report loads of zeros:/empty: buffer elements no program has written");
  cmd->callback([flags, &ctx] { ctx.exitCode = runKernel(*flags, ctx); });
}
