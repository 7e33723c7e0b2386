//===- BuildCommand.cpp - `blkc build`: compile to a chosen stage ---------===//
//
// blkc build FILE [--emit=ast|ir|ir-opt|gpu-ir|llvm|ptx|fatbin] [-o OUT]
//                 [--print-after=PASS]... [--print-after-all]
//                 [--print-locations] [--time-stages] [--arch=LIST|native] [-O N]
//                 [-j N] [--lineinfo|--no-lineinfo] [--no-auto-specialize] [--no-tma]
//                 [--warpgroup-turns] [--stores-from-registers]
//                 [-D NAME=VALUE]... [-I DIR]...
//                 [--emit-header X.hpp [--embed]] [--depfile X.d]
//                 [--prefix-map OLD=NEW]... [--tuning TABLE.json]...
//                 [--color=auto|always|never] [--driver LIB]
// Writes the stage to OUT or stdout; diagnostics and pass dumps to stderr.
// Exit 0; 1 for errors in the code; 2 for usage errors.
// Tests: tests/lit/irgen/.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "blk/Driver/Build.h"
#include "blk/Target/Arch.h"
#include "blk/Target/NativeArch.h"

#include "llvm/Support/raw_ostream.h"

using namespace blkc;

int blkc::buildStage(blk::BuildOptions &build, const FrontendFlags &frontend,
                     const ToolContext &ctx) {
  build.target.verbose |= ctx.verbose;
  if (llvm::Error err = blk::target::resolveNativeArch(build.target.arch,
                                                      build.target.driverLibrary, llvm::errs()))
    return usageError(llvm::toString(std::move(err)));
  build.colorDiagnostics = stderrStyle(frontend.color).color;
  if (llvm::Error err =
          blk::target::checkTargetBuildOptions(build.emit, build.target, build.output))
    return usageError(llvm::toString(std::move(err)));
  blk::FrontendOptions options;
  std::string error;
  if (!toFrontendOptions(frontend, ctx, options, error))
    return usageError(error);
  // Checked above; the oldest arch decides what the source may use (fp8).
  if (auto archs = blk::target::parseArchList(build.target.arch)) {
    options.oldestArch = archs->front().name;
    options.oldestSm = archs->front().smVersion;
  } else {
    llvm::consumeError(archs.takeError());
  }
  int rc = blk::runBuild(build, options, llvm::outs());
  llvm::outs().flush();
  return rc;
}

