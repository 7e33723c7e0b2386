//===- ArtifactSmoke.cpp - checkArtifact on a corpus and seeded mutants --===//
//
//   blk-artifact-smoke [--expect=ok|error] [--print] [--mutations=N]
//                      [--first-seed=S] [--max-mutate-size=BYTES] PATH...
//
// Runs checkArtifact (ArtifactCheck.cpp) on every file given and every
// `.fatbin` in the directories given, then on mutants S .. S+N-1 of each
// (ArtifactMutator.h) no larger than BYTES (default 1 MiB: the 100000-level
// manifests take a second each, and their mutants teach nothing new). Built
// with ASan + UBSan in the normal build (no clang, no libFuzzer), so a crash
// or sanitizer report ends the run: ctest's smoke tests
// (tests/fuzz/CMakeLists.txt). `--expect` makes a file accepted (refused)
// where it should be refused (accepted) a failure too; `--print` writes one
// `<file>: ok` or `<file>: refused: <message>` line per file.
// `--self-check=asan|ubsan` commits a heap overflow or a signed overflow on
// purpose: ctest checks that the sanitizers really report in its setting.
// Exit 0: all as expected; 1: an expectation failed; 2: usage.
//
//===----------------------------------------------------------------------===//
#include "ArtifactCheck.h"
#include "ArtifactMutator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

namespace fs = std::filesystem;
using blk::fuzz::Bytes;

namespace {

struct Options {
  std::string expect; // "", "ok" or "error"
  bool print = false;
  uint64_t mutations = 0;
  uint64_t firstSeed = 0;
  uint64_t maxMutateSize = 1 << 20;
  std::string selfCheck; // "", "asan" or "ubsan"
  std::vector<std::string> paths;
};

/// The input being checked, for the sanitizer's death callback, which takes
/// no argument: written before each check, read only when the process dies.
struct Current {
  const std::string *file = nullptr;
  const Bytes *bytes = nullptr;
  uint64_t seed = 0;
  bool mutant = false;
};
Current current;

/// On a sanitizer report (or abort, with handle_abort=1): names the input
/// and saves a mutant, so that `blk-artifact-smoke FILE` replays it.
void onDeath() {
  if (!current.file)
    return;
  if (!current.mutant) {
    std::fprintf(stderr, "blk-artifact-smoke: crashed on %s\n",
                 current.file->c_str());
    return;
  }
  std::string out = "crash-" + fs::path(*current.file).filename().string() +
                    "-seed" + std::to_string(current.seed) + ".fatbin";
  if (FILE *f = std::fopen(out.c_str(), "wb")) {
    std::fwrite(current.bytes->data(), 1, current.bytes->size(), f);
    std::fclose(f);
  }
  std::fprintf(
      stderr, "blk-artifact-smoke: crashed on mutant %llu of %s, saved as %s\n",
      (unsigned long long)current.seed, current.file->c_str(), out.c_str());
}

bool parseOptions(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *flag) -> const char * {
      size_t n = std::strlen(flag);
      return a.compare(0, n, flag) == 0 ? argv[i] + n : nullptr;
    };
    if (const char *v = value("--expect="))
      o.expect = v;
    else if (const char *v = value("--self-check="))
      o.selfCheck = v;
    else if (a == "--print")
      o.print = true;
    else if (const char *v = value("--mutations="))
      o.mutations = std::strtoull(v, nullptr, 10);
    else if (const char *v = value("--first-seed="))
      o.firstSeed = std::strtoull(v, nullptr, 10);
    else if (const char *v = value("--max-mutate-size="))
      o.maxMutateSize = std::strtoull(v, nullptr, 10);
    else if (a.rfind("--", 0) == 0)
      return false;
    else
      o.paths.push_back(a);
  }
  return (!o.paths.empty() || !o.selfCheck.empty()) &&
         (o.expect.empty() || o.expect == "ok" || o.expect == "error");
}

/// The bug `--self-check` asks for; returns only if no sanitizer caught it.
int commitBug(const std::string &kind, int argc) {
  if (kind == "asan") {
    std::vector<char> bytes(size_t(argc) + 15);
    volatile size_t past = bytes.size();
    return bytes.data()[past];
  }
  volatile int big = 2147483647;
  return big + argc;
}

