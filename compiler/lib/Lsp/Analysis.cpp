//===- Analysis.cpp - One check of an open document -----------------------===//
//
// Runs the Driver's Frontend (the same parse + Sema as `blkc check`) on the
// buffer's text through Frontend::addBuffer, and keeps the Frontend alive so
// hover, definition and completion can read its AST and Sema facts.
// With a DeclCache, the buffer is parsed piece by piece (pieces an earlier
// version had are reused) and Sema skips kernels whose diagnostics it kept.
//
//===----------------------------------------------------------------------===//

#include "blk/Lsp/Analysis.h"

#include "blk/Driver/Frontend.h"
#include "blk/Lsp/Uri.h"
#include "blk/Parse/DeclSplitter.h"
#include "blk/Parse/Parser.h"
#include "blk/Sema/Sema.h"
#include "blk/Support/Fnv1a.h"

#include <set>
#include <unordered_map>

namespace blk::lsp {

struct Analysis::Impl {
  explicit Impl(FrontendOptions options) : frontend(std::move(options)) {}
  Frontend frontend;
};

Analysis::~Analysis() {
  if (!cache || !impl)
    return;
  // The pieces go back to the cache for the next version of the document.
  std::unique_ptr<ast::Module> main = impl->frontend.releaseModule(mainFile);
  if (!main)
    return;
  std::string_view all = sourceManager().getText(mainFile);
  for (size_t i = 0; i < main->parts.size(); ++i) {
    if (i >= keepablePieces.size() || !keepablePieces[i])
      continue;
    SourceRange r = main->parts[i]->getRange();
    cache->keepPiece(std::string(all.substr(r.begin.offset, r.length())),
                     std::move(main->parts[i]));
  }
}

void Analysis::warmCache() const {
  if (!cache || !module)
    return;
  DiagnosticEngine scratch(sourceManager());
  scratch.setMaxErrors(0);
  ParseOptions options = impl->frontend.getOptions().parse;
  std::string_view all = text();
  for (size_t i = 0; i < module->parts.size() && i < keepablePieces.size(); ++i) {
    if (!keepablePieces[i])
      continue;
    SourceRange r = module->parts[i]->getRange();
    std::unique_ptr<ast::Module> copy =
        parseModuleRange(mainFile, r.begin.offset, r.end.offset, scratch, options);
    if (copy && scratch.getDiagnostics().empty())
      cache->keepPiece(std::string(all.substr(r.begin.offset, r.length())), std::move(copy));
  }
}

bool Analysis::semaIsPartial() const { return sema && sema->skippedKernels != 0; }

void Analysis::completeSema() {
  if (!semaIsPartial())
    return;
  impl->frontend.rerunSema(mainFile);
  sema = impl->frontend.getSemaResult(mainFile);
}

void Analysis::completeSema(uint32_t begin, uint32_t end) {
  if (!semaIsPartial() || !module)
    return;
  std::set<const ast::FunctionDecl *> needed;
  for (const ast::Decl *d : module->decls) {
    SourceRange r = d->getRange();
    if (r.end.offset < begin || r.begin.offset > end)
      continue;
    auto *f = ast::dyn_cast<ast::FunctionDecl>(d);
    if (!f || !f->isKernel)
      return completeSema();
    needed.insert(f);
  }
  size_t have = 0;
  for (const sema::KernelInfo &k : sema->kernels)
    have += needed.count(k.decl);
  if (have == needed.size())
    return;
  impl->frontend.rerunSema(mainFile, [&](const ast::FunctionDecl &kernel) {
    return needed.count(&kernel) != 0;
  });
  sema = impl->frontend.getSemaResult(mainFile);
}

const SourceManager &Analysis::sourceManager() const {
  return impl->frontend.getSourceManager();
}

std::string_view Analysis::text() const {
  return sourceManager().getText(mainFile);
}

const LineIndex &Analysis::lineIndex(FileId file) const {
  if (file == 0 || file > sourceManager().numFiles())
    file = mainFile;
  if (indexes.size() < file)
    indexes.resize(file);
  std::unique_ptr<LineIndex> &slot = indexes[file - 1];
  if (!slot)
    slot = std::make_unique<LineIndex>(sourceManager().getText(file));
  return *slot;
}

std::vector<std::string> Analysis::importedPaths() const {
  std::vector<std::string> paths;
  const SourceManager &sm = sourceManager();
  for (FileId file = 1; file <= sm.numFiles(); ++file)
    if (file != mainFile)
      paths.push_back(canonicalPath(sm.getPath(file)));
  return paths;
}

namespace {

/// One piece of the document (splitTopLevelDecls) in an incremental check.
struct Piece {
  ByteSpan span;
  /// The piece is one kernel: its diagnostics may be kept.
  const ast::FunctionDecl *kernel = nullptr;
};

/// What every kernel's diagnostics depend on besides its own text: the
/// other declarations' texts, the kernels' names (did-you-mean hints list
/// them) and the names lost to syntax errors. Imports are in the texts;
/// what they read is not (the server forgets the kernels when it changes).
uint64_t surroundings(std::string_view text, const std::vector<Piece> &pieces,
                      const ast::Module &module) {
  uint64_t hash = kFnv1a64Basis;
  for (const Piece &p : pieces) {
    if (p.kernel)
      hash = fnv1a64(p.kernel->name, fnv1a64("\x01kernel ", hash));
    else
      hash = fnv1a64(text.substr(p.span.begin, p.span.end - p.span.begin),
                     fnv1a64("\x01piece ", hash));
  }
  for (const std::string &name : module.brokenNames)
    hash = fnv1a64(name, fnv1a64("\x01broken ", hash));
  return hash;
}

/// True when every range of `diags` is in `span` of `file`, or has none.
bool allWithin(const std::vector<Diagnostic> &diags, FileId file, ByteSpan span) {
  auto inside = [&](SourceRange r) {
    return !r.isValid() || (r.begin.file == file && r.end.file == file &&
                            r.begin.offset >= span.begin && r.end.offset <= span.end);
  };
  for (const Diagnostic &d : diags) {
    if (!inside(d.range))
      return false;
    for (const DiagnosticLabel &l : d.labels)
      if (!inside(l.range))
        return false;
    for (const DiagnosticNote &n : d.notes)
      if (!inside(n.range))
        return false;
    for (const FixIt &f : d.fixIts)
      if (!inside(f.range))
        return false;
  }
  return true;
}

/// The document parsed piece by piece, with what `cache` kept reused.
struct PiecewiseParse {
  std::unique_ptr<ast::Module> module; ///< null: a piece did not parse
  std::vector<Piece> pieces;
  std::vector<bool> keepable; ///< per piece: parsed without a diagnostic
  std::vector<Diagnostic> diagnostics; ///< of the pieces parsed now
};

PiecewiseParse parsePieces(Frontend &fe, FileId file, DeclCache &cache) {
  PiecewiseParse out;
  std::string_view all = fe.getSourceManager().getText(file);
  DiagnosticEngine diags(fe.getSourceManager());
  diags.setMaxErrors(0);
  out.module = std::make_unique<ast::Module>(
      SourceRange(file, 0, static_cast<uint32_t>(all.size())));
  out.module->file = file;
  for (ByteSpan span : splitTopLevelDecls(all)) {
    std::unique_ptr<ast::Module> part =
        cache.takePiece(all.substr(span.begin, span.end - span.begin), file, span.begin);
    bool clean = true;
    if (!part) {
      size_t before = diags.getDiagnostics().size();
      part = parseModuleRange(file, span.begin, span.end, diags, fe.getOptions().parse);
      clean = diags.getDiagnostics().size() == before;
    }
    if (!part) {
      out.module.reset();
      break;
    }
    Piece piece{span, nullptr};
    if (part->decls.size() == 1 && clean)
      if (auto *f = ast::dyn_cast<ast::FunctionDecl>(part->decls[0]); f && f->isKernel)
        piece.kernel = f;
    out.pieces.push_back(piece);
    out.keepable.push_back(clean);
    ast::Module &m = *out.module;
    m.decls.insert(m.decls.end(), part->decls.begin(), part->decls.end());
    m.brokenNames.insert(part->brokenNames.begin(), part->brokenNames.end());
    m.parts.push_back(std::move(part));
  }
  cache.dropUntakenPieces();
  out.diagnostics = diags.getDiagnostics();
  return out;
}

/// Sema's kernel hooks for one incremental check: a kernel alone in its
/// piece is keyed by the surroundings' hash and the piece's text.
struct KernelKeys {
  DeclCache *cache = nullptr;
  FileId file = 0;
  std::string_view text;
  std::string context; ///< hex16(surroundings) + "\n"
  std::vector<Piece> pieces;
  std::unordered_map<const ast::FunctionDecl *, size_t> pieceOf;

