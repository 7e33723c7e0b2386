//===- ConfigDiagnostics.cpp - one diagnostic per mistake, not per config -===//
//
// Expects the diagnostics of each specialisation of one kernel collected in
// its own sink (Kernels.cpp analyses them one by one).
// Guarantees one diagnostic per mistake: those with the same kind, range and
// message in several specialisations become one, in source order. When the
// mistake depends on the config (some configs only, or notes that differ
// per config, such as "`BLOCK` is 64 here"), the notes shared by every copy
// are kept and one note lists the configs:
//   note: in `@config(BLOCK = 64)` and `@config(BLOCK = 128)`
// or "in every `@config`"; a mistake found identically in every config is
// not about the configs and gets no note.
// Tests: tests/lit/sema/fail_sema_several_configs.blk,
// render_several_configs.blk, fail_sema_only_some_configs.blk,
// tests/lit/lsp/lsp.test (testOneDiagnosticForSeveralConfigs).
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include <algorithm>
#include <map>
#include <set>

namespace blk::sema::detail {

namespace {

std::string rangeKey(SourceRange r) {
  return std::to_string(r.begin.file) + ":" + std::to_string(r.begin.offset) + "-" +
         std::to_string(r.end.offset);
}

/// What makes two copies "the same mistake": kind, location, message.
std::string mistakeKey(const Diagnostic &d) {
  return std::to_string(int(d.id)) + "|" + rangeKey(d.range) + "|" + d.message;
}

std::string noteKey(const DiagnosticNote &n) {
  return std::to_string(int(n.id)) + "|" + rangeKey(n.range) + "|" + n.message;
}

/// The copies of one mistake: the diagnostic of each specialisation that
/// reported it, in specialisation order.
struct Mistake {
  std::vector<Diagnostic> copies;
  std::vector<size_t> specs; ///< distinct, ascending
};

/// True when a note already points at the config's value (CheckCall.cpp's
/// addValueNotes), which says where the diagnostic comes from.
bool namesItsConfig(const Diagnostic &d) {
  return std::any_of(d.notes.begin(), d.notes.end(), [](const DiagnosticNote &n) {
    return n.id == DiagId::note_sema_config_value || n.id == DiagId::note_sema_define_value;
  });
}

/// `text` with each run of whitespace (newlines included) as one space.
std::string oneLine(const std::string &text) {
  std::string out;
  for (char c : text) {
    bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (!space)
      out += c;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  }
  return out;
}

/// `@config(BLOCK = 64, num_warps = 4)` as written (values as source text),
/// on one line whatever the source's layout.
std::string configText(const Analyzer &a, const ast::Attribute &attr) {
  std::string text = "@config(";
  for (size_t i = 0; i < attr.args.size(); ++i) {
    const ast::Argument &arg = *attr.args[i];
    if (i)
      text += ", ";
    if (arg.isNamed())
      text += arg.name + " = ";
    if (arg.value)
      text += oneLine(a.sourceText(arg.value->getRange()));
  }
  return text + ")";
}

/// "`A`", "`A` and `B`", "`A`, `B` and `C`".
std::string listConfigs(const std::vector<std::string> &configs) {
  std::string text;
  for (size_t i = 0; i < configs.size(); ++i) {
    if (i)
      text += i + 1 == configs.size() ? " and " : ", ";
    text += "`" + configs[i] + "`";
  }
  return text;
}

/// The one diagnostic for `m`, out of `total` specialisations.
Diagnostic mergeCopies(const Analyzer &a, const KernelInfo &k, Mistake &m, size_t total) {
  Diagnostic d = std::move(m.copies.front());
  std::vector<std::multiset<std::string>> noteSets;
  bool notesDiffer = false;
  for (size_t i = 1; i < m.copies.size(); ++i) {
    std::multiset<std::string> keys;
    for (const DiagnosticNote &n : m.copies[i].notes)
      keys.insert(noteKey(n));
    notesDiffer |= keys.size() != d.notes.size();
    noteSets.push_back(std::move(keys));
  }
  // Keep the notes every copy has; the others (the config values) are
  // replaced by the list of configs below.
  std::vector<DiagnosticNote> shared;
  for (const DiagnosticNote &n : d.notes) {
    std::string key = noteKey(n);
    bool everywhere = std::all_of(noteSets.begin(), noteSets.end(),
                                  [&](const auto &keys) { return keys.count(key) != 0; });
    notesDiffer |= !everywhere;
    if (everywhere)
      shared.push_back(n);
  }
  bool everyConfig = m.specs.size() == total;
  if (everyConfig && !notesDiffer)
    return d; // the same everywhere: not about the configs
  d.notes = std::move(shared);
  // A single copy whose note points at its config's value says enough.
  if (m.copies.size() == 1 && namesItsConfig(d))
    return d;
  if (everyConfig) {
    d.notes.push_back({DiagId::note_sema_config,
                       formatDiagnostic(diagFormat(DiagId::note_sema_config),
                                        {"every `@config`"}),
                       SourceRange()});
    return d;
  }
  std::vector<std::string> configs;
  SourceRange first;
  for (size_t s : m.specs) {
    const ast::Attribute *attr = k.specializations[s].configAttr;
    if (!attr)
      continue;
    if (!first.isValid())
      first = attr->getRange();
    configs.push_back(configText(a, *attr));
  }
  if (!configs.empty())
    d.notes.push_back({DiagId::note_sema_config,
                       formatDiagnostic(diagFormat(DiagId::note_sema_config),
                                        {listConfigs(configs)}),
                       first});
  return d;
}

} // namespace

void mergeConfigDiagnostics(Analyzer &a, const KernelInfo &k,
                            std::vector<std::vector<Diagnostic>> &sinks) {
  std::vector<Mistake> mistakes;
  std::map<std::string, size_t> index;
  for (size_t s = 0; s < sinks.size(); ++s) {
    for (Diagnostic &d : sinks[s]) {
      auto [it, inserted] = index.emplace(mistakeKey(d), mistakes.size());
      if (inserted)
        mistakes.emplace_back();
      Mistake &m = mistakes[it->second];
      // A specialisation that reports the same mistake twice (a loop body
      // checked again) counts once.
      if (!m.specs.empty() && m.specs.back() == s)
        continue;
      m.specs.push_back(s);
      m.copies.push_back(std::move(d));
    }
  }
  // Source order reads best (unused-let warnings are found at scope end).
  std::stable_sort(mistakes.begin(), mistakes.end(), [](const Mistake &x, const Mistake &y) {
    const SourceLoc &a = x.copies.front().range.begin, &b = y.copies.front().range.begin;
    return a.file != b.file ? a.file < b.file : a.offset < b.offset;
  });
  for (Mistake &m : mistakes)
    a.diags.emit(mergeCopies(a, k, m, sinks.size()));
}

} // namespace blk::sema::detail
