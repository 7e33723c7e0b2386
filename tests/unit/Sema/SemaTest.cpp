// End-to-end tests of Sema over parsed source: specialisations, types and
// shapes recorded for IRGen, grid folding, hover lookup, and the seeds'
// diagnostics.
#include "blk/Parse/Parser.h"
#include "blk/Sema/ModuleSearch.h"
#include "blk/Sema/Sema.h"
#include "blk/Support/SourceManager.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace blk;
using namespace blk::sema;

namespace {
/// Parses and analyses one buffer; keeps everything alive for inspection.
struct Harness {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  std::vector<std::unique_ptr<ast::Module>> modules;
  std::unique_ptr<SemaResult> result;
  FileId file = 0;

  explicit Harness(const std::string &text, SemaOptions options = {},
                   const std::string &path = "test.blk") {
    diags.setMaxErrors(0);
    file = sm.addBuffer(path, text);
    modules.push_back(parseModule(file, diags));
    if (!modules.back())
      return;
    options.loadModule = [this](const std::string &p) -> const ast::Module * {
      std::string error;
      FileId f = sm.loadFile(p, error);
      if (!f)
        return nullptr;
      modules.push_back(parseModule(f, diags));
      return modules.back().get();
    };
    result = analyze(*modules.front(), options, diags);
  }

  /// "line:col: error: message" for each diagnostic, then "  note: …" lines.
  std::string rendered() const {
    std::ostringstream os;
    for (const Diagnostic &d : diags.getDiagnostics()) {
      LineCol lc = sm.getLineCol(d.range.begin);
      os << lc.line << ":" << lc.col << ": " << severityName(d.severity) << ": " << d.message
         << "\n";
      for (const DiagnosticNote &n : d.notes) {
        os << "  note";
        if (n.range.isValid()) {
          LineCol nl = sm.getLineCol(n.range.begin);
          os << "@" << nl.line << ":" << nl.col;
        }
        os << ": " << n.message << "\n";
      }
    }
    return os.str();
  }

  /// The first expression whose source text is exactly `text`.
  const ast::Expr *find(const std::string &text) const {
    std::string_view src = sm.getText(file);
    size_t at = src.find(text);
    if (at == std::string_view::npos)
      return nullptr;
    std::vector<SemaResult::HoverEntry> unused;
    const ast::Expr *e = result->exprAt(*modules.front(), uint32_t(at), &unused);
    // Walk up: exprAt gives the innermost; the caller names whole expressions
    // by their first token, so compare the full text.
    while (e && e->getRange().length() < text.size()) {
      const ast::Expr *outer = nullptr;
      std::function<void(const ast::Node *)> walk = [&](const ast::Node *n) {
        ast::forEachChild(n, [&](const ast::Node *c) {
          if (c == e)
            outer = ast::dyn_cast<ast::Expr>(n);
          walk(c);
        });
      };
      walk(modules.front().get());
      e = outer;
    }
    return e;
  }
};

const char *kDoubleGrid = R"(
@config(BLOCK = 1024, num_warps = 4)
@config(BLOCK = 256,  num_warps = 2)
@grid(cdiv(n, BLOCK))
kernel double_grid(x: *f32, out: *f32, n: i32, const BLOCK: i32) {
    let pid = program_id(0);
    let offsets = pid * BLOCK + arange(0, BLOCK);
    let mask = offsets < n;
    let v = load(x + offsets, mask: mask, other: 0.0);
    store(out + offsets, v * 2.0, mask: mask);
}
)";
} // namespace

