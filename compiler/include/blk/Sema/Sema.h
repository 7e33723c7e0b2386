//===- Sema.h - Semantic analysis of a blk module: entry and results -*- C++ -*-===//
//
// Semantic analysis (LANGUAGE.md §3–§8, docs/language.md): imports, names and
// scopes, compile-time values, specialisations (one per `@config` / `-D` set),
// types and block shapes of every expression, built-in signatures, `fn`
// instantiation, and every static rule of §8, checked for every
// specialisation. Diagnostics go to the DiagnosticEngine, deduplicated across
// specialisations; a rule failing only for some configs gets a note at that
// `@config` (or naming the `-D`).
//
// The result (SemaResult) is what IRGen, the interpreter and the language
// server read. Its shape:
//
//   SemaResult
//   ├─ modules        every analysed module (the main one first, then imports)
//   ├─ globals        FunctionInstance holding facts for module-level `const`
//   │                 initialisers (types, values) of every module
//   └─ kernels[]      KernelInfo per `kernel` of the main module
//      ├─ params[]    all params in declaration order (blk spelling, hints,
//      │              runtime index; const params marked)
//      ├─ autotuneKey, autotune (bucket, restore, zero), gridSource, gridRanges
//      └─ specializations[]   Specialization per config
//         ├─ config (const values in const-param order), numWarps, numStages,
//         │  warpSpecialize, entryName (`<kernel>__<NAME>_<value>…__w<W>`,
//         │  `__ws` appended when warp-specialised; docs/ir.md)
//         ├─ grid / gridJson  `@grid` folded to the manifest form
//         ├─ requirements / requirementsJson  `@requires` folded likewise
//         └─ body     FunctionInstance of the kernel body
//                     ├─ exprs:  Expr* → ExprInfo (Type, constant value)
//                     ├─ names:  NameExpr/MemberExpr* → NameBinding (decl)
//                     ├─ vars:   LetStmt/Param/ForStmt* → VarInfo (type)
//                     └─ calls:  CallExpr* of a `fn` → callee FunctionInstance
//                                (one instance per call site, recursively)
//
// Every Expr reached in a valid specialisation has an ExprInfo. In a
// specialisation with errors some nodes may carry Type::error(); IRGen must
// only lower specialisations with `hasErrors == false`.
//
// Implicit conversions are not materialised in the AST: IRGen converts each
// operand of an elementwise operation to `ExprInfo::operandElem` and
// broadcasts it to the result shape (see ExprInfo). `store`/atomics convert
// the value to the pointee type; `load`'s `other:` likewise.
//
// Control flow as Sema saw it (IRGen must follow it):
//  - An IfStmt whose condition's ExprInfo has a `value` is resolved at
//    compile time: only the taken branch was analysed (the other has no
//    facts); lower only that branch.
//  - ForStmt: `vars[forStmt]` is the induction variable (its type is the
//    bounds' promoted integer type); the iterable CallExpr's ExprInfo has the
//    same type and its callee a Builtin binding `range` or `static_range`
//    (static_range bounds are constants: unroll).
//  - Any Expr with a `value` is a compile-time constant in that instance and
//    may be emitted as a constant (blocks never have a value).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SEMA_SEMA_H
#define BLK_SEMA_SEMA_H

#include "blk/AST/AST.h"
#include "blk/Sema/ConstValue.h"
#include "blk/Sema/Mangle.h"
#include "blk/Support/WarpSpecialize.h"
#include "blk/Sema/Type.h"
#include "blk/Support/Diagnostic.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace blk {
class DiagnosticEngine;
} // namespace blk

