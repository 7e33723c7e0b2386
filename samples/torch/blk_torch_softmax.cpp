//===- blk_torch_softmax.cpp - a blk kernel as a PyTorch op ---------------===//
//
// The row softmax of samples/softmax.blk as `torch.ops.blk.softmax(x)` and
// `torch.ops.blk.softmax_out(x, out)`: f32 CUDA tensors with contiguous
// rows, on PyTorch's current stream (blk::StreamRef) and in the memory of
// PyTorch's caching allocator (blk::DevicePtr of data_ptr()). libblkrt uses
// the device's primary context, the one PyTorch uses, so nothing is copied
// or synchronised. Built by torch.utils.cpp_extension (softmax_torch.py);
// the fatbin is given once with `load(path)`.
//
//===----------------------------------------------------------------------===//
#include "blk/runtime.h"

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

namespace {

std::mutex mutex;
std::string fatbinPath;
std::map<int, blk::Module> modules; // one per device; each keeps its Context

void load(const std::string &path) {
  std::lock_guard<std::mutex> lock(mutex);
  fatbinPath = path;
  modules.clear();
}

blk::Module &moduleFor(int device) {
  std::lock_guard<std::mutex> lock(mutex);
  TORCH_CHECK(!fatbinPath.empty(), "blk: call load(\"softmax.fatbin\") first");
  auto it = modules.find(device);
  if (it == modules.end())
    it = modules.emplace(device, blk::Context(device).load(fatbinPath)).first;
  return it->second;
}

/// The specialisation with the smallest BLOCK that holds a row.
blk::Kernel kernelFor(blk::Module &mod, int64_t cols) {
  blk::Kernel k = mod.kernel("softmax");
  int64_t best = 0;
  for (const blk::Specialization &spec : k.desc().specializations)
    for (const blk::ConfigValue &v : spec.config)
      if (v.name == "BLOCK" && v.intValue >= cols && (!best || v.intValue < best))
        best = v.intValue;
  if (!best) // a plain exception: torch turns it into a Python ValueError
    throw std::invalid_argument("blk softmax: rows of " + std::to_string(cols) +
                                " elements are longer than every BLOCK");
  return k.with("BLOCK", best);
}

torch::Tensor &softmaxOut(const torch::Tensor &x, torch::Tensor &out) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2,
              "blk softmax: x must be a 2-D float32 CUDA tensor");
  TORCH_CHECK(out.is_cuda() && out.scalar_type() == torch::kFloat32 && out.sizes() == x.sizes() &&
                  out.get_device() == x.get_device(),
              "blk softmax: out must be a float32 tensor of x's shape on x's device");
  TORCH_CHECK(x.stride(1) == 1 && out.stride(1) == 1, "blk softmax: rows must be contiguous");
  int device = x.get_device();
  c10::cuda::CUDAGuard guard(device);
  blk::Kernel k = kernelFor(moduleFor(device), x.size(1));
  blk::StreamRef stream(at::cuda::getCurrentCUDAStream(device).stream());
  k.launch(stream, blk::DevicePtr<float>(out.data_ptr<float>()),
           blk::DevicePtr<const float>(x.data_ptr<float>()), int32_t(x.stride(0)),
           int32_t(out.stride(0)), int32_t(x.size(0)), int32_t(x.size(1)));
  return out;
}

torch::Tensor softmax(const torch::Tensor &x) {
  torch::Tensor out = torch::empty(x.sizes(), x.options());
  return softmaxOut(x, out);
}

} // namespace

TORCH_LIBRARY(blk, m) {
  m.def("softmax(Tensor x) -> Tensor");
  m.def("softmax_out(Tensor x, Tensor(a!) out) -> Tensor(a!)");
}

TORCH_LIBRARY_IMPL(blk, CUDA, m) {
  m.impl("softmax", &softmax);
  m.impl("softmax_out", &softmaxOut);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("load", &load, "Loads the blk fatbin of samples/softmax.blk (once per process)");
}
