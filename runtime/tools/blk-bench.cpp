//===- blk-bench.cpp - a fatbin kernel's configs timed on this GPU --------===//
//
//   blk-bench FILE.fatbin -k KERNEL --args "NAME=SPEC ..." [--arg NAME=SPEC]...
//             [--config "BM=128 num_warps=4"]... [--flops EXPR]
//             [--expect NAME=PATH]... [--rtol R] [--atol A]
//             [--iters N | --ms BUDGET] [--device N] [--driver LIB]
//
// A user's first look at a kernel's speed without host code (`blkc bench`
// runs it; like blk-tune it links only libblkrt, for GPU machines without
// the compiler). Every config (or those --config names) is first run once
// on fresh inputs with its written buffers poisoned (0xff bytes), and
// compared with --expect files (`blkc run --out` format); then all are
// timed by Kernel::timeConfigs, the autotuner's method. Specs: ArgSpecs.h.
// Exit 0; 1 when a check fails, no config launches or the device fails;
// 2 on usage errors. Tests: tests/unit/Runtime/blk_bench_test.sh.
//
//===----------------------------------------------------------------------===//
#include "ArgSpecs.h"
#include "BenchCheck.h"
#include "blk/runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using blk::tools::ArgSet;
using blk::tools::Usage;

constexpr const char *kUsage =
    "usage: blk-bench FILE.fatbin -k KERNEL --args \"NAME=SPEC ...\" [--arg NAME=SPEC]...\n"
    "                 [--config \"NAME=VALUE ...\"]... [--flops EXPR] [--expect NAME=PATH]...\n"
    "                 [--rtol R] [--atol A] [--iters N | --ms BUDGET] [--device N] [--driver LIB]\n";

constexpr const char *kHelp =
    "Times each config of KERNEL on this GPU: one warm-up launch, then timed launches\n"
    "(CUDA events, L2 flushed and inputs restored before each) for --ms BUDGET per config\n"
    "(default 100, 3 to 1000 launches) or exactly --iters N; prints the median and the\n"
    "fastest launch in microseconds and the rates at the median, the best config marked *.\n"
    "\n"
    "  --args/--arg  arguments as `blkc run --arg`: scalars as literals; buffers as\n"
    "                zeros:T:N, iota:T:N, fill:T:N:V, rand:T:N[:SEED], empty:T:N, file:T:PATH\n"
    "  --config      only configs whose values match (repeatable; default: all)\n"
    "  --flops       floating-point operations per launch, a number or an expression\n"
    "                of scalar arguments (\"2*M*N*K\"): adds a TFLOP/s column\n"
    "  --expect      compare buffer NAME after one launch of each config with PATH (raw\n"
    "                little-endian elements, as `blkc run --out` writes); written buffers\n"
    "                are poisoned first; a mismatch exits 1 naming the worst element\n"
    "  --rtol/--atol an element passes when |got - want| <= atol + rtol * |want|\n"
    "                (default atol 0; rtol 0 for integers, 1e-3 for f32/f64, two units\n"
    "                of precision for f16, bf16 and fp8)\n"
    "\n"
    "GB/s counts per launch the whole buffer of each pointer argument once per direction\n"
    "the manifest records: read or write once, readwrite and atomic (and unknown) twice,\n"
    "none not at all. That is the traffic if every byte moved once, not measured DRAM\n"
    "traffic: a kernel that reads part of a buffer or re-reads it shows a false rate.\n";

struct Options {
  std::string fatbin, kernel, flops, driver = "libcuda.so.1";
  std::map<std::string, std::string> specs;
  std::vector<std::string> configs;
  std::vector<std::pair<std::string, std::string>> expects;
  double rtol = -1, atol = 0, budgetMs = 100;
  unsigned iters = 0;
  int device = 0;
};

double number(const std::string &flag, const std::string &text) {
  char *end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || !(v >= 0))
    throw Usage{"`" + flag + " " + text + "`: expected a non-negative number"};
  return v;
}

