//===- blk-tune.cpp - offline tuning: a fatbin's kernel over given shapes -===//
//
//   blk-tune FILE.fatbin -k KERNEL --args "M=4096 N=4096 a=rand:f16:16777216 …"
//            [--args …]… [--shapes shapes.json] [-o table.json] [--device N]
//            [--driver LIB]   (the CUDA driver to open; tests use a fake one)
//
// Runs on a GPU through libblkrt alone (it is built where no compiler is;
// `blkc tune` runs it): for each argument set it allocates the buffers,
// launches KERNEL unpinned with BLK_AUTOTUNE=force (every config timed, the
// caller's memory restored) and finally writes what was learned as a tuning
// table (docs/tuning.md), for `blkc build --tuning` or ctx.loadTuning.
// Argument specs: scalars as literals (4096, -3, 0x10, 2.5); buffers as
// zeros:T:N, fill:T:N:V, iota:T:N, rand:T:N[:SEED] (T: f16 bf16 f32 f64
// i8 i16 i32 i64 u8 u16 u32 u64 f8e4m3 f8e5m2; rand gives floats in [-1, 1)
// and integers in 0..9). --shapes takes a JSON array of objects
// {"NAME": SPEC, …} (numbers allowed for scalars), one per argument set.
// Exit 0, 1 when a launch or a file fails, 2 on usage errors.
//
//===----------------------------------------------------------------------===//
#include "blk/runtime.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Usage {
  std::string message;
};

/// Bytes per element and the element kind of a spec's type name.
struct ElemType {
  blk::ScalarKind kind;
  size_t bytes;
};

ElemType elemType(const std::string &name) {
  std::optional<blk::ParamType> t = blk::parseParamType(name);
  if (!t || t->pointer)
    throw Usage{"unknown element type `" + name + "`"};
  return {t->elem, blk::scalarKindSize(t->elem)};
}

/// The bits of `v` as element kind `k` (little-endian, `bytes` long).
uint64_t encode(blk::ScalarKind k, double v) {
  using blk::ScalarKind;
  uint64_t bits = 0;
  switch (k) {
  case ScalarKind::F16:
    return blk::toHalf(float(v)).bits;
  case ScalarKind::BF16:
    return blk::toBfloat16(float(v)).bits;
  case ScalarKind::F8E4M3:
    return blk::toFloat8E4M3(float(v)).bits;
  case ScalarKind::F8E5M2:
    return blk::toFloat8E5M2(float(v)).bits;
  case ScalarKind::F32: {
    float f = float(v);
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  case ScalarKind::F64:
    std::memcpy(&bits, &v, 8);
    return bits;
  default:
    return uint64_t(int64_t(v));
  }
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep))
    out.push_back(part);
  return out;
}

/// One buffer argument, owned for the launch.
struct Buffer {
  uint64_t address = 0;
  size_t bytes = 0;
};

class ArgSet {
public:
  ArgSet(const blk::Context &ctx, const blk::KernelDesc &k,
         const std::map<std::string, std::string> &specs)
      : ctx_(ctx) {
    for (const blk::Param &p : k.params) {
      auto it = specs.find(p.name);
      if (it == specs.end())
        throw Usage{"missing argument `" + p.name + "` (" + blk::formatParamType(p.type) + ")"};
      values_.push_back(p.type.pointer ? buffer(p, it->second) : scalar(p, it->second));
    }
    for (const auto &[name, spec] : specs)
      if (!k.params.empty() && std::none_of(k.params.begin(), k.params.end(),
                                            [&](const blk::Param &p) { return p.name == name; }))
        throw Usage{"kernel `" + k.name + "` has no parameter `" + name + "`"};
  }
  ~ArgSet() {
    for (const Buffer &b : buffers_)
      ctx_.release(b.address);
  }
  std::vector<blk::ArgValue> &values() { return values_; }

private:
  blk::ArgValue scalar(const blk::Param &p, const std::string &text) {
    blk::ArgValue a;
    a.type = p.type;
    a.hostType = "blk-tune literal";
    char *end = nullptr;
    bool isFloat = blk::isFloatKind(p.type.elem);
    double v = isFloat ? std::strtod(text.c_str(), &end)
                       : double(std::strtoll(text.c_str(), &end, 0));
    if (text.empty() || *end)
      throw Usage{"`" + p.name + "=" + text + "`: not a number"};
    a.bits = isFloat ? encode(p.type.elem, v) : uint64_t(std::strtoll(text.c_str(), nullptr, 0));
    return a;
  }
  blk::ArgValue buffer(const blk::Param &p, const std::string &spec) {
    std::vector<std::string> f = split(spec, ':');
    if (f.size() < 3)
      throw Usage{"`" + p.name + "=" + spec + "`: expected KIND:TYPE:COUNT[...]"};
    ElemType t = elemType(f[1]);
    size_t n = std::strtoull(f[2].c_str(), nullptr, 10);
    std::vector<unsigned char> host(n * t.bytes);
    std::mt19937_64 rng(f.size() > 3 && f[0] == "rand" ? std::strtoull(f[3].c_str(), nullptr, 10) : 1);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (size_t i = 0; i < n; ++i) {
      double v = 0;
      if (f[0] == "iota")
        v = double(i);
      else if (f[0] == "fill" && f.size() == 4)
        v = std::strtod(f[3].c_str(), nullptr);
      else if (f[0] == "rand")
        v = blk::isFloatKind(t.kind) ? unit(rng) : double(rng() % 10);
      else if (f[0] != "zeros")
        throw Usage{"`" + p.name + "=" + spec + "`: unknown buffer kind `" + f[0] + "`"};
      uint64_t bits = encode(t.kind, v);
      std::memcpy(&host[i * t.bytes], &bits, t.bytes);
    }
    Buffer b{ctx_.allocate(host.size() ? host.size() : 1), host.size()};
    buffers_.push_back(b);
    if (!host.empty())
      ctx_.copyToDevice(b.address, host.data(), host.size());
    blk::ArgValue a;
    a.bits = b.address;
    a.extent = b.bytes;
    a.type = blk::ParamType{t.kind, true};
    a.hostType = "blk-tune buffer";
    return a;
  }