TEST(Sema, DoubleGridSpecializations) {
  Harness h(kDoubleGrid);
  ASSERT_TRUE(h.result);
  EXPECT_EQ(h.rendered(), "");
  const KernelInfo *k = h.result->kernel("double_grid");
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(k->params.size(), 4u);
  EXPECT_EQ(k->params[0].typeSpelling, "*f32");
  EXPECT_EQ(k->params[2].runtimeIndex, 2);
  EXPECT_EQ(k->params[3].runtimeIndex, -1);
  EXPECT_EQ(k->runtimeParams, (std::vector<unsigned>{0, 1, 2}));
  EXPECT_EQ(k->constParams, (std::vector<unsigned>{3}));
  ASSERT_EQ(k->gridSource.size(), 1u);
  EXPECT_EQ(k->gridSource[0], "cdiv(n, BLOCK)");
  ASSERT_EQ(k->specializations.size(), 2u);
  const Specialization &s0 = k->specializations[0], &s1 = k->specializations[1];
  EXPECT_EQ(s0.entryName, "double_grid__BLOCK_1024__w4");
  EXPECT_EQ(s1.entryName, "double_grid__BLOCK_256__w2");
  EXPECT_EQ(s1.numWarps, 2);
  EXPECT_EQ(s1.numStages, 3);
  EXPECT_EQ(s0.gridJson, R"([{"op": "cdiv", "args": [{"param": 2}, {"int": 1024}]}])");
  EXPECT_FALSE(s0.hasErrors);

  const ast::Expr *offsets = h.find("pid * BLOCK + arange(0, BLOCK)");
  ASSERT_NE(offsets, nullptr);
  EXPECT_EQ(s0.body->lookup(offsets)->type.str(), "i32[1024]");
  EXPECT_EQ(s1.body->lookup(offsets)->type.str(), "i32[256]");
  const ast::Expr *ptrs = h.find("x + offsets");
  EXPECT_EQ(s0.body->lookup(ptrs)->type.str(), "*f32[1024]");
  const ast::Expr *scaled = h.find("v * 2.0");
  EXPECT_EQ(s1.body->lookup(scaled)->type.str(), "f32[256]");
  std::string_view src = h.sm.getText(h.file);
  uint32_t at = uint32_t(src.find("arange(0, BLOCK)") + 10);
  const ast::Expr *block = h.result->exprAt(*h.modules.front(), at);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(s1.body->lookup(block)->value, ConstValue::integer(256));
  const NameBinding *b = s1.body->binding(block);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->kind, NameBinding::Kind::Param);
}

TEST(Sema, HoverListsEverySpecialization) {
  Harness h(kDoubleGrid);
  std::string_view src = h.sm.getText(h.file);
  uint32_t at = uint32_t(src.find("arange"));
  std::vector<SemaResult::HoverEntry> entries;
  const ast::Expr *e = h.result->exprAt(*h.modules.front(), at, &entries);
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(ast::isa<ast::NameExpr>(e));
  // The callee name `arange` in each of the two specialisations.
  ASSERT_EQ(entries.size(), 2u);
  uint32_t callAt = uint32_t(src.find("(0, BLOCK)"));
  h.result->exprAt(*h.modules.front(), callAt, &entries);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].info->type.str(), "i32[1024]");
  EXPECT_EQ(entries[1].info->type.str(), "i32[256]");
}

TEST(Sema, ArangeNotPowerOfTwoNotesTheConfig) {
  Harness h(R"(@config(BLOCK = 8)
@config(BLOCK = 7)
kernel k(x: *f32, const BLOCK: i32) {
    let offsets = arange(0, BLOCK);
    store(x + offsets, 1.0);
}
)");
  EXPECT_EQ(h.rendered(), "4:19: error: `arange` length 7 is not a power of two\n"
                          "  note@2:9: `BLOCK` is 7 here\n"
                          "  note: use the next power of two and mask the extra elements, "
                          "e.g. 8 with `mask: offsets < n`\n");
  EXPECT_FALSE(h.result->kernels[0].specializations[0].hasErrors);
  EXPECT_TRUE(h.result->kernels[0].specializations[1].hasErrors);
}

TEST(Sema, DefineMakesTheOnlySpecialization) {
  SemaOptions opts;
  opts.defines = {{"BLOCK", "64"}};
  Harness h("kernel k(x: *f32, const BLOCK: i32) { store(x + arange(0, BLOCK), 1.0); }", opts);
  EXPECT_EQ(h.rendered(), "");
  ASSERT_EQ(h.result->kernels[0].specializations.size(), 1u);
  EXPECT_EQ(h.result->kernels[0].specializations[0].entryName, "k__BLOCK_64__w4");
}

TEST(Sema, MissingConstValueSaysHow) {
  Harness h("kernel k(x: *f32, const BLOCK: i32) { store(x + arange(0, BLOCK), 1.0); }");
  EXPECT_EQ(h.rendered(),
            "1:25: error: const parameter `BLOCK` of kernel `k` has no value\n"
            "  note: give it a value with `@config(BLOCK = …)` or `-D BLOCK=…`\n");
}

