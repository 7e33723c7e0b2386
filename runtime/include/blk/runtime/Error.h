//===- Error.h - the runtime's one exception type ---------------*- C++ -*-===//
//
// Every failure in libblkrt (bad artifact, bad launch argument, CUDA error) is
// reported as a blk::Error; the library never calls exit() and never fails
// silently. Public header: C++17, no CUDA headers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <stdexcept>
#include <string>

namespace blk {

/// The exception thrown by libblkrt: the cause, the kernel involved (if any)
/// and, when a CUDA call failed, its error code, name and description.
class Error : public std::runtime_error {
public:
  /// An error with no CUDA error behind it (bad artifact, bad argument...).
  explicit Error(const std::string &cause, const std::string &kernel = "");
  /// An error raised by a failing CUDA driver call.
  Error(const std::string &cause, const std::string &kernel, int cudaCode,
        const std::string &cudaName, const std::string &cudaString);

  /// What went wrong, without the kernel or CUDA parts.
  const std::string &cause() const { return cause_; }
  /// The kernel concerned, empty when none.
  const std::string &kernel() const { return kernel_; }
  /// The CUresult value, 0 when no CUDA call failed.
  int cudaCode() const { return cudaCode_; }
  /// E.g. "CUDA_ERROR_INVALID_VALUE"; empty when no CUDA call failed.
  const std::string &cudaName() const { return cudaName_; }
  /// The driver's description of cudaCode(); empty when none.
  const std::string &cudaString() const { return cudaString_; }

private:
  std::string cause_;
  std::string kernel_;
  int cudaCode_ = 0;
  std::string cudaName_;
  std::string cudaString_;
};

} // namespace blk
