#include "engine/out_of_core/out_of_core.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "engine/out_of_core/out_of_core_base.h"
#include "engine/staging/sides.h"

namespace gpufftw::engine {
namespace {

class OutOfCoreJob final : public OutOfCoreBase {
 public:
  // The pencils: n0 rows of a plane of the output.
  explicit OutOfCoreJob(const Geometry &g)
      : OutOfCoreBase(g.real, g.type == Type::C2C ? g.sign : CUFFT_FORWARD, g.dims[0].n, plane_of(g)), g_(g) {
    const size_t real_size = g.real == Real::F32 ? sizeof(float) : sizeof(double);
    // r2c: a plane of the real input is its dim 0 stride (its rows may be
    // padded); in place, it is the output's plane, the same bytes.
    in_plane_bytes_ = g.type == Type::C2C ? static_cast<size_t>(row_) * cbytes_
                                          : static_cast<size_t>(g.dims[0].is) * real_size;
    slab_apart_ = g.type == Type::R2C && !g.in_place;
  }

  bool init(std::string *why) { return OutOfCoreBase::init({}, why); }

  std::string path() const override {
    char s[200];
    std::snprintf(s, sizeof s,
                  "cuFFT, out-of-core slabs+pencils (%lld slabs of %lld planes, %lld pencil groups of %lld columns, "
                  "%d buffers of %.1f MiB)",
                  first_.chunks, first_.per, pencils_.chunks, pencils_.per, buffers_, buffer_bytes_ / 1048576.0);
    return s;
  }

 private:
  // Complex elements of a plane of dim 0 of the output.
  static long long plane_of(const Geometry &g) {
    long long plane = 1;
    const size_t rank = g.dims.size();
    for (size_t i = 1; i < rank; ++i) plane *= i + 1 < rank || g.type == Type::C2C ? g.dims[i].n : g.dims[i].n / 2 + 1;
    return plane;
  }

  size_t out_plane_bytes() const { return static_cast<size_t>(row_) * cbytes_; }
  // Where a slab's output starts in its buffer.
  size_t slab_out() const {
    return slab_apart_ ? (static_cast<size_t>(first_.per) * in_plane_bytes_ + 255) / 256 * 256 : 0;
  }

  Split split_first(size_t target) const override {
    const size_t slab_plane_bytes = slab_apart_ ? in_plane_bytes_ + out_plane_bytes() : out_plane_bytes();
    return Split(rows_, static_cast<long long>(target / slab_plane_bytes));
  }
  size_t first_bytes() const override { return slab_out() + static_cast<size_t>(first_.per) * out_plane_bytes(); }
  const char *smallest() const override { return "one plane and one column"; }

  // `planes` planes, the transform over the trailing dims; c2c dense and
  // in place, r2c from rows `pitch` reals apart (as the input lies) to
  // dense complex rows.
  bool plan_first(long long planes, Step *s, std::string *why) const override {
    std::vector<long long> trailing;
    for (size_t i = 1; i < g_.dims.size(); ++i) trailing.push_back(g_.dims[i].n);
    const int rank = static_cast<int>(trailing.size());
    s->type = cufft_type(g_.type, g_.real);
    s->sign = sign_;
    if (g_.type == Type::C2C)
      return make_plan(s, rank, trailing.data(), nullptr, 1, row_, nullptr, 1, row_, planes, why);
    std::vector<long long> inembed = trailing, onembed = trailing;
    inembed.back() = g_.dims[g_.dims.size() - 2].is;
    onembed.back() = trailing.back() / 2 + 1;
    return make_plan(s, rank, trailing.data(), inembed.data(), 1, product(inembed, 0, inembed.size()), onembed.data(),
                     1, row_, planes, why);
  }

  bool phases(const char *in, Memory in_mem, char *out, Memory out_mem, const std::vector<void *> &buf,
              std::string *why) override {
    return barrier(1, why) && run_slabs(in, in_mem, out, out_mem, buf, why) && barrier(buffers_, why) &&
           run_pencils(out, out_mem, out, out_mem, buf, why);
  }

