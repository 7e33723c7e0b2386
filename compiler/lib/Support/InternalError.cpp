//===- InternalError.cpp - Compiler bugs ----------------------------------===//
#include "blk/Support/InternalError.h"

#include <cstdio>
#include <cstdlib>
#include <string>

void blk::internalError(std::string_view stage, std::string_view message) {
  std::string text = "internal compiler error in ";
  text.append(stage).append(": ").append(message).append("\n");
  std::fputs(text.c_str(), stderr);
  std::fputs("please report this bug with the input that caused it\n", stderr);
  std::fflush(stderr);
  std::abort();
}
