//===- CommonOptions.cpp - Flags shared by compiling subcommands ----------===//
#include "Commands.h"

#include "llvm/Support/Process.h"

#include <cstdlib>
#include <iostream>

using namespace blkc;

void blkc::addFrontendFlags(CLI::App *cmd, FrontendFlags &flags) {
  cmd->add_option("-D", flags.defines,
                  "Set a const parameter in every config: NAME=VALUE")
      ->type_name("NAME=VALUE");
  cmd->add_option("-I", flags.includeDirs,
                  "Add a directory to the import search path")
      ->type_name("DIR");
  cmd->add_option("--diagnostics-format", flags.diagnosticsFormat,
                  "Diagnostics as human-readable text (stderr) or one JSON "
                  "array (stdout)")
      ->check(CLI::IsMember({"text", "json"}));
  addColorFlag(cmd, flags.color);
  // main.cpp rewrites `-Werror` to `--Werror`: CLI11 has no one-dash long
  // flags.
  cmd->add_flag("--Werror", flags.warningsAsErrors,
                "Treat warnings as errors (-Werror)");
  cmd->add_option("--max-errors", flags.maxErrors,
                  "Stop after N errors (0: no limit; default 20)");
}

void blkc::addColorFlag(CLI::App *cmd, std::string &color) {
  cmd->add_option("--color", color,
                  "Colour text diagnostics: auto (a terminal, unless NO_COLOR is set), "
                  "always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->default_str("auto");
}

blk::TextStyle blkc::stderrStyle(const std::string &color) {
  blk::ColorMode mode = color == "always" ? blk::ColorMode::Always
                        : color == "never" ? blk::ColorMode::Never
                                           : blk::ColorMode::Auto;
  return {blk::shouldColor(mode, llvm::sys::Process::StandardErrIsDisplayed(),
                           std::getenv("NO_COLOR"))};
}

bool blkc::toFrontendOptions(const FrontendFlags &flags, const ToolContext &ctx,
                             blk::FrontendOptions &options,
                             std::string &error) {
  for (const std::string &d : flags.defines) {
    size_t eq = d.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == d.size()) {
      error = "`-D " + d + "` must have the form NAME=VALUE";
      return false;
    }
    options.defines.emplace_back(d.substr(0, eq), d.substr(eq + 1));
  }
  options.includeDirs = flags.includeDirs;
  options.binDir = ctx.binDir;
  options.maxErrors = flags.maxErrors;
  options.warningsAsErrors = flags.warningsAsErrors;
  return true;
}

void blkc::printDiagnostics(blk::Frontend &fe, const std::string &format,
                            const blk::TextStyle &style) {
  const auto &diags = fe.getDiagnostics().getDiagnostics();
  if (format == "json") {
    std::cout << blk::renderJson(diags, fe.getSourceManager()) << "\n";
    return;
  }
  blk::renderText(diags, fe.getSourceManager(), std::cerr, style);
}

int blkc::usageError(const std::string &message) {
  std::cerr << "blkc: error: " << message << "\n";
  return 2;
}