TEST(Sema, MaskShapeShowsBothShapesAndSuggestsIndexing) {
  Harness h(R"(@config(BM = 64, BN = 32)
kernel k(x: *f32, M: i32, const BM: i32, const BN: i32) {
    let rows = arange(0, BM);
    let cols = arange(0, BN);
    let ptrs = x + rows[:, None] * BN + cols[None, :];
    let v = load(ptrs, mask: rows < M, other: 0.0);
    store(ptrs, v);
}
)");
  EXPECT_EQ(h.rendered(),
            "6:30: error: mask of shape [64] does not broadcast to the pointer shape [64, 32]\n"
            "  note: shapes are aligned from the right; index the mask as `mask[:, None]` "
            "(shape [64, 1]) to apply it to rows\n");
}

TEST(Sema, BlockConditionSaysUseWhere) {
  Harness h(R"(@config(BLOCK = 16)
kernel k(x: *f32, n: i32, const BLOCK: i32) {
    let mask = arange(0, BLOCK) < n;
    if mask { store(x, 1.0); }
}
)");
  EXPECT_EQ(h.rendered(),
            "4:8: error: the condition of `if` needs a scalar, found the block `i1[16]`\n"
            "  note: a block holds one value per element: use `where(cond, a, b)` to choose "
            "per element, or pass it as a `mask:`\n");
}

TEST(Sema, GenericFnInstantiatedPerCall) {
  Harness h(R"(fn relu(x) { return where(x > 0.0, x, 0.0); }
fn scale(x: f32[N], s: f32) -> f32[N] { return x * s; }
@config(B = 16)
kernel k(p: *f16, q: *f32, const B: i32) {
    let a = load(p + arange(0, B));
    let b = load(q + arange(0, B));
    store(p + arange(0, B), relu(a));
    store(q + arange(0, B), scale(relu(b), 2.0));
}
)");
  EXPECT_EQ(h.rendered(), "");
  const Specialization &s = h.result->kernels[0].specializations[0];
  const ast::Expr *ra = h.find("relu(a)");
  const ast::Expr *rb = h.find("relu(b)");
  ASSERT_TRUE(ra && rb);
  EXPECT_EQ(s.body->lookup(ra)->type.str(), "f16[16]");
  EXPECT_EQ(s.body->lookup(rb)->type.str(), "f32[16]");
  const FunctionInstance *fa = s.body->callee(ast::cast<ast::CallExpr>(ra));
  ASSERT_NE(fa, nullptr);
  EXPECT_EQ(fa->decl->name, "relu");
  ASSERT_EQ(fa->paramTypes.size(), 1u);
  EXPECT_EQ(fa->paramTypes[0].str(), "f16[16]");
  const ast::Expr *sc = h.find("scale(relu(b), 2.0)");
  EXPECT_EQ(s.body->lookup(sc)->type.str(), "f32[16]");
}

TEST(Sema, RecursionIsAnError) {
  Harness h(R"(fn f(x) { return f(x); }
kernel k(p: *f32) { store(p, f(1.0)); }
)");
  EXPECT_NE(h.rendered().find("error: recursive call to `f`"), std::string::npos);
}

TEST(Sema, IdenticalDiagnosticsAreReportedOnce) {
  Harness h(R"(@config(B = 16)
@config(B = 32)
kernel k(p: *f32, const B: i32) {
    let unused = 1;
    store(p + arange(0, B), p);
}
)");
  EXPECT_EQ(h.rendered(), "4:9: warning: unused `let` binding `unused`\n"
                          "5:29: error: argument `value` of `store` must be a number or a block of numbers, "
                          "found `*f32`\n");
}

TEST(Sema, EverySampleChecksClean) {
  namespace fs = std::filesystem;
  unsigned count = 0;
  for (const auto &entry : fs::directory_iterator(BLK_SOURCE_DIR "/samples")) {
    if (entry.path().extension() != ".blk")
      continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    SemaOptions opts;
    opts.stdlibDirs = {BLK_SOURCE_DIR "/stdlib"};
    Harness h(text.str(), opts, entry.path().string());
    EXPECT_EQ(h.rendered(), "") << entry.path();
    ++count;
  }
  EXPECT_GE(count, 10u);
}

