#include "double.hpp" // written by blk_add_module: double_blk::module and launchers

#include <cstdio>
#include <vector>

int main() {
  try {
    blk::Context ctx;          // device 0
    double_blk::module m(ctx); // loads the fatbin and binds its kernels
    const int n = 1000;
    std::vector<float> x(n, 1.5f);
    blk::DeviceBuffer<float> in(ctx, x), out(ctx, n);
    m.double_grid(in, out, n); // typed and checked; grid from @grid
    std::printf("out[%d] = %g\n", n - 1, out.download()[n - 1]);
  } catch (const blk::Error &e) { // no driver or GPU, or a failed launch check
    std::printf("%s\n", e.what()); // "blk: no CUDA driver: ..."
    return 1;
  }
}
