//===- ParseFuzzer.cpp - libFuzzer target: parse + Sema + rendering -------===//
//
// Feeds arbitrary bytes through the whole front end (lexer, nesting limit,
// parser, AST builder, Sema when built in) and both diagnostic renderers.
// Any crash, sanitizer report, abort (internal compiler error) or hang is a
// bug. See fuzz/CMakeLists.txt for how to build and run it.
//
//===----------------------------------------------------------------------===//
#include "blk/Driver/Frontend.h"
#include "blk/Support/DiagnosticRenderer.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  blk::FrontendOptions options;
  // No import may reach the file system: the fuzzer must be hermetic.
  options.stdlibDirs = {"/nonexistent-blk-fuzz-stdlib"};
  // Half the inputs take the language server's path: after syntax errors the
  // declarations that parsed are still analysed.
  options.parse.keepValidDecls = size > 0 && (data[size - 1] & 1);
  blk::Frontend fe(options);
  blk::FileId file = fe.addBuffer(
      "fuzz.blk", std::string(reinterpret_cast<const char *>(data), size));
  fe.process(file);
  std::ostringstream text;
  blk::renderText(fe.getDiagnostics().getDiagnostics(), fe.getSourceManager(),
                  text);
  std::string json = blk::renderJson(fe.getDiagnostics().getDiagnostics(),
                                     fe.getSourceManager());
  return 0;
}