namespace blk::sema {

/// Options of one analysis (from `blkc` flags).
struct SemaOptions {
  /// `-D NAME=VALUE`, in command-line order; VALUE is an integer
  /// (decimal/0x/0b, optional `-`) or `true`/`false`.
  std::vector<std::pair<std::string, std::string>> defines;
  /// `-I DIR`, in order. (The importing file's directory is searched first;
  /// paths come from the DiagnosticEngine's SourceManager.)
  std::vector<std::string> includeDirs;
  /// Standard library directories, normally defaultStdlibDirs(<bindir>)
  /// (ModuleSearch.h). Searched after includeDirs.
  std::vector<std::string> stdlibDirs;
  /// Reads and parses an imported file. Returns nullptr if it cannot be
  /// read or parsed (the callee has reported why). The returned module must
  /// outlive the SemaResult. Without a loader every import is an error.
  std::function<const ast::Module *(const std::string &path)> loadModule;
  /// The oldest GPU the build targets (`sm_80`, 80); empty / 0: any.
  std::string oldestArch;
  unsigned oldestSm = 0;
  /// The language server's kernel cache (docs/architecture.md, "Language
  /// server"): asked before each kernel of the main module is analysed.
  /// Non-null: that kernel's text and everything it can see are as in an
  /// earlier analysis, whose diagnostics for it (moved to where they are
  /// now) are returned; Sema emits them and skips the kernel, which then
  /// has no KernelInfo (SemaResult::skippedKernels counts it). Not asked
  /// when `defines` is set (the unused -D check needs every kernel).
  std::function<const std::vector<Diagnostic> *(const ast::FunctionDecl &kernel)>
      keptKernelDiagnostics;
  /// Called after each kernel of the main module is analysed, with the
  /// diagnostics it emitted (not when the error limit cut them short).
  std::function<void(const ast::FunctionDecl &kernel, std::vector<Diagnostic> diags)>
      kernelAnalyzed;
};

/// What a name (NameExpr, or the MemberExpr `math.gelu`) refers to.
struct NameBinding {
  enum class Kind : uint8_t {
    Local,       ///< `let`/`var`/`const` statement: decl is the LetStmt
    Param,       ///< kernel or fn parameter: decl is the ast::Param
    LoopVar,     ///< `for` induction variable: decl is the ForStmt
    GlobalConst, ///< module-level `const`: decl is the ConstDecl
    Function,    ///< a `fn`: decl is the FunctionDecl
    Module,      ///< an imported module: decl is the ImportDecl
    Builtin,     ///< a §7 built-in: decl is nullptr, `name` says which
    DType,       ///< a scalar type used as a value (`f32`): `name` spells it
    ShapeVar     ///< a shape name bound by a fn annotation (`N` in `f32[N]`):
                 ///< decl is the NameExpr in the TypeRef; the value is constant
  };
  Kind kind = Kind::Builtin;
  const ast::Node *decl = nullptr;
  std::string name;
};

/// Facts about one expression in one function instance.
struct ExprInfo {
  /// Result type. Type::error() when the expression is in error.
  Type type = Type::error();
  /// Compile-time value, when the expression is constant in this
  /// specialisation (integers, booleans, floats; scalars only).
  std::optional<ConstValue> value;
  /// True for an untyped literal (and constant expressions made only of
  /// literals): it adopts the other operand's element type in promotions.
  bool isUntypedLiteral = false;
  /// For elementwise binary operators, comparisons, `where`, `maximum`,
  /// `minimum`, `clamp`: the element kind every value operand is converted
  /// to before the operation (for comparisons the result is i1 but operands
  /// are compared in this kind). For `ptr + int` the offset's kind.
  ScalarKind operandElem = ScalarKind::I32;
};

/// Type of a variable (let/var/const binding, parameter, loop variable).
struct VarInfo {
  Type type = Type::error();
  std::optional<ConstValue> value; ///< for const bindings and const params
  bool isMutable = false;          ///< `var`
  /// A `let`/`const` of an untyped literal (`const SCALE = 0.5;`): uses of
  /// the name adopt the other operand's type like the literal would.
  bool isUntypedLiteral = false;
};

/// One analysed function body: the kernel of a specialisation, or one `fn`
/// call site instantiated with concrete argument types.
class FunctionInstance {
public:
  /// The kernel or fn; nullptr for SemaResult::globals.
  const ast::FunctionDecl *decl = nullptr;
  /// The module that defines `decl`.
  const ast::Module *module = nullptr;
  /// The caller and the call (nullptr for a kernel body).
  const FunctionInstance *parent = nullptr;
  const ast::CallExpr *callSite = nullptr;
  /// fn only: concrete parameter types (in order) and the return type
  /// (Type::voidType() when the fn returns nothing).
  std::vector<Type> paramTypes;
  Type returnType = Type::voidType();

