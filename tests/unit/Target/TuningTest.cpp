//===- TuningTest.cpp - reading tuning tables (blk-tuning, version 1) -----===//
#include "blk/Target/Tuning.h"

#include <gtest/gtest.h>

using namespace blk::target;

namespace {

/// The message of a table that must be refused.
std::string refusal(llvm::StringRef text) {
  auto table = parseTuningTable(text, "t.json");
  if (table)
    return "(accepted)";
  return llvm::toString(table.takeError());
}

const char *kHeader = R"({"format": "blk-tuning", "version": 1,
  "device": {"name": "NVIDIA H200", "sm": 90}, "artifact": "ignored.fatbin", )";

} // namespace

TEST(TuningTest, ReadsEveryField) {
  std::string text = std::string(kHeader) + R"("entries": [
    {"kernel": "matmul", "key": {"N": 64, "M": 4096},
     "config": "BM=128 num_warps=8 num_stages=3",
     "timings": [{"config": "BM=128 num_warps=8 num_stages=3", "code_hash": "0123456789abcdef",
                  "ms": 1.25},
                 {"config": "BM=64 num_warps=4 num_stages=3", "ms": 2}],
     "skipped": [{"config": "BM=256 num_warps=8 num_stages=3", "reason": "out of memory"}]},
    {"kernel": "softmax", "key": {"n": -1}, "config": "BLOCK=1024 num_warps=4 num_stages=3"}]})";
  auto table = parseTuningTable(text, "t.json");
  ASSERT_TRUE(static_cast<bool>(table)) << llvm::toString(table.takeError());
  EXPECT_EQ(table->path, "t.json");
  EXPECT_EQ(table->deviceName, "NVIDIA H200");
  EXPECT_EQ(table->sm, 90);
  ASSERT_EQ(table->entries.size(), 2u);
  const TuningEntry &mm = table->entries[0];
  EXPECT_EQ(mm.kernel, "matmul");
  EXPECT_EQ(mm.key, (std::vector<std::pair<std::string, int64_t>>{{"N", 64}, {"M", 4096}}));
  EXPECT_EQ(mm.config, "BM=128 num_warps=8 num_stages=3");
  ASSERT_EQ(mm.timings.size(), 2u);
  EXPECT_EQ(mm.timings[0].codeHash, std::optional<std::string>("0123456789abcdef"));
  EXPECT_EQ(mm.timings[0].ms, 1.25);
  EXPECT_EQ(mm.timings[1].codeHash, std::nullopt);
  EXPECT_EQ(mm.timings[1].ms, 2.0);
  ASSERT_EQ(mm.skipped.size(), 1u);
  EXPECT_EQ(mm.skipped[0].reason, "out of memory");
  EXPECT_EQ(table->entries[1].key[0].second, -1);
  EXPECT_TRUE(table->entries[1].timings.empty());
}

TEST(TuningTest, RefusesWhatIsNotATable) {
  EXPECT_EQ(refusal("{\"format\": "),
            "t.json: not valid JSON: parse error at line 1, column 12: syntax error while "
            "parsing value - unexpected end of input; expected '[', '{', or a literal");
  EXPECT_EQ(refusal("[]"), "t.json: a tuning table is a JSON object, found an array");
  EXPECT_EQ(refusal(R"({"format": "blk-manifest", "version": 1})"),
            "t.json: not a tuning table: `format` must be \"blk-tuning\"");
  EXPECT_EQ(refusal(R"({"format": "blk-tuning", "version": 2})"),
            "t.json: tuning table version 2 is not supported (blkc reads version 1)");
  EXPECT_EQ(refusal(R"({"format": "blk-tuning"})"),
            "t.json: tuning table version missing is not supported (blkc reads version 1)");
  EXPECT_EQ(refusal(R"({"format": "blk-tuning", "version": 1, "device": "H200", "entries": []})"),
            "t.json: `device` must be an object with `name` (a string) and `sm` (an integer), "
            "as in {\"name\": \"NVIDIA H200\", \"sm\": 90}");
  EXPECT_EQ(refusal(std::string(kHeader) + R"("entries": {}})"),
            "t.json: `entries` must be an array");
}

TEST(TuningTest, NamesTheEntryOfABadField) {
  auto entries = [](const char *second) {
    return std::string(kHeader) + R"("entries": [{"kernel": "k", "key": {}, "config": "c"}, )" +
           second + "]}";
  };
  EXPECT_EQ(refusal(entries("7")), "t.json: entry 2: must be an object, found an integer");
  EXPECT_EQ(refusal(entries(R"({"kernel": "k", "key": {}})")),
            "t.json: entry 2: needs `kernel` and `config`, both strings");
  EXPECT_EQ(refusal(entries(R"({"kernel": "k", "config": "c", "key": [1]})")),
            "t.json: entry 2: `key` must be an object of integers, as in {\"M\": 4096}");
  EXPECT_EQ(refusal(entries(R"({"kernel": "k", "config": "c", "key": {"M": 1.5}})")),
            "t.json: entry 2: key `M` must be a 64-bit integer, found a number");
  EXPECT_EQ(refusal(entries(R"({"kernel": "k", "config": "c", "key": {"M": 9223372036854775808}})")),
            "t.json: entry 2: key `M` must be a 64-bit integer, found an integer");
  EXPECT_EQ(refusal(entries(R"({"kernel": "k", "config": "c", "key": {}, "timings": [{"ms": 1}]})")),
            "t.json: entry 2: each timing needs `config` (a string) and `ms` (a number)");
  EXPECT_EQ(refusal(entries(R"({"kernel": "k", "config": "c", "key": {},
                               "timings": [{"config": "c", "ms": 1, "code_hash": 5}]})")),
            "t.json: entry 2: a timing's `code_hash` must be a string");
  EXPECT_EQ(refusal(entries(R"({"kernel": "k", "config": "c", "key": {}, "skipped": [{"config": "c"}]})")),
            "t.json: entry 2: each skipped config needs `config` and `reason`, both strings");
}

TEST(TuningTest, ReadsAFileAndNamesAMissingOne) {
  auto table = readTuningTable("/nonexistent/t.json");
  ASSERT_FALSE(static_cast<bool>(table));
  EXPECT_EQ(llvm::toString(table.takeError()).rfind("/nonexistent/t.json: cannot read the tuning table: ", 0),
            0u);
}