TEST(Sema, AutotuneKeywords) {
  Harness h(R"(@config(BLOCK = 64)
@autotune(key = [n, m], bucket = [1, 16, 256], restore = [x], zero = [acc])
kernel k(x: *f32, acc: *f32, n: i32, m: i64, const BLOCK: i32) {
    store(x + arange(0, BLOCK), load(x + arange(0, BLOCK)) + 1.0, mask: arange(0, BLOCK) < n);
    atomic_add(acc, 1.0);
}
kernel plain(x: *f32) { store(x, 1.0); }
)");
  EXPECT_EQ(h.rendered(), "");
  const KernelInfo &k = h.result->kernels[0];
  ASSERT_TRUE(k.autotune.has_value());
  EXPECT_EQ(k.autotuneKey, (std::vector<std::string>{"n", "m"}));
  EXPECT_EQ(k.autotune->bucket, AutotuneBucket::List);
  EXPECT_EQ(k.autotune->bucketBounds, (std::vector<int64_t>{1, 16, 256}));
  EXPECT_EQ(k.autotune->restore, (std::vector<std::string>{"x"}));
  EXPECT_EQ(k.autotune->zero, (std::vector<std::string>{"acc"}));
  EXPECT_FALSE(h.result->kernels[1].autotune.has_value()) << "no @autotune, no AutotuneInfo";
}

TEST(Sema, RequiresFoldsPerConfig) {
  Harness h(R"(@config(BLOCK = 64)
@config(BLOCK = 1024)
@requires(n_cols <= BLOCK && (BLOCK < 512 || n_cols % 4 == 0))
@requires(BLOCK >= 64)
kernel k(x: *f32, n_cols: i32, const BLOCK: i32) {
    store(x + arange(0, BLOCK), 1.0, mask: arange(0, BLOCK) < n_cols);
}
)");
  EXPECT_EQ(h.rendered(), "");
  const KernelInfo &k = h.result->kernels[0];
  // BLOCK = 64: `BLOCK < 512` is true, so the `||` drops out of the `&&`;
  // `BLOCK >= 64` holds in both configs and is dropped.
  EXPECT_EQ(k.specializations[0].requirementsJson,
            R"([{"op": "le", "args": [{"param": 1}, {"int": 64}]}])");
  EXPECT_EQ(k.specializations[1].requirementsJson,
            R"([{"op": "and", "args": [{"op": "le", "args": [{"param": 1}, {"int": 1024}]}, )"
            R"({"op": "eq", "args": [{"op": "mod", "args": [{"param": 1}, {"int": 4}]}, )"
            R"({"int": 0}]}]}])");
  EXPECT_EQ(k.specializations[1].requirements.size(), 1u);
}

TEST(Sema, GridFoldsToManifestForm) {
  Harness h(R"(@config(BM = 64, BN = 32)
@autotune(key = [M, N])
@grid(cdiv(M, BM) * cdiv(N, BN), max(M - 1, 1) % 7, -BN + 40)
kernel mm(a: *f32, M: i32, N: i32, const BM: i32, const BN: i32) {
    store(a + arange(0, BM), 1.0, mask: arange(0, BM) < M);
}
)");
  EXPECT_EQ(h.rendered(), "");
  const KernelInfo &k = h.result->kernels[0];
  EXPECT_EQ(k.autotuneKey, (std::vector<std::string>{"M", "N"}));
  const Specialization &s = k.specializations[0];
  EXPECT_EQ(s.entryName, "mm__BM_64_BN_32__w4");
  EXPECT_EQ(s.gridJson,
            R"([{"op": "mul", "args": [{"op": "cdiv", "args": [{"param": 1}, {"int": 64}]}, )"
            R"({"op": "cdiv", "args": [{"param": 2}, {"int": 32}]}]}, )"
            R"({"op": "mod", "args": [{"op": "max", "args": [{"op": "sub", "args": )"
            R"([{"param": 1}, {"int": 1}]}, {"int": 1}]}, {"int": 7}]}, {"int": 8}])");
}
