// What the out-of-core jobs share (out_of_core.cc: slabs then pencils;
// four_step.cc: columns then pencils): three streams with a buffer each,
// chunks sized so that the buffers and cuFFT's work areas stay within the
// device memory cap, the pipeline that overlaps one chunk's copy in,
// another's FFT and a third's copy out, and the pencil phase both end with
// (a block of columns of a row-major array, across all its rows, in; the
// 1-D transform down each column; back out).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/cufft/plan_cache.h"
#include "engine/engine.h"
#include "engine/solver/solver.h"
#include "engine/staging/host_copy.h"

namespace gpufftw::engine {

// Bytes the in-core job would have to stage at least for a single
// transform the out-of-core paths take: the input, and the output where it
// is another array.
size_t out_of_core_array_bytes(const Geometry &g);
// Whether those bytes pass the device memory cap; else why not.
bool arrays_over_cap(const Geometry &g, std::string *why_not);

// `total` items (planes, or columns) in `chunks` chunks of `per`, as even
// as the count allows; the last one has `last` (1 <= last <= per).
struct Split {
  long long total = 0, per = 0, chunks = 0, last = 0;
  Split() = default;
  Split(long long n, long long want) : total(n) {
    want = std::clamp<long long>(want, 1, n);
    chunks = (n + want - 1) / want;
    per = (n + chunks - 1) / chunks;  // ceil(n / per) == chunks still
    last = n - (chunks - 1) * per;
  }
  long long first(long long c) const { return c * per; }
  long long count(long long c) const { return c == chunks - 1 ? last : per; }
  long long full() const { return last == per ? chunks : chunks - 1; }  // chunks of `per`
};

// One phase's cuFFT plans: for chunks of `per`, one per stream that runs
// such a chunk (a plan runs on one stream at a time); for a shorter last
// chunk, one more.
struct PhasePlans {
  std::vector<Step> full, last;
  const Step &of(const Split &s, long long c, size_t k) const { return s.count(c) == s.per ? full[k] : last[0]; }
};

class OutOfCoreBase : public FftJob {
 public:
  ~OutOfCoreBase() override;
  bool run(void *const in[2], void *const out[2], std::string *why) final;

 protected:
  static constexpr int kStreams = 3;

  // The pencil phase transforms `rows` long columns of an array of rows of
  // `row` complex elements.
  OutOfCoreBase(Real real, int sign, long long rows, long long row);

  // Streams, events, and plans for the largest chunks that fit the cap;
  // `pitches`: the bytes between rows of the 2-D copies the first phase
  // makes (the pencil phase's are checked here).
  bool init(const std::vector<size_t> &pitches, std::string *why);

  // The first phase, for buffers of about `target` bytes: its split (into
  // first_), the bytes a chunk of first_.per needs in its buffer, and a
  // cuFFT plan for a chunk of `count`.
  virtual Split split_first(size_t target) const = 0;
  virtual size_t first_bytes() const = 0;
  virtual bool plan_first(long long count, Step *s, std::string *why) const = 0;
  // The smallest chunks of both phases, in words, for the error where even
  // they pass the cap.
  virtual const char *smallest() const = 0;
  // Both phases, buffers in hand (their allocation ordered on stream 0).
  virtual bool phases(const char *in, Memory in_mem, char *out, Memory out_mem, const std::vector<void *> &buf,
                      std::string *why) = 0;

  // A plan for `rows` rows of `columns` complex elements back to back, in
  // place, each column transformed along the rows.
  bool plan_columns(long long rows, long long columns, Step *s, std::string *why) const;
  // The first `count` streams' work so far comes before any stream's next.
  bool barrier(int count, std::string *why);
  static bool pipeline(long long chunks, const std::function<bool(long long)> &start,
                       const std::function<bool(long long)> &finish);
  // The pencil phase: blocks of columns of `from`, across all its rows, in;
  // transformed; out to the same places in `to` (which may be `from`).
  bool run_pencils(const char *from, Memory from_mem, char *to, Memory to_mem, const std::vector<void *> &buf,
                   std::string *why);

