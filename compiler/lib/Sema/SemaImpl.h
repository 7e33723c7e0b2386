//===- SemaImpl.h - Sema internals shared by its .cpp files -----*- C++ -*-===//
//
// Analyzer: one per analyze() call (modules, imports, global constants,
// diagnostic buffering). BodyChecker: one per FunctionInstance (scopes,
// expression typing, statements, calls). Diagnostics of a kernel body are
// buffered per specialisation and merged (deduplicated, annotated with the
// @config they fail for) by Analyzer::flushSpecializations.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_SEMA_SEMAIMPL_H
#define BLK_LIB_SEMA_SEMAIMPL_H

#include "blk/Sema/Sema.h"
#include "blk/Support/Diagnostic.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace blk {
class SourceManager;
}

namespace blk::sema::detail {

class Analyzer;

/// Most `fn` instances one specialisation may create.
inline constexpr unsigned kMaxInstances = 4096;
/// Deepest nesting of `fn` calls (each level recurses through the checker;
/// chains of ~2,100 simple calls, ~1,100 with loops and ifs, overflowed an
/// 8 MB stack in a release build).
inline constexpr unsigned kMaxCallDepth = 256;
/// Most "in `f` called here" notes on one diagnostic.
inline constexpr size_t kMaxCallNotes = 16;
/// Most stack the nested checking of `fn` calls may use: each level can be
/// an expression 1,000 deep (~400 KB), so fewer levels than kMaxCallDepth
/// can overflow too. Half the stack limit when that is lower.
inline constexpr size_t kCallStackBudget = size_t(4) << 20;

/// A diagnostic being built; handed to the Analyzer's current sink when it
/// dies (like InFlightDiagnostic, but buffered).
class DiagBuilder {
public:
  DiagBuilder(Analyzer *analyzer, Diagnostic diag)
      : analyzer(analyzer), diag(std::move(diag)) {}
  DiagBuilder(DiagBuilder &&o) noexcept : analyzer(o.analyzer), diag(std::move(o.diag)) {
    o.analyzer = nullptr;
  }
  DiagBuilder(const DiagBuilder &) = delete;
  ~DiagBuilder();
  DiagBuilder &note(DiagId id, SourceRange range, std::vector<DiagArg> args = {});
  DiagBuilder &label(SourceRange range, std::string message);
  DiagBuilder &fixIt(SourceRange range, std::string replacement);

private:
  Analyzer *analyzer;
  Diagnostic diag;
};

/// Names visible at the top level of one module.
struct ModuleScope {
  const ast::Module *module = nullptr;
  std::string path;
  std::unordered_map<std::string, NameBinding> names;
  /// Target of each import of this module (nullptr if it failed).
  std::unordered_map<const ast::ImportDecl *, ModuleScope *> imports;
};

/// Where a specialisation's values come from (for notes).
struct SpecContext {
  const KernelInfo *kernel = nullptr;
  const Specialization *spec = nullptr;
};

/// State of one analyze() call.
class Analyzer {
public:
  Analyzer(const SemaOptions &options, DiagnosticEngine &diags, SemaResult &result);

  /// Runs the whole analysis of `main`.
  void run(const ast::Module &main);

  /// Starts a diagnostic; it goes to the current sink when the builder dies.
  DiagBuilder report(DiagId id, SourceRange range, std::vector<DiagArg> args = {});
  /// Receives a finished diagnostic (buffered or emitted).
  void accept(Diagnostic diag);

  /// Reports an fp8 `kind` named at `range` when the build targets a GPU
  /// without fp8 (once per analysis: one is enough to see why).
  void checkTypeTarget(ScalarKind kind, SourceRange range);
  bool reportedFp8Target = false;

  const SourceManager &sourceManager() const;
  std::string sourceText(SourceRange range) const;

  const SemaOptions &options;
  DiagnosticEngine &diags;
  SemaResult &result;