  const Piece *find(const ast::FunctionDecl &kernel) const {
    auto it = pieceOf.find(&kernel);
    return it == pieceOf.end() ? nullptr : &pieces[it->second];
  }
  std::string key(ByteSpan span) const {
    return context + std::string(text.substr(span.begin, span.end - span.begin));
  }
  const std::vector<Diagnostic> *kept(const ast::FunctionDecl &kernel) const {
    const Piece *p = find(kernel);
    return p ? cache->keptKernel(key(p->span), p->span.begin) : nullptr;
  }
  void analysed(const ast::FunctionDecl &kernel, std::vector<Diagnostic> diags) const {
    const Piece *p = find(kernel);
    if (p && allWithin(diags, file, p->span))
      cache->keepKernel(key(p->span), p->span.begin, std::move(diags));
  }
};

} // namespace

std::unique_ptr<Analysis> analyzeBuffer(const std::string &path,
                                        std::string text,
                                        const AnalysisOptions &options,
                                        std::shared_ptr<DeclCache> cache) {
  FrontendOptions feOptions;
  feOptions.defines = options.defines;
  feOptions.includeDirs = options.includeDirs;
  feOptions.stdlibDirs = options.stdlibDirs;
  feOptions.binDir = options.binDir;
  feOptions.readImport = options.readImport;
  // An editor shows every problem, not the first 20.
  feOptions.maxErrors = 0;
  // Hover and definition keep working in the declarations that parse while
  // another one is half-typed.
  feOptions.parse.keepValidDecls = true;
  // Filled once the pieces are parsed. The hooks point at it, so they are
  // only called within this function (rerunSema runs without them).
  KernelKeys keys;
  if (cache) {
    feOptions.keptKernelDiagnostics = [&keys](const ast::FunctionDecl &kernel) {
      return keys.kept(kernel);
    };
    feOptions.kernelAnalyzed = [&keys](const ast::FunctionDecl &kernel,
                                       std::vector<Diagnostic> diags) {
      keys.analysed(kernel, std::move(diags));
    };
  }

  auto analysis = std::make_unique<Analysis>();
  analysis->impl = std::make_unique<Analysis::Impl>(std::move(feOptions));
  Frontend &fe = analysis->impl->frontend;
  analysis->mainFile = fe.addBuffer(path, std::move(text));
  FileId file = analysis->mainFile;
  if (cache) {
    // A piece that does not parse (a lexical error) sends the whole file
    // the usual way, without the pieces' diagnostics.
    PiecewiseParse parsed = parsePieces(fe, file, *cache);
    if (parsed.module) {
      for (const Diagnostic &d : parsed.diagnostics)
        fe.getDiagnostics().emit(d);
      keys.cache = cache.get();
      keys.file = file;
      keys.text = fe.getSourceManager().getText(file);
      keys.context = hex16(surroundings(keys.text, parsed.pieces, *parsed.module)) + "\n";
      for (size_t i = 0; i < parsed.pieces.size(); ++i)
        if (parsed.pieces[i].kernel)
          keys.pieceOf[parsed.pieces[i].kernel] = i;
      keys.pieces = std::move(parsed.pieces);
      fe.adoptModule(file, std::move(parsed.module));
      analysis->cache = cache;
      analysis->keepablePieces = std::move(parsed.keepable);
    }
  }
  fe.process(file);
  if (cache)
    cache->finishAnalysis();
  analysis->module = fe.getModule(file);
  analysis->sema = fe.getSemaResult(file);
  analysis->diagnostics = fe.getDiagnostics().getDiagnostics();
  return analysis;
}

} // namespace blk::lsp
