//===- TransportTest.cpp - LSP framing (blk/Lsp/Transport.h) --------------===//
#include "blk/Lsp/Transport.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace blk::lsp;
using Status = ReadResult::Status;

static std::string frame(const std::string &body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

TEST(Transport, ReadsConsecutiveMessages) {
  std::istringstream in(frame(R"({"id":1})") + "\r\n" + frame(R"({"id":2})"));
  MessageReader reader(in);
  EXPECT_EQ(reader.next().message["id"], 1);
  EXPECT_EQ(reader.next().message["id"], 2);
  EXPECT_EQ(reader.next().status, Status::Eof);
}

TEST(Transport, InvalidUtf8InAStringIsRepairedNotRejected) {
  std::istringstream in(frame("{\"text\":\"a\xFF"
                              "b\"}"));
  MessageReader reader(in);
  ReadResult r = reader.next();
  ASSERT_EQ(r.status, Status::Message) << r.error;
  EXPECT_EQ(r.message["text"], "a\xEF\xBF\xBD"
                               "b");
}

TEST(Transport, OversizedLengthIsAnErrorAndLaterMessagesStillArrive) {
  // A length of 100 MiB (above the 64 MiB limit) on a short body: the
  // reader must not wait for, or swallow, 100 MiB of later input.
  std::istringstream in("Content-Length: 104857600\r\n\r\n{\"id\":1}" +
                        frame(R"({"id":2})"));
  MessageReader reader(in);
  ReadResult r = reader.next();
  EXPECT_EQ(r.status, Status::Malformed);
  EXPECT_NE(r.error.find("104857600 bytes is larger than the 64 MiB"),
            std::string::npos)
      << r.error;
  r = reader.next();
  ASSERT_EQ(r.status, Status::Message) << r.error;
  EXPECT_EQ(r.message["id"], 2);
  EXPECT_EQ(reader.next().status, Status::Eof);
}

TEST(Transport, LengthBeyond64BitsIsOversizedNotInvalid) {
  std::istringstream in("Content-Length: 99999999999999999999999\r\n\r\n" +
                        frame(R"({"id":3})"));
  MessageReader reader(in);
  ReadResult r = reader.next();
  EXPECT_EQ(r.status, Status::Malformed);
  EXPECT_NE(r.error.find("larger than the 64 MiB"), std::string::npos);
  EXPECT_EQ(reader.next().message["id"], 3);
}

TEST(Transport, ExactlyTheLimitIsAccepted) {
  std::string body =
      "{\"t\":\"" + std::string(kMaxMessageSize - 8, 'x') + "\"}";
  ASSERT_EQ(body.size(), kMaxMessageSize);
  std::istringstream in(frame(body));
  MessageReader reader(in);
  ReadResult r = reader.next();
  ASSERT_EQ(r.status, Status::Message) << r.error;
  EXPECT_EQ(r.message["t"].get_ref<const std::string &>().size(),
            kMaxMessageSize - 8);
}
