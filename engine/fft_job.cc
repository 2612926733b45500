#include <algorithm>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>
#include <tuple>
#include <vector>

#include "engine/context.h"
#include "engine/engine.h"
#include "engine/gather_scatter.h"
#include "engine/host_copy.h"

namespace gpufftw::engine {
namespace {

// cuFFT plans by geometry. A plan is held by one job at a time (jobs run
// concurrently on their own streams); a destroyed job's plan waits here
// for the next job of the same geometry.
using Key = std::tuple<int, int, std::vector<long long>>;  // type, device, shape

class PlanCache {
 public:
  using Entry = std::pair<cufftHandle, size_t>;  // handle, its work area's bytes
  bool take(const Key &k, Entry *e) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = idle_.find(k);
    if (it == idle_.end() || it->second.empty()) return false;
    *e = it->second.back();
    it->second.pop_back();
    return true;
  }
  void give_back(const Key &k, Entry e) {
    std::lock_guard<std::mutex> lock(mutex_);
    idle_[k].push_back(e);
  }

 private:
  std::mutex mutex_;
  std::map<Key, std::vector<Entry>> idle_;
};

PlanCache &plan_cache() {
  static PlanCache *c = new PlanCache;  // never destroyed: jobs may outlive statics
  return *c;
}

cufftType cufft_type(Type t, Real r) {
  switch (t) {
    case Type::C2C: return r == Real::F32 ? CUFFT_C2C : CUFFT_Z2Z;
    case Type::R2C: return r == Real::F32 ? CUFFT_R2C : CUFFT_D2Z;
    case Type::C2R: return r == Real::F32 ? CUFFT_C2R : CUFFT_Z2D;
  }
  return CUFFT_C2C;
}

cufftType complex_type(Real r) { return r == Real::F32 ? CUFFT_C2C : CUFFT_Z2Z; }

long long product(const std::vector<long long> &v, size_t from, size_t to) {
  long long p = 1;
  for (size_t i = from; i < to; ++i) p *= v[i];
  return p;
}

// One side (input or output) of a transform, loops first then dims.
struct Side {
  bool complex = false, split = false;
  std::vector<long long> n, stride;  // logical sizes; strides in the side's elements
  size_t elem = 0;                   // bytes per element of one array of the side
  long long count() const { return product(n, 0, n.size()); }
  long long min_offset() const {
    long long o = 0;
    for (size_t i = 0; i < n.size(); ++i) o += std::min(0LL, (n[i] - 1) * stride[i]);
    return o;
  }
  long long max_offset() const {
    long long o = 0;
    for (size_t i = 0; i < n.size(); ++i) o += std::max(0LL, (n[i] - 1) * stride[i]);
    return o;
  }
};

Side make_side(const Geometry &g, bool output) {
  Side s;
  const size_t real_size = g.real == Real::F32 ? sizeof(float) : sizeof(double);
  s.complex = g.type == Type::C2C || (output ? g.type == Type::R2C : g.type == Type::C2R);
  s.split = s.complex && (output ? g.split_out : g.split_in);
  s.elem = s.complex && !s.split ? 2 * real_size : real_size;
  for (const Axis &a : g.loops) s.n.push_back(a.n), s.stride.push_back(output ? a.os : a.is);
  for (const Axis &a : g.dims) s.n.push_back(a.n), s.stride.push_back(output ? a.os : a.is);
  if (g.type != Type::C2C && s.complex) s.n.back() = s.n.back() / 2 + 1;
  return s;
}

// cuFFT's advanced layout for one side: the last dim's stride, and
// nembed[i] = stride[i-1] / stride[i], which must cover the logical size.
bool embed(const Side &s, size_t first_dim, long long *nembed, long long *stride) {
  const size_t rank = s.n.size() - first_dim;
  *stride = s.stride.back();
  nembed[0] = s.n[first_dim];
  for (size_t i = 1; i < rank; ++i) {
    const long long hi = s.stride[first_dim + i - 1], lo = s.stride[first_dim + i];
    if (lo <= 0 || hi % lo != 0 || hi / lo < s.n[first_dim + i]) return false;
    nembed[i] = hi / lo;
  }
  return *stride > 0;
}

bool is_device(const void *p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

// A cuFFT plan run `outer` times, `outer_step` elements apart, on the
// dense buffers (or, for the direct path, once on the arrays).
struct Step {
  Key key;
  cufftHandle handle = 0;
  size_t work = 0;  // bytes of cuFFT's work area for it
  cufftType type = CUFFT_C2C;
  int sign = CUFFT_FORWARD;
  bool in_to_out = true;  // false: in place on the input buffer
  long long outer = 1, outer_step = 0;
};

// A contiguous byte range of the caller's memory that the job reads or
// writes, staged to the device when it is host memory.
struct Region {
  char *start = nullptr, *end = nullptr;
  bool input = false, output = false, device = true;
  size_t written = 0;  // output bytes the transform writes in it
  char *dev = nullptr;
};

class CufftJob final : public FftJob {
 public:
  CufftJob(const Geometry &g, bool direct, std::string path) : g_(g), direct_(direct), path_(std::move(path)) {
    in_ = make_side(g, false);
    out_ = make_side(g, true);
  }
  ~CufftJob() override {
    if (stream_) cudaStreamSynchronize(stream_);
    for (const Step &s : steps_) plan_cache().give_back(s.key, {s.handle, s.work});
    for (cudaStream_t st : streams_)
      if (st != stream_) cudaStreamDestroy(st);
    if (stream_) cudaStreamDestroy(stream_);
  }

  bool init(std::string *why) {
    GPUFFTW_CK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), why);
    if (!direct_) return plan_dense(why);
    if (!plan_chunks(why)) return false;
    if (!chunk_plans_.empty()) return true;
    return plan_direct(g_.loops.empty() ? 1 : g_.loops[0].n, why) && plan_slabs(why);
  }

