//===- ContextTest.cpp - Context creation without a usable driver ---------===//
#include "blk/runtime.h"

#include <gtest/gtest.h>

namespace {

TEST(Context, MissingDriverIsAClearError) {
  blk::ContextOptions options;
  options.driverLibrary = "libblk-no-such-driver.so.1";
  try {
    blk::Context ctx(options);
    FAIL() << "a context without a driver";
  } catch (const blk::Error &e) {
    EXPECT_STREQ(e.what(),
                 "blk: no CUDA driver: libblk-no-such-driver.so.1 not found");
    EXPECT_EQ(e.cudaCode(), 0);
  }
}

TEST(Context, DeviceCountWithoutADriverIsTheSameError) {
  try {
    blk::Context::deviceCount("libblk-no-such-driver.so.1");
    FAIL() << "a device count without a driver";
  } catch (const blk::Error &e) {
    EXPECT_STREQ(e.what(),
                 "blk: no CUDA driver: libblk-no-such-driver.so.1 not found");
  }
}

TEST(Context, LibraryWithoutDriverSymbolsIsRefused) {
  blk::ContextOptions options;
  options.driverLibrary = "libm.so.6"; // loads, but is no CUDA driver
  try {
    blk::Context ctx(options);
    FAIL() << "libm accepted as a driver";
  } catch (const blk::Error &e) {
    EXPECT_STREQ(e.what(), "blk: no usable CUDA driver: libm.so.6 lacks "
                           "cuInit (driver too old?)");
  }
}

TEST(Error, CarriesCudaDetails) {
  blk::Error e("launch failed", "k", 1, "CUDA_ERROR_INVALID_VALUE",
               "invalid argument");
  EXPECT_STREQ(e.what(), "blk: kernel `k`: launch failed: "
                         "CUDA_ERROR_INVALID_VALUE (invalid argument)");
  EXPECT_EQ(e.cause(), "launch failed");
  EXPECT_EQ(e.cudaName(), "CUDA_ERROR_INVALID_VALUE");
  EXPECT_EQ(e.cudaCode(), 1);
}

} // namespace
