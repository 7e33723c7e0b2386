//===- PtxLink.cpp - one PTX module from kernels compiled apart -----------===//
//
// PTX as LLVM's NVPTX back end prints it: a comment banner, the module
// directives, then module-scope statements. Declarations (`.extern`, one or
// several lines up to a `;`) are kept once; every other line is copied,
// call-sequence comments renumbered.
// Tests: tests/unit/Target/PtxLinkTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "blk/Target/PtxLink.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Regex.h"

namespace blk::target {

namespace {
/// A piece split after its `.address_size` line.
struct Piece {
  llvm::StringRef banner;     ///< comments before the directives
  llvm::StringRef directives; ///< `.version` … `.address_size N`
  llvm::StringRef body;
};
} // namespace

static llvm::Expected<Piece> splitPiece(llvm::StringRef ptx, size_t index) {
  size_t version = ptx.find(".version");
  size_t address = ptx.find(".address_size", version);
  if (version == llvm::StringRef::npos || address == llvm::StringRef::npos)
    return llvm::createStringError("PTX piece " + std::to_string(index) +
                                   " has no .version/.address_size directives");
  size_t end = ptx.find('\n', address);
  end = end == llvm::StringRef::npos ? ptx.size() : end + 1;
  return Piece{ptx.take_front(version), ptx.slice(version, end), ptx.drop_front(end)};
}

/// The symbol a definition line at module scope introduces (an entry, a
/// function or a variable), or "" for other lines.
static llvm::StringRef definedSymbol(llvm::StringRef line) {
  static const llvm::Regex definition(
      "^(\\.visible |\\.weak )?(\\.entry|\\.func[ \t]*(\\([^)]*\\))?|\\.global|\\.const|"
      "\\.shared)[^(=;[]*[ \t]([A-Za-z_$%][A-Za-z0-9_$]*)[ \t]*(\\(|\\[|=|;|$)");
  llvm::SmallVector<llvm::StringRef, 6> groups;
  if (line.starts_with(".extern") || !definition.match(line, &groups))
    return "";
  return groups[4];
}

/// NVPTX numbers call sequences (`{ // callseq 3, 0` … `} // callseq 3`)
/// with a counter of the process, not of the module: jobs on several
/// threads would number them by timing. They are renumbered in output
/// order, as one module would have them, so the PTX does not depend on -j.
static std::string renumberCallSeq(llvm::StringRef line,
                                   llvm::DenseMap<unsigned, unsigned> &seen, unsigned &next) {
  size_t at = line.find("// callseq ");
  if (at == llvm::StringRef::npos)
    return line.str();
  llvm::StringRef digits = line.drop_front(at + 11);
  size_t length = digits.find_first_not_of("0123456789");
  unsigned number;
  if (digits.take_front(length).getAsInteger(10, number))
    return line.str();
  auto [it, inserted] = seen.try_emplace(number, next);
  if (inserted)
    ++next;
  return (line.take_front(at + 11) + llvm::Twine(it->second) +
          digits.drop_front(std::min(length, digits.size())))
      .str();
}

llvm::Expected<std::string> linkPtx(llvm::ArrayRef<std::string> pieces) {
  if (pieces.empty())
    return llvm::createStringError("no PTX to link");
  std::string out;
  llvm::StringSet<> declarations, definitions;
  llvm::StringRef directives;
  unsigned nextCallSeq = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    auto piece = splitPiece(pieces[i], i);
    if (!piece)
      return piece.takeError();
    if (i == 0) {
      directives = piece->directives;
      out += piece->banner;
      out += piece->directives;
    } else if (piece->directives != directives) {
      return llvm::createStringError("PTX piece " + std::to_string(i) +
                                     " was compiled for another target (" +
                                     piece->directives.trim().str() + ")");
    }
    llvm::StringRef rest = piece->body;
    if (i > 0) {
      // Spaced as LLVM spaces the functions of one module: no blank line
      // before a later function's `// .globl` comment, nor after it.
      rest = rest.ltrim('\n');
      if (rest.starts_with("\t// .globl")) {
        auto [comment, after] = rest.split('\n');
        out += comment.str() + "\n";
        rest = after.ltrim('\n');
      }
    }
    int depth = 0; // braces: inside a function body or not
    llvm::StringSet<> mine;
    llvm::DenseMap<unsigned, unsigned> callSeqs; // this piece's -> the output's
    while (!rest.empty()) {
      auto [line, next] = rest.split('\n');
      rest = next;
      if (depth == 0 && line.starts_with(".extern")) {
        // A declaration may span lines, up to the one ending in `;`.
        std::string statement = line.str() + "\n";
        while (!llvm::StringRef(statement).rtrim().ends_with(";") && !rest.empty()) {
          std::tie(line, rest) = rest.split('\n');
          statement += line.str() + "\n";
        }
        if (declarations.insert(statement).second)
          out += statement;
        continue;
      }
      // A piece may declare a function before defining it: only symbols of
      // two pieces clash.
      if (depth == 0) {
        llvm::StringRef symbol = definedSymbol(line);
        if (!symbol.empty() && definitions.contains(symbol))
          return llvm::createStringError("PTX symbol `" + symbol.str() +
                                         "` is defined by two pieces");
        if (!symbol.empty())
          mine.insert(symbol);
      }
      depth += line.count('{') - line.count('}');
      out += renumberCallSeq(line, callSeqs, nextCallSeq);
      out += '\n';
    }
    for (const auto &symbol : mine)
      definitions.insert(symbol.getKey());
  }
  return out;
}

} // namespace blk::target