  std::string path() const override { return path_; }

  // Device bytes one run holds at most: staged arrays or chunk buffers,
  // dense buffers, cuFFT's work areas.
  size_t device_bytes() const {
    size_t b = 0;
    for (const Step &s : steps_) b += s.work;
    auto span = [](const Side &s) { return static_cast<size_t>(s.max_offset() - s.min_offset() + 1) * s.elem; };
    if (!chunk_plans_.empty()) {
      const Axis &loop = g_.loops[0];
      return b + streams_.size() * (chunk_bytes(in_, loop.is, chunk_per_) + chunk_bytes(out_, loop.os, chunk_per_));
    }
    b += span(in_) * (in_.split ? 2 : 1) + span(out_) * (out_.split ? 2 : 1);
    if (!direct_) b += static_cast<size_t>(in_.count() + out_.count()) * 2 * (g_.real == Real::F32 ? 4 : 8);
    return b;
  }

  bool run(void *const in[2], void *const out[2], std::string *why) override {
    if (fault_injected("execute", why)) return false;
    GPUFFTW_CK(cudaSetDevice(device()), why);
    std::vector<void *> scratch;
    bool ok = run_on_stream(in, out, &scratch, why);
    if (ok) ok = check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize", why);
    for (void *p : scratch) cudaFreeAsync(p, stream_);
    cudaStreamSynchronize(stream_);
    return ok;
  }

 private:
  bool run_on_stream(void *const in[2], void *const out[2], std::vector<void *> *scratch, std::string *why) {
    if (!chunk_plans_.empty()) return run_chunked(static_cast<char *>(in[0]), static_cast<char *>(out[0]), scratch, why);
    if (!slab_plans_.empty() && is_pinned(in[0]) && is_pinned(out[0]))
      return run_slabs(static_cast<char *>(in[0]), static_cast<char *>(out[0]), scratch, why);
    std::vector<Region> regions = regions_of(in, out);
    for (Region &r : regions)
      if (!stage(&r, scratch, why)) return false;
    auto map = [&](const void *p) -> void * {
      for (const Region &r : regions)
        if (static_cast<const char *>(p) >= r.start && static_cast<const char *>(p) < r.end)
          return r.dev + (static_cast<const char *>(p) - r.start);
      return const_cast<void *>(p);
    };
    if (direct_) {
      if (!exec(steps_[0], map(in[0]), map(out[0]), why)) return false;
    } else if (!run_dense(in, out, map, scratch, why)) {
      return false;
    }
    for (const Region &r : regions)
      if (r.output && !r.device && !copier_.to_host(r.start, r.dev, r.end - r.start, stream_, why)) return false;
    return true;
  }

