//===- TuneCommand.cpp - `blkc tune`: offline tuning on this machine's GPU -===//
//
// `blkc tune FILE.fatbin -k KERNEL --args "NAME=SPEC …" [--shapes F.json]
// [-o table.json]` runs blk-tune (runtime/tools/blk-tune.cpp, installed next
// to blkc): the tuner lives in libblkrt and needs a GPU, blkc needs LLVM,
// and a GPU machine may have only the runtime. The table it writes goes to
// `blkc build --tuning` or ctx.loadTuning (docs/tuning.md).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace blkc {

void registerTuneCommand(CLI::App &app, ToolContext &ctx) {
  CLI::App *cmd = app.add_subcommand(
      "tune", "Time an @autotune kernel's configs on this GPU over given arguments and "
              "write a tuning table (runs blk-tune; see `blk-tune --help`)");
  // Everything after `tune` goes to blk-tune untouched (blkc's fallthrough
  // to the top-level options would take them otherwise).
  cmd->fallthrough(false);
  cmd->set_help_flag();
  cmd->prefix_command();
  cmd->callback([cmd, &ctx] {
    std::string tool = ctx.binDir + "/blk-tune";
    if (!std::filesystem::exists(tool)) {
      ctx.exitCode = usageError("blk-tune is not installed next to blkc (" + tool + ")");
      return;
    }
    std::vector<std::string> args = cmd->remaining();
    std::vector<char *> argv{tool.data()};
    for (std::string &a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(tool.c_str(), argv.data());
    ctx.exitCode = usageError("cannot run " + tool + ": " + std::strerror(errno));
  });
}

} // namespace blkc
