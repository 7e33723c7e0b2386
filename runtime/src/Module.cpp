//===- Module.cpp - module loading, specialisation choice, launches
//--------===//
//
// Loading resolves everything a launch needs (functions, shared-memory
// opt-in, compiled grids and tensor maps) so Kernel::launchChecked only
// checks arguments, evaluates the grid and calls cuLaunchKernel.
//
//===----------------------------------------------------------------------===//
#include "blk/runtime/Module.h"
#include "ContextImpl.h"
#include "blk/runtime/Error.h"
#include "blk/runtime/FatbinReader.h"

namespace blk {
namespace detail {

/// Shared memory a block may use without opting in.
constexpr uint32_t kDefaultSharedLimit = 48 * 1024;

static uint64_t fnv1a64(const std::vector<unsigned char> &bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h ^ bytes.size();
}

ModuleState::~ModuleState() {
  if (module) {
    ctx->makeCurrentNoThrow();
    ctx->api->cuModuleUnload(module);
  }
}

/// The class-table digit of value class `c` (0, 1, 16 -> 0, 1, 2).
static unsigned classDigit(int c) { return c == 1 ? 1 : c == 16 ? 2 : 0; }

/// Builds the class -> variant table of `ss` (functions come lazily).
static void indexVariants(SpecState &ss, const KernelDesc &desc) {
  const std::vector<Variant> &variants = ss.spec->variants;
  if (variants.empty())
    return;
  size_t slots = 1;
  for (size_t i = 0; i < desc.specialize.size(); ++i)
    slots *= 3;
  ss.variantSlot.assign(slots, 0);
  ss.variants = std::make_unique<VariantState[]>(variants.size());
  for (size_t v = 0; v < variants.size(); ++v) {
    ss.variants[v].entry = &variants[v].entry;
    ss.variants[v].sharedStatic = variants[v].sharedStatic;
    ss.variants[v].sharedDynamic = variants[v].sharedDynamic;
    ss.variants[v].tensorMaps = makeTensorMapState(variants[v].tensorMaps, desc);
    size_t slot = 0, weight = 1;
    for (int c : variants[v].when) {
      slot += classDigit(c) * weight;
      weight *= 3;
    }
    ss.variantSlot[slot] = uint8_t(v + 1); // the parser refused duplicates
  }
}

/// The assumed variants of `ss`, in the manifest's order.
static void indexAssumed(SpecState &ss, const KernelDesc &desc) {
  const std::vector<AssumedVariant> &assumed = ss.spec->assumed;
  ss.assumedCount = assumed.size();
  if (assumed.empty())
    return;
  ss.assumed = std::make_unique<VariantState[]>(assumed.size());
  for (size_t v = 0; v < assumed.size(); ++v) {
    ss.assumed[v].entry = &assumed[v].entry;
    ss.assumed[v].sharedStatic = assumed[v].sharedStatic;
    ss.assumed[v].sharedDynamic = assumed[v].sharedDynamic;
    ss.assumed[v].assumed = &assumed[v];
    ss.assumed[v].tensorMaps = makeTensorMapState(assumed[v].tensorMaps, desc);
  }
}

/// True when the checked `args` pass every test of `v`.
static bool assumptionsHold(const KernelDesc &kernel, const AssumedVariant &v,
                            const ArgValue *args) {
  for (const Assumption &a : v.assume) {
    const ArgValue &arg = args[a.param];
    switch (a.kind) {
    case Assumption::Kind::Aligned:
      if (arg.bits % uint64_t(a.value) != 0)
        return false;
      break;
    case Assumption::Kind::Equals:
      if (integerArgValue(arg, kernel.params[a.param].type.elem) != a.value)
        return false;
      break;
    case Assumption::Kind::MultipleOf:
      if (integerArgValue(arg, kernel.params[a.param].type.elem) % a.value != 0)
        return false;
      break;
    }
  }
  return true;
}

const VariantState *pickVariant(const KernelDesc &kernel, const SpecState &spec,
                                const ArgValue *args) {
  for (size_t v = 0; v < spec.assumedCount; ++v)
    if (assumptionsHold(kernel, *spec.assumed[v].assumed, args))
      return &spec.assumed[v];
  if (spec.variantSlot.empty())
    return nullptr;
  size_t slot = 0, weight = 1;
  for (uint32_t p : kernel.specialize) {
    int64_t v = integerArgValue(args[p], kernel.params[p].type.elem);
    slot += classDigit(valueClass(v)) * weight;
    weight *= 3;
  }
  uint8_t chosen = spec.variantSlot[slot];
  return chosen ? &spec.variants[chosen - 1] : nullptr;
}

/// The function of `entry` (a specialisation's, or a value variant's: `what`
/// says which in errors), checked against the device's shared memory and
/// opted in to more than 48 KiB of dynamic shared memory where it needs it.
static CUfunction loadEntry(const ModuleState &m, const KernelDesc &desc, const char *what,
                            const std::string &entry, uint32_t sharedStatic,
                            uint32_t sharedDynamic) {
  const ContextImpl &ctx = *m.ctx;
  CUfunction f = nullptr;
  CUresult r = ctx.api->cuModuleGetFunction(&f, m.module, entry.c_str());
  if (r != CUDA_SUCCESS)
    ctx.fail(r,
             m.name + ": " + what + " `" + entry +
                 "` named by the manifest is not in the module",
             desc.name);
  uint64_t shared = uint64_t(sharedStatic) + sharedDynamic;
  if (shared > ctx.info.limits.maxSharedOptin)
    throw Error(m.name + ": " + what + " `" + entry + "` needs " + std::to_string(shared) +
                    " bytes of shared memory, over the device limit of " +
                    std::to_string(ctx.info.limits.maxSharedOptin),
                desc.name);
  if (shared > kDefaultSharedLimit && sharedDynamic > 0)
    ctx.check(ctx.api->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                          int(sharedDynamic)),
              "cannot opt in to " + std::to_string(sharedDynamic) +
                  " bytes of dynamic shared memory for `" + entry + "`",
              desc.name);
  return f;
}

CUfunction resolveVariant(const ModuleState &m, const KernelDesc &desc,
                          const VariantState &vs) {
  CUfunction f = vs.function.load(std::memory_order_acquire);
  if (f)
    return f;
  std::lock_guard<std::mutex> lock(m.variantMutex);
  f = vs.function.load(std::memory_order_relaxed);
  if (f)
    return f;
  f = loadEntry(m, desc, vs.assumed ? "assumed variant" : "value variant", *vs.entry,
                vs.sharedStatic, vs.sharedDynamic);
  vs.function.store(f, std::memory_order_release);
  return f;
}

/// Resolves the functions and launch data of every specialisation (value
/// variants are looked up on first use: most programs launch few of them).
static void resolveKernels(ModuleState &m) {
  ContextImpl &ctx = *m.ctx;
  for (const KernelDesc &desc : m.manifest.kernels) {
    KernelState ks;
    ks.desc = &desc;
    for (const Specialization &spec : desc.specializations) {
      SpecState ss;
      ss.spec = &spec;
      if (spec.threads > ctx.info.limits.maxThreadsPerBlock)
        throw Error(m.name + ": " + std::to_string(spec.threads) +
                        " threads per program exceed the device limit",
                    desc.name);
      ss.function = loadEntry(m, desc, "entry", spec.entry, spec.sharedStatic,
                              spec.sharedDynamic);
      ss.grid = compileGrid(spec.grid, desc.params, desc.name);
      ss.requirements = compileRequirements(spec.requirements, desc.params, desc.name);
      ss.tensorMaps = makeTensorMapState(spec.tensorMaps, desc);
      indexVariants(ss, desc);
      indexAssumed(ss, desc);
      ks.specs.push_back(std::move(ss));
    }
    if (desc.autotune.enabled)
      ks.tune = std::make_unique<TuneState>();
    m.kernels.push_back(std::move(ks));
  }
}

std::shared_ptr<const ModuleState>
loadModule(const std::shared_ptr<ContextImpl> &ctx,
           std::vector<unsigned char> bytes, const std::string &name) {
  uint64_t key = fnv1a64(bytes);
  std::lock_guard<std::mutex> lock(ctx->cacheMutex);
  auto it = ctx->cache.find(key);
  if (it != ctx->cache.end())
    if (std::shared_ptr<const ModuleState> cached = it->second.lock())
      return cached;

  FatbinReader reader(bytes.data(), bytes.size(), name);
  auto state = std::make_shared<ModuleState>();
  state->ctx = ctx;
  state->name = name;
  state->manifest = parseManifest(reader.manifestJson(), name);
  const DeviceInfo &dev = ctx->info;
  if (!reader.hasCodeFor(dev.sm))
    throw Error(name + ": no cubin or PTX usable on device " +
                std::to_string(dev.ordinal) + " (" + dev.name + ", sm_" +
                std::to_string(dev.sm) + "); the file holds " +
                reader.describe());

  ctx->makeCurrent();
  char log[4096] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, reinterpret_cast<void *>(uintptr_t(sizeof log - 1))};
  CUresult r = ctx->api->cuModuleLoadDataEx(&state->module, bytes.data(), 2,
                                            options, values);
  if (r != CUDA_SUCCESS)
    ctx->fail(r, name + ": the driver refused the module (file holds " +
                     reader.describe() + ")" +
                     (log[0] ? std::string("; JIT log: ") + log : ""));
  resolveKernels(*state);
  ctx->cache[key] = state;
  return state;
}

} // namespace detail