  // The caller's arrays as merged byte ranges: an in-place transform, or a
  // split pair that interleaves, is one region staged once.
  std::vector<Region> regions_of(void *const in[2], void *const out[2]) const {
    std::vector<Region> ranges;
    auto add = [&](void *p, const Side &s, bool output) {
      if (!p) return;
      Region r;
      r.start = static_cast<char *>(p) + s.min_offset() * static_cast<long long>(s.elem);
      r.end = static_cast<char *>(p) + (s.max_offset() + 1) * static_cast<long long>(s.elem);
      r.input = !output;
      r.output = output;
      r.written = output ? static_cast<size_t>(s.count()) * s.elem : 0;
      r.device = is_device(p);
      ranges.push_back(r);
    };
    add(in[0], in_, false);
    if (in_.split) add(in[1], in_, false);
    add(out[0], out_, true);
    if (out_.split) add(out[1], out_, true);
    std::sort(ranges.begin(), ranges.end(), [](const Region &a, const Region &b) { return a.start < b.start; });
    std::vector<Region> merged;
    for (const Region &r : ranges) {
      if (!merged.empty() && r.start < merged.back().end) {
        Region &m = merged.back();
        m.end = std::max(m.end, r.end);
        m.input |= r.input;
        m.output |= r.output;
        m.written += r.written;
        m.device &= r.device;
      } else {
        merged.push_back(r);
      }
    }
    return merged;
  }

  // A batch in chunks of transforms, round-robin over the streams: the copy
  // in of one chunk, the FFT of another and the copy out of a third run at
  // once on pinned arrays; device arrays are used where they lie. Pageable
  // arrays are staged whole through the copier (its threads are the
  // bottleneck, so they must not wait on each chunk), unless that would
  // pass the memory cap; then chunk by chunk. Device memory stays a few
  // chunks otherwise.
  bool run_chunked(char *in, char *out, std::vector<void *> *scratch, std::string *why) {
    const Axis &loop = g_.loops[0];
    const bool in_place = in == out;
    const bool in_dev = is_device(in), out_dev = in_place ? in_dev : is_device(out);
    const size_t in_all = chunk_bytes(in_, loop.is, loop.n), out_all = chunk_bytes(out_, loop.os, loop.n);
    const size_t in_stage = in_place ? std::max(in_all, out_all) : in_all;
    const bool pageable = (!in_dev && !is_pinned(in)) || (!out_dev && !is_pinned(out));
    if (!pageable || in_stage + (in_place ? 0 : out_all) > device_memory_cap())
      return run_chunks(in, out, in_dev, out_dev, scratch, why);
    void *d_in = in, *d_out = out;
    if (!in_dev || g_.type == Type::C2R) {  // cuFFT's c2r overwrites its input
      if (!alloc(in_stage, &d_in, scratch, why)) return false;
      if (in_dev)
        GPUFFTW_CK(cudaMemcpyAsync(d_in, in, in_stage, cudaMemcpyDeviceToDevice, stream_), why);
      else if (!copier_.to_device(d_in, in, in_stage, stream_, why))
        return false;
    }
    if (in_place)
      d_out = d_in;
    else if (!out_dev && !alloc(out_all, &d_out, scratch, why))
      return false;
    GPUFFTW_CK(cudaStreamSynchronize(stream_), why);
    if (!run_chunks(static_cast<char *>(d_in), static_cast<char *>(d_out), true, true, scratch, why)) return false;
    return out_dev || copier_.to_host(out, d_out, in_place ? in_stage : out_all, stream_, why);
  }

  size_t chunk_bytes(const Side &s, long long dist, long long count) const {
    return static_cast<size_t>(((count - 1) * dist + extent(s)) * static_cast<long long>(s.elem));
  }

  bool run_chunks(char *in, char *out, bool in_dev, bool out_dev, std::vector<void *> *scratch, std::string *why) {
    const Axis &loop = g_.loops[0];
    const bool in_place = in == out;
    // cuFFT's c2r overwrites its input: a caller's device input gets a copy.
    const bool stage_in = !in_dev || (g_.type == Type::C2R && !in_place && !owned(in, scratch));
    const long long batch = loop.n, per = chunk_per_;
    const size_t in_bytes = chunk_bytes(in_, loop.is, per), out_bytes = chunk_bytes(out_, loop.os, per);
    const size_t buf_in = in_place ? std::max(in_bytes, out_bytes) : in_bytes;
    std::vector<void *> d_in(streams_.size()), d_out(streams_.size());
    for (size_t k = 0; k < streams_.size(); ++k) {
      if (stage_in && !alloc(buf_in, &d_in[k], scratch, why)) return false;
      if (!in_place && !out_dev && !alloc(out_bytes, &d_out[k], scratch, why)) return false;
    }
    if (!join_streams(why)) return false;
    for (long long first = 0, c = 0; first < batch; first += per, ++c) {
      const size_t k = static_cast<size_t>(c) % streams_.size();
      const cudaStream_t st = streams_[k];
      const long long count = std::min(per, batch - first);
      const size_t ib = chunk_bytes(in_, loop.is, count), ob = chunk_bytes(out_, loop.os, count);
      const size_t inb = in_place ? std::max(ib, ob) : ib;
      char *hin = in + first * loop.is * static_cast<long long>(in_.elem);
      char *hout = out + first * loop.os * static_cast<long long>(out_.elem);
      void *src = stage_in ? d_in[k] : hin;
      void *dst = in_place ? src : out_dev ? hout : d_out[k];
      if (stage_in && in_dev) GPUFFTW_CK(cudaMemcpyAsync(src, hin, inb, cudaMemcpyDeviceToDevice, st), why);
      if (stage_in && !in_dev && !copier_.to_device(src, hin, inb, st, why)) return false;
      if (!exec_on(count == per ? chunk_plans_[k] : chunk_plans_.back(), st, src, dst, why)) return false;
      if (!out_dev && !copier_.to_host(hout, dst, in_place ? inb : ob, st, why)) return false;
    }
    for (cudaStream_t st : streams_) GPUFFTW_CK(cudaStreamSynchronize(st), why);
    return true;
  }