  const blk::Context &ctx_;
  std::vector<blk::ArgValue> values_;
  std::vector<Buffer> buffers_;
};

std::map<std::string, std::string> parseArgs(const std::string &text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  std::string item;
  while (in >> item) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Usage{"`" + item + "` must have the form NAME=SPEC"};
    out[item.substr(0, eq)] = item.substr(eq + 1);
  }
  return out;
}

std::vector<std::map<std::string, std::string>> readShapes(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    throw Usage{"cannot read " + path};
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_array())
    throw Usage{path + ": expected a JSON array of {\"NAME\": SPEC} objects"};
  std::vector<std::map<std::string, std::string>> out;
  for (const nlohmann::json &set : j) {
    if (!set.is_object())
      throw Usage{path + ": expected a JSON array of {\"NAME\": SPEC} objects"};
    std::map<std::string, std::string> specs;
    for (auto it = set.begin(); it != set.end(); ++it)
      specs[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
    out.push_back(specs);
  }
  return out;
}

} // namespace

int main(int argc, char **argv) {
  std::string fatbin, kernel, output = "tuning.json";
  int device = 0;
  std::string driver = "libcuda.so.1";
  std::vector<std::map<std::string, std::string>> sets;
  try {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc)
          throw Usage{"`" + a + "` needs a value"};
        return argv[++i];
      };
      if (a == "-k" || a == "--kernel")
        kernel = value();
      else if (a == "--args")
        sets.push_back(parseArgs(value()));
      else if (a == "--shapes")
        for (auto &s : readShapes(value()))
          sets.push_back(s);
      else if (a == "-o")
        output = value();
      else if (a == "--device")
        device = std::atoi(value().c_str());
      else if (a == "--driver")
        driver = value();
      else if (a == "-h" || a == "--help")
        throw Usage{""};
      else if (!a.empty() && a[0] != '-' && fatbin.empty())
        fatbin = a;
      else
        throw Usage{"unknown option `" + a + "`"};
    }
    if (fatbin.empty() || kernel.empty() || sets.empty())
      throw Usage{"a fatbin, -k KERNEL and at least one --args or --shapes are required"};
  } catch (const Usage &u) {
    if (!u.message.empty())
      std::fprintf(stderr, "blk-tune: %s\n", u.message.c_str());
    std::fprintf(stderr, "usage: blk-tune FILE.fatbin -k KERNEL --args \"NAME=SPEC ...\"... "
                         "[--shapes FILE.json] [-o table.json] [--device N]\n");
    return 2;
  }
  // Every config of every set is timed, whatever tables or caches say.
  setenv("BLK_AUTOTUNE", "force", 1);
  try {
    blk::ContextOptions options;
    options.device = device;
    options.driverLibrary = driver;
    blk::Context ctx(options);
    ctx.onAutotune([](const blk::AutotuneEvent &e) {
      std::printf("%s\n", blk::formatAutotuneEvent(e).c_str());
    });
    blk::Module mod = ctx.load(fatbin);
    const blk::KernelDesc *desc = mod.manifest().findKernel(kernel);
    if (!desc) {
      std::fprintf(stderr, "blk-tune: %s has no kernel `%s`\n", fatbin.c_str(), kernel.c_str());
      return 2;
    }
    if (!desc->autotune.enabled) {
      std::fprintf(stderr, "blk-tune: kernel `%s` has no @autotune: nothing to tune\n",
                   kernel.c_str());
      return 2;
    }
    blk::Kernel k = mod.kernel(kernel);
    for (auto &specs : sets) {
      ArgSet args(ctx, *desc, specs);
      k.launchValues(args.values());
      ctx.synchronize();
    }
    ctx.exportTuning(output);
    std::printf("blk-tune: wrote %s (%zu argument set(s), %s, sm_%u)\n", output.c_str(),
                sets.size(), ctx.device().name.c_str(), ctx.device().sm);
    return 0;
  } catch (const Usage &u) {
    std::fprintf(stderr, "blk-tune: %s\n", u.message.c_str());
    return 2;
  } catch (const blk::Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