/// The files named and the `.fatbin` files of the directories named, sorted
/// within each directory so that seeds meet the same files everywhere.
std::vector<std::string> inputFiles(const std::vector<std::string> &paths) {
  std::vector<std::string> files;
  for (const std::string &p : paths) {
    if (!fs::is_directory(p)) {
      files.push_back(p);
      continue;
    }
    std::vector<std::string> inDir;
    for (const fs::directory_entry &e : fs::directory_iterator(p))
      if (e.is_regular_file() && e.path().extension() == ".fatbin")
        inDir.push_back(e.path().string());
    std::sort(inDir.begin(), inDir.end());
    files.insert(files.end(), inDir.begin(), inDir.end());
  }
  return files;
}

Bytes readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(in)),
               std::istreambuf_iterator<char>());
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parseOptions(argc, argv, o)) {
    std::fprintf(stderr,
                 "usage: blk-artifact-smoke [--expect=ok|error] [--print] "
                 "[--mutations=N] [--first-seed=S] [--max-mutate-size=BYTES] "
                 "PATH...\n");
    return 2;
  }
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_set_death_callback(onDeath);
#endif
  if (!o.selfCheck.empty()) {
    int v = commitBug(o.selfCheck, argc);
    std::fprintf(stderr,
                 "blk-artifact-smoke: --self-check=%s: not caught (%d)\n",
                 o.selfCheck.c_str(), v);
    return 1;
  }
  auto start = std::chrono::steady_clock::now();
  std::vector<std::string> files = inputFiles(o.paths);
  std::vector<Bytes> corpus;
  for (const std::string &f : files)
    corpus.push_back(readFile(f));

  size_t unexpected = 0, accepted = 0, refused = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    current = {&files[i], &corpus[i], 0, false};
    std::string error;
    int verdict =
        blk::fuzz::checkArtifact(corpus[i].data(), corpus[i].size(), &error);
    (verdict == 0 ? accepted : refused)++;
    if (o.print)
      std::printf("%s: %s%s\n", files[i].c_str(),
                  verdict == 0 ? "ok" : "refused: ", error.c_str());
    if ((o.expect == "ok" && verdict != 0) ||
        (o.expect == "error" && verdict == 0)) {
      std::fprintf(stderr, "blk-artifact-smoke: %s: expected %s, got %s\n",
                   files[i].c_str(), o.expect == "ok" ? "success" : "an error",
                   verdict == 0 ? "success" : error.c_str());
      ++unexpected;
    }
  }

  size_t mutants = 0, mutantsAccepted = 0, tooLarge = 0;
  for (size_t i = 0; i < files.size() && o.mutations > 0; ++i) {
    if (corpus[i].size() > o.maxMutateSize) {
      ++tooLarge;
      continue;
    }
    std::vector<blk::fuzz::Field> fields = blk::fuzz::findFields(corpus[i]);
    for (uint64_t seed = o.firstSeed; seed < o.firstSeed + o.mutations;
         ++seed) {
      Bytes mutant = blk::fuzz::mutate(corpus, i, fields, seed);
      current = {&files[i], &mutant, seed, true};
      mutantsAccepted +=
          blk::fuzz::checkArtifact(mutant.data(), mutant.size()) == 0;
      ++mutants;
    }
  }
  current = {};
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf(
      "blk-artifact-smoke: %zu files (%zu accepted, %zu refused), %zu mutants "
      "(seeds %llu..%llu of %zu files, %zu accepted), no crash, %.1f s\n",
      files.size(), accepted, refused, mutants, (unsigned long long)o.firstSeed,
      (unsigned long long)(o.firstSeed + o.mutations - (o.mutations ? 1 : 0)),
      o.mutations ? files.size() - tooLarge : 0, mutantsAccepted, seconds);
  if (files.empty()) {
    std::fprintf(stderr, "blk-artifact-smoke: no input files\n");
    return 1;
  }
  return unexpected == 0 ? 0 : 1;
}
