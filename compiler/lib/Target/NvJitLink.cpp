//===- NvJitLink.cpp - PTX to cubin in process ---------------------------===//
#include "blk/Target/NvJitLink.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstring>

#include <dlfcn.h>

namespace blk::target {

// The subset of nvJitLink.h we use, declared here so that building blkc does
// not need CUDA headers. The unversioned entry points exist in 12.x and 13.x.
namespace {
using Handle = void *;
using Result = int;
constexpr Result kSuccess = 0;
constexpr int kInputPtx = 2;
} // namespace

struct NvJitLink::Api {
  Result (*create)(Handle *, uint32_t, const char **) = nullptr;
  Result (*destroy)(Handle *) = nullptr;
  Result (*addData)(Handle, int, const void *, size_t, const char *) = nullptr;
  Result (*complete)(Handle) = nullptr;
  Result (*cubinSize)(Handle, size_t *) = nullptr;
  Result (*cubin)(Handle, void *) = nullptr;
  Result (*errorLogSize)(Handle, size_t *) = nullptr;
  Result (*errorLog)(Handle, char *) = nullptr;
  Result (*infoLogSize)(Handle, size_t *) = nullptr;
  Result (*infoLog)(Handle, char *) = nullptr;
};

NvJitLink::~NvJitLink() {
  if (handle)
    dlclose(handle);
}

template <typename Fn>
static bool resolve(void *lib, const char *name, Fn &fn) {
  fn = reinterpret_cast<Fn>(dlsym(lib, name));
  return fn != nullptr;
}

llvm::Expected<std::unique_ptr<NvJitLink>> NvJitLink::load(const CudaToolkit &toolkit) {
  std::string tried;
  for (const std::string &candidate : toolkit.nvJitLinkCandidates()) {
    void *lib = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      tried += "\n  " + candidate;
      continue;
    }
    auto api = std::make_unique<Api>();
    bool ok = resolve(lib, "nvJitLinkCreate", api->create) &&
              resolve(lib, "nvJitLinkDestroy", api->destroy) &&
              resolve(lib, "nvJitLinkAddData", api->addData) &&
              resolve(lib, "nvJitLinkComplete", api->complete) &&
              resolve(lib, "nvJitLinkGetLinkedCubinSize", api->cubinSize) &&
              resolve(lib, "nvJitLinkGetLinkedCubin", api->cubin) &&
              resolve(lib, "nvJitLinkGetErrorLogSize", api->errorLogSize) &&
              resolve(lib, "nvJitLinkGetErrorLog", api->errorLog) &&
              resolve(lib, "nvJitLinkGetInfoLogSize", api->infoLogSize) &&
              resolve(lib, "nvJitLinkGetInfoLog", api->infoLog);
    if (!ok) {
      dlclose(lib);
      tried += "\n  " + candidate + " (lacks the nvJitLink entry points)";
      continue;
    }
    std::unique_ptr<NvJitLink> linker(new NvJitLink());
    linker->handle = lib;
    linker->path = candidate;
    linker->api = std::move(api);
    return linker;
  }
  return llvm::createStringError(
      "libnvJitLink (CUDA toolkit) is needed to compile PTX to a cubin but "
      "could not be loaded; looked in (CUDA toolkit root `" +
      toolkit.root + "` from " + toolkit.rootSource + "):" + tried +
      "\nset CUDA_HOME to a CUDA 12 or 13 toolkit, or use --emit=ptx");
}

/// Reads one of nvJitLink's logs; empty when there is none.
static std::string readLog(Handle link, Result (*sizeFn)(Handle, size_t *),
                           Result (*logFn)(Handle, char *)) {
  size_t size = 0;
  if (sizeFn(link, &size) != kSuccess || size <= 1)
    return {};
  std::string log(size, '\0');
  if (logFn(link, log.data()) != kSuccess)
    return {};
  log.resize(size - 1); // Drop the terminating NUL.
  return log;
}

llvm::Expected<Cubin> NvJitLink::compile(llvm::StringRef ptx, const GpuArch &arch,
                                         unsigned optLevel, unsigned threads,
                                         bool lineInfo) const {
  return compileModules({ptx.str()}, arch, optLevel, threads, lineInfo);
}

