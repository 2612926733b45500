#include "engine/out_of_core/four_step.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "engine/device/context.h"
#include "engine/out_of_core/out_of_core_base.h"
#include "engine/staging/twiddle_transpose.h"

namespace gpufftw::engine {
namespace {

// Below this, one phase's transforms are so short that its 2-D copies move
// rows of a few hundred bytes at most, far from the bus's speed.
constexpr long long kMinFactor = 32;

// Only 2, 3, 5 and 7: cuFFT's fast radices; other factors take Bluestein's
// algorithm, slower and less accurate.
bool smooth(long long v) {
  for (long long p : {2, 3, 5, 7})
    while (v % p == 0) v /= p;
  return v == 1;
}

// n1 <= n2: the divisor of n nearest below sqrt(n) whose pair is smooth,
// else the nearest at all (1 for a prime). The smaller factor goes down
// the columns of phase 1, which needs twice the buffer a column of phase
// 2 does.
long long smaller_factor(long long n) {
  long long d = static_cast<long long>(std::sqrt(static_cast<double>(n)));
  while (d * d > n) --d;
  while ((d + 1) * (d + 1) <= n) ++d;
  long long nearest = 1;
  for (; d >= 2; --d) {
    if (n % d != 0) continue;
    if (nearest == 1) nearest = d;
    if (smooth(d) && smooth(n / d)) return d;
  }
  return nearest;
}

class FourStepJob final : public OutOfCoreBase {
 public:
  explicit FourStepJob(const Geometry &g) : FourStepJob(g, smaller_factor(g.dims[0].n)) {}
  ~FourStepJob() override {
    if (scratch_) free_pinned(scratch_);
  }

  bool init(std::string *why) { return OutOfCoreBase::init({static_cast<size_t>(n2_) * cbytes_}, why); }

  std::string path() const override {
    char s[240];
    std::snprintf(s, sizeof s,
                  "cuFFT, out-of-core four-step (%lld = %lld x %lld; %lld column groups of %lld, %lld pencil groups "
                  "of %lld, %d buffers of %.1f MiB%s)",
                  n_, n1_, n2_, first_.chunks, first_.per, pencils_.chunks, pencils_.per, buffers_,
                  buffer_bytes_ / 1048576.0, in_place_ ? ", in place through a pinned host scratch array" : "");
    return s;
  }

 private:
  // A column group's buffer: its columns as they came in (n1 rows), then,
  // from here, the same transposed (n1 long rows).
  size_t transposed_at() const { return (static_cast<size_t>(first_.per * n1_) * cbytes_ + 255) / 256 * 256; }

  Split split_first(size_t target) const override {
    return Split(n2_, static_cast<long long>(target / (2 * static_cast<size_t>(n1_) * cbytes_)));
  }
  size_t first_bytes() const override { return transposed_at() + static_cast<size_t>(first_.per * n1_) * cbytes_; }
  bool plan_first(long long count, Step *s, std::string *why) const override {
    return plan_columns(n1_, count, s, why);
  }
  const char *smallest() const override { return "one column of each phase"; }

  bool phases(const char *in, Memory in_mem, char *out, Memory out_mem, const std::vector<void *> &buf,
              std::string *why) override {
    char *mid = out;
    Memory mid_mem = out_mem;
    if (in == out) {
      const size_t bytes = static_cast<size_t>(n_) * cbytes_;
      if (!scratch_ && !(scratch_ = static_cast<char *>(alloc_pinned(bytes))))
        return *why = "out of core: no pinned host scratch of " + std::to_string(bytes >> 20) +
                      " MiB for the in-place four-step (cudaHostAlloc)",
               false;
      mid = scratch_;
      mid_mem = Memory::Pinned;
    }
    return barrier(1, why) && run_columns(in, in_mem, mid, mid_mem, buf, why) && barrier(buffers_, why) &&
           run_pencils(mid, mid_mem, out, out_mem, buf, why);
  }

