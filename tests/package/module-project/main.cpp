// Uses the launcher blk_add_module generated (double.hpp), which loads the
// fatbin by the path the target defines (DOUBLE_BLK_FATBIN_PATH). Without a
// GPU it only checks that everything compiled and linked. Prints
// "package ok".
#include "double.hpp"
#include "run_double.hpp"

#include <cstdio>

int main() {
  static_assert(double_blk::double_grid_configs[0].BLOCK == 256, "config");
  try {
    blk::Context ctx;
    double_blk::module m(ctx);
    if (int status = runDouble(ctx, m))
      return status;
  } catch (const blk::Error &e) {
    std::printf("no GPU run: %s\n", e.what());
  }
  std::printf("package ok\n");
  return 0;
}
