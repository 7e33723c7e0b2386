//===- BuiltinDocs.h - Signatures and docs of blk built-ins -----*- C++ -*-===//
//
// One row per built-in of LANGUAGE.md §7 (plus `range`/`static_range`), per
// attribute and per `@autotune` keyword: the signature shown by hover and
// completion and a one-line description. This is presentation only; Sema
// owns the typing rules.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LSP_BUILTINDOCS_H
#define BLK_LSP_BUILTINDOCS_H

#include <string_view>
#include <vector>

namespace blk::lsp {

/// Signature and one-line documentation of a built-in.
struct BuiltinDoc {
  std::string_view name;
  std::string_view signature;
  std::string_view doc;
};

/// Every documented built-in, in the order of LANGUAGE.md §7.
const std::vector<BuiltinDoc> &builtinDocs();
/// The row of `name`, or nullptr.
const BuiltinDoc *findBuiltinDoc(std::string_view name);

/// The kernel and parameter attributes (`@config`, …, `@requires`,
/// `@aligned`): name without `@`, the form as `signature`, and a doc line.
const std::vector<BuiltinDoc> &attributeDocs();
/// The keywords of `@autotune(...)`: `key`, `bucket`, `restore`, `zero`.
const std::vector<BuiltinDoc> &autotuneKeywordDocs();
/// The named values of `bucket =`: `pow2`, `exact`.
const std::vector<BuiltinDoc> &bucketDocs();
/// The row of `name` in `docs`, or nullptr.
const BuiltinDoc *findDoc(const std::vector<BuiltinDoc> &docs, std::string_view name);

/// The keywords of LANGUAGE.md §2.
const std::vector<std::string_view> &keywords();
/// The scalar type names of LANGUAGE.md §3 (`bool` included).
const std::vector<std::string_view> &scalarTypeNames();

} // namespace blk::lsp

#endif // BLK_LSP_BUILTINDOCS_H