Kernel Module::kernel(std::string_view name) const {
  for (const detail::KernelState &k : state_->kernels)
    if (k.desc->name == name)
      return Kernel(state_, &k, &k.specs.front());
  std::string names;
  for (const detail::KernelState &k : state_->kernels)
    names += (names.empty() ? "`" : ", `") + k.desc->name + "`";
  throw Error(state_->name + ": no kernel `" + std::string(name) +
              "`; the module has " + (names.empty() ? "none" : names));
}

const Manifest &Module::manifest() const { return state_->manifest; }

const std::string &Module::name() const { return state_->name; }

const KernelDesc &Kernel::desc() const { return *kernel_->desc; }

const Specialization &Kernel::specialization() const { return *spec_->spec; }

CUfunc_st *Kernel::function() const { return spec_->function; }

/// Whether `spec` agrees with the pinned value `pin`; `known` is set when
/// the spec mentions the name at all.
static bool specMatches(const Specialization &spec, const ConfigValue &pin,
                        bool &known) {
  auto same = [&](bool isFloat, int64_t i, double f) {
    if (pin.isFloat || isFloat)
      return (isFloat ? f : double(i)) ==
             (pin.isFloat ? pin.floatValue : double(pin.intValue));
    return i == pin.intValue;
  };
  if (pin.name == "num_warps") {
    known = true;
    return same(false, spec.numWarps, 0);
  }
  if (pin.name == "num_stages") {
    known = true;
    return same(false, spec.numStages, 0);
  }
  // A warp-specialised config and a plain one may share every other value.
  if (pin.name == "warp_specialize") {
    known = true;
    return same(false, spec.producerWarps > 0 ? 1 : 0, 0);
  }
  if (pin.name == "persistent") {
    known = true;
    return same(false, spec.persistent ? 1 : 0, 0);
  }
  for (const ConfigValue &v : spec.config)
    if (v.name == pin.name) {
      known = true;
      return same(v.isFloat, v.intValue, v.floatValue);
    }
  return false;
}

