// The blocks of a staged copy (engine/staging/relay.h): every byte of the
// copy in exactly one block, none of a piece before it opens, each piece
// complete once its blocks are done, with several threads taking at once
// as the staging threads do. No GPU needed.
#include "engine/staging/relay.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace gpufftw::engine {
namespace {

// Takes every block on `threads` threads, opening one piece at a time as
// the one before completes (as the DMAs' host functions do on the way to
// the host); counts how often each byte was handed out.
std::vector<int> take_all(size_t bytes, size_t piece, size_t block, unsigned threads) {
  Relay relay(bytes, piece, block);
  std::vector<std::atomic<int>> seen(bytes);
  std::atomic<bool> early{false};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (;;) {
        Relay::Block b;
        const Relay::Take took = relay.take(&b);
        if (took == Relay::Take::NoneLeft) return;
        if (took == Relay::Take::NoneOpen) {
          std::this_thread::yield();
          continue;
        }
        if (b.piece >= relay.open()) early = true;
        for (size_t i = 0; i < b.len; ++i) seen[b.piece * piece + b.inner + i]++;
        relay.did(b);
      }
    });
  for (size_t k = 0; k < relay.pieces(); ++k) {
    Relay::open_one(&relay);
    while (!relay.complete(k)) std::this_thread::yield();
  }
  for (auto &t : pool) t.join();
  EXPECT_FALSE(early) << "a block of a piece not yet open was handed out";
  std::vector<int> counts(bytes);
  for (size_t i = 0; i < bytes; ++i) counts[i] = seen[i];
  return counts;
}

TEST(StagingRelay, EveryByteIsHandedOutOnceWhateverTheSizes) {
  struct Case {
    size_t bytes, piece, block;
  };
  // Pieces that blocks divide and that they do not; a short last piece
  // and a short last block; one piece; a copy smaller than one block.
  for (const Case c : {Case{4096, 1024, 256}, Case{4100, 1024, 256}, Case{5000, 1000, 300}, Case{999, 4096, 128},
                       Case{100, 1024, 256}, Case{3 * 1024, 1024, 1024}}) {
    const std::vector<int> counts = take_all(c.bytes, c.piece, c.block, 4);
    for (size_t i = 0; i < c.bytes; ++i)
      ASSERT_EQ(counts[i], 1) << "byte " << i << " of " << c.bytes << " (pieces of " << c.piece << ", blocks of "
                              << c.block << ")";
  }
}

TEST(StagingRelay, PiecesAndTheirLengths) {
  const Relay relay(10 * 1000 + 1, 1000, 64);
  EXPECT_EQ(relay.pieces(), 11u);
  EXPECT_EQ(relay.length(0), 1000u);
  EXPECT_EQ(relay.length(10), 1u);
  EXPECT_EQ(Relay(0, 1000).pieces(), 0u);
}

TEST(StagingRelay, NothingIsTakenBeforeItsPieceOpensAndAPieceCompletesWithItsLastBlock) {
  Relay relay(2048, 1024, 512);
  Relay::Block b;
  EXPECT_EQ(relay.take(&b), Relay::Take::NoneOpen);
  relay.open_to(1);
  ASSERT_EQ(relay.take(&b), Relay::Take::Got);
  EXPECT_EQ(b.piece, 0u);
  EXPECT_EQ(b.inner, 0u);
  EXPECT_EQ(b.len, 512u);
  relay.did(b);
  EXPECT_FALSE(relay.complete(0));
  ASSERT_EQ(relay.take(&b), Relay::Take::Got);
  EXPECT_EQ(b.inner, 512u);
  EXPECT_EQ(relay.take(&b), Relay::Take::NoneOpen) << "piece 1 is not open";
  relay.did(b);
  EXPECT_TRUE(relay.complete(0));
  Relay::open_one(&relay);
  ASSERT_EQ(relay.take(&b), Relay::Take::Got);
  EXPECT_EQ(b.piece, 1u);
}

TEST(StagingRelay, AFailureStopsTheOthersTaking) {
  Relay relay(4096, 1024, 256);
  relay.open_to(4);
  Relay::Block b;
  ASSERT_EQ(relay.take(&b), Relay::Take::Got);
  relay.fail();
  EXPECT_EQ(relay.take(&b), Relay::Take::NoneLeft);
}

}  // namespace
}  // namespace gpufftw::engine
