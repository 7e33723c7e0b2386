//===- LspCommand.cpp - `blkc lsp`: the language server over stdio --------===//
//
// blkc lsp [-I DIR]... [-D NAME=VALUE]...
// Speaks LSP 3.17 on stdin/stdout (see blk/Lsp/Server.h); stdout carries
// protocol messages only. Exit 0 after `shutdown` + `exit`, 1 when the
// input ends or `exit` comes without `shutdown`.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#if BLK_HAVE_LSP
#include "blk/Lsp/Server.h"
#endif

#include <iostream>

using namespace blkc;

namespace {

struct LspFlags {
  std::vector<std::string> includeDirs;
  std::vector<std::string> defines;
  bool stdio = false; ///< accepted, changes nothing
};

int runLsp(const LspFlags &flags, const ToolContext &ctx) {
#if BLK_HAVE_LSP
  blk::lsp::ServerOptions options;
  for (const std::string &d : flags.defines) {
    size_t eq = d.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == d.size())
      return usageError("`-D " + d + "` must have the form NAME=VALUE");
    options.analysis.defines.emplace_back(d.substr(0, eq), d.substr(eq + 1));
  }
  options.analysis.includeDirs = flags.includeDirs;
  options.analysis.binDir = ctx.binDir;
  // Large messages (whole buffers) go through unsynchronised streams faster.
  std::ios::sync_with_stdio(false);
  blk::lsp::Server server(std::cout, std::move(options));
  return server.run(std::cin);
#else
  (void)flags;
  (void)ctx;
  return usageError("this blkc was built without the language server");
#endif
}

} // namespace

void blkc::registerLspCommand(CLI::App &app, ToolContext &ctx) {
  auto flags = std::make_shared<LspFlags>();
  CLI::App *cmd =
      app.add_subcommand("lsp", "Run the blk language server (LSP over stdio)");
  cmd->add_option("-I", flags->includeDirs,
                  "Add a directory to the import search path")
      ->type_name("DIR");
  cmd->add_option("-D", flags->defines,
                  "Set a const parameter in every config: NAME=VALUE")
      ->type_name("NAME=VALUE");
  // stdio is the only transport; editors' clients (vscode-languageclient's
  // TransportKind.stdio) name it anyway.
  cmd->add_flag("--stdio", flags->stdio,
                "Talk LSP over stdin/stdout (the default and only transport)");
  cmd->callback([flags, &ctx] { ctx.exitCode = runLsp(*flags, ctx); });
}
