//===- Analyzer.cpp - Sema entry: modules, imports, global constants ------===//
//
// Expects a parsed main module; guarantees every reachable import is loaded
// (or reported), every top-level name declared once, every module-level
// `const` evaluated, then hands the kernels to analyzeKernels.
// Tests: tests/lit/sema/fail_sema_module_not_found.blk, import_*.blk.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "blk/Sema/ModuleSearch.h"
#include "blk/Sema/Suggest.h"
#include "blk/Support/SourceManager.h"

#include <algorithm>
#include <filesystem>

#include <sys/resource.h>

namespace fs = std::filesystem;

namespace blk::sema {
namespace detail {

/// The module next to a missing one whose name is closest (`std.maths` ->
/// `std.math`): the .blk files in each search directory's folder for all
/// but the last segment.
static std::optional<std::string> closestModule(const std::vector<std::string> &segments,
                                                const std::vector<std::string> &dirs) {
  if (segments.empty())
    return std::nullopt;
  std::string folder, prefix;
  for (size_t i = 0; i + 1 < segments.size(); ++i) {
    folder += "/" + segments[i];
    prefix += segments[i] + ".";
  }
  std::vector<std::string> names;
  for (const std::string &dir : dirs) {
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(dir + folder, ec))
      if (entry.path().extension() == ".blk")
        names.push_back(prefix + entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return closestName(prefix + segments.back(), names);
}

DiagBuilder::~DiagBuilder() {
  if (analyzer)
    analyzer->accept(std::move(diag));
}

DiagBuilder &DiagBuilder::note(DiagId id, SourceRange range,
                               std::vector<DiagArg> args) {
  std::vector<std::string> texts;
  for (DiagArg &a : args)
    texts.push_back(std::move(a.text));
  diag.notes.push_back({id, formatDiagnostic(diagFormat(id), texts), range});
  return *this;
}

DiagBuilder &DiagBuilder::label(SourceRange range, std::string message) {
  diag.labels.push_back({range, std::move(message)});
  return *this;
}

DiagBuilder &DiagBuilder::fixIt(SourceRange range, std::string replacement) {
  diag.fixIts.push_back({range, std::move(replacement)});
  return *this;
}

Analyzer::Analyzer(const SemaOptions &options, DiagnosticEngine &diags,
                   SemaResult &result)
    : options(options), diags(diags), result(result) {}

void Analyzer::checkTypeTarget(ScalarKind kind, SourceRange range) {
  if (!isFp8(kind) || options.oldestSm == 0 || options.oldestSm >= 90 || reportedFp8Target)
    return;
  reportedFp8Target = true;
  report(DiagId::sema_fp8_target, range, {std::string(spelling(kind)), options.oldestArch})
      .note(DiagId::note_sema_hint, SourceRange(),
            {"build for --arch sm_90a (or sm_90), or keep the data in f16 or bf16"});
}

const SourceManager &Analyzer::sourceManager() const {
  return diags.getSourceManager();
}

std::string Analyzer::sourceText(SourceRange range) const {
  if (!range.isValid())
    return "";
  std::string_view text = sourceManager().getText(range.begin.file);
  if (range.end.offset > text.size() || range.begin.offset > range.end.offset)
    return "";
  return std::string(text.substr(range.begin.offset, range.length()));
}

DiagBuilder Analyzer::report(DiagId id, SourceRange range,
                             std::vector<DiagArg> args) {
  std::vector<std::string> texts;
  for (DiagArg &a : args)
    texts.push_back(std::move(a.text));
  Diagnostic d;
  d.id = id;
  d.severity = diagDefaultSeverity(id);
  d.message = formatDiagnostic(diagFormat(id), texts);
  d.range = range;
  return DiagBuilder(this, std::move(d));
}

void Analyzer::accept(Diagnostic diag) {
  if (diag.severity == Severity::Error)
    ++sinkErrors;
  if (sink) {
    sink->push_back(std::move(diag));
    return;
  }
  diags.emit(std::move(diag));
}

static std::string normalisePath(const std::string &path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? fs::path(path).lexically_normal().string() : p.string();
}

void Analyzer::declareTopLevel(ModuleScope &scope) {
  for (const ast::Decl *d : scope.module->decls) {
    std::string name;
    SourceRange range;
    NameBinding b;
    b.decl = d;
    if (auto *c = ast::dyn_cast<ast::ConstDecl>(d)) {
      name = c->name, range = c->nameRange, b.kind = NameBinding::Kind::GlobalConst;
    } else if (auto *f = ast::dyn_cast<ast::FunctionDecl>(d)) {
      name = f->name, range = f->nameRange, b.kind = NameBinding::Kind::Function;
    } else {
      continue; // imports are bound when loaded
    }
    b.name = name;
    auto [it, inserted] = scope.names.emplace(name, b);
    if (!inserted) {
      report(DiagId::sema_redefinition, range, {name})
          .note(DiagId::note_sema_previous_binding, it->second.decl->getRange(), {name});
    }
  }
}

ModuleScope *Analyzer::loadModule(const ast::Module &module, const std::string &path,
                                  std::vector<std::string> &importStack) {
  auto owned = std::make_unique<ModuleScope>();
  ModuleScope *scope = owned.get();
  scope->module = &module;
  scope->path = path;
  scopes.push_back(std::move(owned));
  scopeOf[&module] = scope;
  scopeByPath[normalisePath(path)] = scope;
  result.modules.push_back(&module);
  loadingPaths.push_back(normalisePath(path));

  declareTopLevel(*scope);
  std::string dir = fs::path(path).parent_path().string();
  for (const ast::Decl *d : module.decls) {
    auto *imp = ast::dyn_cast<ast::ImportDecl>(d);
    if (!imp || imp->path.empty())
      continue;
    NameBinding b{NameBinding::Kind::Module, imp, imp->dottedName()};
    SourceRange bindRange = imp->alias.empty() ? imp->pathRanges.back() : imp->aliasRange;
    auto [it, inserted] = scope->names.emplace(imp->bindingName(), b);
    if (!inserted)
      report(DiagId::sema_redefinition, bindRange, {imp->bindingName()})
          .note(DiagId::note_sema_previous_binding, it->second.decl->getRange(),
                {imp->bindingName()});
    scope->imports[imp] = nullptr;

    std::vector<std::string> dirs{dir.empty() ? "." : dir};
    dirs.insert(dirs.end(), options.includeDirs.begin(), options.includeDirs.end());
    dirs.insert(dirs.end(), options.stdlibDirs.begin(), options.stdlibDirs.end());
    ModuleLookup found = findModule(imp->path, dirs);
    if (!found.path) {
      DiagBuilder db = report(DiagId::sema_module_not_found, imp->getRange(),
                              {imp->dottedName()});
      for (const std::string &p : found.searched)
        db.note(DiagId::note_sema_searched, SourceRange(), {p});
      if (std::optional<std::string> near = closestModule(imp->path, dirs))
        db.note(DiagId::note_sema_hint, SourceRange(), {didYouMean(*near)});
      continue;
    }
    std::string key = normalisePath(*found.path);
    importStack.push_back(imp->dottedName());
    if (std::find(loadingPaths.begin(), loadingPaths.end(), key) != loadingPaths.end()) {
      std::string chain;
      for (const std::string &s : importStack)
        chain += (chain.empty() ? "" : " -> ") + s;
      report(DiagId::sema_import_cycle, imp->getRange(), {chain});
    } else if (auto known = scopeByPath.find(key); known != scopeByPath.end()) {
      scope->imports[imp] = known->second;
    } else if (options.loadModule) {
      if (const ast::Module *m = options.loadModule(*found.path))
        scope->imports[imp] = loadModule(*m, *found.path, importStack);
    }
    importStack.pop_back();
  }
  checkGlobalConsts(*scope);
  loadingPaths.pop_back();
  return scope;
}

void Analyzer::checkGlobalConsts(ModuleScope &scope) {
  BodyChecker checker(*this, result.globals, scope, SpecContext{});
  for (const ast::Decl *d : scope.module->decls) {
    auto *c = ast::dyn_cast<ast::ConstDecl>(d);
    if (!c || !c->init)
      continue;
    ExprInfo info = checker.checkExpr(c->init);
    VarInfo var;
    var.type = info.type;
    var.value = info.value;
    var.isUntypedLiteral = info.isUntypedLiteral && !c->type;
    if (!info.type.isError() && !info.value) {
      DiagBuilder db = report(DiagId::sema_not_constant, c->init->getRange(),
                              {"the value of `const " + c->name + "`"});
      checker.addNonConstNote(db, c->init);
      var.type = Type::error();
    }
    if (c->type && !var.type.isError()) {
      Type t = checker.resolveType(c->type);
      if (!t.isError() && var.value) {
        var.type = t;
        if (isFloat(t.elem()) && !var.value->isFloat())
          var.value = ConstValue::floating(var.value->getFloat());
        else if (isInteger(t.elem()) && var.value->isFloat())
          report(DiagId::sema_assign_type, c->init->getRange(),
                 {info.type.str(), "const " + c->name, t.str()});
      }
    }
    globalConsts[c] = var;
  }
}

size_t Analyzer::stackUsed() const {
  auto here = uintptr_t(__builtin_frame_address(0));
  return here < stackBase ? stackBase - here : 0; // the stack grows down
}

void Analyzer::run(const ast::Module &main) {
  stackBase = uintptr_t(__builtin_frame_address(0));
  rlimit limit;
  if (getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    stackBudget = std::min(kCallStackBudget, size_t(limit.rlim_cur / 2));
  unsigned before = diags.getErrorCount();
  std::string path = sourceManager().getPath(main.file);
  std::vector<std::string> importStack{fs::path(path).stem().string()};
  ModuleScope *mainScope = loadModule(main, path, importStack);
  analyzeKernels(*this, *mainScope);
  result.errorCount = diags.getErrorCount() - before;
}

} // namespace detail

std::unique_ptr<SemaResult> analyze(const ast::Module &module,
                                    const SemaOptions &options,
                                    DiagnosticEngine &diags) {
  auto result = std::make_unique<SemaResult>();
  detail::Analyzer analyzer(options, diags, *result);
  analyzer.run(module);
  return result;
}

} // namespace blk::sema
