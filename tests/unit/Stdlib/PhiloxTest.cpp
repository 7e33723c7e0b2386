// std.random's Philox 4x32-10 (stdlib/std/random.blk), interpreted, against
// a C++ reference of Philox written from Random123: bit-exact on the
// published known-answer vectors and on random counters and keys; randint
// and rand (Triton's uint_to_uniform_float) against the reference for 32-
// and 64-bit seeds.
#include "blk/Interpreter/Session.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>

using namespace blk::interp;

namespace {

using Words = std::array<uint32_t, 4>;

/// Philox4x32-10: 10 rounds of two 32x32->64 multiplies, Weyl key bumps.
Words philoxRef(Words c, uint32_t k0, uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = uint64_t(0xD2511F53u) * c[0];
    uint64_t p1 = uint64_t(0xCD9E8D57u) * c[2];
    c = {uint32_t(p1 >> 32) ^ c[1] ^ k0, uint32_t(p1), uint32_t(p0 >> 32) ^ c[3] ^ k1,
         uint32_t(p0)};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

/// Triton's uint_to_uniform_float: the word as an i32, -x - 1 (= ~x) when
/// negative, to f32, times the f32 4.6566127342e-10.
float tritonUniform(uint32_t word) {
  uint32_t x = word >> 31 ? ~word : word;
  return float(int32_t(x)) * 4.6566127342e-10f;
}

struct Kat {
  Words ctr;
  uint32_t k0, k1;
  Words out;
};
// Random123's kat_vectors for philox4x32-10.
const Kat kats[] = {
    {{0, 0, 0, 0}, 0, 0, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, 0xffffffff, 0xffffffff,
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, 0xa4093822, 0x299f31d0,
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

std::unique_ptr<Session> loadKernels() {
  SessionOptions options;
  options.includeDirs = {BLK_SOURCE_DIR "/stdlib"};
  auto session = Session::load(BLK_SOURCE_DIR "/tests/unit/Stdlib/philox.blk", options);
  if (!session) {
    ADD_FAILURE() << llvm::toString(session.takeError());
    return nullptr;
  }
  return std::move(*session);
}

/// Runs kernel `philox` on the given counters and keys; 4 words each.
std::vector<uint32_t> runPhilox(Session &s, const std::vector<uint32_t> &ctr,
                                const std::vector<uint32_t> &key) {
  size_t n = key.size() / 2;
  BufferId c = s.upload("ctr", ctr), k = s.upload("key", key);
  BufferId out = s.upload("out", std::vector<uint32_t>(4 * n, 0));
  llvm::Error err = s.run("philox", {Arg::ofBuffer(c), Arg::ofBuffer(k), Arg::ofBuffer(out),
                                     Arg::ofInt(int64_t(n))});
  EXPECT_FALSE(bool(err)) << llvm::toString(std::move(err));
  return s.download<uint32_t>(out);
}

TEST(PhiloxTest, ReferenceMatchesKnownAnswers) {
  for (const Kat &kat : kats)
    EXPECT_EQ(philoxRef(kat.ctr, kat.k0, kat.k1), kat.out);
}

TEST(PhiloxTest, UniformReferenceKeepsTheEdgesBelowOne) {
  EXPECT_EQ(tritonUniform(0), 0.0f);
  EXPECT_EQ(tritonUniform(0xffffffffu), 0.0f); // -1 -> 0
  EXPECT_EQ(tritonUniform(0x7fffffffu), tritonUniform(0x80000000u));
  EXPECT_LT(tritonUniform(0x7fffffffu), 1.0f);
}

TEST(PhiloxTest, BlkMatchesKnownAnswers) {
  auto s = loadKernels();
  ASSERT_TRUE(s);
  std::vector<uint32_t> ctr, key;
  for (const Kat &kat : kats) {
    ctr.insert(ctr.end(), kat.ctr.begin(), kat.ctr.end());
    key.push_back(kat.k0);
    key.push_back(kat.k1);
  }
  std::vector<uint32_t> out = runPhilox(*s, ctr, key);
  for (size_t v = 0; v < std::size(kats); ++v)
    for (size_t w = 0; w < 4; ++w)
      EXPECT_EQ(out[4 * v + w], kats[v].out[w]) << "vector " << v << " word " << w;
}

TEST(PhiloxTest, BlkMatchesReferenceOnRandomCountersAndKeys) {
  auto s = loadKernels();
  ASSERT_TRUE(s);
  std::mt19937 gen(2024);
  const size_t n = 1000; // not a multiple of BLOCK: the last program is masked
  std::vector<uint32_t> ctr(4 * n), key(2 * n);
  for (uint32_t &w : ctr)
    w = gen();
  for (uint32_t &w : key)
    w = gen();
  std::vector<uint32_t> out = runPhilox(*s, ctr, key);
  for (size_t i = 0; i < n; ++i) {
    Words want = philoxRef({ctr[4 * i], ctr[4 * i + 1], ctr[4 * i + 2], ctr[4 * i + 3]},
                           key[2 * i], key[2 * i + 1]);
    for (size_t w = 0; w < 4; ++w)
      ASSERT_EQ(out[4 * i + w], want[w]) << "element " << i << " word " << w;
  }
}

TEST(PhiloxTest, RandintAndRandFollowTheSeed) {
  auto s = loadKernels();
  ASSERT_TRUE(s);
  const size_t n = 777;
  for (int64_t seed : {int64_t(0), int64_t(42), int64_t(0x0123456789abcdefLL), int64_t(-1)}) {
    BufferId ints = s->upload("ints", std::vector<uint32_t>(n, 0));
    BufferId unif = s->upload("unif", std::vector<float>(n, -1.0f));
    llvm::Error err = s->run("draws", {Arg::ofBuffer(ints), Arg::ofBuffer(unif),
                                       Arg::ofInt(seed), Arg::ofInt(int64_t(n))});
    ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
    std::vector<uint32_t> gotInts = s->download<uint32_t>(ints);
    std::vector<float> gotUnif = s->download<float>(unif);
    uint64_t bits = uint64_t(seed);
    for (size_t i = 0; i < n; ++i) {
      uint32_t want = philoxRef({uint32_t(i), 0, 0, 0}, uint32_t(bits), uint32_t(bits >> 32))[0];
      ASSERT_EQ(gotInts[i], want) << "seed " << seed << " offset " << i;
      // Triton's mapping, bit for bit; in [0, 1).
      ASSERT_EQ(gotUnif[i], tritonUniform(want)) << "seed " << seed << " offset " << i;
      ASSERT_LT(gotUnif[i], 1.0f);
    }
  }
}

} // namespace
