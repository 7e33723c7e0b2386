//===- ArtifactCheck.cpp - an artifact through the readers ----------------===//
//
// What a crafted artifact can reach without a GPU, in the order the tools
// reach it: `blkc inspect` (compiler/lib/Target/Inspect.cpp), the runtime's
// load path (runtime/src/Module.cpp less the driver calls: reader, manifest,
// grid programs, tensor maps, launch checks), the launcher header
// generator, and each image's readers alone (so that the ELF readers also
// see cubins whose manifest is broken). Besides "no crash", it checks that every refusal
// names the artifact (docs/manifest.md) and that the readers agree: what
// `blkc inspect` accepts, `blkc inspect --manifest` and the runtime accept.
// Tested by tests/fuzz (tampered set and seeded mutations, ASan + UBSan).
//
//===----------------------------------------------------------------------===//
#include "ArtifactCheck.h"

#include "blk/Target/CubinInfo.h"
#include "blk/Target/Inspect.h"
#include "blk/runtime/Error.h"
#include "blk/runtime/FatbinReader.h"
#include "blk/runtime/HeaderGen.h"
#include "blk/runtime/Launch.h"
#include "blk/runtime/Manifest.h"
#include "blk/runtime/TensorMap.h"

#include "llvm/Support/raw_ostream.h"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace blk::fuzz {
namespace {

constexpr const char *kOrigin = "fuzz.fatbin";

/// A broken promise (not a crash): says which and aborts, so that both
/// libFuzzer and the smoke driver report the input.
[[noreturn]] void broken(const std::string &what) {
  std::fprintf(stderr, "checkArtifact: %s\n", what.c_str());
  std::abort();
}

/// `blkc inspect` and `blkc inspect --manifest`, in process.
int inspect(llvm::ArrayRef<uint8_t> bytes, std::string *error) {
  std::string text;
  llvm::raw_string_ostream out(text);
  if (llvm::Error err = target::inspectArtifactBytes(bytes, kOrigin, out)) {
    std::string message = llvm::toString(std::move(err));
    if (message.find(kOrigin) == std::string::npos)
      broken("an error that does not name the artifact: " + message);
    if (error)
      *error = message;
    return 1;
  }
  target::InspectOptions raw;
  raw.rawJson = true;
  if (llvm::Error err = target::inspectArtifactBytes(bytes, kOrigin, out, raw))
    broken("inspect accepts, inspect --manifest refuses: " +
           llvm::toString(std::move(err)));
  return 0;
}

/// Host arguments for every parameter of `k`: integers `value` (narrowed by
/// the launch checks' own rules), pointers null, floats zero.
std::vector<ArgValue> sampleArguments(const KernelDesc &k, int64_t value) {
  std::vector<ArgValue> args(k.params.size());
  for (size_t i = 0; i < args.size(); ++i) {
    args[i].type = k.params[i].type;
    args[i].hostType = "fuzz";
    if (!k.params[i].type.pointer && isIntegerKind(k.params[i].type.elem))
      args[i].bits = uint64_t(value);
  }
  return args;
}

/// The integer arguments the launch checks are tried with.
const int64_t kSampleValues[] = {0, 1, -1, 1024, INT_MAX, LLONG_MAX, LLONG_MIN};

/// What a load and a launch do with one entry's tensor maps, less the
/// driver's encoding: compile, evaluate, check.
void tensorMaps(const KernelDesc &k, const std::vector<TensorMapDesc> &maps) {
  for (const TensorMapDesc &map : maps)
    (void)formatTensorMap(map, k);
  try {
    std::vector<TensorMapProgram> programs = compileTensorMaps(maps, k);
    for (int64_t value : kSampleValues) {
      std::vector<ArgValue> args = sampleArguments(k, value);
      try {
        checkArguments(k, args.data(), args.size());
        TensorMapArgs out;
        for (const TensorMapProgram &program : programs)
          evaluateTensorMap(program, k, args.data(), out);
      } catch (const Error &) { // this argument breaks a tensor map rule
      }
    }
  } catch (const Error &) { // an expression is too deep to compile
  }
}

/// What Module::load and a launch do with a manifest, less the driver.
void runtimeLoad(const FatbinReader &reader) {
  Manifest manifest = parseManifest(reader.manifestJson(), kOrigin);
  for (const KernelDesc &k : manifest.kernels) {
    if (manifest.findKernel(k.name) == nullptr)
      broken("findKernel misses kernel " + k.name);
    for (const Specialization &spec : k.specializations) {
      (void)configKey(spec);
      try {
        GridProgram program = compileGrid(spec.grid, k.params, k.name);
        for (int64_t value : kSampleValues) {
          std::vector<ArgValue> args = sampleArguments(k, value);
          try {
            checkArguments(k, args.data(), args.size());
            Grid grid = evaluateGrid(program, args.data(), k.name);
            (void)checkLaunchShape(grid, spec, LaunchLimits{}, k.name);
          } catch (const Error &) { // this argument or its grid is refused
          }
        }
      } catch (const Error &) { // the grid is too deep to compile
      }
      tensorMaps(k, spec.tensorMaps);
      for (const Variant &v : spec.variants)
        tensorMaps(k, v.tensorMaps);
      for (const AssumedVariant &v : spec.assumed)
        tensorMaps(k, v.tensorMaps);
    }
  }
  HeaderOptions options;
  options.fatbinPath = "/nonexistent/fuzz.fatbin";
  (void)generateLauncherHeader(manifest, options);
}

/// Each image's symbol readers and resource reader, whatever the manifest.
void eachImage(const FatbinReader &reader) {
  for (const FatbinImage &image : reader.images()) {
    std::string_view bytes = reader.payload(image);
    for (const char *symbol : {"__blk_manifest", "__blk_resources"}) {
      try {
        (void)readElfSymbol(bytes, symbol, kOrigin);
      } catch (const Error &) {
      }
      try {
        (void)readPtxByteArray(bytes, symbol, kOrigin);
      } catch (const Error &) {
      }
    }
    llvm::ArrayRef<uint8_t> cubin(
        reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
    if (auto resources = target::readCubinResources(cubin); !resources)
      llvm::consumeError(resources.takeError());
  }
}

} // namespace

int checkArtifact(const uint8_t *data, size_t size, std::string *error) {
  int verdict = inspect(llvm::ArrayRef<uint8_t>(data, size), error);
  try {
    FatbinReader reader(data, size, kOrigin);
    (void)reader.describe();
    for (unsigned sm : {50u, 80u, 86u, 89u, 90u, 100u, 120u})
      (void)reader.hasCodeFor(sm);
    eachImage(reader);
    runtimeLoad(reader);
  } catch (const Error &err) {
    // The runtime reads less than inspect (no resources), never more.
    if (verdict == 0)
      broken(std::string("inspect accepts, the runtime refuses: ") +
             err.what());
  }
  return verdict;
}

} // namespace blk::fuzz
