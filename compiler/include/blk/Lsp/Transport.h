//===- Transport.h - JSON-RPC framing of the language server ----*- C++ -*-===//
//
// LSP base protocol over a byte stream: each message is a header block
// (`Content-Length: N\r\n`, other headers ignored, then `\r\n`) followed by
// N bytes of UTF-8 JSON. Reading never throws and never trusts the input:
// a header block without a usable length, or a body that is not JSON, comes
// back as a Malformed result so the server can answer ParseError and go on.
// Bytes that are not valid UTF-8 are replaced by U+FFFD before the body is
// parsed (a buffer with stray bytes stays alive and gets the lexer's
// diagnostic). A length above kMaxMessageSize is Malformed too, and its body
// is not trusted: input is skipped up to the next `Content-Length:` header,
// so a wrong length cannot swallow the messages after it.
// Tests: tests/lit/lsp/lsp_e2e.py (garbage input), tests/unit/Lsp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LSP_TRANSPORT_H
#define BLK_LSP_TRANSPORT_H

#include <nlohmann/json.hpp>

#include <istream>
#include <ostream>
#include <string>

namespace blk::lsp {

/// JSON-RPC and LSP error codes used by the server.
enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
  kRequestFailed = -32803,
};

/// Outcome of reading one message.
struct ReadResult {
  enum class Status { Message, Malformed, Eof };
  Status status = Status::Eof;
  nlohmann::json message; ///< the parsed body (Status::Message)
  std::string error;      ///< why it was malformed (Status::Malformed)
};

/// Largest body accepted (64 MiB); a longer one is reported malformed.
inline constexpr size_t kMaxMessageSize = size_t(64) << 20;

/// Reads framed messages from one stream. Holds the only state framing
/// needs: whether the last read stopped inside a header line while
/// resynchronising after an oversized message.
class MessageReader {
public:
  explicit MessageReader(std::istream &in) : in(in) {}
  /// Reads the next framed message.
  ReadResult next();

private:
  std::istream &in;
  /// True when the stream stands just after a `Content-Length:` that the
  /// resynchronisation consumed.
  bool resumeInHeader = false;
};

/// Writes `message` with its Content-Length header and flushes.
void writeMessage(std::ostream &out, const nlohmann::json &message);

} // namespace blk::lsp

#endif // BLK_LSP_TRANSPORT_H
