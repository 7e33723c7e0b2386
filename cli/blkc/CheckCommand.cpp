//===- CheckCommand.cpp - `blkc check`: parse and analyse, report ---------===//
//
// blkc check FILE... [-D NAME=VALUE]... [-I DIR]...
// [--diagnostics-format=text|json] [--color=auto|always|never]
//                    [--verify] [-Werror] [--max-errors=N] [--dump-ast]
// Exit 0 when clean (warnings allowed), 1 on errors in the code, 2 on usage
// errors. With --verify, exit 0 when the diagnostics match the file's
// `expected-*` comments exactly (see blk/Driver/Verify.h).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "blk/AST/ASTDumper.h"
#include "blk/Driver/Verify.h"
#include "blk/Support/DiagnosticRenderer.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <iostream>

using namespace blkc;

namespace {

struct CheckFlags {
  std::vector<std::string> files;
  FrontendFlags frontend;
  bool verify = false;
  bool dumpAst = false;
};

/// `--verify` on one file: its own session, mismatches printed as text.
int verifyFile(const std::string &path, const blk::FrontendOptions &options,
               const blk::TextStyle &style) {
  blk::FrontendOptions opts = options;
  opts.maxErrors = 0; // every diagnostic must be accounted for
  blk::Frontend fe(opts);
  std::string error;
  blk::FileId file = fe.loadFile(path, error);
  if (!file)
    return usageError(error);
  fe.process(file);
  blk::DiagnosticEngine out(fe.getSourceManager());
  out.setMaxErrors(0);
  bool ok = blk::verifyDiagnostics(fe.getSourceManager(), file,
                                   fe.getDiagnostics().getDiagnostics(), out);
  blk::renderText(out.getDiagnostics(), fe.getSourceManager(), std::cerr, style);
  return ok ? 0 : 1;
}

int runCheck(const CheckFlags &flags, const ToolContext &ctx) {
  blk::FrontendOptions options;
  std::string error;
  if (!toFrontendOptions(flags.frontend, ctx, options, error))
    return usageError(error);
  if (!blk::Frontend::hasSema())
    spdlog::debug("this blkc has no Sema: `check` only parses");

  if (flags.verify) {
    int status = 0;
    for (const std::string &path : flags.files)
      status = std::max(status, verifyFile(path, options, stderrStyle(flags.frontend.color)));
    return status;
  }

  // One session for all files, so JSON output is one array.
  blk::Frontend fe(options);
  std::vector<blk::FileId> files;
  for (const std::string &path : flags.files) {
    blk::FileId file = fe.loadFile(path, error);
    if (!file)
      return usageError(error);
    files.push_back(file);
  }
  bool ok = true;
  for (blk::FileId file : files) {
    auto start = std::chrono::steady_clock::now();
    ok &= fe.process(file);
    auto ms = std::chrono::duration<double, std::milli>(
        std::chrono::steady_clock::now() - start);
    spdlog::debug("checked {} in {:.1f} ms",
                  fe.getSourceManager().getPath(file), ms.count());
    if (flags.dumpAst)
      if (const blk::ast::Module *m = fe.getModule(file))
        blk::ast::dumpAST(*m, fe.getSourceManager(), std::cout);
  }
  printDiagnostics(fe, flags.frontend.diagnosticsFormat, stderrStyle(flags.frontend.color));
  return ok && !fe.getDiagnostics().hasErrors() ? 0 : 1;
}

} // namespace

void blkc::registerCheckCommand(CLI::App &app, ToolContext &ctx) {
  auto flags = std::make_shared<CheckFlags>();
  CLI::App *cmd = app.add_subcommand(
      "check", "Parse and analyse blk files; report diagnostics");
  cmd->add_option("FILE", flags->files, "Source files")->required();
  addFrontendFlags(cmd, flags->frontend);
  cmd->add_flag("--verify", flags->verify,
                "Match diagnostics against `// expected-error {{…}}` comments");
  cmd->add_flag("--dump-ast", flags->dumpAst,
                "Print the AST with file:line:col");
  cmd->callback([flags, &ctx] { ctx.exitCode = runCheck(*flags, ctx); });
}