  /// Facts for an expression of this body; nullptr if never analysed.
  const ExprInfo *lookup(const ast::Expr *e) const;
  /// Binding of a NameExpr or MemberExpr; nullptr if unresolved.
  const NameBinding *binding(const ast::Expr *e) const;
  /// Variable facts for a LetStmt, Param or ForStmt.
  const VarInfo *var(const ast::Node *decl) const;
  /// The instance a `fn` call resolves to; nullptr for builtins.
  const FunctionInstance *callee(const ast::CallExpr *call) const;

  // Storage (filled by Sema; read through the accessors above).
  std::unordered_map<const ast::Expr *, ExprInfo> exprs;
  std::unordered_map<const ast::Expr *, NameBinding> names;
  std::unordered_map<const ast::Node *, VarInfo> vars;
  std::unordered_map<const ast::CallExpr *, std::unique_ptr<FunctionInstance>> calls;
};

/// A kernel parameter as the manifest and IRGen see it.
struct KernelParam {
  const ast::Param *decl = nullptr;
  std::string name;
  Type type = Type::error(); ///< scalar or pointer
  std::string typeSpelling;  ///< "*f32", "u32", "i1" (bool is spelled i1)
  bool isConst = false;
  /// Position among runtime params (launch order); -1 for const params.
  int runtimeIndex = -1;
  std::optional<int64_t> aligned;    ///< `@aligned(N)` in bytes
  std::optional<int64_t> multipleOf; ///< `@multiple_of(N)`
};

/// One node of a folded `@grid` or `@requires` expression (docs/manifest.md):
/// an integer, a runtime parameter (index into the runtime params), or an
/// operation over its args: `add sub mul div mod cdiv min max neg`, and in
/// `@requires` also `lt le gt ge eq ne and or not` (results 0 or 1).
struct GridNode {
  enum class Kind : uint8_t { Int, Param, Op };
  Kind kind = Kind::Int;
  int64_t intValue = 0;
  unsigned paramIndex = 0;
  std::string op;
  std::vector<GridNode> args;
  /// `{"int": 4}`, `{"param": 2}`, `{"op": "cdiv", "args": [...]}`.
  std::string toJson() const;
};

/// One specialisation of a kernel (one `@config`, or the `-D` set).
struct Specialization {
  /// Human label: `BLOCK=1024, num_warps=4`.
  std::string label;
  /// Const params in declaration order with their values.
  std::vector<ConfigValue> config;
  int64_t numWarps = 4;
  int64_t numStages = 3;
  /// Programs ptxas must fit on one SM (PTX .minnctapersm: caps registers
  /// per thread); 0: no target.
  int64_t programsPerSm = 0;
  /// `warp_specialize = true`: launched with kProducerWarps more warps.
  bool warpSpecialize = false;
  /// `tma = false`: num_stages rings filled by cp.async only (as blkc's
  /// --no-tma does for every kernel); not part of the entry name.
  bool tma = true;
  /// `exp2_on_fma = N`: one f32 exp2 (or exp) in N per thread is a
  /// polynomial on the FMA units instead of MUFU.EX2 (0: none); not part of
  /// the entry name.
  int64_t exp2OnFma = 0;
  /// `persistent = true`: each program walks the `@grid`'s programs
  /// (blk/Support/Persistent.h).
  bool persistent = false;
  /// `<kernel>__<NAME>_<value>…__w<num_warps>`, then `__ws` when
  /// warp-specialised (docs/ir.md).
  std::string entryName;
  /// The `@config` it comes from; nullptr when made from `-D` alone.
  const ast::Attribute *configAttr = nullptr;
  /// Names whose value came from (or was overridden by) `-D`.
  std::vector<std::string> fromDefines;
  /// `@grid` folded with this config's values; empty without `@grid`.
  std::vector<GridNode> grid;
  /// The JSON array of `grid` ("[...]"), or "" without `@grid`.
  std::string gridJson;
  /// Each `@requires` condition folded with this config's values, those
  /// that fold to a constant true left out; empty when none is left.
  std::vector<GridNode> requirements;
  /// The JSON array of `requirements`, or "" when it is empty.
  std::string requirementsJson;
  /// The analysed kernel body.
  std::unique_ptr<FunctionInstance> body;
  /// True if any error was found in this specialisation.
  bool hasErrors = false;

