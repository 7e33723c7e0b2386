//===- ParseRangeTest.cpp - Pieces parsed alone, and moved -----------------===//
//
// The language server's incremental parse (docs/architecture.md, "Language
// server") must build, piece by piece, the AST the whole-file parse builds,
// and a kept piece moved by Module::shift must equal the same text parsed
// at its new offset. Ranges are compared field by field, listed here
// independently of Relocate.cpp.
//
//===----------------------------------------------------------------------===//
#include "blk/Parse/DeclSplitter.h"
#include "blk/Parse/Parser.h"
#include "blk/Support/SourceManager.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace blk;
using namespace blk::ast;

namespace {

/// Uses every node class and every SourceRange field.
const char *kSource = R"(import std.math as m;
import std.random;
// comment
const C: f32 = 1.5;
@config(BLOCK = 64, num_warps = 4)
@grid(cdiv(n, BLOCK))
kernel k(x: *f32 @aligned(16), n: i32, const BLOCK: i32) {
    let offs = program_id(0) * BLOCK + arange(0, BLOCK);
    var acc = zeros([BLOCK], f32);
    let v = load(x + offs, mask: offs < n, other: 0.0) as f16;
    for i in range(0, 4) {
        acc += m.exp(v as f32) * C;
        if i == 2 { break; } else { continue; }
    }
    while false { acc = -acc; }
    let t = acc[None, :];
    let s = [1, 2];
    static_assert(BLOCK > 0, "positive");
    store(x + offs, acc, mask: !(offs >= n) && true);
}
fn f(a, b: f32) -> f32 {
    return a * b;
}
)";

void ranges(const Node *n, std::ostream &os) {
  auto put = [&](std::string_view what, SourceRange r) {
    os << what << " " << r.begin.file << ":" << r.begin.offset << "-" << r.end.offset << "\n";
  };
  put(kindName(n->getKind()), n->getRange());
  if (auto *e = dyn_cast<MemberExpr>(n))
    put("member", e->memberRange);
  if (auto *e = dyn_cast<BinaryExpr>(n))
    put("op", e->opRange);
  if (auto *s = dyn_cast<LetStmt>(n))
    put("name", s->nameRange);
  if (auto *s = dyn_cast<AssignStmt>(n))
    put("op", s->opRange);
  if (auto *s = dyn_cast<ForStmt>(n))
    put("var", s->varRange);
  if (auto *d = dyn_cast<ImportDecl>(n)) {
    for (SourceRange r : d->pathRanges)
      put("path", r);
    put("alias", d->aliasRange);
  }
  if (auto *d = dyn_cast<ConstDecl>(n))
    put("name", d->nameRange);
  if (auto *d = dyn_cast<FunctionDecl>(n))
    put("name", d->nameRange);
  if (auto *t = dyn_cast<TypeRef>(n))
    put("element", t->elementRange);
  if (auto *a = dyn_cast<Argument>(n))
    put("name", a->nameRange);
  if (auto *a = dyn_cast<Attribute>(n))
    put("name", a->nameRange);
  if (auto *p = dyn_cast<Param>(n))
    put("name", p->nameRange);
  forEachChild(n, [&](const Node *child) { ranges(child, os); });
}

std::string declRanges(const Module &m) {
  std::ostringstream os;
  for (const Decl *d : m.decls)
    ranges(d, os);
  return os.str();
}

TEST(ParseRange, PiecesBuildTheWholeFileAST) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  FileId file = sm.addBuffer("t.blk", kSource);
  std::unique_ptr<Module> whole = parseModule(file, diags);
  ASSERT_TRUE(whole);
  auto joined = std::make_unique<Module>(whole->getRange());
  for (ByteSpan s : splitTopLevelDecls(kSource)) {
    std::unique_ptr<Module> piece = parseModuleRange(file, s.begin, s.end, diags);
    ASSERT_TRUE(piece);
    EXPECT_EQ(piece->getRange(), SourceRange(file, s.begin, s.end - s.begin));
    joined->decls.insert(joined->decls.end(), piece->decls.begin(), piece->decls.end());
    joined->parts.push_back(std::move(piece));
  }
  EXPECT_EQ(diags.getDiagnostics().size(), 0u);
  EXPECT_EQ(joined->decls.size(), 5u);
  EXPECT_EQ(declRanges(*joined), declRanges(*whole));
}

TEST(ParseRange, AShiftedPieceEqualsTheTextParsedThere) {
  // Ends with its `;`: the pieces after it are the same texts.
  std::string pad = "const PAD = 0;";
  SourceManager sm;
  DiagnosticEngine diags(sm);
  FileId plain = sm.addBuffer("a.blk", kSource);
  FileId padded = sm.addBuffer("a.blk", pad + kSource);
  // Each piece of the plain text, moved to where it is in the padded one.
  std::vector<ByteSpan> spans = splitTopLevelDecls(kSource);
  std::vector<ByteSpan> paddedSpans = splitTopLevelDecls(pad + kSource);
  ASSERT_EQ(paddedSpans.size(), spans.size() + 1);
  for (size_t i = 0; i < spans.size(); ++i) {
    std::unique_ptr<Module> moved = parseModuleRange(plain, spans[i].begin, spans[i].end, diags);
    ASSERT_TRUE(moved);
    moved->shift(static_cast<int64_t>(pad.size()));
    ByteSpan there = paddedSpans[i + 1];
    std::unique_ptr<Module> fresh = parseModuleRange(padded, there.begin, there.end, diags);
    ASSERT_TRUE(fresh);
    EXPECT_EQ(moved->getRange().begin.offset, fresh->getRange().begin.offset);
    std::string a = declRanges(*moved), b = declRanges(*fresh);
    // The two buffers differ only in their FileId.
    for (size_t p = 0; (p = a.find(std::to_string(plain) + ":", p)) != std::string::npos;)
      a.replace(p, 2, std::to_string(padded) + ":");
    EXPECT_EQ(a, b) << "piece " << i;
  }
  EXPECT_EQ(diags.getDiagnostics().size(), 0u);
}

TEST(ParseRange, AnErrorAtThePieceEndPointsThere) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  std::string text = "const A = (1;\nconst B = 2;";
  FileId file = sm.addBuffer("t.blk", text);
  std::vector<ByteSpan> spans = splitTopLevelDecls(text);
  ASSERT_EQ(spans.size(), 1u); // the `(` never closes
  ParseOptions options;
  options.keepValidDecls = true;
  parseModuleRange(file, 0, 5, diags, options); // `const`: ends early
  ASSERT_FALSE(diags.getDiagnostics().empty());
  for (const Diagnostic &d : diags.getDiagnostics())
    EXPECT_LE(d.range.end.offset, 5u);
}

} // namespace