  bool copy_in(void *dev, const char *src, size_t bytes, Memory m, cudaStream_t st, std::string *why);
  bool copy_out(char *dst, const void *dev, size_t bytes, Memory m, cudaStream_t st, std::string *why);
  bool rows_in(void *dev, const char *src, size_t pitch, size_t width, size_t rows, Memory m, cudaStream_t st,
               std::string *why);
  bool rows_out(char *dst, size_t pitch, const void *dev, size_t width, size_t rows, Memory m, cudaStream_t st,
                std::string *why);

  const Real real_;
  const int sign_;
  const size_t cbytes_;          // bytes of a complex element
  const long long rows_, row_;   // the pencil phase's array: rows_ rows of row_ complex elements
  Split first_, pencils_;        // the first phase's chunks, columns per pencil group
  PhasePlans first_plans_, pencil_plans_;
  int buffers_ = 0;              // buffers, one per stream used
  size_t buffer_bytes_ = 0;
  std::vector<cudaStream_t> streams_;

 private:
  bool make_plans(size_t target, std::string *why);
  bool make_phase(const Split &s, PhasePlans *to, const std::function<bool(long long, Step *)> &plan);
  // Not back to the cache: their work areas are sized to the cap, too
  // large to hold idle.
  void drop_plans();
  // Device bytes one run holds: the buffers and every plan's work area.
  size_t device_bytes() const;

  std::vector<cudaEvent_t> events_;  // one per stream, for barriers
  HostCopier copier_;
  std::mutex mutex_;                 // the streams, buffers and copier serve one run at a time
};

// The two solvers of an out-of-core job (Job, made from the geometry and
// then init(why)) over the geometries `takes` accepts, priced by `price`:
// one where the arrays alone pass the device memory cap, whose failure is
// Final (the in-core solvers need more memory still, and the other would
// make the same job again); one where they fit, for when the in-core
// solvers, cheaper, could not be planned or need more than the cap.
template <class Job, bool (*takes)(const Geometry &, std::string *), Price (*price)(const Geometry &)>
struct OutOfCorePath {
  static bool suits(const Geometry &g, const std::vector<int> &, Reason *why_not) {
    return takes(g, &why_not->text) || decline(why_not, Reason::Code::NotItsKind, why_not->text);
  }
  static bool suits_over_cap(const Geometry &g, const std::vector<int> &set, Reason *why_not) {
    return suits(g, set, why_not) &&
           (arrays_over_cap(g, &why_not->text) || decline(why_not, Reason::Code::NotItsKind, why_not->text));
  }
  static bool suits_within_cap(const Geometry &g, const std::vector<int> &set, Reason *why_not) {
    std::string fits;
    return suits(g, set, why_not) &&
           (!arrays_over_cap(g, &fits) ||
            decline(why_not, Reason::Code::NotItsKind, "out of core: the arrays pass the cap (its other solver's)"));
  }
  static Price cost(const Geometry &g, const std::vector<int> &) { return price(g); }
  // Sized to device_memory_cap(); nullptr where even the smallest chunks
  // do not fit or cuFFT cannot plan them.
  template <Reason::Code kFailed>
  static std::unique_ptr<FftJob> make(const Geometry &g, const Ask &, Reason *why) {
    auto job = std::make_unique<Job>(g);
    why->code = kFailed;
    if (!job->init(&why->text)) return nullptr;
    return job;
  }
  static constexpr Solver over_cap(const char *name) {
    return {name, false, Gives::Transform, suits_over_cap, cost, make<Reason::Code::Final>};
  }
  static constexpr Solver within_cap(const char *name) {
    return {name, false, Gives::Transform, suits_within_cap, cost, make<Reason::Code::NoJob>, true};
  }
};

}  // namespace gpufftw::engine