Kernel Kernel::withValue(std::string_view name, bool isInt, int64_t i,
                         double f) const {
  Kernel result = *this;
  ConfigValue pin;
  pin.name = std::string(name);
  pin.isFloat = !isInt;
  pin.intValue = i;
  pin.floatValue = f;
  bool replaced = false;
  for (ConfigValue &p : result.pins_)
    if (p.name == pin.name) {
      p = pin;
      replaced = true;
    }
  if (!replaced)
    result.pins_.push_back(pin);

  bool known = false;
  for (const detail::SpecState &s : kernel_->specs) {
    bool all = true;
    for (const ConfigValue &p : result.pins_) {
      bool k = false;
      bool matches = specMatches(*s.spec, p, k);
      all = all && matches;
      known = known || (k && p.name == pin.name);
    }
    if (all) {
      result.spec_ = &s;
      return result;
    }
  }
  const KernelDesc &d = *kernel_->desc;
  if (!known) {
    std::string consts;
    for (const ConstParam &c : d.constParams)
      consts += (consts.empty() ? "`" : ", `") + c.name + "`";
    throw Error(
        "no const parameter or option `" + pin.name +
            "` (const parameters: " + (consts.empty() ? "none" : consts) +
            "; options: `num_warps`, `num_stages`, `warp_specialize`, `persistent`)",
        d.name);
  }
  std::string wanted, available;
  for (const ConfigValue &p : result.pins_)
    wanted +=
        (wanted.empty() ? "" : " ") + p.name + "=" +
        (p.isFloat ? std::to_string(p.floatValue) : std::to_string(p.intValue));
  for (const Specialization &s : d.specializations)
    available += (available.empty() ? "" : "; ") + configKey(s);
  throw Error("no specialisation with " + wanted +
                  " was compiled (blkc leaves out, with a warning, configs over a "
                  "resource limit of the target); available: " + available,
              d.name);
}

