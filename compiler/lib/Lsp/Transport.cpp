//===- Transport.cpp - JSON-RPC framing of the language server ------------===//

#include "blk/Lsp/Transport.h"

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

ReadResult readMessage(std::istream &in) {
  ReadResult result;
  std::string line;
  // Skip blank lines between messages (some clients send an extra "\r\n").
  do {
    if (!readHeaderLine(in, line))
      return result; // Eof
  } while (line.empty());

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
      if (ec != std::errc() || ptr != value.data() + value.size()) {
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
    in.ignore(std::streamsize(length));
    result.error = "message larger than the server accepts";
    return result;
  }
  std::string body(length, '\0');
  in.read(body.data(), std::streamsize(length));
  if (size_t(in.gcount()) != length) {
    result.error = "input ended inside a message body";
    return result;
  }
  // parse(..., allow_exceptions = false) yields a discarded value on error.
  nlohmann::json parsed = nlohmann::json::parse(body, nullptr, false);
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
