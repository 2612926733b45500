#include "engine/out_of_core.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <mutex>
#include <vector>

#include "engine/context.h"
#include "engine/host_copy.h"
#include "engine/plan_cache.h"
#include "engine/sides.h"

namespace gpufftw::engine {
namespace {

constexpr int kStreams = 3;

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

class OutOfCoreJob final : public FftJob {
 public:
  explicit OutOfCoreJob(const Geometry &g) : g_(g) {
    const size_t rank = g.dims.size(), real_size = g.real == Real::F32 ? sizeof(float) : sizeof(double);
    n0_ = g.dims[0].n;
    for (size_t i = 1; i < rank; ++i) plane_ *= i + 1 < rank || g.type == Type::C2C ? g.dims[i].n : g.dims[i].n / 2 + 1;
    cbytes_ = 2 * real_size;
    // r2c: a plane of the real input is its dim 0 stride (its rows may be
    // padded); in place, it is the output's plane, the same bytes.
    in_plane_bytes_ = g.type == Type::C2C ? static_cast<size_t>(plane_) * cbytes_
                                          : static_cast<size_t>(g.dims[0].is) * real_size;
    slab_apart_ = g.type == Type::R2C && !g.in_place;
  }

  ~OutOfCoreJob() override {
    for (cudaStream_t st : streams_) cudaStreamSynchronize(st);
    drop_plans();
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
    for (cudaStream_t st : streams_) cudaStreamDestroy(st);
  }