namespace detail {

/// The programs of `function` that fit on the device at once (SMs times
/// the driver's occupancy for this block and shared memory): a persistent
/// entry launches no more, each walking the rest of its `@grid`. Asked of
/// the driver once per entry.
static int64_t residentPrograms(const ContextImpl &ctx, CUfunction function, int threads,
                                uint32_t shared, const CachedCount &cache,
                                const std::string &kernel) {
  int64_t n = cache.value.load(std::memory_order_relaxed);
  if (n > 0)
    return n;
  int perSm = 0;
  ctx.check(ctx.api->cuOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, function, threads,
                                                                  size_t(shared)),
            "cannot tell how many programs of a persistent entry fit on an SM", kernel);
  n = int64_t(std::max(perSm, 1)) * std::max(ctx.info.multiprocessors, 1);
  cache.value.store(n, std::memory_order_relaxed);
  return n;
}

CUresult launchSpec(const ModuleState &module, const KernelState &kernel,
                    const SpecState &s, const LaunchOptions &options,
                    ArgValue *values, void **pointers, const std::string **entry,
                    Grid *launched) {
  const KernelDesc &d = *kernel.desc;
  Grid grid;
  if (options.grid)
    grid = *options.grid;
  else if (s.grid.dims)
    grid = evaluateGrid(s.grid, values, d.name);
  else
    throw Error("the kernel has no @grid: pass a blk::Grid as the first "
                "launch argument",
                d.name);
  const ContextImpl &ctx = *module.ctx;
  *entry = &s.spec->entry;
  if (!checkLaunchShape(grid, *s.spec, ctx.info.limits, d.name))
    return CUDA_SUCCESS; // an empty grid launches nothing
  ctx.makeCurrent();
  CUfunction function = s.function;
  uint32_t shared = s.spec->sharedDynamic;
  const TensorMapState *maps = s.tensorMaps.get();
  const CachedCount *resident = &s.resident;
  // Kernels without variants pay these two tests per launch.
  if (!s.variantSlot.empty() || s.assumedCount)
    if (const VariantState *v = pickVariant(d, s, values)) {
      function = resolveVariant(module, d, *v);
      shared = v->sharedDynamic;
      maps = v->tensorMaps.get();
      *entry = v->entry;
      resident = &v->resident;
    }
  // A grid passed by the caller is launched as given: every program walks
  // from its index in steps of the grid, whatever its size.
  if (s.spec->persistent && !options.grid)
    grid.x = std::min(grid.x, residentPrograms(ctx, function, s.spec->threads, shared,
                                               *resident, d.name));
  if (launched)
    *launched = grid;
  // Entries without tensor maps pay this test.
  if (maps)
    return launchWithTensorMaps(ctx, *maps, d, function, grid, unsigned(s.spec->threads),
                                shared, options.stream, values, pointers);
  return ctx.api->cuLaunchKernel(function, unsigned(grid.x), unsigned(grid.y),
                                 unsigned(grid.z), unsigned(s.spec->threads), 1, 1,
                                 shared, options.stream, pointers, nullptr);
}

