// The blocks of a staged copy, handed to the staging threads one at a time
// in order (HostCopier, host_copy.h). A copy through the slots moves
// pieces of `piece` bytes; each piece is cut into blocks of at most
// `block` bytes, and a thread that finishes a block takes the next one of
// any piece that is open, so that no thread waits at a piece's end for the
// slowest of the others, which a barrier per piece made every thread do.
// The pieces open as their slots free (or, on the way out, as their DMAs
// land), and the thread that drives the copy sees when each is complete.
// No CUDA here, so that the CPU tests drive it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>

namespace gpufftw::engine {

class Relay {
 public:
  // A block small enough that the driving thread, which also takes
  // blocks, comes back to its own work (a piece's DMA to queue) soon
  // after a piece completes.
  static constexpr size_t kBlock = size_t{64} << 10;

  Relay(size_t bytes, size_t piece, size_t block = kBlock)
      : bytes_(bytes),
        piece_(piece),
        block_(block),
        per_piece_((piece + block - 1) / block),
        pieces_((bytes + piece - 1) / piece),
        blocks_(pieces_ == 0 ? 0 : (pieces_ - 1) * per_piece_ + (length(pieces_ - 1) + block - 1) / block),
        done_(new std::atomic<size_t>[pieces_]) {
    for (size_t k = 0; k < pieces_; ++k) done_[k].store(0, std::memory_order_relaxed);
  }

  size_t pieces() const { return pieces_; }
  // Where piece k starts in the copy, and its bytes.
  size_t offset(size_t k) const { return k * piece_; }
  size_t length(size_t k) const { return std::min(piece_, bytes_ - offset(k)); }

  // A block taken: bytes [offset(piece) + inner, ... + len) of the copy,
  // which lie at `inner` in the piece's slot.
  struct Block {
    size_t piece, inner, len;
  };
  enum class Take { Got, NoneOpen, NoneLeft };
  Take take(Block *b) {
    size_t next = next_.load(std::memory_order_relaxed);
    for (;;) {
      if (next >= blocks_ || failed_.load(std::memory_order_relaxed)) return Take::NoneLeft;
      const size_t k = next / per_piece_;
      if (k >= open_.load(std::memory_order_acquire)) return Take::NoneOpen;
      if (next_.compare_exchange_weak(next, next + 1, std::memory_order_relaxed)) {
        b->piece = k;
        b->inner = (next % per_piece_) * block_;
        b->len = std::min(block_, length(k) - b->inner);
        return Take::Got;
      }
    }
  }
  // The block's bytes are in place: its writes are seen by whoever reads
  // complete(k) true.
  void did(const Block &b) { done_[b.piece].fetch_add(b.len, std::memory_order_release); }
  bool complete(size_t k) const { return done_[k].load(std::memory_order_acquire) == length(k); }

  // Pieces [0, k) may be worked on from now on.
  void open_to(size_t k) { open_.store(k, std::memory_order_release); }
  // One piece more, from a stream's host function: they run in the order
  // they were queued, one per piece.
  static void open_one(void *relay) { static_cast<Relay *>(relay)->open_.fetch_add(1, std::memory_order_release); }
  size_t open() const { return open_.load(std::memory_order_acquire); }

  // A CUDA call of the driving thread failed: the others take no more.
  void fail() { failed_.store(true, std::memory_order_relaxed); }

 private:
  size_t bytes_, piece_, block_, per_piece_, pieces_, blocks_;
  std::atomic<size_t> next_{0}, open_{0};
  std::atomic<bool> failed_{false};
  std::unique_ptr<std::atomic<size_t>[]> done_;
};

}  // namespace gpufftw::engine
