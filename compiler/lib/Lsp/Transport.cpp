//===- Transport.cpp - JSON-RPC framing of the language server ------------===//

#include "blk/Lsp/Transport.h"

#include "blk/Support/Utf8.h"

#include <cctype>
#include <charconv>

namespace blk::lsp {

/// Reads one header line (without its "\r\n" or "\n"). False at end of input.
static bool readHeaderLine(std::istream &in, std::string &line) {
  if (!std::getline(in, line))
    return false;
  if (!line.empty() && line.back() == '\r')
    line.pop_back();
  return true;
}

static std::string lowercase(std::string s) {
  for (char &c : s)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

static std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

/// Discards input through the next `Content-Length:` (any case). False at
/// the end of input. Streams byte by byte: an oversized body is never held.
static bool skipToNextHeader(std::istream &in) {
  static constexpr std::string_view kKey = "content-length:";
  size_t matched = 0;
  for (int c = in.get(); c != std::char_traits<char>::eof(); c = in.get()) {
    char lc = char(std::tolower(c));
    // 'c' occurs once in kKey, so a mismatch can only restart at kKey[0].
    if (lc == kKey[matched]) {
      if (++matched == kKey.size())
        return true;
    } else {
      matched = lc == kKey[0] ? 1 : 0;
    }
  }
  return false;
}

ReadResult MessageReader::next() {
  ReadResult result;
  std::string line;
  if (resumeInHeader) {
    resumeInHeader = false;
    if (!readHeaderLine(in, line))
      return result; // Eof
    line = "Content-Length:" + line;
  } else {
    // Skip blank lines between messages (some clients send an extra "\r\n").
    do {
      if (!readHeaderLine(in, line))
        return result; // Eof
    } while (line.empty());
  }

  bool haveLength = false;
  bool badLength = false;
  size_t length = 0;
  bool sawGarbage = false;
  for (;;) {
    size_t colon = line.find(':');
    if (colon == std::string::npos) {
      sawGarbage = true;
    } else if (lowercase(trim(line.substr(0, colon))) == "content-length") {
      std::string value = trim(line.substr(colon + 1));
      unsigned long long n = 0;
      auto [ptr, ec] =
          std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec == std::errc::result_out_of_range) {
        haveLength = true;
        length = SIZE_MAX;
      } else if (ec != std::errc() || ptr != value.data() + value.size()) {
        badLength = true;
      } else {
        haveLength = true;
        length = size_t(n);
      }
    }
    if (!readHeaderLine(in, line))
      return ReadResult{}; // Eof inside a header: nothing more can follow
    if (line.empty())
      break;
  }

  result.status = ReadResult::Status::Malformed;
  if (!haveLength) {
    result.error = badLength    ? "invalid Content-Length header"
                   : sawGarbage ? "header block is not `Name: value` lines"
                                : "missing Content-Length header";
    return result;
  }
  if (length > kMaxMessageSize) {
    result.error = "message of " +
                   (length == SIZE_MAX ? std::string("more than 2^64")
                                       : std::to_string(length)) +
                   " bytes is larger than the 64 MiB the server accepts; "
                   "skipped to the next Content-Length header";
    resumeInHeader = skipToNextHeader(in);
    return result;
  }
  std::string body(length, '\0');
  in.read(body.data(), std::streamsize(length));
  if (size_t(in.gcount()) != length) {
    result.error = "input ended inside a message body";
    return result;
  }
  // JSON's structure is ASCII, so replacing bytes that are not UTF-8 only
  // changes string contents (the document text), never the message shape.
  std::string text = repairUtf8(body);
  // parse(..., allow_exceptions = false) yields a discarded value on error.
  nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  if (parsed.is_discarded()) {
    result.error = "message body is not valid JSON";
    return result;
  }
  result.status = ReadResult::Status::Message;
  result.message = std::move(parsed);
  return result;
}

void writeMessage(std::ostream &out, const nlohmann::json &message) {
  // Replace invalid UTF-8 coming from user buffers instead of throwing.
  std::string body =
      message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out.flush();
}

} // namespace blk::lsp
