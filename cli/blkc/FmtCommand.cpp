//===- FmtCommand.cpp - `blkc fmt`: the canonical layout ------------------===//
//
// blkc fmt FILE            print FILE in the canonical layout (blk/Format)
// blkc fmt -i FILE...      rewrite the files that are not in it
// blkc fmt --check FILE... list the files that are not in it; exit 1 if any
// A file is formatted only when it parses: otherwise its syntax errors are
// printed (as `blkc check` prints them) and the exit code is 1. Usage
// errors exit 2.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "blk/Format/Format.h"

#include <fstream>
#include <iostream>

using namespace blkc;

namespace {

struct FmtFlags {
  std::vector<std::string> files;
  bool inPlace = false;
  bool check = false;
  std::string diagnosticsFormat = "text";
  std::string color = "auto";
};

int runFmt(const FmtFlags &flags) {
  if (flags.inPlace && flags.check)
    return usageError("`-i` and `--check` cannot be combined");
  if (!flags.inPlace && !flags.check && flags.files.size() != 1)
    return usageError("give one FILE to print, or -i / --check for several");
  blk::FrontendOptions options;
  options.runSema = false; // layout needs the syntax only
  blk::Frontend fe(options);
  int status = 0;
  for (const std::string &path : flags.files) {
    std::string error;
    blk::FileId file = fe.loadFile(path, error);
    if (!file)
      return usageError(error);
    if (!fe.process(file)) {
      status = 1;
      continue;
    }
    std::string_view text = fe.getSourceManager().getText(file);
    std::string formatted = blk::formatSource(text);
    if (flags.check) {
      if (formatted != text) {
        std::cout << path << "\n";
        status = 1;
      }
    } else if (flags.inPlace) {
      if (formatted == text)
        continue;
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      if (!(out << formatted) || !out.flush())
        return usageError("cannot write `" + path + "`");
    } else {
      std::cout << formatted;
    }
  }
  printDiagnostics(fe, flags.diagnosticsFormat, stderrStyle(flags.color));
  return status;
}

} // namespace

void blkc::registerFmtCommand(CLI::App &app, ToolContext &ctx) {
  auto flags = std::make_shared<FmtFlags>();
  CLI::App *cmd = app.add_subcommand(
      "fmt", "Print blk files in the canonical layout (or rewrite / check)");
  cmd->add_option("FILE", flags->files, "Source files")->required();
  cmd->add_flag("-i,--in-place", flags->inPlace,
                "Rewrite each file that is not formatted");
  cmd->add_flag("--check", flags->check,
                "List the files that are not formatted; exit 1 if any");
  cmd->add_option("--diagnostics-format", flags->diagnosticsFormat,
                  "How syntax errors are printed")
      ->check(CLI::IsMember({"text", "json"}))
      ->default_str("text");
  addColorFlag(cmd, flags->color);
  cmd->callback([flags, &ctx] { ctx.exitCode = runFmt(*flags); });
}