  /// Module scopes by module and by normalised path.
  std::unordered_map<const ast::Module *, ModuleScope *> scopeOf;
  /// Evaluated module-level constants.
  std::unordered_map<const ast::ConstDecl *, VarInfo> globalConsts;
  /// fns being instantiated (recursion check).
  std::vector<const ast::FunctionDecl *> callStack;
  /// Number of errors accepted into the current sink.
  unsigned sinkErrors = 0;
  /// fn instances created in the current specialisation.
  unsigned instanceCount = 0;
  /// The stack at run()'s frame, and how far below it checking may go.
  uintptr_t stackBase = 0;
  size_t stackBudget = kCallStackBudget;
  /// Stack used below run()'s frame by the caller of this function.
  size_t stackUsed() const;
  /// `store`s of a pointer block with no mask (or an always-true one) in the
  /// current specialisation (for the §8.7 warning).
  std::vector<const ast::CallExpr *> unmaskedStores;
  std::vector<const ast::CallExpr *> unmaskedLoads; ///< likewise, `load`s

  /// nullptr: emit directly; else buffer here.
  std::vector<Diagnostic> *sink = nullptr;

private:
  ModuleScope *loadModule(const ast::Module &module, const std::string &path,
                          std::vector<std::string> &importStack);
  void declareTopLevel(ModuleScope &scope);
  void checkGlobalConsts(ModuleScope &scope);

  std::vector<std::unique_ptr<ModuleScope>> scopes;
  std::map<std::string, ModuleScope *> scopeByPath;
  std::vector<std::string> loadingPaths;
};

/// Analyses the kernels of the main module (Kernels.cpp).
void analyzeKernels(Analyzer &analyzer, ModuleScope &mainScope);

/// Emits the diagnostics of `kernel`'s specialisations, sinks[i] holding
/// those of specializations[i]: one per mistake, with a note listing the
/// configs it fails in when that depends on the config
/// (ConfigDiagnostics.cpp).
void mergeConfigDiagnostics(Analyzer &analyzer, const KernelInfo &kernel,
                            std::vector<std::vector<Diagnostic>> &sinks);

/// Reads one `@autotune` of `kernel` (its params built) into
/// KernelInfo::autotuneKey and KernelInfo::autotune (Autotune.cpp).
void buildAutotune(Analyzer &analyzer, KernelInfo &kernel, const ast::Attribute *attr);

/// Which attribute a launch expression comes from, which decides the
/// operators it may use (LaunchExpr.cpp).
enum class LaunchExprKind { Grid, Requires };

/// Folds `e`, checked in `instance`, to the manifest's tree with the
/// specialisation's const values; reports (sema_grid_expr or
/// sema_requires_expr) and returns nullopt when it is not foldable.
std::optional<GridNode> foldLaunchExpr(Analyzer &analyzer, const ast::Expr *e,
                                       const FunctionInstance &instance,
                                       const KernelInfo &kernel, LaunchExprKind kind);

/// `[tree, …]`: the manifest's array of folded expressions.
std::string launchExprsJson(const std::vector<GridNode> &nodes);

/// Checks each `@requires` condition in `body` (the specialisation's kernel
/// checker) and folds it into spec.requirements / requirementsJson: a
/// constant true is dropped, a constant false is a warning naming the config.
class BodyChecker;
void foldRequirements(Analyzer &analyzer, BodyChecker &body, const KernelInfo &kernel,
                      Specialization &spec, const std::vector<const ast::Expr *> &conditions);

/// Type-checks one function body (kernel or fn instance).
class BodyChecker {
public:
  BodyChecker(Analyzer &analyzer, FunctionInstance &instance, ModuleScope &module,
              SpecContext spec);

  /// Kernel: binds params (const ones with their spec values) and checks the body.
  void checkKernel(const KernelInfo &kernel, const Specialization &spec);
  /// fn: binds params to the given argument facts and checks the body.
  /// Returns false if the arguments do not fit the annotations (reported).
  bool checkFunction(const std::vector<ExprInfo> &args,
                     const std::vector<SourceRange> &argRanges);
  /// Types an expression in the module scope plus the kernel's params (for
  /// @grid and @config).
  ExprInfo checkExpr(const ast::Expr *e);

  /// Binds a name in the innermost scope (no unused/shadow warnings).
  void bindParam(const ast::Param *p, VarInfo info);
  void pushScope() { scopes.emplace_back(); }
  void popScope();

private:
  struct Symbol {
    NameBinding binding;
    SourceRange range;
    const ast::Node *decl = nullptr; ///< key of instance.vars
    bool used = false;
    bool warnUnused = false;
  };

