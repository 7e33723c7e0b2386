//===- InlayHints.cpp - textDocument/inlayHint ----------------------------===//
//
// After the name of each `let` / `var` without a type annotation, the type
// hover shows for it: `: i32[1024]` when every specialisation agrees, else
// the distinct types in config order (`: i32[1024] | i32[256]`) with one
// line per `@config` in the tooltip. A declaration no analysed instance
// reaches (an uncalled generic fn) gets no hint.
// Tests: tests/lit/lsp/inlay-hints.test.
//
//===----------------------------------------------------------------------===//

#include "AstQuery.h"
#include "blk/Lsp/Features.h"

#include <functional>

namespace blk::lsp {

using namespace blk::ast;
using nlohmann::json;

/// LSP InlayHintKind.Type.
static constexpr int kTypeHint = 1;

static json hintFor(const Analysis &analysis, const LetStmt *let,
                    const std::vector<Fact> &facts) {
  std::vector<std::string> distinct;
  for (const Fact &f : facts)
    if (std::find(distinct.begin(), distinct.end(), f.type) == distinct.end())
      distinct.push_back(f.type);
  std::string label = ": ";
  for (size_t i = 0; i < distinct.size(); ++i)
    label += (i ? " | " : "") + distinct[i];
  json hint = {
      {"position", toLspRange(analysis, let->nameRange)["end"]},
      {"label", label},
      {"kind", kTypeHint},
      {"paddingLeft", false},
  };
  if (distinct.size() > 1) {
    std::string tip;
    for (const Fact &f : facts)
      tip += (tip.empty() ? "" : "\n") + f.label + " → " + f.type;
    hint["tooltip"] = tip;
  }
  return hint;
}

json inlayHints(const Analysis &analysis, uint32_t begin, uint32_t end) {
  json hints = json::array();
  if (!analysis.module || !analysis.sema)
    return hints;
  std::function<void(const Node *)> visit = [&](const Node *node) {
    if (!node)
      return;
    SourceRange r = node->getRange();
    if (!isa<Module>(node) && (r.end.offset < begin || r.begin.offset > end))
      return;
    if (auto *let = dyn_cast<LetStmt>(node);
        let && !let->type && let->nameRange.isValid() &&
        let->nameRange.end.offset >= begin &&
        let->nameRange.end.offset <= end) {
      std::vector<Fact> facts = declFacts(*analysis.sema, let);
      if (!facts.empty())
        hints.push_back(hintFor(analysis, let, facts));
    }
    forEachChild(node, visit);
  };
  visit(analysis.module);
  return hints;
}

} // namespace blk::lsp