  // Scratch comes from the pool in stream_'s order; the other streams may
  // touch it only after that point of stream_.
  bool join_streams(std::string *why) {
    cudaEvent_t ready;
    GPUFFTW_CK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming), why);
    bool ok = check(cudaEventRecord(ready, stream_), "cudaEventRecord", why);
    for (cudaStream_t st : streams_)
      if (ok && st != stream_) ok = check(cudaStreamWaitEvent(st, ready, 0), "cudaStreamWaitEvent", why);
    cudaEventDestroy(ready);
    return ok;
  }

  // Whether p is scratch of this run (staged already, free to overwrite).
  static bool owned(const void *p, const std::vector<void *> *scratch) {
    return std::find(scratch->begin(), scratch->end(), p) != scratch->end();
  }

  // One large 2-D or 3-D transform on pinned arrays, in two phases that
  // overlap compute with the bus: slabs of dim 0 are copied in and given
  // their trailing-dims transform as they arrive (two streams, so one
  // slab's FFT runs under the next one's copy); then dim 0 is transformed
  // in chunks of dim 1, each copied out (a 2-D copy: n0 rows) while the
  // next chunk computes.
  bool run_slabs(char *in, char *out, std::vector<void *> *scratch, std::string *why) {
    const bool in_place = in == out;
    const size_t cbytes = 2 * (g_.real == Real::F32 ? sizeof(float) : sizeof(double));
    const long long n0 = g_.dims[0].n;
    const long long plane_in = product(in_.n, 1, in_.n.size()), plane_out = product(out_.n, 1, out_.n.size());
    const size_t in_total = static_cast<size_t>(n0 * plane_in) * in_.elem;
    const size_t out_total = static_cast<size_t>(n0 * plane_out) * out_.elem;
    void *d_in = nullptr, *d_out = nullptr;
    if (!alloc(std::max(in_total, in_place ? out_total : 0), &d_in, scratch, why)) return false;
    d_out = d_in;
    if (g_.type != Type::C2C && !alloc(out_total, &d_out, scratch, why)) return false;
    if (!join_streams(why)) return false;
    cudaStream_t st[2] = {streams_[0], streams_[1]};
    const long long slabs = slab_count_, per = n0 / slabs;
    for (long long k = 0; k < slabs; ++k) {
      const size_t ib = static_cast<size_t>(per * plane_in) * in_.elem, ob = static_cast<size_t>(per * plane_out) * out_.elem;
      char *src = static_cast<char *>(d_in) + k * ib, *dst = static_cast<char *>(d_out) + k * ob;
      GPUFFTW_CK(cudaMemcpyAsync(src, in + k * ib, ib, cudaMemcpyHostToDevice, st[k % 2]), why);
      if (!exec_on(slab_plans_[k % 2], st[k % 2], src, dst, why)) return false;
    }
    // Dim 0 needs every slab: each stream waits for the other's last one.
    cudaEvent_t done[2];
    for (int i = 0; i < 2; ++i) {
      GPUFFTW_CK(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming), why);
      GPUFFTW_CK(cudaEventRecord(done[i], st[i]), why);
    }
    for (int i = 0; i < 2; ++i) GPUFFTW_CK(cudaStreamWaitEvent(st[i], done[1 - i], 0), why);
    for (int i = 0; i < 2; ++i) cudaEventDestroy(done[i]);
    const long long n1 = out_.n[1], chunks = pencil_count_, width = n1 / chunks;
    const long long row = plane_out / n1;  // complex elements per (i0, i1)
    const size_t pitch = static_cast<size_t>(plane_out) * cbytes, wbytes = static_cast<size_t>(width * row) * cbytes;
    for (long long c = 0; c < chunks; ++c) {
      char *at = static_cast<char *>(d_out) + c * wbytes;
      if (!exec_on(pencil_plans_[c % 2], st[c % 2], at, at, why)) return false;
      GPUFFTW_CK(cudaMemcpy2DAsync(out + c * wbytes, pitch, at, pitch, wbytes, static_cast<size_t>(n0),
                                   cudaMemcpyDeviceToHost, st[c % 2]),
                 why);
    }
    for (int i = 0; i < 2; ++i) GPUFFTW_CK(cudaStreamSynchronize(st[i]), why);
    return true;
  }

  // The slab path serves one dense row-major 2-D or 3-D c2c, or out-of-place
  // r2c, of at least 32 MB whose first two dims split evenly.
  bool plan_slabs(std::string *why) {
    const size_t rank = g_.dims.size();
    if (!g_.loops.empty() || rank < 2 || rank > 3 || g_.type == Type::C2R || (g_.type == Type::R2C && g_.in_place))
      return true;
    auto dense = [](const Side &s) {
      long long stride = 1;
      for (size_t i = s.n.size(); i-- > 0; stride *= s.n[i])
        if (s.stride[i] != stride) return false;
      return true;
    };
    const size_t bytes = static_cast<size_t>(in_.count()) * in_.elem + static_cast<size_t>(out_.count()) * out_.elem;
    auto divisor = [](long long n) -> long long {
      for (long long d = 8; d >= 4; --d)
        if (n % d == 0) return d;
      return 0;
    };
    slab_count_ = divisor(g_.dims[0].n);
    pencil_count_ = divisor(out_.n[1]);
    if (!dense(in_) || !dense(out_) || bytes < (size_t{32} << 20) || !slab_count_ || !pencil_count_) return true;
    if (streams_.empty()) streams_.push_back(stream_);
    cudaStream_t second;
    GPUFFTW_CK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking), why);
    streams_.push_back(second);
    const long long per = g_.dims[0].n / slab_count_;
    const long long plane_in = product(in_.n, 1, rank), plane_out = product(out_.n, 1, rank);
    std::vector<long long> trailing;
    for (size_t i = 1; i < rank; ++i) trailing.push_back(g_.dims[i].n);
    const long long row = plane_out / out_.n[1], width = out_.n[1] / pencil_count_;
    for (int k = 0; k < 2; ++k) {
      Step slab;
      slab.type = cufft_type(g_.type, g_.real);
      slab.sign = g_.sign;
      if (!add_step(slab, static_cast<int>(rank - 1), trailing.data(), nullptr, 1, plane_in, nullptr, 1, plane_out, per,
                    why))
        return false;
      slab_plans_.push_back(steps_.back());
    }
    for (int k = 0; k < 2; ++k) {
      Step pencil;
      pencil.type = complex_type(g_.real);
      pencil.sign = g_.type == Type::C2C ? g_.sign : CUFFT_FORWARD;
      long long n0 = g_.dims[0].n, embed0 = n0;
      if (!add_step(pencil, 1, &n0, &embed0, plane_out, 1, &embed0, plane_out, 1, width * row, why)) return false;
      pencil_plans_.push_back(steps_.back());
    }
    return true;
  }

  // Elements one transform spans on a side, behind its one loop (the
  // direct path's strides are positive).
  static long long extent(const Side &s) {
    long long e = 1;
    for (size_t i = 1; i < s.n.size(); ++i) e += (s.n[i] - 1) * s.stride[i];
    return e;
  }

  // Chunks pay where a batch moves enough bytes and its transforms lie
  // apart, one chunk's bytes never touching another's.
  bool plan_chunks(std::string *why) {
    if (g_.loops.size() != 1 || !direct_) return true;
    const Axis &loop = g_.loops[0];
    const long long span_in = extent(in_), span_out = extent(out_);
    const size_t total = static_cast<size_t>(loop.n) * (span_in * in_.elem + span_out * out_.elem);
    const long long written = product(out_.n, 1, out_.n.size());
    const bool same_bytes = loop.is * static_cast<long long>(in_.elem) == loop.os * static_cast<long long>(out_.elem);
    if (loop.n < 8 || total < (size_t{32} << 20) || loop.is < span_in || loop.os < span_out || written != span_out ||
        (g_.in_place && !same_bytes))
      return true;
    // About 16 MB a chunk, and at least 8 chunks; fewer bytes where the
    // memory cap asks (three streams' buffers and cuFFT's work areas).
    long long chunks = std::min<long long>(loop.n, std::max<long long>(8, static_cast<long long>(total >> 24)));
    while (chunks < loop.n && 6 * (total / static_cast<size_t>(chunks)) > device_memory_cap()) chunks *= 2;
    chunks = std::min(chunks, loop.n);
    chunk_per_ = (loop.n + chunks - 1) / chunks;
    const long long rem = loop.n % chunk_per_;
    streams_.push_back(stream_);
    for (int k = 1; k < kStreams; ++k) {
      cudaStream_t st;
      GPUFFTW_CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), why);
      streams_.push_back(st);
    }
    const size_t before = steps_.size();
    for (int k = 0; k < kStreams + (rem ? 1 : 0); ++k)
      if (!plan_direct(k < kStreams ? chunk_per_ : rem, why)) return false;
    chunk_plans_.assign(steps_.begin() + static_cast<long>(before), steps_.end());
    return true;
  }

  bool alloc(size_t bytes, void **p, std::vector<void *> *scratch, std::string *why) {
    if (fault_injected("alloc", why)) return false;
    GPUFFTW_CK(cudaMallocAsync(p, bytes, stream_), why);
    scratch->push_back(*p);
    return true;
  }

  bool stage(Region *r, std::vector<void *> *scratch, std::string *why) {
    const size_t bytes = r->end - r->start;
    // cuFFT's c2r overwrites its input: a caller's device input that is not
    // also the output gets a copy to work on.
    const bool c2r_input = direct_ && g_.type == Type::C2R && r->input && !r->output;
    if (r->device && !c2r_input) {
      r->dev = r->start;
      return true;
    }
    void *d = nullptr;
    if (!alloc(bytes, &d, scratch, why)) return false;
    r->dev = static_cast<char *>(d);
    // Output-only bytes the transform does not write must come back as
    // they were, so such a region is copied in too.
    if (!(r->input || r->written < bytes)) return true;
    if (r->device) {
      GPUFFTW_CK(cudaMemcpyAsync(r->dev, r->start, bytes, cudaMemcpyDeviceToDevice, stream_), why);
      return true;
    }
    return copier_.to_device(r->dev, r->start, bytes, stream_, why);
  }

  Strided strided(const Side &s, void *const p[2], const std::function<void *(const void *)> &map) const {
    Strided a;
    a.naxes = static_cast<int>(s.n.size());
    for (int i = 0; i < a.naxes; ++i) a.n[i] = s.n[i], a.stride[i] = s.stride[i];
    const size_t real_size = g_.real == Real::F32 ? sizeof(float) : sizeof(double);
    a.comp[0] = map(p[0]);
    if (s.complex && s.split) {
      a.comp[1] = map(p[1]);
    } else if (s.complex) {
      a.comp[1] = static_cast<char *>(map(p[0])) + real_size;
      a.step = 2;
    }
    return a;
  }

  bool run_dense(void *const in[2], void *const out[2], const std::function<void *(const void *)> &map,
                 std::vector<void *> *scratch, std::string *why) {
    const size_t real_size = g_.real == Real::F32 ? sizeof(float) : sizeof(double);
    void *d_in = nullptr, *d_out = nullptr;
    if (!alloc(in_.count() * (in_.complex ? 2 : 1) * real_size, &d_in, scratch, why)) return false;
    d_out = d_in;
    if (g_.type != Type::C2C && !alloc(out_.count() * (out_.complex ? 2 : 1) * real_size, &d_out, scratch, why))
      return false;
    const Strided src = strided(in_, in, map), dst = strided(out_, out, map);
    if (g_.real == Real::F32)
      GPUFFTW_CK(gather(src, static_cast<float *>(d_in), in_.count(), stream_), why);
    else
      GPUFFTW_CK(gather(src, static_cast<double *>(d_in), in_.count(), stream_), why);
    // The leading dims' 1-D transforms work in place on the complex buffer.
    char *cbuf = static_cast<char *>(g_.type == Type::R2C ? d_out : d_in);
    for (const Step &s : steps_) {
      if (s.in_to_out) {
        if (!exec(s, d_in, d_out, why)) return false;
        continue;
      }
      for (long long o = 0; o < s.outer; ++o) {
        char *at = cbuf + o * s.outer_step * static_cast<long long>(2 * real_size);
        if (!exec(s, at, at, why)) return false;
      }
    }
    if (g_.real == Real::F32)
      GPUFFTW_CK(scatter(static_cast<const float *>(d_out), dst, out_.count(), stream_), why);
    else
      GPUFFTW_CK(scatter(static_cast<const double *>(d_out), dst, out_.count(), stream_), why);
    return true;
  }

  bool exec(const Step &s, void *in, void *out, std::string *why) { return exec_on(s, stream_, in, out, why); }

  bool exec_on(const Step &s, cudaStream_t stream, void *in, void *out, std::string *why) {
    const Cufft &f = cufft();
    GPUFFTW_CK(f.set_stream(s.handle, stream), why);
    switch (s.type) {
      case CUFFT_C2C:
        GPUFFTW_CK(f.exec_c2c(s.handle, static_cast<cufftComplex *>(in), static_cast<cufftComplex *>(out), s.sign), why);
        break;
      case CUFFT_Z2Z:
        GPUFFTW_CK(f.exec_z2z(s.handle, static_cast<cufftDoubleComplex *>(in), static_cast<cufftDoubleComplex *>(out),
                              s.sign),
                   why);
        break;
      case CUFFT_R2C:
        GPUFFTW_CK(f.exec_r2c(s.handle, static_cast<cufftReal *>(in), static_cast<cufftComplex *>(out)), why);
        break;
      case CUFFT_D2Z:
        GPUFFTW_CK(f.exec_d2z(s.handle, static_cast<cufftDoubleReal *>(in), static_cast<cufftDoubleComplex *>(out)), why);
        break;
      case CUFFT_C2R:
        GPUFFTW_CK(f.exec_c2r(s.handle, static_cast<cufftComplex *>(in), static_cast<cufftReal *>(out)), why);
        break;
      case CUFFT_Z2D:
        GPUFFTW_CK(f.exec_z2d(s.handle, static_cast<cufftDoubleComplex *>(in), static_cast<cufftDoubleReal *>(out)), why);
        break;
      default: return check(CUFFT_INVALID_TYPE, "cufft type", why);
    }
    return true;
  }

  // Adds `step` with a cuFFT plan of `rank` dims n over the given embeds,
  // from the cache or new.
  bool add_step(Step step, int rank, const long long *n, long long *inembed, long long istride, long long idist,
                long long *onembed, long long ostride, long long odist, long long batch, std::string *why) {
    std::vector<long long> shape(n, n + rank);
    for (const long long *v : {static_cast<const long long *>(inembed), static_cast<const long long *>(onembed)})
      if (v) shape.insert(shape.end(), v, v + rank);
    shape.insert(shape.end(), {istride, idist, ostride, odist, batch, inembed ? 1LL : 0LL});
    step.key = Key{static_cast<int>(step.type), device(), shape};
    PlanCache::Entry cached;
    if (plan_cache().take(step.key, &cached)) {
      step.handle = cached.first;
      step.work = cached.second;
    } else {
      const Cufft &f = cufft();
      if (!check(f.create(&step.handle), "cufftCreate", why)) return false;
      std::vector<long long> nn(n, n + rank);
      if (!check(f.make_plan_many64(step.handle, rank, nn.data(), inembed, istride, idist, onembed, ostride, odist,
                                    step.type, batch, &step.work),
                 "cufftMakePlanMany64", why)) {
        f.destroy(step.handle);
        return false;
      }
    }
    steps_.push_back(step);
    return true;
  }

  bool plan_direct(long long batch, std::string *why) {
    const size_t loops = g_.loops.size(), rank = g_.dims.size();
    long long inembed[3], onembed[3], istride, ostride;
    embed(in_, loops, inembed, &istride);
    embed(out_, loops, onembed, &ostride);
    const long long idist = loops ? g_.loops[0].is : 0, odist = loops ? g_.loops[0].os : 0;
    std::vector<long long> n;
    for (const Axis &a : g_.dims) n.push_back(a.n);
    Step s;
    s.type = cufft_type(g_.type, g_.real);
    s.sign = g_.sign;
    return add_step(s, static_cast<int>(rank), n.data(), inembed, istride, idist, onembed, ostride, odist, batch, why);
  }

  // Dense buffers, loops outer: the last (up to) three dims in one plan,
  // each dim before them as strided 1-D transforms of the complex side.
  bool plan_dense(std::string *why) {
    const size_t rank = g_.dims.size();
    const size_t tail = std::min<size_t>(rank, 3), lead = rank - tail;
    std::vector<long long> n;
    for (const Axis &a : g_.dims) n.push_back(a.n);
    std::vector<long long> cn = n;  // the complex side's dims
    if (g_.type != Type::C2C) cn.back() = cn.back() / 2 + 1;
    const long long loops = product(in_.n, 0, g_.loops.size());
    const long long outer_tail = loops * product(n, 0, lead);
    auto add_leading = [&](int sign) -> bool {
      for (size_t k = 0; k < lead; ++k) {
        Step s;
        s.type = complex_type(g_.real);
        s.sign = sign;
        s.in_to_out = false;
        const long long inner = product(cn, k + 1, rank);
        s.outer = loops * product(cn, 0, k);
        s.outer_step = cn[k] * inner;
        long long nk = cn[k], embed_k = cn[k];
        if (!add_step(s, 1, &nk, &embed_k, inner, 1, &embed_k, inner, 1, inner, why)) return false;
      }
      return true;
    };
    // c2r: the leading dims first, backward, on the complex input.
    if (g_.type == Type::C2R && !add_leading(CUFFT_INVERSE)) return false;
    Step t;
    t.type = cufft_type(g_.type, g_.real);
    t.sign = g_.sign;
    const size_t first_tail = g_.loops.size() + lead;
    if (!add_step(t, static_cast<int>(tail), n.data() + lead, nullptr, 1, product(in_.n, first_tail, in_.n.size()),
                  nullptr, 1, product(out_.n, first_tail, out_.n.size()), outer_tail, why))
      return false;
    return g_.type == Type::C2R || add_leading(g_.type == Type::R2C ? CUFFT_FORWARD : g_.sign);
  }

  Geometry g_;
  Side in_, out_;
  bool direct_;
  std::string path_;
  static constexpr int kStreams = 3;
  std::vector<Step> steps_;        // steps_[0]: the whole problem's plan
  std::vector<Step> chunk_plans_;  // one per stream, then the last chunk's
  std::vector<Step> slab_plans_, pencil_plans_;  // two each: one per stream
  long long slab_count_ = 0, pencil_count_ = 0;
  long long chunk_per_ = 0;        // transforms per chunk
  std::vector<cudaStream_t> streams_;
  cudaStream_t stream_ = nullptr;
  HostCopier copier_;
};