  // Streams, events, and plans for the largest chunks that fit the cap.
  bool init(std::string *why) {
    for (int k = 0; k < kStreams; ++k) {
      cudaStream_t st;
      GPUFFTW_CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), why);
      streams_.push_back(st);
      cudaEvent_t e;
      GPUFFTW_CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), why);
      events_.push_back(e);
    }
    int max_pitch = 0;
    GPUFFTW_CK(cudaDeviceGetAttribute(&max_pitch, cudaDevAttrMaxPitch, device()), why);
    if (static_cast<size_t>(plane_) * cbytes_ > static_cast<size_t>(max_pitch))
      return *why = "out of core: a plane of " + std::to_string(static_cast<size_t>(plane_) * cbytes_) +
                    " bytes passes cudaMemcpy2D's pitch limit",
             false;
    // First guess: the buffers take half the cap, cuFFT's work areas the
    // rest; halved while the plans made say it does not fit, or cuFFT
    // cannot make them (its work areas are allocated with the plan).
    const size_t cap = device_memory_cap();
    for (size_t target = cap / (2 * kStreams);; target /= 2) {
      const bool made = make_plans(target, why);
      if (made && device_bytes() <= cap) return true;
      const size_t need = device_bytes();
      const bool smallest = slabs_.per == 1 && pencils_.per == 1;
      drop_plans();
      if (!smallest) continue;
      if (made)
        *why = "out of core: even one plane and one column need " + std::to_string(need >> 20) +
               " MiB of device memory, over the cap of " + std::to_string(cap >> 20) + " MiB (GPUFFTW_DEVICE_MEMORY)";
      return false;
    }
  }

  std::string path() const override {
    char s[200];
    std::snprintf(s, sizeof s,
                  "cuFFT, out-of-core slabs+pencils (%lld slabs of %lld planes, %lld pencil groups of %lld columns, "
                  "%d buffers of %.1f MiB)",
                  slabs_.chunks, slabs_.per, pencils_.chunks, pencils_.per, buffers_, buffer_bytes_ / 1048576.0);
    return s;
  }

  bool run(void *const in[2], void *const out[2], std::string *why) override {
    std::lock_guard<std::mutex> lock(mutex_);  // the streams, buffers and copier serve one run at a time
    if (fault_injected("execute", why)) return false;
    GPUFFTW_CK(cudaSetDevice(device()), why);
    const char *src = static_cast<const char *>(in[0]);
    char *dst = static_cast<char *>(out[0]);
    const Memory src_mem = memory_type(src), dst_mem = src == dst ? src_mem : memory_type(dst);
    std::vector<void *> buf;
    bool ok = true;
    for (int k = 0; ok && k < buffers_; ++k) {
      void *p = nullptr;
      ok = !fault_injected("alloc", why) && check(cudaMallocAsync(&p, buffer_bytes_, streams_[0]), "cudaMallocAsync", why);
      if (ok) buf.push_back(p);
    }
    // The buffers come from the pool in streams_[0]'s order: the other
    // streams start after that point.
    ok = ok && barrier(1, why) && run_slabs(src, src_mem, dst, dst_mem, buf, why) && barrier(buffers_, why) &&
         run_pencils(dst, dst_mem, buf, why);
    for (int k = 0; k < buffers_; ++k) {
      const bool synced = check(cudaStreamSynchronize(streams_[k]), "cudaStreamSynchronize", ok ? why : nullptr);
      ok = ok && synced;
    }
    for (void *p : buf) cudaFreeAsync(p, streams_[0]);
    cudaStreamSynchronize(streams_[0]);
    return ok;
  }

 private:
  // Plans for chunks of about `target` bytes a buffer.
  bool make_plans(size_t target, std::string *why) {
    const size_t out_plane_bytes = static_cast<size_t>(plane_) * cbytes_;
    const size_t slab_plane_bytes = slab_apart_ ? in_plane_bytes_ + out_plane_bytes : out_plane_bytes;
    slabs_ = Split(n0_, static_cast<long long>(target / slab_plane_bytes));
    pencils_ = Split(plane_, static_cast<long long>(target / (static_cast<size_t>(n0_) * cbytes_)));
    // Each chunk of a phase goes to the next stream and its buffer; with
    // fewer chunks than streams, no buffer is used twice.
    buffers_ = static_cast<int>(std::min<long long>(kStreams, std::max(slabs_.chunks, pencils_.chunks)));
    slab_out_ = slab_apart_ ? (static_cast<size_t>(slabs_.per) * in_plane_bytes_ + 255) / 256 * 256 : 0;
    buffer_bytes_ = std::max(slab_out_ + static_cast<size_t>(slabs_.per) * out_plane_bytes,
                             static_cast<size_t>(pencils_.per * n0_) * cbytes_);
    std::vector<long long> trailing;
    for (size_t i = 1; i < g_.dims.size(); ++i) trailing.push_back(g_.dims[i].n);
    const int rank = static_cast<int>(trailing.size());
    // Slabs: `planes` planes, the transform over the trailing dims; c2c
    // dense and in place, r2c from rows `pitch` reals apart (as the input
    // lies) to dense complex rows.
    auto slab = [&](long long planes, std::vector<Step> *to) {
      Step s;
      s.type = cufft_type(g_.type, g_.real);
      s.sign = g_.type == Type::C2C ? g_.sign : CUFFT_FORWARD;
      bool made;
      if (g_.type == Type::C2C) {
        made = make_plan(&s, rank, trailing.data(), nullptr, 1, plane_, nullptr, 1, plane_, planes, why);
      } else {
        std::vector<long long> inembed = trailing, onembed = trailing;
        inembed.back() = g_.dims[g_.dims.size() - 2].is;
        onembed.back() = trailing.back() / 2 + 1;
        made = make_plan(&s, rank, trailing.data(), inembed.data(), 1, product(inembed, 0, inembed.size()),
                         onembed.data(), 1, plane_, planes, why);
      }
      if (made) to->push_back(s);
      return made;
    };
    // Pencils: n0 rows of `columns` (row r at r * columns), each column
    // transformed along the rows.
    auto pencil = [&](long long columns, std::vector<Step> *to) {
      Step s;
      s.type = complex_type(g_.real);
      s.sign = g_.type == Type::C2C ? g_.sign : CUFFT_FORWARD;
      long long n = n0_, embed_n = n0_;
      if (!make_plan(&s, 1, &n, &embed_n, columns, 1, &embed_n, columns, 1, columns, why)) return false;
      to->push_back(s);
      return true;
    };
    for (long long k = 0; k < std::min<long long>(slabs_.full(), buffers_); ++k)
      if (!slab(slabs_.per, &slab_plans_.full)) return false;
    if (slabs_.last != slabs_.per && !slab(slabs_.last, &slab_plans_.last)) return false;
    for (long long k = 0; k < std::min<long long>(pencils_.full(), buffers_); ++k)
      if (!pencil(pencils_.per, &pencil_plans_.full)) return false;
    if (pencils_.last != pencils_.per && !pencil(pencils_.last, &pencil_plans_.last)) return false;
    return true;
  }

  // Not back to the cache: their work areas are sized to the cap, too
  // large to hold idle.
  void drop_plans() {
    for (PhasePlans *p : {&slab_plans_, &pencil_plans_}) {
      for (const std::vector<Step> *v : {&p->full, &p->last})
        for (const Step &s : *v) destroy_plan(s);
      p->full.clear();
      p->last.clear();
    }
  }

  // Device bytes one run holds: the buffers and every plan's work area.
  size_t device_bytes() const {
    size_t b = static_cast<size_t>(buffers_) * buffer_bytes_;
    for (const PhasePlans *p : {&slab_plans_, &pencil_plans_})
      for (const std::vector<Step> *v : {&p->full, &p->last})
        for (const Step &s : *v) b += s.work;
    return b;
  }

  // The first `count` streams' work so far comes before any stream's next.
  bool barrier(int count, std::string *why) {
    for (int k = 0; k < count; ++k) GPUFFTW_CK(cudaEventRecord(events_[k], streams_[k]), why);
    for (int j = 0; j < buffers_; ++j)
      for (int k = 0; k < count; ++k)
        if (j != k) GPUFFTW_CK(cudaStreamWaitEvent(streams_[j], events_[k], 0), why);
    return true;
  }

  // Chunk c starts (copy in, FFT) on stream c % buffers_ before chunk c-1
  // finishes (copy out): a pageable copy out blocks the host until its
  // chunk is done, and the next chunk should be queued by then. A buffer
  // is used again three chunks on, after its copy out in stream order
  // (with fewer than three buffers, no buffer is used twice).
  static bool pipeline(long long chunks, const std::function<bool(long long)> &start,
                       const std::function<bool(long long)> &finish) {
    for (long long c = 0; c <= chunks; ++c) {
      if (c < chunks && !start(c)) return false;
      if (c > 0 && !finish(c - 1)) return false;
    }
    return true;
  }

  // Phase 1: chunks of whole planes, in -> out, each transformed over the
  // trailing dims in its buffer (r2c out of place: from its start to
  // slab_out_).
  bool run_slabs(const char *in, Memory in_mem, char *out, Memory out_mem, const std::vector<void *> &buf,
                 std::string *why) {
    const size_t out_plane_bytes = static_cast<size_t>(plane_) * cbytes_;
    auto start = [&](long long c) {
      const size_t k = static_cast<size_t>(c % buffers_);
      const cudaStream_t st = streams_[k];
      const size_t first = static_cast<size_t>(slabs_.first(c)), count = static_cast<size_t>(slabs_.count(c));
      return copy_in(buf[k], in + first * in_plane_bytes_, count * in_plane_bytes_, in_mem, st, why) &&
             exec_plan(slab_plans_.of(slabs_, c, k), st, buf[k], static_cast<char *>(buf[k]) + slab_out_, why);
    };
    auto finish = [&](long long c) {
      const size_t k = static_cast<size_t>(c % buffers_);
      const size_t first = static_cast<size_t>(slabs_.first(c)), count = static_cast<size_t>(slabs_.count(c));
      return copy_out(out + first * out_plane_bytes, static_cast<char *>(buf[k]) + slab_out_, count * out_plane_bytes,
                      out_mem, streams_[k], why);
    };
    return pipeline(slabs_.chunks, start, finish);
  }

  // Phase 2: blocks of columns of the output's planes, across all n0
  // planes, out -> out, each transformed along dim 0 in its buffer.
  bool run_pencils(char *out, Memory mem, const std::vector<void *> &buf, std::string *why) {
    const size_t pitch = static_cast<size_t>(plane_) * cbytes_, rows = static_cast<size_t>(n0_);
    auto start = [&](long long c) {
      const size_t k = static_cast<size_t>(c % buffers_);
      const cudaStream_t st = streams_[k];
      char *at = out + static_cast<size_t>(pencils_.first(c)) * cbytes_;
      const size_t width = static_cast<size_t>(pencils_.count(c)) * cbytes_;
      return rows_in(buf[k], at, pitch, width, rows, mem, st, why) &&
             exec_plan(pencil_plans_.of(pencils_, c, k), st, buf[k], buf[k], why);
    };
    auto finish = [&](long long c) {
      const size_t k = static_cast<size_t>(c % buffers_);
      char *at = out + static_cast<size_t>(pencils_.first(c)) * cbytes_;
      const size_t width = static_cast<size_t>(pencils_.count(c)) * cbytes_;
      return rows_out(at, pitch, buf[k], width, rows, mem, streams_[k], why);
    };
    return pipeline(pencils_.chunks, start, finish);
  }

  // Pageable arrays go through the copier's pinned staging; pinned,
  // device and managed ones straight to the copy engines.
  bool copy_in(void *dev, const char *src, size_t bytes, Memory m, cudaStream_t st, std::string *why) {
    if (m == Memory::Pageable) return copier_.to_device(dev, src, bytes, st, why);
    GPUFFTW_CK(cudaMemcpyAsync(dev, src, bytes, cudaMemcpyDefault, st), why);
    return true;
  }
  bool copy_out(char *dst, const void *dev, size_t bytes, Memory m, cudaStream_t st, std::string *why) {
    if (m == Memory::Pageable) return copier_.to_host(dst, dev, bytes, st, why);
    GPUFFTW_CK(cudaMemcpyAsync(dst, dev, bytes, cudaMemcpyDefault, st), why);
    return true;
  }
  bool rows_in(void *dev, const char *src, size_t pitch, size_t width, size_t rows, Memory m, cudaStream_t st,
               std::string *why) {
    if (m == Memory::Pageable) return copier_.rows_to_device(dev, src, pitch, width, rows, st, why);
    GPUFFTW_CK(cudaMemcpy2DAsync(dev, width, src, pitch, width, rows, cudaMemcpyDefault, st), why);
    return true;
  }
  bool rows_out(char *dst, size_t pitch, const void *dev, size_t width, size_t rows, Memory m, cudaStream_t st,
                std::string *why) {
    if (m == Memory::Pageable) return copier_.rows_to_host(dst, pitch, dev, width, rows, st, why);
    GPUFFTW_CK(cudaMemcpy2DAsync(dst, pitch, dev, width, width, rows, cudaMemcpyDefault, st), why);
    return true;
  }

  Geometry g_;
  long long n0_ = 0, plane_ = 1;  // plane_: complex elements of a plane of dim 0 of the output
  size_t cbytes_ = 0;             // bytes of a complex element
  size_t in_plane_bytes_ = 0;     // bytes of a plane of the input, as it lies
  bool slab_apart_ = false;       // a slab's input and output apart in its buffer (r2c out of place)
  size_t slab_out_ = 0;           // where a slab's output starts in its buffer
  Split slabs_, pencils_;         // planes per slab, columns per pencil group
  PhasePlans slab_plans_, pencil_plans_;
  int buffers_ = 0;               // buffers, one per stream used
  size_t buffer_bytes_ = 0;
  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> events_;  // one per stream, for barriers
  HostCopier copier_;
  std::mutex mutex_;
};

}  // namespace

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

size_t out_of_core_array_bytes(const Geometry &g) {
  const size_t real_size = g.real == Real::F32 ? sizeof(float) : sizeof(double), rank = g.dims.size();
  size_t out = 2 * real_size;
  for (size_t i = 0; i < rank; ++i)
    out *= static_cast<size_t>(g.type == Type::R2C && i == rank - 1 ? g.dims[i].n / 2 + 1 : g.dims[i].n);
  const size_t in =
      g.type == Type::C2C ? out : static_cast<size_t>(g.dims[0].n) * static_cast<size_t>(g.dims[0].is) * real_size;
  return g.in_place ? std::max(in, out) : in + out;
}

std::unique_ptr<FftJob> make_out_of_core_job(const Geometry &g, std::string *why) {
  auto job = std::make_unique<OutOfCoreJob>(g);
  if (!job->init(why)) return nullptr;
  return job;
}

}  // namespace gpufftw::engine
