// Runs double_grid of a loaded double.hpp module and checks the result
// (shared by main.cpp and main_embedded.cpp). Returns the exit status.
#pragma once

#include <cstdio>
#include <vector>

template <class Module> int runDouble(const blk::Context &ctx, const Module &m) {
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
  return 0;
}