void blkc::registerBuildCommand(CLI::App &app, ToolContext &ctx) {
  struct Flags {
    blk::BuildOptions build;
    FrontendFlags frontend;
    bool lineInfo = false, noLineInfo = false, noAutoSpecialize = false, noTma = false;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App *cmd = app.add_subcommand("build", "Compile a blk file to a chosen stage");
  cmd->add_option("FILE", flags->build.input, "Source file")->required();
  addFrontendFlags(cmd, flags->frontend);
  cmd->add_option("--emit", flags->build.emit,
                  "Stage to write (default: from -o's extension, .fatbin .ptx .ll; else ir-opt)")
      ->check(CLI::IsMember(blk::buildEmitKinds()));
  cmd->add_option("-o", flags->build.output, "Output file (default: stdout)");
  cmd->add_option("--print-after", flags->build.printAfter,
                  "Print the IR after this pass (e.g. cse) to stderr");
  cmd->add_flag("--print-after-all", flags->build.printAfterAll,
                "Print the IR after every pass to stderr");
  cmd->add_flag("--print-locations", flags->build.printLocations,
                "Print the source location of every op");
  cmd->add_flag("--time-stages", flags->build.timeStages,
                "Print per-stage times (ms) to stderr");
  cmd->add_option("--arch", flags->build.target.arch,
                  "GPU architectures, comma-separated (" + blk::target::validArchNames() +
                      "), or `native`: those of this machine's GPUs, else " +
                      blk::target::kNativeFallbackArchs.str() + " (default " +
                      blk::target::kDefaultArch.str() + ")")
      ->type_name("LIST");
  cmd->add_option("--driver", flags->build.target.driverLibrary,
                  "CUDA driver that --arch native asks for the GPUs (default libcuda.so.1)")
      ->type_name("LIB");
  cmd->add_option("-O", flags->build.target.optLevel,
                  "Optimisation level -O0..-O3 (default 3): LLVM runs at the "
                  "level, ptxas at -O0 for -O0 and -O3 otherwise");
  cmd->add_option("--emit-header", flags->build.target.emitHeader,
                  "Also write a typed C++ launcher header");
  cmd->add_flag("--embed", flags->build.target.embedHeader,
                "The --emit-header header holds the fatbin's bytes (no file to ship)");
  cmd->add_option("--prefix-map", flags->build.target.prefixMaps,
                  "Record paths under OLD as under NEW in the artifact (manifest source, "
                  "line info, header); repeatable, the longest OLD wins")
      ->type_name("OLD=NEW")
      ->allow_extra_args(false);
  cmd->add_option("--tuning", flags->build.target.tuningFiles,
                  "Embed this tuning table (format blk-tuning, version 1) in the manifest; "
                  "repeatable (docs/manifest.md)")
      ->type_name("TABLE.json")
      ->allow_extra_args(false);
  cmd->add_option("--depfile", flags->build.target.depfile,
                  "Also write a Make-style depfile of every source read");
  cmd->add_option("-j", flags->build.target.jobs,
                  "Compile N kernels at once (default: the core count)")
      ->type_name("N");
  cmd->add_flag("--lineinfo", flags->lineInfo,
                "Source lines in the PTX and cubins for profilers (default: on for "
                "--emit=ptx, off otherwise)");
  cmd->add_flag("--no-lineinfo", flags->noLineInfo, "No source lines, also for --emit=ptx");
  cmd->add_flag("--no-auto-specialize", flags->noAutoSpecialize,
                "No assumed variants (<entry>__auto: the entry compiled for unit last "
                "strides, aligned pointers, sizes multiples of 16; docs/language.md 10.4)");
  cmd->add_flag("--no-tma", flags->noTma,
                "Fill num_stages rings with cp.async only, never TMA (sm_90a; "
                "docs/language.md 10.8)");
  cmd->add_flag("--warpgroup-turns", flags->build.target.backend.warpgroupTurns,
                "Experimental: the consumer warpgroups of a warp-specialised attention loop "
                "take turns at the tensor cores (FlashAttention-3's ping-pong; not yet "
                "measured on a GPU)");
  cmd->add_flag("--stores-from-registers", flags->build.target.backend.storesFromRegisters,
                "Experimental: store a tensor-core result from its registers where its "
                "addresses are index arithmetic, not through shared memory in 16-byte "
                "vectors (no barrier at the kernel's end; measured slower on an H100: "
                "GEMM 2-8 %, attention up to 10 %, bench/NOTES.md session 28)");
  cmd->callback([flags, cmd, &ctx] {
    // Without --emit, -o's extension names the stage (`-o k.ptx` writes PTX);
    // `.cubin` has no stage of its own: say what to write instead.
    if (cmd->count("--emit") == 0) {
      llvm::StringRef out(flags->build.output);
      if (out.ends_with(".fatbin"))
        flags->build.emit = "fatbin";
      else if (out.ends_with(".ptx"))
        flags->build.emit = "ptx";
      else if (out.ends_with(".ll"))
        flags->build.emit = "llvm";
      else if (out.ends_with(".cubin")) {
        ctx.exitCode = usageError("blkc writes a fatbin (one cubin per --arch plus the manifest): "
                                  "use `-o " + out.drop_back(6).str() + ".fatbin`, or "
                                  "`--emit=ptx` for the PTX");
        return;
      }
    }
    if (flags->lineInfo || flags->noLineInfo)
      flags->build.target.lineInfo = flags->lineInfo && !flags->noLineInfo;
    flags->build.target.backend.autoSpecialize = !flags->noAutoSpecialize;
    flags->build.target.backend.tma = !flags->noTma;
    ctx.exitCode = buildStage(flags->build, flags->frontend, ctx);
  });
}