/// "BLOCK=1024 num_warps=4 num_stages=3 requires n_cols <= 1024".
static std::string describeRequirements(const KernelDesc &d, const Specialization &spec) {
  std::string text = spec.configKey + " requires ";
  for (size_t i = 0; i < spec.requirements.size(); ++i)
    text += (i ? " && " : "") + formatGridExpr(spec.requirements[i], d);
  return text;
}

/// The values of the parameters `spec`'s conditions read: "n_cols=3001".
static std::string requirementArguments(const KernelDesc &d, const Specialization &spec,
                                        const ArgValue *values) {
  std::vector<bool> used(d.params.size());
  auto mark = [&](auto &self, const GridExpr &e) -> void {
    if (e.kind == GridExpr::Kind::Param)
      used[size_t(e.value)] = true;
    for (const GridExpr &a : e.args)
      self(self, a);
  };
  for (const GridExpr &e : spec.requirements)
    mark(mark, e);
  std::string text;
  for (size_t i = 0; i < used.size(); ++i)
    if (used[i])
      text += (text.empty() ? "" : ", ") + d.params[i].name + "=" +
              std::to_string(integerArgValue(values[i], d.params[i].type.elem));
  return text;
}

void checkRequirements(const KernelState &kernel, const SpecState &spec,
                       const ArgValue *values) {
  if (requirementsHold(spec.requirements, values))
    return;
  const KernelDesc &d = *kernel.desc;
  throw Error("config " + describeRequirements(d, *spec.spec) + ", which fails for " +
                  requirementArguments(d, *spec.spec, values),
              d.name);
}

const SpecState &firstValidSpec(const KernelState &kernel, const ArgValue *values) {
  for (const SpecState &s : kernel.specs)
    if (requirementsHold(s.requirements, values))
      return s;
  const KernelDesc &d = *kernel.desc;
  std::string configs;
  for (const SpecState &s : kernel.specs)
    configs += (configs.empty() ? "" : "; ") + describeRequirements(d, *s.spec);
  throw Error("no config's @requires holds for these arguments (" +
                  requirementArguments(d, *kernel.specs.front().spec, values) +
                  "): " + configs,
              d.name);
}

} // namespace detail

void Kernel::launchValues(std::vector<ArgValue> &values, const LaunchOptions &options) const {
  std::vector<void *> pointers(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    pointers[i] = &values[i].bits;
  launchChecked(options, values.data(), pointers.data(), values.size());
}

void Kernel::launchChecked(const LaunchOptions &options, ArgValue *values,
                           void **pointers, size_t count) const {
  const KernelDesc &d = *kernel_->desc;
  checkArguments(d, values, count);
  const detail::SpecState *s = spec_;
  if (pins_.empty() && kernel_->tune)
    s = &detail::autotunedSpec(*module_, *kernel_, options, values, pointers);
  else if (s->requirements.dims && pins_.empty())
    s = &detail::firstValidSpec(*kernel_, values);
  else if (s->requirements.dims)
    detail::checkRequirements(*kernel_, *s, values);
  const std::string *entry = nullptr;
  Grid grid;
  CUresult r =
      detail::launchSpec(*module_, *kernel_, *s, options, values, pointers, &entry, &grid);
  if (r != CUDA_SUCCESS) {
    module_->ctx->fail(r,
                       "launch of `" + *entry + "` on grid (" + std::to_string(grid.x) +
                           ", " + std::to_string(grid.y) + ", " + std::to_string(grid.z) +
                           ") failed",
                       d.name);
  }
}

} // namespace blk
