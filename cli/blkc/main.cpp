//===- main.cpp - blkc, the blk compiler ------------------------------------===//
//
// Only option parsing lives here. Each subcommand is in its own
// <Name>Command.cpp and is registered below with one line; add new ones
// (build, run, inspect, lsp, …) the same way: declare
// `register<Name>Command` in Commands.h, add the file to CMakeLists.txt and
// one line here.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstring>
#include <filesystem>
#include <iostream>

using namespace blkc;

static std::string binaryDir(const char *argv0) {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec)
    self = std::filesystem::absolute(argv0, ec);
  return self.parent_path().string();
}

int main(int argc, char **argv) {
  // CLI11 has no one-dash long flags: accept `-Werror` as `--Werror`.
  std::vector<std::string> args(argv, argv + argc);
  for (std::string &a : args)
    if (a == "-Werror")
      a = "--Werror";
  std::vector<char *> argp;
  for (std::string &a : args)
    argp.push_back(a.data());

  ToolContext ctx;
  ctx.binDir = binaryDir(argv[0]);
  CLI::App app{"blkc: compiler for the blk GPU kernel language"};
  app.name("blkc");
  app.set_version_flag("--version", "blkc " BLK_VERSION " (blk language v0)");
  app.add_flag("-v,--verbose", ctx.verbose, "Developer logging to stderr");
  app.require_subcommand(1);
  app.fallthrough();

  registerCheckCommand(app, ctx);
  registerBuildCommand(app, ctx);
  registerInspectCommand(app, ctx);
  registerRunCommand(app, ctx);
  registerLspCommand(app, ctx);
  registerFmtCommand(app, ctx);
  registerTuneCommand(app, ctx);
  registerBenchCommand(app, ctx);

  CLI::App *help = app.add_subcommand("help", "Show help for blkc or one subcommand");
  std::string topic;
  help->add_option("COMMAND", topic, "Subcommand to describe");
  help->callback([&] {
    CLI::App *sub = nullptr;
    if (!topic.empty()) {
      try {
        sub = app.get_subcommand(topic);
      } catch (const CLI::OptionNotFound &) {
        ctx.exitCode = usageError("unknown subcommand `" + topic + "`");
        return;
      }
    }
    // app.help() would describe the selected subcommand (`help` itself).
    std::cout << (sub ? sub->help()
                      : app.get_formatter()->make_help(&app, "blkc", CLI::AppFormatMode::Normal));
  });

  app.parse_complete_callback([&] {
    if (!ctx.verbose)
      return;
    spdlog::set_default_logger(spdlog::stderr_color_mt("blkc"));
    spdlog::set_level(spdlog::level::debug);
  });
  try {
    app.parse(static_cast<int>(argp.size()), argp.data());
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return ctx.exitCode;
}