Options parseOptions(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        throw Usage{"`" + a + "` needs a value"};
      return argv[++i];
    };
    if (a == "-k" || a == "--kernel")
      o.kernel = value();
    else if (a == "--args")
      blk::tools::parseArgList(value(), o.specs);
    else if (a == "--arg") {
      std::string item = value();
      size_t eq = item.find('=');
      if (eq == std::string::npos || eq == 0)
        throw Usage{"`--arg " + item + "` must have the form NAME=SPEC"};
      if (!o.specs.emplace(item.substr(0, eq), item.substr(eq + 1)).second)
        throw Usage{"argument `" + item.substr(0, eq) + "` given twice"};
    } else if (a == "--config")
      o.configs.push_back(value());
    else if (a == "--flops")
      o.flops = value();
    else if (a == "--expect") {
      std::string item = value();
      size_t eq = item.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
        throw Usage{"`--expect " + item + "` must have the form NAME=PATH"};
      o.expects.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    } else if (a == "--rtol")
      o.rtol = number(a, value());
    else if (a == "--atol")
      o.atol = number(a, value());
    else if (a == "--ms")
      o.budgetMs = number(a, value());
    else if (a == "--iters") {
      std::optional<int64_t> n = blk::tools::parseIntLiteral(value());
      if (!n || *n < 1 || *n > 1000000)
        throw Usage{"`--iters` takes a count from 1 to 1000000"};
      o.iters = unsigned(*n);
    } else if (a == "--device")
      o.device = std::atoi(value().c_str());
    else if (a == "--driver")
      o.driver = value();
    else if (a == "-h" || a == "--help")
      throw Usage{"--help"};
    else if (!a.empty() && a[0] != '-' && o.fatbin.empty())
      o.fatbin = a;
    else
      throw Usage{"unknown option `" + a + "`"};
  }
  if (o.fatbin.empty() || o.kernel.empty())
    throw Usage{"a fatbin and -k KERNEL are required"};
  return o;
}

/// Whether `spec` has every NAME=VALUE of `filter` ("BM=128 num_warps=4").
bool matches(const blk::Specialization &spec, const std::string &filter) {
  std::map<std::string, std::string> want;
  blk::tools::parseArgList(filter, want);
  for (const auto &[name, text] : want) {
    double v = blk::tools::parseIntLiteral(text) ? double(*blk::tools::parseIntLiteral(text))
                                                 : std::strtod(text.c_str(), nullptr);
    if (name == "num_warps" || name == "num_stages") {
      if (v != (name == "num_warps" ? spec.numWarps : spec.numStages))
        return false;
      continue;
    }
    auto it = std::find_if(spec.config.begin(), spec.config.end(),
                           [&](const blk::ConfigValue &c) { return c.name == name; });
    if (it == spec.config.end())
      throw Usage{"--config `" + filter + "`: the kernel has no const parameter `" + name + "`"};
    if (v != (it->isFloat ? it->floatValue : double(it->intValue)))
      return false;
  }
  return true;
}

/// The kernel bound to `spec` (its const values, warps and stages).
blk::Kernel pinned(const blk::Module &mod, const std::string &kernel,
                   const blk::Specialization &spec) {
  blk::Kernel k = mod.kernel(kernel);
  for (const blk::ConfigValue &c : spec.config)
    k = c.isFloat ? k.with(c.name, c.floatValue) : k.with(c.name, c.intValue);
  return k.with("num_warps", spec.numWarps).with("num_stages", spec.numStages);
}

/// Bytes moved per launch by the rule of --help.
double bytesMoved(const blk::KernelDesc &d, const ArgSet &args, std::string &detail) {
  double total = 0;
  for (const blk::tools::SpecBuffer &b : args.buffers()) {
    blk::Access access = d.params[b.param].access;
    int times = access == blk::Access::None                                         ? 0
                : access == blk::Access::Read || access == blk::Access::Write ? 1
                                                                                    : 2;
    total += double(times) * double(b.initial.size());
    detail += (detail.empty() ? "" : ", ") + b.name + " " + blk::accessName(access) + " " +
              std::to_string(b.initial.size());
  }
  return total;
}

