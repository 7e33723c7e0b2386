//===- InspectCommand.cpp - `blkc inspect`: describe a built artifact -----===//
//
// blkc inspect FILE.fatbin [--manifest]
// Prints the manifest readably (kernels, parameters and hints, const
// parameters, every specialisation), the device images and, per cubin, the
// registers / local memory / shared memory of each entry. `--manifest`
// prints the stored JSON instead. Exit 0, or 1 for a file that cannot be read,
// is not a fatbin, is truncated or carries no blk manifest.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "blk/Target/Inspect.h"

#include "llvm/Support/raw_ostream.h"

#include <iostream>

using namespace blkc;

namespace {
struct InspectFlags {
  std::string file;
  bool rawJson = false;
};
} // namespace

void blkc::registerInspectCommand(CLI::App &app, ToolContext &ctx) {
  auto flags = std::make_shared<InspectFlags>();
  CLI::App *cmd = app.add_subcommand("inspect", "Describe a fatbin built by `blkc build`");
  cmd->add_option("FILE", flags->file, "The .fatbin to describe")->required();
  cmd->add_flag("--manifest", flags->rawJson, "Print the manifest JSON as stored");
  cmd->callback([flags, &ctx] {
    blk::target::InspectOptions options;
    options.rawJson = flags->rawJson;
    if (llvm::Error err = blk::target::inspectArtifact(flags->file, llvm::outs(), options)) {
      llvm::outs().flush();
      std::cerr << "blkc: error: " << llvm::toString(std::move(err)) << "\n";
      ctx.exitCode = 1;
    }
  });
}