  // Phase 1: chunks of whole planes, in -> out, each transformed over the
  // trailing dims in its buffer (r2c out of place: from its start to
  // slab_out()).
  bool run_slabs(const char *in, Memory in_mem, char *out, Memory out_mem, const std::vector<void *> &buf,
                 std::string *why) {
    const size_t at = slab_out();
    auto start = [&](long long c) {
      const size_t k = static_cast<size_t>(c % buffers_);
      const cudaStream_t st = streams_[k];
      const size_t first = static_cast<size_t>(first_.first(c)), count = static_cast<size_t>(first_.count(c));
      return copy_in(buf[k], in + first * in_plane_bytes_, count * in_plane_bytes_, in_mem, st, why) &&
             exec_plan(first_plans_.of(first_, c, k), st, buf[k], static_cast<char *>(buf[k]) + at, why);
    };
    auto finish = [&](long long c) {
      const size_t k = static_cast<size_t>(c % buffers_);
      const size_t first = static_cast<size_t>(first_.first(c)), count = static_cast<size_t>(first_.count(c));
      return copy_out(out + first * out_plane_bytes(), static_cast<char *>(buf[k]) + at, count * out_plane_bytes(),
                      out_mem, streams_[k], why);
    };
    return pipeline(first_.chunks, start, finish);
  }

  Geometry g_;
  size_t in_plane_bytes_ = 0;  // bytes of a plane of the input, as it lies
  bool slab_apart_ = false;    // a slab's input and output apart in its buffer (r2c out of place)
};

// Whether the path takes the geometry; else why not.
bool out_of_core_suits(const Geometry &g, std::string *why_not) {
  if (g.type == Type::C2R || g.type == Type::R2R) return *why_not = "out of core: c2c and r2c only", false;
  if (g.split_in || g.split_out) return *why_not = "out of core: split arrays", false;
  const size_t rank = g.dims.size();
  if (rank < 2 || rank > 3) return *why_not = "out of core: rank " + std::to_string(rank) + ", not 2 or 3", false;
  for (const Axis &a : g.loops)
    if (a.n != 1) return *why_not = "out of core: a batch", false;
  const bool r2c = g.type == Type::R2C;
  // The output: dense and row-major (r2c: its last dim n/2 + 1).
  long long os = 1;
  for (size_t i = rank; i-- > 0;) {
    const Axis &a = g.dims[i];
    if (a.n < 2) return *why_not = "out of core: a dim of size 1", false;
    if (a.os != os) return *why_not = "out of core: output not dense and row-major", false;
    os *= r2c && i == rank - 1 ? a.n / 2 + 1 : a.n;
  }
  // The input: row-major and dense, but for r2c rows `pitch` reals apart
  // (in place: FFTW's padding, so that a plane is the output's bytes).
  const long long last = g.dims[rank - 1].n, pitch = r2c ? g.dims[rank - 2].is : last;
  if (g.dims[rank - 1].is != 1 || pitch < last || (r2c && g.in_place && pitch != 2 * (last / 2 + 1)))
    return *why_not = "out of core: input rows not as the path lays them", false;
  long long is = pitch;
  for (size_t i = rank - 1; i-- > 0;) {
    if (g.dims[i].is != is) return *why_not = "out of core: input not dense and row-major", false;
    is *= g.dims[i].n;
  }
  return true;
}

// Both phases move the arrays over the link each way, and each is a pass
// of cuFFT's on the device.
Price out_of_core_price(const Geometry &g) {
  const double bytes = array_bytes(g);
  return {2 * bytes, 2 * bytes};
}

}  // namespace

using Path = OutOfCorePath<OutOfCoreJob, out_of_core_suits, out_of_core_price>;
const Solver kOutOfCoreOverCapSolver = Path::over_cap("out of core, arrays over the cap");
const Solver kOutOfCoreSolver = Path::within_cap("out of core");

}  // namespace gpufftw::engine