// Whether cuFFT can read and write the arrays as they lie; else why not.
bool direct_layout(const Geometry &g, std::string *why_not) {
  const Side in = make_side(g, false), out = make_side(g, true);
  long long e[3], s;
  if (in.split || out.split) return *why_not = "split arrays", false;
  if (g.dims.size() > 3) return *why_not = "rank " + std::to_string(g.dims.size()), false;
  if (g.loops.size() > 1) return *why_not = "several howmany dims", false;
  if (!g.loops.empty() && (g.loops[0].is <= 0 || g.loops[0].os <= 0)) return *why_not = "a non-positive distance", false;
  if (!embed(in, g.loops.size(), e, &s) || !embed(out, g.loops.size(), e, &s))
    return *why_not = "strides cuFFT's advanced layout cannot state", false;
  return true;
}

}  // namespace

std::unique_ptr<FftJob> FftJob::create(const Geometry &g, std::string *why) {
  if (!gpu_available(why) || fault_injected("plan", why)) return nullptr;
  if (g.dims.empty()) return *why = "rank 0", nullptr;
  if (g.dims.size() + g.loops.size() > static_cast<size_t>(kMaxAxes))
    return *why = "more than " + std::to_string(kMaxAxes) + " dims and loops", nullptr;
  for (const Axis &a : g.loops)
    if (a.n < 1) return *why = "an empty loop", nullptr;
  if (!check(cudaSetDevice(device()), "cudaSetDevice", why)) return nullptr;
  std::string why_not;
  const bool direct = direct_layout(g, &why_not);
  auto job = std::make_unique<CufftJob>(g, direct, direct ? "cuFFT" : "cuFFT, gathered (" + why_not + ")");
  if (!job->init(why)) return nullptr;
  // Single transforms larger than the cap are not run out of core yet.
  if (job->device_bytes() > device_memory_cap())
    return *why = "needs " + std::to_string(job->device_bytes() >> 20) + " MiB of device memory, over the cap of " +
                  std::to_string(device_memory_cap() >> 20) + " MiB (GPUFFTW_DEVICE_MEMORY)",
           nullptr;
  return job;
}

}  // namespace gpufftw::engine
