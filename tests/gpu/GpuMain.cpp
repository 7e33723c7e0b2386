//===- GpuMain.cpp - run the GPU tests, or skip (exit 77) without a GPU ---===//
#include "blk/runtime.h"

#include <gtest/gtest.h>

#include <cstdio>

int main(int argc, char **argv) {
  try {
    blk::Context probe;
    std::printf("GPU tests on %s (sm_%u, %d SMs, driver %d)\n",
                probe.device().name.c_str(), probe.device().sm,
                probe.device().multiprocessors, probe.device().driverVersion);
  } catch (const blk::Error &e) {
    std::printf("SKIP: no usable GPU: %s\n", e.what());
    return 77; // ctest SKIP_RETURN_CODE
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
