//===- PtxLink.cpp - one PTX module from kernels compiled apart -----------===//
//
// PTX as LLVM's NVPTX back end prints it: a comment banner, the module
// directives, then module-scope statements. Declarations (`.extern`, one or
// several lines up to a `;`) and empty debug sections are kept once; the
// `.file` tables of line info become one table at the end, each `.loc`
// renumbered to it; every other line is copied, call-sequence comments
// renumbered.
// Tests: tests/unit/Target/PtxLinkTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "blk/Target/PtxLink.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <vector>
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

namespace {
/// The state of one link: what the pieces so far declared and defined, and
/// the numbering of what each piece numbers on its own.
class PtxLinker {
public:
  llvm::Error addPiece(const Piece &piece, size_t index);
  /// The output so far, with the file table every `.loc` refers to.
  std::string finish();

private:
  std::string renumberCallSeq(llvm::StringRef line);
  std::string renumberFile(llvm::StringRef line);
  void readFiles(llvm::StringRef body);

  std::string out;
  llvm::StringSet<> declarations, definitions;
  /// NVPTX numbers call sequences (`{ // callseq 3, 0` … `} // callseq 3`)
  /// with a counter of the process, not of the module: jobs on several
  /// threads would number them by timing. They are renumbered in output
  /// order, as one module would have them, so the PTX does not depend on -j.
  llvm::DenseMap<unsigned, unsigned> callSeqs; ///< this piece's -> output's
  unsigned nextCallSeq = 0;
  /// `.file N "path"` (line info): every piece numbers its files from 1, and
  /// ptxas refuses an index defined twice. One table for the output.
  llvm::StringMap<unsigned> fileIndex; ///< `"path"…` -> output index
  std::vector<std::string> files;      ///< by output index - 1
  llvm::DenseMap<unsigned, unsigned> pieceFiles; ///< this piece's -> output's
};
} // namespace

/// `\t.file\t1 "a.blk"` -> (1, `"a.blk"`), or nullopt for other lines.
static std::optional<std::pair<unsigned, llvm::StringRef>> parseFile(llvm::StringRef line) {
  llvm::StringRef rest = line.ltrim();
  if (!rest.consume_front(".file"))
    return std::nullopt;
  rest = rest.ltrim();
  size_t digits = rest.find_first_not_of("0123456789");
  unsigned index;
  if (digits == 0 || rest.take_front(digits).getAsInteger(10, index))
    return std::nullopt;
  return std::make_pair(index, rest.drop_front(digits).trim());
}

void PtxLinker::readFiles(llvm::StringRef body) {
  pieceFiles.clear();
  for (llvm::StringRef line : llvm::split(body, '\n'))
    if (auto file = parseFile(line)) {
      auto [it, inserted] = fileIndex.try_emplace(file->second, files.size() + 1);
      if (inserted)
        files.push_back(file->second.str());
      pieceFiles[file->first] = it->second;
    }
}

/// Renumbers the number after `key` in `line` through `map` (numbers not
/// in it are given `next`, then counted, when `next` is set).
static std::string renumberAfter(llvm::StringRef line, llvm::StringRef key,
                                 llvm::DenseMap<unsigned, unsigned> &map, unsigned *next) {
  size_t at = line.find(key);
  if (at == llvm::StringRef::npos)
    return line.str();
  llvm::StringRef tail = line.drop_front(at + key.size());
  size_t length = std::min(tail.find_first_not_of("0123456789"), tail.size());
  unsigned number;
  if (length == 0 || tail.take_front(length).getAsInteger(10, number))
    return line.str();
  auto it = map.find(number);
  if (it == map.end()) {
    if (!next)
      return line.str();
    it = map.try_emplace(number, (*next)++).first;
  }
  return (line.take_front(at + key.size()) + llvm::Twine(it->second) + tail.drop_front(length))
      .str();
}

std::string PtxLinker::renumberCallSeq(llvm::StringRef line) {
  return renumberAfter(line, "// callseq ", callSeqs, &nextCallSeq);
}

std::string PtxLinker::renumberFile(llvm::StringRef line) {
  if (!line.ltrim().starts_with(".loc"))
    return line.str();
  std::string result = renumberAfter(line, ".loc\t", pieceFiles, nullptr);
  result = renumberAfter(result, ".loc ", pieceFiles, nullptr);
  return renumberAfter(result, "inlined_at ", pieceFiles, nullptr);
}

llvm::Error PtxLinker::addPiece(const Piece &piece, size_t index) {
  llvm::StringRef rest = piece.body;
  if (index > 0) {
    // Spaced as LLVM spaces the functions of one module: no blank line
    // before a later function's `// .globl` comment, nor after it.
    rest = rest.ltrim('\n');
    if (rest.starts_with("\t// .globl")) {
      auto [comment, after] = rest.split('\n');
      out += comment.str() + "\n";
      rest = after.ltrim('\n');
    }
  }
  readFiles(rest);
  callSeqs.clear();
  int depth = 0; // braces: inside a function body or not
  llvm::StringSet<> mine;
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
    if (depth == 0 && parseFile(line))
      continue; // finish() writes the one file table
    // An empty debug section (`.section .debug_loc { }`) once.
    if (depth == 0 && line.ltrim().starts_with(".section") && line.count('{') == 1 &&
        line.count('}') == 1) {
      if (declarations.insert(line).second)
        out += line.str() + "\n";
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
    out += renumberFile(renumberCallSeq(line));
    out += '\n';
  }
  for (const auto &symbol : mine)
    definitions.insert(symbol.getKey());
  return llvm::Error::success();
}

std::string PtxLinker::finish() {
  for (size_t i = 0; i < files.size(); ++i)
    out += "\t.file\t" + std::to_string(i + 1) + " " + files[i] + "\n";
  return std::move(out);
}

llvm::Expected<std::string> linkPtx(llvm::ArrayRef<std::string> pieces) {
  if (pieces.empty())
    return llvm::createStringError("no PTX to link");
  PtxLinker linker;
  std::string head;
  llvm::StringRef directives;
  for (size_t i = 0; i < pieces.size(); ++i) {
    auto piece = splitPiece(pieces[i], i);
    if (!piece)
      return piece.takeError();
    if (i == 0) {
      directives = piece->directives;
      head = piece->banner.str() + piece->directives.str();
    } else if (piece->directives != directives) {
      return llvm::createStringError("PTX piece " + std::to_string(i) +
                                     " was compiled for another target (" +
                                     piece->directives.trim().str() + ")");
    }
    if (llvm::Error err = linker.addPiece(*piece, i))
      return err;
  }
  return head + linker.finish();
}

llvm::Expected<std::string> ptxModuleHead(llvm::StringRef ptx) {
  auto piece = splitPiece(ptx, 0);
  if (!piece)
    return piece.takeError();
  return piece->banner.str() + piece->directives.str();
}

} // namespace blk::target