  // Statements (CheckStmt.cpp).
  void checkBlock(const ast::BlockStmt *block, bool newScope = true);
  void checkStmt(const ast::Stmt *s);
  void checkLet(const ast::LetStmt *s);
  void checkAssign(const ast::AssignStmt *s);
  void checkIf(const ast::IfStmt *s);
  void checkFor(const ast::ForStmt *s);
  void checkWhile(const ast::WhileStmt *s);
  void checkReturn(const ast::ReturnStmt *s);
  void checkStaticAssert(const ast::StaticAssertStmt *s);
  bool checkCondition(const ast::Expr *cond, const char *what);
  void declare(const std::string &name, SourceRange range, NameBinding binding,
               const ast::Node *decl, VarInfo info, bool warnUnused);

  // Expressions (CheckExpr.cpp).
  ExprInfo record(const ast::Expr *e, ExprInfo info);
  ExprInfo checkExprImpl(const ast::Expr *e);
  ExprInfo checkName(const ast::NameExpr *e);
  ExprInfo checkMember(const ast::MemberExpr *e);
  ExprInfo checkUnary(const ast::UnaryExpr *e);
  ExprInfo checkBinary(const ast::BinaryExpr *e);
  ExprInfo checkCast(const ast::CastExpr *e);
  ExprInfo checkIndex(const ast::IndexExpr *e);
public:
  /// Types `lhs op rhs` given operand facts (shared with compound assignment).
  ExprInfo binaryResult(ast::BinaryOp op, const ExprInfo &l, const ExprInfo &r,
                        SourceRange opRange, SourceRange whole,
                        const ast::Expr *lhsExpr, const ast::Expr *rhsExpr);
  /// Reports `what` (an operator or built-in, in backticks) on an fp8 value:
  /// true if `type` is fp8 and the error was reported.
  bool rejectFp8(const std::string &what, const Type &type, SourceRange range);
  /// `unknown type` with the blk spelling of a foreign one (`float32`) or
  /// the closest scalar type as a note.
  void reportUnknownType(const std::string &name, SourceRange range);
  /// Every name visible here: locals, the module's, built-ins, types.
  std::vector<std::string> visibleNames() const;
  /// Resolves a TypeRef to a Type (shape dims must be constant powers of two).
  /// `shapeVars` (fn annotations) binds unknown dim names to actual dims.
  Type resolveType(const ast::TypeRef *t);
  /// Adds notes saying where the config values used in `e` came from.
  void addValueNotes(DiagBuilder &d, const ast::Expr *e);
  /// Adds a note explaining why `e` is not constant.
  void addNonConstNote(DiagBuilder &d, const ast::Expr *e);
  /// Requires a constant integer; reports `what` must be constant otherwise.
  std::optional<int64_t> requireConstInt(const ast::Expr *e, const ExprInfo &info,
                                         const std::string &what);
  /// Checks a block shape (rank, power-of-two dims, element limit).
  bool checkShape(const Shape &shape, SourceRange range, const ast::Expr *origin);
  bool checkElementsPerThread(const Shape &shape, SourceRange range);

  Analyzer &analyzer;
  FunctionInstance &instance;
  ModuleScope &module;
  SpecContext spec;
  bool perThreadWarned = false; ///< sema_block_per_thread is given once per body

private:
  // Calls (CheckCall.cpp, Builtins.cpp).
  ExprInfo checkCall(const ast::CallExpr *e);
  /// A `static_range` with constant bounds: at most kMaxStaticTrips.
  bool checkStaticTripCount(const ast::CallExpr *call);
  ExprInfo checkFnCall(const ast::CallExpr *e, const ast::FunctionDecl *fn,
                       ModuleScope &fnModule);
  ExprInfo checkBuiltin(const ast::CallExpr *e, const std::string &name);
  friend class BuiltinChecker;

  Symbol *lookupLocal(const std::string &name);
  std::vector<std::unordered_map<std::string, Symbol>> scopes;
  unsigned loopDepth = 0;
  /// fn only: the declared or first-returned type.
  std::optional<Type> fnReturn;
  SourceRange fnReturnRange;
};

/// Converts an AST binary operator to the constexpr operator.
ConstOp toConstOp(ast::BinaryOp op);
/// Can a value be stored into a binding of type `to` keeping its type and
/// shape (broadcast and widening allowed)? Sets `narrowing` when it would narrow.
bool fitsInto(const ExprInfo &from, const Type &to, bool &narrowing);
/// True for `==`… `>=`.
bool isComparison(ast::BinaryOp op);

} // namespace blk::sema::detail

#endif // BLK_LIB_SEMA_SEMAIMPL_H