  /// Threads one program is launched with: its warps and any producers.
  int64_t threads() const { return 32 * (numWarps + (warpSpecialize ? kProducerWarps : 0)); }
};

/// A `kernel` of the main module.
/// Most parameters one `@specialize` may list: k of them make 3^k entries
/// per specialisation.
constexpr size_t kMaxSpecialized = 4;

/// The class of a specialised integer argument an entry is compiled for.
enum class ValueClass : uint8_t { Any = 0, One = 1, MultipleOf16 = 16 };

/// How the runtime groups the values of an autotune key before it looks up
/// (or tunes) a config: rounded up to a power of two, as they are, or
/// rounded up to the next of the listed bounds.
enum class AutotuneBucket : uint8_t { Pow2, Exact, List };

/// `@autotune(...)` beyond its key (KernelInfo::autotuneKey).
struct AutotuneInfo {
  AutotuneBucket bucket = AutotuneBucket::Pow2;
  /// `bucket = [1, 16, 64, 256]`: strictly ascending, positive.
  std::vector<int64_t> bucketBounds;
  /// Pointer parameters whose memory the runtime saves before each timed
  /// run and puts back after it (`restore`), or sets to zero before it
  /// (`zero`): the kernel updates them in place or accumulates into them.
  std::vector<std::string> restore;
  std::vector<std::string> zero;
};

struct KernelInfo {
  const ast::FunctionDecl *decl = nullptr;
  std::string name;
  /// Every parameter in declaration order.
  std::vector<KernelParam> params;
  /// Indices into `params` of the runtime params, in launch order.
  std::vector<unsigned> runtimeParams;
  /// Indices into `params` of the const params, in declaration order.
  std::vector<unsigned> constParams;
  /// `@autotune(key = [...])` names (runtime integer parameter names).
  std::vector<std::string> autotuneKey;
  /// Set iff the kernel has `@autotune`.
  std::optional<AutotuneInfo> autotune;
  /// `@specialize(...)`: indices into `params` of the runtime integer
  /// params compiled per value class (docs/manifest.md, "Value variants").
  std::vector<unsigned> specialize;
  /// `@grid` expressions: source ranges and source text.
  std::vector<SourceRange> gridRanges;
  std::vector<std::string> gridSource;
  std::vector<Specialization> specializations;
};

/// The result of analysing a module and its imports.
class SemaResult {
public:
  /// The main module first, then every imported module.
  std::vector<const ast::Module *> modules;
  /// Facts for module-level `const` initialisers of every module.
  FunctionInstance globals;
  /// Kernels of the main module, in source order.
  std::vector<KernelInfo> kernels;
  /// Number of errors reported by this analysis.
  unsigned errorCount = 0;
  /// Kernels not analysed: their diagnostics came from
  /// SemaOptions::keptKernelDiagnostics, and `kernels` lacks them.
  unsigned skippedKernels = 0;

  /// The kernel named `name`, or nullptr.
  const KernelInfo *kernel(const std::string &name) const;

  /// Hover support: one instance's view of the expression under a cursor.
  struct HoverEntry {
    const Specialization *spec = nullptr; ///< nullptr for globals
    const FunctionInstance *instance = nullptr;
    const ExprInfo *info = nullptr;
  };
  /// The innermost expression of `module` whose range contains `offset`
  /// (nullptr if none), and its facts in every specialisation / fn instance
  /// that analysed it (a fn called twice yields two entries per spec).
  const ast::Expr *exprAt(const ast::Module &module, uint32_t offset,
                          std::vector<HoverEntry> *entries = nullptr) const;
};

/// Whether `name` is an `@config` / `-D` key that shapes the launch
/// (`num_warps`, `num_stages`, `programs_per_sm`, `warp_specialize`,
/// `persistent`) rather than naming a const parameter.
bool isLaunchKey(const std::string &name);

/// Analyses `module` (and, through SemaOptions::loadModule, its imports).
/// Reports every problem to `diags`. Always returns a result; check
/// `errorCount` / Specialization::hasErrors before lowering.
/// Called by the Driver (compiler/lib/Driver) after parsing.
std::unique_ptr<SemaResult> analyze(const ast::Module &module,
                                    const SemaOptions &options,
                                    DiagnosticEngine &diags);

} // namespace blk::sema

#endif // BLK_SEMA_SEMA_H
