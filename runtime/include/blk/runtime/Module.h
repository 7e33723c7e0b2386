//===- Module.h - loaded blk modules and checked kernel launches -*- C++
//-*-===//
//
// A Module is a loaded blk fatbin with its manifest; a Kernel is one kernel
// of it bound to one specialisation (chosen with `with`). Kernel::launch
// checks the arguments against the manifest, computes the grid from @grid
// (or takes an explicit blk::Grid) and calls cuLaunchKernel. Everything a
// launch needs (CUfunction, parameter table, compiled grid) is resolved when
// the module loads, so a launch allocates nothing and looks nothing up.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "blk/runtime/Context.h"
#include "blk/runtime/DeviceBuffer.h"
#include "blk/runtime/Launch.h"
#include "blk/runtime/Manifest.h"

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace blk {

namespace detail {
struct ModuleState;
struct KernelState;
struct SpecState;
} // namespace detail

class Kernel;

/// A loaded artifact. Cheap to copy (shared); safe to use from several
/// threads.
class Module {
public:
  /// The kernel called `name`, bound to its first specialisation. Throws
  /// blk::Error listing the module's kernels when there is none.
  Kernel kernel(std::string_view name) const;
  /// The artifact's manifest.
  const Manifest &manifest() const;
  /// The file name (or the name given to Context::loadImage).
  const std::string &name() const;

private:
  friend class Context;
  explicit Module(std::shared_ptr<const detail::ModuleState> state)
      : state_(std::move(state)) {}
  std::shared_ptr<const detail::ModuleState> state_;
};

/// Where and how to launch, collected from leading launch() arguments.
struct LaunchOptions {
  const Grid *grid = nullptr;    ///< explicit grid, else @grid
  CUstream_st *stream = nullptr; ///< null: the default stream
};

/// How Kernel::timeConfigs times (docs/tuning.md "Timing configs").
struct TimingOptions {
  /// Indices into KernelDesc::specializations; empty: every config.
  std::vector<size_t> configs;
  /// Timed launches per config: as many as fit this budget (by the
  /// warm-up launch's time), at least 3 and at most maxRounds; 0: the
  /// context's BLK_TUNE_BUDGET_MS (10).
  double budgetMs = 0;
  unsigned maxRounds = 100;
  /// Nonzero: exactly this many timed launches per config.
  unsigned rounds = 0;
};

/// One config's times (Kernel::timeConfigs).
struct ConfigTiming {
  size_t config = 0;    ///< index into KernelDesc::specializations
  double medianMs = 0;  ///< of the timed launches
  double minMs = 0;
  unsigned launches = 0; ///< timed launches; 0 when skipped
  std::string skipped;   ///< why it was not timed ("" when it was)
};

/// One kernel of a module bound to one specialisation. Cheap to copy; keeps
/// its module alive. Safe to launch from several threads at once.
class Kernel {
public:
  /// The same kernel bound to the specialisation whose const parameter (or
  /// `num_warps` / `num_stages` / `warp_specialize`, 0 or 1) `name` equals
  /// `value`, keeping earlier choices. Throws blk::Error listing the available configs if none fits.
  template <class T> Kernel with(std::string_view name, T value) const {
    static_assert(std::is_arithmetic_v<T>, "with() takes a number or bool");
    if constexpr (std::is_floating_point_v<T>)
      return withValue(name, false, 0, double(value));
    else
      return withValue(name, true, int64_t(value), 0);
  }

  /// Launches with checked arguments. Leading blk::Grid and/or blk::Stream
  /// (or blk::StreamRef: a stream from the CUDA runtime or PyTorch)
  /// arguments choose the grid (default: @grid) and stream (default stream).
  template <class... Args> void launch(Args &&...args) const {
    launchWith(LaunchOptions{}, std::forward<Args>(args)...);
  }

  /// Launches with arguments already type-erased (tools, language
  /// bindings): checked exactly as launch() checks them; `values` are
  /// converted in place to the parameters' representations.
  void launchValues(std::vector<ArgValue> &values, const LaunchOptions &options = {}) const;

  /// Times the kernel's configs on checked `values` (converted in place)
  /// as the autotuner does: one warm-up launch each, then rounds in which
  /// the configs take turns, every launch timed with events after an L2
  /// flush, with the memory it may change restored first (and once at the
  /// end, so `values` keep what they held). A config whose `@requires`
  /// fails or that does not launch is skipped with the reason. Throws
  /// blk::Error on a device fault or when the memory cannot be snapshotted.
  std::vector<ConfigTiming> timeConfigs(std::vector<ArgValue> &values,
                                        const TimingOptions &options = {},
                                        const LaunchOptions &launch = {}) const;
  /// The kernel's manifest entry.
  const KernelDesc &desc() const;
  /// The chosen specialisation.
  const Specialization &specialization() const;
  /// The kernel name.
  const std::string &name() const { return desc().name; }
  /// The driver's function handle (CUfunction), for interop.
  CUfunc_st *function() const;

private:
  friend class Module;
  Kernel(std::shared_ptr<const detail::ModuleState> module,
         const detail::KernelState *kernel, const detail::SpecState *spec)
      : module_(std::move(module)), kernel_(kernel), spec_(spec) {}

  Kernel withValue(std::string_view name, bool isInt, int64_t i,
                   double f) const;

  template <class First, class... Rest>
  void launchWith(LaunchOptions options, First &&first, Rest &&...rest) const {
    using F = std::decay_t<First>;
    if constexpr (std::is_same_v<F, Grid>) {
      options.grid = &first;
      launchWith(options, std::forward<Rest>(rest)...);
    } else if constexpr (std::is_same_v<F, Stream> || std::is_same_v<F, StreamRef>) {
      options.stream = first.handle();
      launchWith(options, std::forward<Rest>(rest)...);
    } else {
      launchArgs(options, std::forward<First>(first),
                 std::forward<Rest>(rest)...);
    }
  }
  void launchWith(LaunchOptions options) const { launchArgs(options); }

  template <class... Args>
  void launchArgs(const LaunchOptions &options, Args &&...args) const {
    constexpr size_t n = sizeof...(Args);
    std::array<ArgValue, n ? n : 1> values{
        {ArgTraits<std::decay_t<Args>>::make(args)...}};
    std::array<void *, n ? n : 1> pointers{};
    for (size_t i = 0; i < n; ++i)
      pointers[i] = &values[i].bits;
    launchChecked(options, values.data(), pointers.data(), n);
  }

  /// The non-template part of a launch (Module.cpp).
  void launchChecked(const LaunchOptions &options, ArgValue *values,
                     void **pointers, size_t count) const;

  std::shared_ptr<const detail::ModuleState> module_;
  const detail::KernelState *kernel_ = nullptr;
  const detail::SpecState *spec_ = nullptr;
  std::vector<ConfigValue> pins_; ///< with() choices so far
};

} // namespace blk
