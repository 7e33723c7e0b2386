//===- Error.cpp - blk::Error message formatting
//---------------------------===//
#include "blk/runtime/Error.h"

namespace blk {

static std::string formatMessage(const std::string &cause,
                                 const std::string &kernel,
                                 const std::string &cudaName,
                                 const std::string &cudaString) {
  std::string msg = "blk: ";
  if (!kernel.empty())
    msg += "kernel `" + kernel + "`: ";
  msg += cause;
  if (!cudaName.empty()) {
    msg += ": " + cudaName;
    if (!cudaString.empty())
      msg += " (" + cudaString + ")";
  }
  return msg;
}

Error::Error(const std::string &cause, const std::string &kernel)
    : std::runtime_error(formatMessage(cause, kernel, "", "")), cause_(cause),
      kernel_(kernel) {}

Error::Error(const std::string &cause, const std::string &kernel, int cudaCode,
             const std::string &cudaName, const std::string &cudaString)
    : std::runtime_error(formatMessage(cause, kernel, cudaName, cudaString)),
      cause_(cause), kernel_(kernel), cudaCode_(cudaCode), cudaName_(cudaName),
      cudaString_(cudaString) {}

} // namespace blk