  // Phase 1: column groups of x, in -> out (rows of the n2 x n1 array).
  bool run_columns(const char *in, Memory in_mem, char *out, Memory out_mem, const std::vector<void *> &buf,
                   std::string *why) {
    const size_t pitch = static_cast<size_t>(n2_) * cbytes_, rows = static_cast<size_t>(n1_), at = transposed_at();
    auto start = [&](long long c) {
      const size_t k = static_cast<size_t>(c % buffers_);
      const cudaStream_t st = streams_[k];
      const long long first = first_.first(c), count = first_.count(c);
      char *b = static_cast<char *>(buf[k]);
      return rows_in(b, in + static_cast<size_t>(first) * cbytes_, pitch, static_cast<size_t>(count) * cbytes_, rows,
                     in_mem, st, why) &&
             exec_plan(first_plans_.of(first_, c, k), st, b, b, why) &&
             check(real_ == Real::F32
                       ? twiddle_transpose(reinterpret_cast<const float *>(b), reinterpret_cast<float *>(b + at),
                                           n1_, count, 0, first, n_, sign_, st)
                       : twiddle_transpose(reinterpret_cast<const double *>(b), reinterpret_cast<double *>(b + at),
                                           n1_, count, 0, first, n_, sign_, st),
                   "twiddle_transpose (kernel launch)", why);
    };
    auto finish = [&](long long c) {
      const size_t k = static_cast<size_t>(c % buffers_);
      const size_t bytes = static_cast<size_t>(first_.count(c) * n1_) * cbytes_;
      return copy_out(out + static_cast<size_t>(first_.first(c) * n1_) * cbytes_, static_cast<char *>(buf[k]) + at,
                      bytes, out_mem, streams_[k], why);
    };
    return pipeline(first_.chunks, start, finish);
  }

  // The pencils: n2 rows of n1.
  FourStepJob(const Geometry &g, long long n1)
      : OutOfCoreBase(g.real, g.sign, g.dims[0].n / n1, n1), n_(g.dims[0].n), n1_(n1), n2_(n_ / n1),
        in_place_(g.in_place) {}

  const long long n_, n1_, n2_;
  const bool in_place_;
  char *scratch_ = nullptr;  // in place only: phase 1's output, n complex elements
};

// Whether the path takes the geometry; else why not.
bool four_step_suits(const Geometry &g, std::string *why_not) {
  if (g.type != Type::C2C) return *why_not = "out of core: 1-D c2c only", false;
  if (g.split_in || g.split_out) return *why_not = "out of core: split arrays", false;
  if (g.dims.size() != 1) return *why_not = "out of core four-step: rank " + std::to_string(g.dims.size()), false;
  for (const Axis &a : g.loops)
    if (a.n != 1) return *why_not = "out of core: a batch", false;
  const Axis &a = g.dims[0];
  if (a.is != 1 || a.os != 1) return *why_not = "out of core: arrays not dense", false;
  if (a.n < kMinFactor * kMinFactor)
    return *why_not = "out of core four-step: n = " + std::to_string(a.n) + ", too small to split", false;
  const long long n1 = smaller_factor(a.n);
  if (n1 == 1) return *why_not = "out of core four-step: n = " + std::to_string(a.n) + " is prime", false;
  if (n1 < kMinFactor)
    return *why_not = "out of core four-step: n = " + std::to_string(a.n) + " has no factors near its square root (" +
                      std::to_string(n1) + " x " + std::to_string(a.n / n1) + " at best)",
           false;
  return true;
}

// Both phases move the arrays over the link each way; on the device, a
// pass of cuFFT's each and the twiddle-transpose between them.
Price four_step_price(const Geometry &g) {
  const double bytes = array_bytes(g);
  return {2 * bytes, 3 * bytes};
}

}  // namespace

using Path = OutOfCorePath<FourStepJob, four_step_suits, four_step_price>;
const Solver kFourStepOverCapSolver = Path::over_cap("four-step, arrays over the cap");
const Solver kFourStepSolver = Path::within_cap("four-step");

}  // namespace gpufftw::engine
