//===- IncrementalTest.cpp - Per-declaration caching equals a full check ---===//
//
// The language server checks a document piece by piece and reuses what an
// earlier version parsed and analysed (DeclCache.h). Over every sample,
// stdlib module and parse/sema test input, and over a sequence of edits
// that move, change and restore declarations, the incremental check must
// report the diagnostics a full check reports and build the same AST
// (every node's range); after completeSema, the same kernels.
//
//===----------------------------------------------------------------------===//
#include "blk/AST/ASTDumper.h"
#include "blk/Lsp/Analysis.h"
#include "blk/Sema/Sema.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace blk;
using namespace blk::lsp;
namespace fs = std::filesystem;

namespace {

const std::string kRoot = BLK_SOURCE_DIR;

AnalysisOptions options() {
  AnalysisOptions o;
  o.stdlibDirs = {kRoot + "/stdlib"};
  return o;
}

std::string readFile(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string render(const Analysis &a) {
  std::ostringstream os;
  auto range = [&](SourceRange r) {
    os << " [" << r.begin.file << ":" << r.begin.offset << "-" << r.end.offset << "]";
  };
  for (const Diagnostic &d : a.diagnostics) {
    os << severityName(d.severity) << " " << diagIdName(d.id) << " " << d.message;
    range(d.range);
    for (const DiagnosticLabel &l : d.labels) {
      os << "\n  label " << l.message;
      range(l.range);
    }
    for (const DiagnosticNote &n : d.notes) {
      os << "\n  note " << n.message;
      range(n.range);
    }
    for (const FixIt &f : d.fixIts) {
      os << "\n  fixit " << f.replacement;
      range(f.range);
    }
    os << "\n";
  }
  return os.str();
}

std::string dump(const Analysis &a) {
  if (!a.module)
    return "<no module>";
  std::ostringstream os;
  ast::dumpAST(*a.module, a.sourceManager(), os);
  for (const std::string &name : a.module->brokenNames)
    os << "broken " << name << "\n";
  return os.str();
}

std::string kernels(const Analysis &a) {
  std::ostringstream os;
  if (a.sema)
    for (const sema::KernelInfo &k : a.sema->kernels) {
      os << k.name << ":";
      for (const sema::Specialization &s : k.specializations)
        os << " " << s.entryName << (s.hasErrors ? "!" : "");
      os << "\n";
    }
  return os.str();
}

bool hasSyntaxError(const Analysis &a) {
  for (const Diagnostic &d : a.diagnostics) {
    std::string_view id = diagIdName(d.id);
    if (d.severity == Severity::Error && (id.rfind("parse_", 0) == 0 || id.rfind("lex_", 0) == 0))
      return true;
  }
  return false;
}

std::vector<fs::path> corpus() {
  std::vector<fs::path> files;
  for (const char *dir : {"samples", "stdlib", "tests/lit/parse", "tests/lit/sema"})
    for (const auto &e : fs::recursive_directory_iterator(kRoot + "/" + dir))
      if (e.path().extension() == ".blk")
        files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(Incremental, EveryCorpusFileChecksAsAFullCheckDoes) {
  std::vector<fs::path> files = corpus();
  ASSERT_GT(files.size(), 100u);
  unsigned syntaxFiles = 0;
  for (const fs::path &path : files) {
    std::string text = readFile(path);
    auto full = analyzeBuffer(path.string(), text, options());
    if (hasSyntaxError(*full)) {
      // Each piece is parsed alone: an error cannot run into the next
      // declaration. The incremental check still reports one.
      ++syntaxFiles;
      auto cache = std::make_shared<DeclCache>();
      auto piecewise = analyzeBuffer(path.string(), text, options(), cache);
      EXPECT_TRUE(hasSyntaxError(*piecewise)) << path;
      continue;
    }
    auto cache = std::make_shared<DeclCache>();
    auto first = analyzeBuffer(path.string(), text, options(), cache);
    EXPECT_EQ(render(*first), render(*full)) << path;
    EXPECT_EQ(dump(*first), dump(*full)) << path;
    EXPECT_EQ(kernels(*first), kernels(*full)) << path;
    // The same text again, after a line was added at the top: every piece
    // and every kernel comes from the cache, moved by the new line.
    first.reset();
    std::string moved = "// moved\n" + text;
    auto fullMoved = analyzeBuffer(path.string(), moved, options());
    auto again = analyzeBuffer(path.string(), moved, options(), cache);
    EXPECT_EQ(render(*again), render(*fullMoved)) << path;
    EXPECT_EQ(dump(*again), dump(*fullMoved)) << path;
    again->completeSema();
    EXPECT_FALSE(again->semaIsPartial());
    EXPECT_EQ(render(*again), render(*fullMoved)) << path;
    EXPECT_EQ(kernels(*again), kernels(*fullMoved)) << path;
  }
  EXPECT_GT(syntaxFiles, 5u);
}

/// A document as the server sees it: each version checked with the same
/// cache, the previous analysis destroyed before the next is made.
TEST(Incremental, EditsMoveChangeAndRestoreDeclarations) {
  // Six kernels and a fn.
  std::string base = readFile(kRoot + "/samples/softmax.blk") +
                     readFile(kRoot + "/samples/attention.blk");
  std::string withError = base;
  size_t at = withError.find("arange(0, BLOCK");
  ASSERT_NE(at, std::string::npos);
  withError.replace(at, std::string("arange(0, BLOCK").size(), "arange(0, 3");
  std::vector<std::string> versions = {
      base,
      "const EXTRA = 1;\n" + base,          // everything moves
      "const EXTRA = 1;\n" + withError,     // one kernel changes: an error
      withError,                            // moves back
      base,                                 // and is fixed
      base + "\nkernel late(x: *f32) { store(x, 1.0); }\n",
      base + "\nkernel late(x: *f32) { store(x, 1.0) }\n", // a syntax error
      base,
  };
  auto cache = std::make_shared<DeclCache>();
  std::shared_ptr<Analysis> previous;
  unsigned piecesReused = 0, kernelsReused = 0;
  for (size_t v = 0; v < versions.size(); ++v) {
    auto full = analyzeBuffer("t.blk", versions[v], options());
    std::shared_ptr<Analysis> now = analyzeBuffer("t.blk", versions[v], options(), cache);
    DeclCache::Stats stats = cache->takeStats();
    piecesReused += stats.piecesReused;
    kernelsReused += stats.kernelsReused;
    if (!hasSyntaxError(*full)) {
      EXPECT_EQ(render(*now), render(*full)) << "version " << v;
      EXPECT_EQ(dump(*now), dump(*full)) << "version " << v;
      now->completeSema();
      EXPECT_EQ(kernels(*now), kernels(*full)) << "version " << v;
    } else {
      EXPECT_TRUE(hasSyntaxError(*now)) << "version " << v;
    }
    previous = now; // the one before goes back to the cache
  }
  // Versions 2 and 4 reuse the five kernels not edited; the others change
  // what every kernel sees (a new declaration, a new name, a broken one).
  EXPECT_GT(piecesReused, 20u);
  EXPECT_EQ(kernelsReused, 10u);
}

TEST(Incremental, AKernelIsAnalysedAgainWhenAFnItCallsChanges) {
  std::string fnA = "fn twice(x) { return x * 2.0; }\n";
  std::string fnB = "fn twice(x) { return x * 2; }\n";
  std::string kernel = "kernel k(p: *f32) { let v = arange(0, 4); store(p + v, twice(1.0)); }\n";
  auto cache = std::make_shared<DeclCache>();
  auto a = analyzeBuffer("t.blk", fnA + kernel, options(), cache);
  a.reset();
  cache->takeStats();
  auto b = analyzeBuffer("t.blk", fnB + kernel, options(), cache);
  DeclCache::Stats stats = cache->takeStats();
  EXPECT_EQ(stats.kernelsReused, 0u); // the fn's text is in the kernel's key
  EXPECT_EQ(stats.piecesReused, 2u);  // the kernel's AST, and the last "\n"
  auto c = analyzeBuffer("t.blk", fnB + kernel, options(), cache);
  EXPECT_EQ(cache->takeStats().kernelsReused, 1u);
}


TEST(Incremental, AWarmedCacheServesTheFirstEditWhileTheFirstCheckLives) {
  std::string text = readFile(kRoot + "/samples/attention.blk");
  auto cache = std::make_shared<DeclCache>();
  auto opened = analyzeBuffer("t.blk", text, options(), cache);
  cache->takeStats();
  opened->warmCache();
  // `opened` stays alive (the server keeps it as the last good version).
  // A new first declaration: every piece after it is one `opened` had.
  std::string editedText = "const EDIT = 1;" + text;
  auto edited = analyzeBuffer("t.blk", editedText, options(), cache);
  DeclCache::Stats stats = cache->takeStats();
  EXPECT_EQ(stats.piecesReused + 1, edited->module->parts.size());
  auto full = analyzeBuffer("t.blk", editedText, options());
  EXPECT_EQ(dump(*edited), dump(*full));
  EXPECT_EQ(render(*edited), render(*full));
  EXPECT_EQ(dump(*opened), dump(*analyzeBuffer("t.blk", text, options())));
}


TEST(Incremental, FactsAreCompletedForTheKernelsARequestTouches) {
  std::string text = readFile(kRoot + "/samples/attention.blk");
  auto cache = std::make_shared<DeclCache>();
  auto first = analyzeBuffer("t.blk", text, options(), cache);
  first.reset();
  auto second = analyzeBuffer("t.blk", text, options(), cache);
  ASSERT_TRUE(second->semaIsPartial());
  EXPECT_TRUE(second->sema->kernels.empty());
  // A position inside the kernel `attention_bwd_delta`: only it.
  size_t at = text.find("kernel attention_bwd_delta");
  ASSERT_NE(at, std::string::npos);
  second->completeSema(uint32_t(at + 10), uint32_t(at + 10));
  ASSERT_EQ(second->sema->kernels.size(), 1u);
  EXPECT_EQ(second->sema->kernels[0].name, "attention_bwd_delta");
  // Inside the fn `forward`, whose facts come from the kernels calling it.
  size_t fn = text.find("fn forward");
  ASSERT_NE(fn, std::string::npos);
  second->completeSema(uint32_t(fn + 3), uint32_t(fn + 3));
  EXPECT_FALSE(second->semaIsPartial());
  auto full = analyzeBuffer("t.blk", text, options());
  EXPECT_EQ(kernels(*second), kernels(*full));
  EXPECT_EQ(render(*second), render(*full));
}


/// Random line edits to the samples (one or two per version, from the
/// original text), each version checked with the cache the earlier
/// versions left (as the server does) and without: wherever the text
/// parses, the two checks must agree. Fixed seed: reproducible.
TEST(Incremental, RandomLineEditsAgreeWithAFullCheck) {
  std::vector<std::string> lines;
  for (const char *name : {"softmax", "layernorm", "matmul", "attention"}) {
    std::istringstream in(readFile(kRoot + "/samples/" + name + ".blk"));
    for (std::string line; std::getline(in, line);)
      lines.push_back(line);
  }
  const std::vector<std::string> original = lines; // also the lines inserted
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&](size_t bound) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return size_t(state % bound);
  };
  auto cache = std::make_shared<DeclCache>();
  std::shared_ptr<Analysis> previous, lastGood;
  unsigned compared = 0, reused = 0;
  for (int step = 0; step < 120; ++step) {
    lines = original;
    for (size_t edits = 1 + next(2); edits > 0; --edits) {
      size_t at = next(lines.size());
      switch (next(4)) {
      case 0: lines.erase(lines.begin() + long(at)); break;
      case 1: lines.insert(lines.begin() + long(at), original[next(original.size())]); break;
      case 2: lines.insert(lines.begin() + long(at), ""); break;
      default: lines.insert(lines.begin() + long(at), "// note"); break;
      }
    }
    std::string text;
    for (const std::string &line : lines)
      text += line + "\n";
    auto full = analyzeBuffer("t.blk", text, options());
    std::shared_ptr<Analysis> now = analyzeBuffer("t.blk", text, options(), cache);
    reused += cache->takeStats().piecesReused;
    if (!hasSyntaxError(*full)) {
      ++compared;
      ASSERT_EQ(render(*now), render(*full)) << "step " << step;
      ASSERT_EQ(dump(*now), dump(*full)) << "step " << step;
      now->completeSema();
      ASSERT_EQ(kernels(*now), kernels(*full)) << "step " << step;
      lastGood = now;
    } else {
      EXPECT_TRUE(hasSyntaxError(*now)) << "step " << step;
    }
    previous = now;
  }
  EXPECT_GT(compared, 40u);
  EXPECT_GT(reused, 500u);
}

} // namespace
