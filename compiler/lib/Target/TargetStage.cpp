//===- TargetStage.cpp - `blkc build`'s back-half stages -----------------===//
//
// Glue between the build command and the artifact pipeline: flag checks,
// writing the stage, the launcher header (runtime/include/blk/runtime/
// HeaderGen.h) and the depfile. Tests: tests/lit/target/build-*.test.
//
//===----------------------------------------------------------------------===//
#include "blk/Target/BuildArtifact.h"
#include "blk/Target/Depfile.h"
#include "blk/Target/OutputFile.h"
#include "blk/Target/Tuning.h"

#include "blk/runtime/Error.h"
#include "blk/runtime/HeaderGen.h"
#include "blk/runtime/Manifest.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/Threading.h"

namespace blk::target {

llvm::Error checkTargetBuildOptions(llvm::StringRef emit, const TargetBuildOptions &options,
                                    llvm::StringRef outputPath) {
  if (auto archs = parseArchList(options.arch); !archs)
    return archs.takeError();
  if (!options.emitHeader.empty() && emit != "fatbin")
    return llvm::createStringError("--emit-header needs --emit=fatbin (the header loads the "
                                   "fatbin), not --emit=" + emit.str());
  if (options.embedHeader && options.emitHeader.empty())
    return llvm::createStringError("--embed needs --emit-header FILE.hpp (it embeds the fatbin "
                                   "in the header)");
  if (llvm::Error err = parsePrefixMap(options.prefixMaps).takeError())
    return err;
  if (!options.depfile.empty() && !parseEmitStage(emit))
    return llvm::createStringError("--depfile is written for --emit=gpu-ir|llvm|ptx|fatbin, not "
                                   "--emit=" + emit.str());
  if (!options.tuningFiles.empty() && emit != "ptx" && emit != "fatbin")
    return llvm::createStringError("--tuning embeds tables in the manifest, which --emit=ptx and "
                                   "--emit=fatbin write, not --emit=" + emit.str());
  if (!options.depfile.empty() && (outputPath.empty() || outputPath == "-"))
    return llvm::createStringError("--depfile needs -o FILE (the depfile's target)");
  if (options.optLevel > 3)
    return llvm::createStringError("-O" + std::to_string(options.optLevel) +
                                   " is not an optimisation level (valid: -O0 to -O3)");
  return llvm::Error::success();
}

llvm::Expected<PrefixMap> parsePrefixMap(llvm::ArrayRef<std::string> specs) {
  PrefixMap map;
  for (const std::string &spec : specs)
    if (std::string error = map.add(spec); !error.empty())
      return llvm::createStringError(error + " (e.g. --prefix-map /home/me/src=.)");
  return map;
}

unsigned resolveJobs(unsigned jobs) {
  return jobs ? jobs : llvm::hardware_concurrency().compute_thread_count();
}

/// Writes the launcher header for the manifest of the artifact just built.
/// Its default fatbin path is `outputPath` as given (after --prefix-map),
/// never made absolute: the header is as reproducible as the fatbin.
static llvm::Error writeHeader(const TargetBuildOptions &options, const PrefixMap &prefixMap,
                               const ArtifactResult &artifact, llvm::StringRef outputPath) {
  std::string text;
  try {
    Manifest manifest = parseManifest(artifact.manifestJson, outputPath.str());
    HeaderOptions header;
    if (options.embedHeader || outputPath.empty() || outputPath == "-")
      header.embeddedImage.assign(artifact.output.begin(), artifact.output.end());
    else
      header.fatbinPath = prefixMap.apply(outputPath.str());
    text = generateLauncherHeader(manifest, header);
  } catch (const Error &err) {
    return llvm::createStringError(std::string("cannot generate the launcher header: ") +
                                   err.what());
  }
  return writeFileIfChanged(options.emitHeader, text);
}

int runTargetStage(mlir::ModuleOp blkModule, llvm::StringRef emit,
                   const TargetBuildOptions &options, llvm::StringRef outputPath,
                   llvm::ArrayRef<std::string> sources, llvm::raw_ostream &out) {
  auto fail = [](llvm::Error err, int status) {
    llvm::errs() << "blkc: error: " << llvm::toString(std::move(err)) << "\n";
    return status;
  };
  if (llvm::Error err = checkTargetBuildOptions(emit, options, outputPath))
    return fail(std::move(err), 2);
  std::optional<EmitStage> stage = parseEmitStage(emit);
  if (!stage)
    return fail(llvm::createStringError("unknown --emit value `" + emit.str() + "`"), 2);

  ArtifactOptions artifactOptions;
  artifactOptions.archs = llvm::cantFail(parseArchList(options.arch));
  artifactOptions.optLevel = options.optLevel;
  artifactOptions.emit = *stage;
  artifactOptions.verboseOut = options.verbose ? &llvm::errs() : nullptr;
  artifactOptions.printAfter = options.printAfter;
  artifactOptions.printAfterAll = options.printAfterAll;
  artifactOptions.warningsAsErrors = options.warningsAsErrors;
  artifactOptions.jobs = resolveJobs(options.jobs);
  artifactOptions.lineInfo = options.lineInfo.value_or(*stage == EmitStage::Ptx);
  artifactOptions.backend = options.backend;
  artifactOptions.prefixMap = llvm::cantFail(parsePrefixMap(options.prefixMaps));
  for (const std::string &path : options.tuningFiles) {
    auto table = readTuningTable(path);
    if (!table)
      return fail(table.takeError(), 1);
    artifactOptions.tuning.push_back(std::move(*table));
  }
  // Progress on a terminal (one line rewritten), or with -v (a line each).
  if (options.verbose || llvm::errs().is_displayed()) {
    artifactOptions.progressOut = &llvm::errs();
    artifactOptions.progressStyle = options.verbose ? BuildProgress::Style::Lines
                                                    : BuildProgress::Style::InPlace;
  }
  auto artifact = buildArtifact(blkModule, artifactOptions);
  if (!artifact)
    return fail(artifact.takeError(), 1);
  out << artifact->output;

  if (!options.emitHeader.empty())
    if (llvm::Error err = writeHeader(options, artifactOptions.prefixMap, *artifact, outputPath))
      return fail(std::move(err), 1);
  if (!options.depfile.empty()) {
    // A changed table changes the artifact: it is a dependency too.
    std::vector<std::string> inputs(sources.begin(), sources.end());
    inputs.insert(inputs.end(), options.tuningFiles.begin(), options.tuningFiles.end());
    if (llvm::Error err = writeDepfile(options.depfile, outputPath, inputs))
      return fail(std::move(err), 1);
  }
  return 0;
}

} // namespace blk::target
