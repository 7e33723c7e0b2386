//===- DeclCache.cpp - What a document's earlier checks leave behind ------===//
#include "blk/Lsp/DeclCache.h"

#include "blk/Support/ShiftRange.h"

namespace blk::lsp {

std::unique_ptr<ast::Module> DeclCache::takePiece(std::string_view text, FileId file,
                                                  uint32_t begin) {
  auto it = pieces.find(std::string(text));
  if (it == pieces.end())
    return nullptr;
  std::unique_ptr<ast::Module> piece = std::move(it->second);
  pieces.erase(it);
  if (piece->file != file)
    return nullptr;
  piece->shift(int64_t(begin) - int64_t(piece->getRange().begin.offset));
  ++stats.piecesReused;
  return piece;
}

void DeclCache::keepPiece(std::string text, std::unique_ptr<ast::Module> piece) {
  pieces.emplace(std::move(text), std::move(piece));
}

void DeclCache::dropUntakenPieces() { pieces.clear(); }

const std::vector<Diagnostic> *DeclCache::keptKernel(const std::string &key, uint32_t begin) {
  auto it = kernels.find(key);
  if (it == kernels.end())
    return nullptr;
  std::vector<Diagnostic> &out = moved.emplace_back();
  int64_t delta = int64_t(begin) - int64_t(it->second.begin);
  for (const Diagnostic &d : it->second.diags)
    out.push_back(shiftDiagnostic(d, delta));
  // Kept for the next version at its new place.
  nextKernels[key] = KeptKernel{begin, out};
  ++stats.kernelsReused;
  return &out;
}

void DeclCache::keepKernel(std::string key, uint32_t begin, std::vector<Diagnostic> diags) {
  nextKernels[std::move(key)] = KeptKernel{begin, std::move(diags)};
}

void DeclCache::finishAnalysis() {
  kernels.swap(nextKernels);
  nextKernels.clear();
  moved.clear();
}

void DeclCache::forgetKernels() {
  kernels.clear();
  nextKernels.clear();
}

DeclCache::Stats DeclCache::takeStats() {
  Stats s = stats;
  stats = {};
  return s;
}

Diagnostic shiftDiagnostic(Diagnostic diag, int64_t delta) {
  shiftRange(diag.range, delta);
  for (DiagnosticLabel &l : diag.labels)
    shiftRange(l.range, delta);
  for (DiagnosticNote &n : diag.notes)
    shiftRange(n.range, delta);
  for (FixIt &f : diag.fixIts)
    shiftRange(f.range, delta);
  return diag;
}

} // namespace blk::lsp
