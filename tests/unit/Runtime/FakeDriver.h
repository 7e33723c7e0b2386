//===- FakeDriver.h - test hooks of the fake CUDA driver
//-------------------===//
//
// libblkrt_fake_cuda.so implements the driver entry points libblkrt uses,
// on host memory, so Context/Module/Kernel/DeviceBuffer run in CI without a
// GPU. Environment: BLK_FAKE_CUDA_SM (default 90), BLK_FAKE_CUDA_NO_DEVICE,
// BLK_FAKE_CUDA_KERNEL_MS and BLK_FAKE_CUDA_FAIL_LAUNCH (FakeDriver.cpp).
// It also has cuTensorMapEncodeTiled, checking the documented rules.
// Tests reach these hooks with dlsym on the same library.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

/// The last cuLaunchKernel the fake received.
struct BlkFakeLaunch {
  char function[128];
  unsigned grid[3];
  unsigned block[3];
  unsigned sharedBytes;
  void *stream;
  unsigned paramCount; ///< blkFakeSetParamCount, for one launch
  uint64_t params[16]; ///< the first 8 bytes of each parameter
  uint64_t launches;   ///< total launches so far
};

extern "C" {
typedef void (*BlkFakeLastLaunchFn)(BlkFakeLaunch *out);
typedef void (*BlkFakeSetParamCountFn)(unsigned count);
typedef void (*BlkFakeFailNextLaunchFn)(int result);
typedef int (*BlkFakeSharedAttributeFn)(const char *function);
/// Successful launches of `function` so far (every thread).
typedef uint64_t (*BlkFakeLaunchCountFn)(const char *function);
/// Each launch of `function` advances its stream's clock by `ms` (events
/// read the clock; default 0.001 ms).
typedef void (*BlkFakeSetKernelTimeFn)(const char *function, double ms);
/// Called by every successful launch with the function's name and the
/// kernel parameters (host memory: a fake kernel may change it).
typedef void (*BlkFakeKernelEffectFn)(const char *function, void **params);
typedef void (*BlkFakeSetKernelEffectFn)(BlkFakeKernelEffectFn effect);
/// Makes cuStreamIsCapturing report `stream` as being captured.
typedef void (*BlkFakeSetCapturingFn)(void *stream, int capturing);
/// cuTensorMapEncodeTiled calls so far that succeeded.
typedef uint64_t (*BlkFakeTensorMapEncodesFn)();
/// The next cuTensorMapEncodeTiled returns `result` (a CUresult).
typedef void (*BlkFakeFailNextEncodeFn)(int result);
}

/// What the fake's cuTensorMapEncodeTiled writes into a CUtensorMap (the
/// real one is opaque): its arguments, for tests to read back from the
/// kernel parameters.
struct BlkFakeTensorMap {
  uint64_t base;
  uint64_t dims[5];
  uint64_t strides[4];
  uint16_t box[5];
  uint8_t elementStrides[5];
  uint8_t rank, dataType, interleave, swizzle, l2Promotion, oobFill;
};