bool writesOnly(blk::Access a) { return a == blk::Access::Write; }
bool mayChange(blk::Access a) {
  return a == blk::Access::ReadWrite || a == blk::Access::Atomic || a == blk::Access::Unknown;
}

/// Puts the inputs back as the specs made them; written buffers poisoned.
void resetBuffers(const blk::Context &ctx, const blk::KernelDesc &d, const ArgSet &args,
                  bool poison) {
  const unsigned char ff = 0xff;
  for (const blk::tools::SpecBuffer &b : args.buffers()) {
    blk::Access access = d.params[b.param].access;
    if (writesOnly(access) && poison && !b.initial.empty())
      ctx.fill(b.address, &ff, 1, b.initial.size());
    else if ((mayChange(access) || writesOnly(access)) && !b.initial.empty())
      ctx.copyToDevice(b.address, b.initial.data(), b.initial.size());
  }
}

std::string fixed(double v, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

std::string rightAligned(const std::string &text, size_t width) {
  return std::string(width > text.size() ? width - text.size() : 0, ' ') + text;
}

/// "[7]: got nan, expected 2".
std::string describe(const blk::tools::CheckResult &r) {
  auto text = [](double v) {
    if (std::isnan(v)) // the poison's sign is no news
      return std::string("nan");
    std::ostringstream s;
    s.precision(9);
    s << v;
    return s.str();
  };
  return "[" + std::to_string(r.worst) + "]: got " + text(r.got) + ", expected " + text(r.want);
}

int bench(const Options &o) {
  blk::ContextOptions copts;
  copts.device = o.device;
  copts.driverLibrary = o.driver;
  blk::Context ctx(copts);
  blk::Module mod = ctx.load(o.fatbin);
  const blk::KernelDesc *d = mod.manifest().findKernel(o.kernel);
  if (!d)
    throw Usage{o.fatbin + " has no kernel `" + o.kernel + "`"};
  ArgSet args(ctx, *d, o.specs);
  double flops = o.flops.empty() ? 0 : args.evaluate(o.flops);

  std::vector<size_t> selected;
  for (size_t i = 0; i < d->specializations.size(); ++i)
    if (o.configs.empty() || std::any_of(o.configs.begin(), o.configs.end(), [&](auto &f) {
          return matches(d->specializations[i], f);
        }))
      selected.push_back(i);
  if (selected.empty()) {
    std::string all;
    for (const blk::Specialization &s : d->specializations)
      all += "\n  " + s.configKey;
    throw Usage{"no config of `" + o.kernel + "` matches --config; it has:" + all};
  }
  std::vector<std::pair<const blk::tools::SpecBuffer *, std::vector<unsigned char>>> expected;
  for (const auto &[name, path] : o.expects) {
    const blk::tools::SpecBuffer *b = args.buffer(name);
    if (!b)
      throw Usage{"--expect " + name + ": not a pointer parameter of `" + o.kernel + "`"};
    std::vector<unsigned char> bytes;
    std::string error;
    if (!blk::tools::readFile(path, bytes, error)) {
      std::fprintf(stderr, "blk-bench: --expect %s: %s\n", name.c_str(), error.c_str());
      return 1;
    }
    if (bytes.size() != b->initial.size()) {
      std::fprintf(stderr, "blk-bench: --expect %s: `%s` has %zu bytes, the buffer %zu\n",
                   name.c_str(), path.c_str(), bytes.size(), b->initial.size());
      return 1;
    }
    expected.emplace_back(b, std::move(bytes));
  }

  // One checked run per config on fresh inputs.
  std::map<size_t, std::string> skipped;
  bool failed = false;
  std::vector<size_t> launched;
  for (size_t i : selected) {
    const blk::Specialization &spec = d->specializations[i];
    resetBuffers(ctx, *d, args, /*poison=*/true);
    try {
      blk::Kernel k = pinned(mod, o.kernel, spec);
      if (k.specialization().entry != spec.entry)
        throw blk::Error("its values select another config, " + k.specialization().configKey);
      k.launchValues(args.values());
    } catch (const blk::Error &e) {
      skipped[i] = e.cause() + (e.cudaName().empty() ? "" : ": " + e.cudaName());
      continue;
    }
    ctx.synchronize();
    launched.push_back(i);
    for (auto &[b, want] : expected) {
      std::vector<unsigned char> got(want.size());
      ctx.copyToHost(got.data(), b->address, got.size());
      double rtol = o.rtol >= 0 ? o.rtol : blk::tools::defaultRtol(b->elem);
      blk::tools::CheckResult r = blk::tools::compareElements(b->elem, got, want, rtol, o.atol);
      if (!r.mismatches)
        continue;
      std::fprintf(stderr, "blk-bench: %s: `%s` differs at %zu of %zu elements; worst %s\n",
                   spec.configKey.c_str(), b->name.c_str(), r.mismatches, r.count,
                   describe(r).c_str());
      failed = true;
    }
  }
  if (failed)
    return 1;
  resetBuffers(ctx, *d, args, /*poison=*/false);

  blk::TimingOptions topts;
  topts.configs = launched;
  topts.budgetMs = o.budgetMs;
  topts.maxRounds = 1000;
  topts.rounds = o.iters;
  std::vector<blk::ConfigTiming> timed;
  if (!launched.empty())
    timed = mod.kernel(o.kernel).timeConfigs(args.values(), topts);

  std::string detail;
  double bytes = bytesMoved(*d, args, detail);
  std::printf("blk-bench: %s on %s (sm_%u); %.0f bytes per launch (%s)%s\n", o.kernel.c_str(),
              ctx.device().name.c_str(), ctx.device().sm, bytes, detail.c_str(),
              flops ? (", " + fixed(flops, 0) + " flops").c_str() : "");
  size_t width = 6;
  for (size_t i : selected)
    width = std::max(width, d->specializations[i].configKey.size());
  const blk::ConfigTiming *best = nullptr;
  for (const blk::ConfigTiming &t : timed)
    if (t.launches && (!best || t.medianMs < best->medianMs))
      best = &t;
  std::printf("  %-*s %12s %12s %10s%s %8s\n", int(width), "config", "median us", "min us",
              "GB/s", flops ? (" " + rightAligned("TFLOP/s", 10)).c_str() : "", "launches");
  for (size_t i : selected) {
    const std::string &key = d->specializations[i].configKey;
    auto t = std::find_if(timed.begin(), timed.end(),
                          [&](const blk::ConfigTiming &c) { return c.config == i; });
    std::string why = skipped.count(i) ? skipped[i] : t != timed.end() ? t->skipped : "";
    if (!why.empty() || t == timed.end()) {
      std::printf("  %-*s skipped: %s\n", int(width), key.c_str(), why.c_str());
      continue;
    }
    double seconds = t->medianMs * 1e-3;
    std::string rate = flops ? " " + rightAligned(fixed(flops / seconds * 1e-12, 3), 10) : "";
    std::printf("%s %-*s %12s %12s %10s%s %8u\n", &*t == best ? "*" : " ", int(width),
                key.c_str(), fixed(t->medianMs * 1e3, 3).c_str(), fixed(t->minMs * 1e3, 3).c_str(),
                fixed(bytes / seconds * 1e-9, 1).c_str(), rate.c_str(), t->launches);
  }
  if (!best) {
    std::fprintf(stderr, "blk-bench: no config of `%s` launched\n", o.kernel.c_str());
    return 1;
  }
  if (!expected.empty())
    std::printf("checked: %zu buffer(s) match for every timed config\n", expected.size());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  try {
    o = parseOptions(argc, argv);
  } catch (const Usage &u) {
    if (u.message == "--help") {
      std::printf("%s\n%s", kUsage, kHelp);
      return 0;
    }
    std::fprintf(stderr, "blk-bench: %s\n%s", u.message.c_str(), kUsage);
    return 2;
  }
  try {
    return bench(o);
  } catch (const Usage &u) {
    std::fprintf(stderr, "blk-bench: %s\n", u.message.c_str());
    return 2;
  } catch (const blk::Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
