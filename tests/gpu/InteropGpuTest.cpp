//===- InteropGpuTest.cpp - blk launches inside CUDA-runtime programs -----===//
//
// What a program that already uses the CUDA runtime (or PyTorch, which is
// one) needs from libblkrt (issue 18): memory from cudaMalloc and a stream
// from cudaStreamCreate in blk launches (DevicePtr, StreamRef: blk uses the
// device's primary context, the runtime's); launches captured into a CUDA
// graph that replays correctly; and one Context per device, every visible
// device, none assumed to be device 0. Kernels: the runtime fixtures
// (tests/unit/Runtime/fixtures/kernels.cu).
//
//===----------------------------------------------------------------------===//
#include "blk/runtime.h"

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace {

std::string fixture(const std::string &name) {
  return std::string(BLK_RT_FIXTURE_DIR) + "/" + name + ".fatbin";
}

#define CUDA_OK(call)                                                                   \
  do {                                                                                  \
    cudaError_t status_ = (call);                                                       \
    ASSERT_EQ(status_, cudaSuccess) << #call << ": " << cudaGetErrorString(status_);    \
  } while (0)

std::vector<float> ramp(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = scale * float(int(i % 1000) - 500);
  return v;
}

// cudaMalloc'd buffers and a cudaStreamCreate'd stream, launched on by blk
// and read back by the runtime: one context, one address space, one stream.
TEST(Interop, CudaRuntimeMemoryAndStream) {
  const int n = 100003;
  CUDA_OK(cudaSetDevice(0));
  float *x = nullptr, *y = nullptr;
  CUDA_OK(cudaMalloc(&x, n * sizeof(float)));
  CUDA_OK(cudaMalloc(&y, n * sizeof(float)));
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::vector<float> hx = ramp(n, 0.25f), hy(n, std::numeric_limits<float>::quiet_NaN());
  CUDA_OK(cudaMemcpyAsync(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream));
  CUDA_OK(cudaMemcpyAsync(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream));

  blk::Context ctx(0);
  blk::Module mod = ctx.load(fixture("kernels"));
  // The stream is non-blocking: only its own order makes the copies land first.
  mod.kernel("double_grid").launch(blk::StreamRef(stream), blk::DevicePtr<const float>(x),
                                   blk::DevicePtr<float>(y), n);
  CUDA_OK(cudaMemcpyAsync(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(hy[size_t(i)], 2.0f * hx[size_t(i)]) << "element " << i;

  // A blk buffer in a runtime copy on the same stream.
  blk::DeviceBuffer<float> z(ctx, size_t(n));
  CUDA_OK(cudaMemcpyAsync(reinterpret_cast<void *>(z.address()), y, n * sizeof(float),
                          cudaMemcpyDeviceToDevice, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  std::vector<float> hz = z.download();
  EXPECT_EQ(hz[12345], 2.0f * hx[12345]);

  CUDA_OK(cudaStreamDestroy(stream));
  CUDA_OK(cudaFree(x));
  CUDA_OK(cudaFree(y));
}

// 100 launches of two kernels captured on a StreamRef, the graph replayed
// 10 times: every launch ran in every replay (the counter) and with the
// arguments it was captured with (the doubled copy).
TEST(Interop, GraphCaptureReplays) {
  const int n = 5000, launches = 100, replays = 10;
  CUDA_OK(cudaSetDevice(0));
  blk::Context ctx(0);
  blk::Module mod = ctx.load(fixture("kernels"));
  std::vector<int32_t> start(n), inc(n);
  for (int i = 0; i < n; ++i) {
    start[size_t(i)] = i;
    inc[size_t(i)] = 1 + i % 7;
  }
  blk::DeviceBuffer<int32_t> acc(ctx, start), step(ctx, inc);
  std::vector<float> hx = ramp(n, 0.5f);
  blk::DeviceBuffer<float> x(ctx, hx), y(ctx, size_t(n));
  y.fill(std::numeric_limits<float>::quiet_NaN());
  blk::Kernel add = mod.kernel("add_i32"), twice = mod.kernel("double_grid");

  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (int i = 0; i < launches; ++i) {
    if (i % 2 == 0)
      add.launch(blk::StreamRef(stream), acc, step, acc, n); // acc += step
    else
      twice.launch(blk::StreamRef(stream), x, y, n); // y = 2 x
  }
  cudaGraph_t graph = nullptr;
  CUDA_OK(cudaStreamEndCapture(stream, &graph));
  size_t nodes = 0;
  CUDA_OK(cudaGraphGetNodes(graph, nullptr, &nodes));
  EXPECT_EQ(nodes, size_t(launches));
  // Nothing ran during the capture.
  EXPECT_EQ(acc.download(), start);

  cudaGraphExec_t exec = nullptr;
  CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  for (int r = 0; r < replays; ++r)
    CUDA_OK(cudaGraphLaunch(exec, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  std::vector<int32_t> got = acc.download();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(got[size_t(i)], start[size_t(i)] + replays * (launches / 2) * inc[size_t(i)])
        << "element " << i;
  std::vector<float> hy = y.download();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(hy[size_t(i)], 2.0f * hx[size_t(i)]) << "element " << i;
  CUDA_OK(cudaGraphExecDestroy(exec));
  CUDA_OK(cudaGraphDestroy(graph));
  CUDA_OK(cudaStreamDestroy(stream));
}

// One Context per visible device, all open at once, a module and a stream
// on each; every device computes its own result.
TEST(Interop, EveryVisibleDevice) {
  int count = blk::Context::deviceCount();
  int runtimeCount = 0;
  CUDA_OK(cudaGetDeviceCount(&runtimeCount));
  ASSERT_EQ(count, runtimeCount);
  ASSERT_GE(count, 1);
  const int n = 4097;
  std::vector<blk::Context> contexts;
  std::vector<blk::Stream> streams;
  std::vector<blk::DeviceBuffer<float>> xs, ys;
  std::vector<std::vector<float>> inputs;
  for (int d = 0; d < count; ++d) {
    contexts.emplace_back(d);
    EXPECT_EQ(contexts.back().device().ordinal, d);
    streams.emplace_back(contexts.back());
    inputs.push_back(ramp(n, float(d + 1)));
    xs.emplace_back(contexts.back(), inputs.back());
    ys.emplace_back(contexts.back(), size_t(n));
    ys.back().fill(std::numeric_limits<float>::quiet_NaN());
  }
  for (int d = 0; d < count; ++d) {
    blk::Module mod = contexts[size_t(d)].load(fixture("kernels"));
    mod.kernel("double_grid").launch(streams[size_t(d)], xs[size_t(d)], ys[size_t(d)], n);
  }
  for (int d = 0; d < count; ++d) {
    streams[size_t(d)].synchronize();
    std::vector<float> got = ys[size_t(d)].download();
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(got[size_t(i)], 2.0f * inputs[size_t(d)][size_t(i)])
          << "device " << d << " element " << i;
  }
  std::printf("ran on %d device(s)\n", count);
}

} // namespace
