// Uses the launcher blk_add_module generated (double.hpp). Without a GPU it
// only checks that everything compiled and linked. Prints "package ok".
#include "double.hpp"

#include <cstdio>

int main() {
  static_assert(double_blk::double_grid_configs[0].BLOCK == 256, "config");
  try {
    blk::Context ctx;
    double_blk::module m(ctx);
    const int n = 1000;
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i)
      x[i] = 0.5f * float(i) - 100.0f;
    blk::DeviceBuffer<float> dx(ctx, x), out(ctx, n);
    m.double_grid(dx, out, n);
    std::vector<float> got = out.download();
    for (int i = 0; i < n; ++i)
      if (got[i] != 2.0f * x[i]) {
        std::printf("wrong result at %d\n", i);
        return 1;
      }
    std::printf("ran double_grid on %s\n", ctx.device().name.c_str());
  } catch (const blk::Error &e) {
    std::printf("no GPU run: %s\n", e.what());
  }
  std::printf("package ok\n");
  return 0;
}
