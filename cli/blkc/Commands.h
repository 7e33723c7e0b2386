//===- Commands.h - blkc subcommands and what they share -------*- C++ -*-===//
//
// Each subcommand lives in its own <Name>Command.cpp and exposes one
// `register<Name>Command(CLI::App &, ToolContext &)`, called from main.cpp.
// Subcommands stay thin: parse flags, call compiler/Driver, print.
//
//===----------------------------------------------------------------------===//
#ifndef BLKC_COMMANDS_H
#define BLKC_COMMANDS_H

#include "blk/Driver/Build.h"
#include "blk/Driver/Frontend.h"
#include "blk/Support/DiagnosticRenderer.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace blkc {

/// State shared by main and the subcommands.
struct ToolContext {
  /// Directory of the blkc binary (stdlib lookup).
  std::string binDir;
  /// `-v`: developer logging through spdlog.
  bool verbose = false;
  /// Exit status chosen by the subcommand that ran: 0 clean, 1 errors in
  /// the user's code, 2 usage errors.
  int exitCode = 0;
};

/// The front-end flags every compiling subcommand accepts:
/// `-D NAME=VALUE`, `-I DIR`, `--diagnostics-format`, `--color`, `-Werror`,
/// `--max-errors=N`.
struct FrontendFlags {
  std::vector<std::string> defines;
  std::vector<std::string> includeDirs;
  std::string diagnosticsFormat = "text";
  std::string color = "auto";
  bool warningsAsErrors = false;
  unsigned maxErrors = 20;
};

/// Adds the FrontendFlags options to `cmd`.
void addFrontendFlags(CLI::App *cmd, FrontendFlags &flags);
/// Adds `--color=auto|always|never` (text diagnostics) to `cmd`.
void addColorFlag(CLI::App *cmd, std::string &color);
/// The style of text diagnostics on stderr for a `--color` value: `auto`
/// colours a terminal unless NO_COLOR is set.
blk::TextStyle stderrStyle(const std::string &color);
/// Converts flags to FrontendOptions; false (with `error`) on a malformed
/// `-D` (a usage error).
bool toFrontendOptions(const FrontendFlags &flags, const ToolContext &ctx,
                       blk::FrontendOptions &options, std::string &error);
/// Prints the diagnostics of `fe` in the chosen format: text (in `style`)
/// to stderr, JSON (one array) to stdout.
void printDiagnostics(blk::Frontend &fe, const std::string &format,
                      const blk::TextStyle &style);
/// `blkc build`'s work once its flags are read: checks the target
/// options, compiles `build.input` and writes the stage; returns the exit
/// status (BuildCommand.cpp; `blkc bench` builds its fatbin with it).
int buildStage(blk::BuildOptions &build, const FrontendFlags &frontend,
               const ToolContext &ctx);

/// The flags of `blkc run` (RunCommand.cpp).
struct RunFlags {
  std::string file, kernel, grid;
  FrontendFlags frontend;
  std::vector<std::string> args, prints, outs;
  unsigned threads = 1;
  bool opt = false, noOpt = false, checkUninit = false;
};
/// Runs a kernel on the interpreter as `blkc run` does; returns the exit
/// status (`blkc bench --check` gets its expected buffers with it).
int runKernel(const RunFlags &flags, const ToolContext &ctx);

/// Prints a usage error as `blkc: error: <message>` and returns 2.
int usageError(const std::string &message);

// One line per subcommand (see main.cpp).
void registerCheckCommand(CLI::App &app, ToolContext &ctx);
void registerBuildCommand(CLI::App &app, ToolContext &ctx);
void registerInspectCommand(CLI::App &app, ToolContext &ctx);
void registerRunCommand(CLI::App &app, ToolContext &ctx);
void registerLspCommand(CLI::App &app, ToolContext &ctx);
void registerFmtCommand(CLI::App &app, ToolContext &ctx);
void registerTuneCommand(CLI::App &app, ToolContext &ctx);
void registerBenchCommand(CLI::App &app, ToolContext &ctx);

} // namespace blkc

#endif // BLKC_COMMANDS_H
