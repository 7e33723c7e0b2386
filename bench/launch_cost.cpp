//===- launch_cost.cpp - host cost of a checked blk launch vs raw
//----------===//
//
// Prints, in one run, the host-side time per launch of an empty kernel
//   raw     cuLaunchKernel with a prebuilt argument array
//   blk     Kernel::launch(x, out, n): argument checks + @grid evaluation
//   blk+g   Kernel::launch(Grid, x, out, n): explicit grid
//   lookup  mod.kernel("empty").launch(...): name lookup every time
// Each figure is the median over batches of back-to-back launches (the
// queue is drained between batches, so launches never wait on the GPU).
//
// usage: blk-launch-cost [artifact.fatbin] [batches] [launches-per-batch]
//
//===----------------------------------------------------------------------===//
#include "blk/runtime.h"

#include <cuda.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  std::string path =
      argc > 1 ? argv[1] : std::string(BLK_RT_FIXTURE_DIR) + "/kernels.fatbin";
  int batches = argc > 2 ? std::atoi(argv[2]) : 400;
  int perBatch = argc > 3 ? std::atoi(argv[3]) : 100;
  try {
    blk::Context ctx;
    blk::Module mod = ctx.load(path);
    blk::Kernel k = mod.kernel("empty");
    const int n = 128; // @grid cdiv(n, 128) = 1 program
    blk::DeviceBuffer<float> x(ctx, n), out(ctx, n);

    void *driver = dlopen("libcuda.so.1", RTLD_NOW);
    auto rawLaunch = reinterpret_cast<decltype(&cuLaunchKernel)>(
        driver ? dlsym(driver, "cuLaunchKernel") : nullptr);
    if (!rawLaunch) {
      std::fprintf(stderr, "cannot resolve cuLaunchKernel\n");
      return 1;
    }
    CUfunction f = k.function();
    CUdeviceptr px = x.address(), pout = out.address();
    int rawN = n;
    void *params[] = {&px, &pout, &rawN};
    unsigned threads = unsigned(k.specialization().threads);

    struct Mode {
      const char *name;
      std::function<void()> launch;
      std::vector<double> us;
    };
    std::vector<Mode> modes;
    modes.push_back({"raw cuLaunchKernel",
                     [&] {
                       if (rawLaunch(f, 1, 1, 1, threads, 1, 1, 0, nullptr,
                                     params, nullptr) != CUDA_SUCCESS)
                         throw blk::Error("raw launch failed");
                     },
                     {}});
    modes.push_back({"blk launch (@grid)", [&] { k.launch(x, out, n); }, {}});
    modes.push_back(
        {"blk launch (Grid)", [&] { k.launch(blk::Grid{1}, x, out, n); }, {}});
    modes.push_back({"blk lookup+launch",
                     [&] { mod.kernel("empty").launch(x, out, n); },
                     {}});

    for (Mode &m : modes) // warm up
      for (int i = 0; i < 2000; ++i)
        m.launch();
    ctx.synchronize();
    // Interleave the modes batch by batch so drift hits them alike.
    for (int b = 0; b < batches; ++b) {
      for (Mode &m : modes) {
        auto t0 = Clock::now();
        for (int i = 0; i < perBatch; ++i)
          m.launch();
        auto t1 = Clock::now();
        m.us.push_back(
            std::chrono::duration<double, std::micro>(t1 - t0).count() /
            perBatch);
        ctx.synchronize();
      }
    }
    std::printf("launch cost on %s (sm_%u), empty kernel, median of %d "
                "batches x %d launches:\n",
                ctx.device().name.c_str(), ctx.device().sm, batches, perBatch);
    double raw = medianOf(modes[0].us);
    for (Mode &m : modes) {
      double med = medianOf(m.us);
      std::printf("  %-22s %7.3f us/launch  (%.3fx raw)\n", m.name, med,
                  med / raw);
    }
    dlclose(driver);
  } catch (const blk::Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