llvm::Expected<Cubin> NvJitLink::compileModules(llvm::ArrayRef<std::string> modules,
                                                const GpuArch &arch, unsigned optLevel,
                                                unsigned threads, bool lineInfo) const {
  std::string archOpt = "-arch=" + arch.name;
  // nvJitLink refuses -O1 and -O2 (its create fails): any optimisation is -O3.
  std::string optOpt = optLevel == 0 ? "-O0" : "-O3";
  std::string splitOpt = "-split-compile=" + std::to_string(std::max(threads, 1u));
  std::vector<const char *> options = {archOpt.c_str(), optOpt.c_str(), "-verbose"};
  if (threads > 1)
    options.push_back(splitOpt.c_str());
  if (lineInfo)
    options.push_back("-lineinfo");
  Handle link = nullptr;
  if (api->create(&link, uint32_t(options.size()), options.data()) != kSuccess)
    return llvm::createStringError("nvJitLink refused the options for " + arch.name);
  // Destroy the handle on every path out.
  auto cleanup = llvm::make_scope_exit([&] { api->destroy(&link); });

  // nvJitLink wants NUL-terminated PTX images (std::string's c_str is).
  Result added = kSuccess;
  for (size_t i = 0; i < modules.size() && added == kSuccess; ++i) {
    std::string name = "blk" + std::to_string(i) + ".ptx";
    added = api->addData(link, kInputPtx, modules[i].c_str(), modules[i].size() + 1,
                         name.c_str());
  }
  Result done = added == kSuccess ? api->complete(link) : added;
  if (done != kSuccess) {
    std::string log = readLog(link, api->errorLogSize, api->errorLog);
    return llvm::createStringError("ptxas failed for " + arch.name + " (nvJitLink error " +
                                   std::to_string(done) + ")" +
                                   (log.empty() ? "" : ":\n" + log));
  }

  Cubin result;
  size_t size = 0;
  if (api->cubinSize(link, &size) != kSuccess || size == 0)
    return llvm::createStringError("nvJitLink produced no cubin for " + arch.name);
  result.image.resize(size);
  if (api->cubin(link, result.image.data()) != kSuccess)
    return llvm::createStringError("nvJitLink could not return the cubin for " + arch.name);
  result.infoLog = readLog(link, api->infoLogSize, api->infoLog);
  result.resources = parsePtxasInfoLog(result.infoLog);
  return result;
}

/// Reads the unsigned number just before `suffix` in `line`, 0 when absent.
static unsigned numberBefore(llvm::StringRef line, llvm::StringRef suffix) {
  size_t at = line.find(suffix);
  if (at == llvm::StringRef::npos)
    return 0;
  llvm::StringRef head = line.take_front(at).rtrim();
  size_t start = head.find_last_not_of("0123456789");
  llvm::StringRef digits = start == llvm::StringRef::npos ? head : head.drop_front(start + 1);
  unsigned value = 0;
  return digits.getAsInteger(10, value) ? 0 : value;
}

std::vector<EntryResources> parsePtxasInfoLog(llvm::StringRef log) {
  // ptxas prints, per entry:
  //   ptxas info    : Compiling entry function 'NAME' for 'sm_90'
  //   ptxas info    : Function properties for NAME
  //   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  //   ptxas info    : Used 8 registers, used 0 barriers, 1024 bytes smem
  std::vector<EntryResources> entries;
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (!line.starts_with("ptxas"))
      continue;
    size_t name = line.find("Compiling entry function '");
    if (name != llvm::StringRef::npos) {
      llvm::StringRef rest = line.drop_front(name + strlen("Compiling entry function '"));
      entries.push_back({});
      entries.back().entry = rest.take_until([](char c) { return c == '\''; }).str();
      continue;
    }
    if (entries.empty())
      continue;
    EntryResources &entry = entries.back();
    if (line.contains("bytes stack frame")) {
      entry.stackFrame = numberBefore(line, " bytes stack frame");
      entry.spillStores = numberBefore(line, " bytes spill stores");
      entry.spillLoads = numberBefore(line, " bytes spill loads");
      entry.spillsKnown = true;
    } else if (line.contains(" registers")) {
      entry.registers = numberBefore(line, " registers");
      entry.barriers = numberBefore(line, " barriers");
      entry.sharedBytes = numberBefore(line, " bytes smem");
    }
  }
  return entries;
}

} // namespace blk::target
