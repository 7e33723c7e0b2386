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
// Argument specs (ArgSpecs.h, as `blkc run --arg`): scalars as literals
// (4096, -3, 0x10, 2.5); buffers as zeros:T:N, fill:T:N:V, iota:T:N,
// rand:T:N[:SEED], file:T:PATH (T: f16 bf16 f32 f64 i8 i16 i32 i64 u8 u16
// u32 u64 f8e4m3 f8e5m2; rand gives floats in [0, 1) and integers in 0..9,
// the interpreter's values). --shapes takes a JSON array of objects
// {"NAME": SPEC, …} (numbers allowed for scalars), one per argument set.
// Exit 0, 1 when a launch or a file fails, 2 on usage errors.
//
//===----------------------------------------------------------------------===//
#include "ArgSpecs.h"
#include "blk/runtime.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

using blk::tools::ArgSet;
using blk::tools::Usage;

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
      else if (a == "--args") {
        sets.emplace_back();
        blk::tools::parseArgList(value(), sets.back());
      }
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
