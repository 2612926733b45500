#include "engine/out_of_core/out_of_core_base.h"

#include "engine/device/context.h"
#include "engine/staging/sides.h"

namespace gpufftw::engine {

size_t out_of_core_array_bytes(const Geometry &g) {
  const size_t real_size = g.real == Real::F32 ? sizeof(float) : sizeof(double), rank = g.dims.size();
  size_t out = 2 * real_size;
  for (size_t i = 0; i < rank; ++i)
    out *= static_cast<size_t>(g.type == Type::R2C && i == rank - 1 ? g.dims[i].n / 2 + 1 : g.dims[i].n);
  const size_t in =
      g.type == Type::C2C ? out : static_cast<size_t>(g.dims[0].n) * static_cast<size_t>(g.dims[0].is) * real_size;
  return g.in_place ? std::max(in, out) : in + out;
}

bool arrays_over_cap(const Geometry &g, std::string *why_not) {
  if (out_of_core_array_bytes(g) > device_memory_cap()) return true;
  return *why_not = "out of core: the arrays fit the cap", false;
}

OutOfCoreBase::OutOfCoreBase(Real real, int sign, long long rows, long long row)
    : real_(real), sign_(sign), cbytes_(real == Real::F32 ? 2 * sizeof(float) : 2 * sizeof(double)), rows_(rows),
      row_(row) {}

OutOfCoreBase::~OutOfCoreBase() {
  for (cudaStream_t st : streams_) cudaStreamSynchronize(st);
  drop_plans();
  for (cudaEvent_t e : events_) cudaEventDestroy(e);
  for (cudaStream_t st : streams_) cudaStreamDestroy(st);
}

bool OutOfCoreBase::init(const std::vector<size_t> &pitches, std::string *why) {
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
  std::vector<size_t> all = pitches;
  all.push_back(static_cast<size_t>(row_) * cbytes_);
  for (size_t p : all)
    if (p > static_cast<size_t>(max_pitch))
      return *why = "out of core: rows of " + std::to_string(p) + " bytes pass cudaMemcpy2D's pitch limit", false;
  // First guess: the buffers take half the cap, cuFFT's work areas the
  // rest; halved while the plans made say it does not fit, or cuFFT
  // cannot make them (its work areas are allocated with the plan).
  const size_t cap = device_memory_cap();
  for (size_t target = cap / (2 * kStreams);; target /= 2) {
    const bool made = make_plans(target, why);
    if (made && device_bytes() <= cap) return true;
    const size_t need = device_bytes();
    const bool least = first_.per == 1 && pencils_.per == 1;
    drop_plans();
    if (!least) continue;
    if (made)
      *why = std::string("out of core: even ") + smallest() + " need " + std::to_string(need >> 20) +
             " MiB of device memory, over the cap of " + std::to_string(cap >> 20) + " MiB (GPUFFTW_DEVICE_MEMORY)";
    return false;
  }
}

bool OutOfCoreBase::run(void *const in[2], void *const out[2], std::string *why) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (fault_injected("execute", why)) return false;
  GPUFFTW_CK(cudaSetDevice(device()), why);
  const char *src = static_cast<const char *>(in[0]);
  char *dst = static_cast<char *>(out[0]);
  const Memory src_mem = memory_type(src), dst_mem = src == dst ? src_mem : memory_type(dst);
  // Every stream of the job starts after streams_[0]'s allocations, so
  // waiting there orders them all.
  if (!after_default_streams(src_mem, dst_mem, streams_[0], why)) return false;
  std::vector<void *> buf;
  bool ok = true;
  for (int k = 0; ok && k < buffers_; ++k) {
    void *p = nullptr;
    ok = !fault_injected("alloc", why) && check(cudaMallocAsync(&p, buffer_bytes_, streams_[0]), "cudaMallocAsync", why);
    if (ok) buf.push_back(p);
  }
  ok = ok && phases(src, src_mem, dst, dst_mem, buf, why);
  for (int k = 0; k < buffers_; ++k) {
    const bool synced = check(cudaStreamSynchronize(streams_[k]), "cudaStreamSynchronize", ok ? why : nullptr);
    ok = ok && synced;
  }
  for (void *p : buf) cudaFreeAsync(p, streams_[0]);
  cudaStreamSynchronize(streams_[0]);
  return ok;
}

bool OutOfCoreBase::make_plans(size_t target, std::string *why) {
  first_ = split_first(target);
  pencils_ = Split(row_, static_cast<long long>(target / (static_cast<size_t>(rows_) * cbytes_)));
  // Each chunk of a phase goes to the next stream and its buffer; with
  // fewer chunks than streams, no buffer is used twice.
  buffers_ = static_cast<int>(std::min<long long>(kStreams, std::max(first_.chunks, pencils_.chunks)));
  buffer_bytes_ = std::max(first_bytes(), static_cast<size_t>(pencils_.per * rows_) * cbytes_);
  return make_phase(first_, &first_plans_, [&](long long count, Step *s) { return plan_first(count, s, why); }) &&
         make_phase(pencils_, &pencil_plans_,
                    [&](long long count, Step *s) { return plan_columns(rows_, count, s, why); });
}

bool OutOfCoreBase::make_phase(const Split &s, PhasePlans *to, const std::function<bool(long long, Step *)> &plan) {
  for (long long k = 0; k < std::min<long long>(s.full(), buffers_); ++k) {
    Step step;
    if (!plan(s.per, &step)) return false;
    to->full.push_back(step);
  }
  if (s.last == s.per) return true;
  Step step;
  if (!plan(s.last, &step)) return false;
  to->last.push_back(step);
  return true;
}

bool OutOfCoreBase::plan_columns(long long rows, long long columns, Step *s, std::string *why) const {
  s->type = complex_type(real_);
  s->sign = sign_;
  long long n = rows, embed = rows;
  return make_plan(s, 1, &n, &embed, columns, 1, &embed, columns, 1, columns, why);
}

void OutOfCoreBase::drop_plans() {
  for (PhasePlans *p : {&first_plans_, &pencil_plans_}) {
    for (const std::vector<Step> *v : {&p->full, &p->last})
      for (const Step &s : *v) destroy_plan(s);
    p->full.clear();
    p->last.clear();
  }
}

size_t OutOfCoreBase::device_bytes() const {
  size_t b = static_cast<size_t>(buffers_) * buffer_bytes_;
  for (const PhasePlans *p : {&first_plans_, &pencil_plans_})
    for (const std::vector<Step> *v : {&p->full, &p->last})
      for (const Step &s : *v) b += s.work;
  return b;
}

bool OutOfCoreBase::barrier(int count, std::string *why) {
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
bool OutOfCoreBase::pipeline(long long chunks, const std::function<bool(long long)> &start,
                             const std::function<bool(long long)> &finish) {
  for (long long c = 0; c <= chunks; ++c) {
    if (c < chunks && !start(c)) return false;
    if (c > 0 && !finish(c - 1)) return false;
  }
  return true;
}

bool OutOfCoreBase::run_pencils(const char *from, Memory from_mem, char *to, Memory to_mem,
                                const std::vector<void *> &buf, std::string *why) {
  const size_t pitch = static_cast<size_t>(row_) * cbytes_, rows = static_cast<size_t>(rows_);
  auto start = [&](long long c) {
    const size_t k = static_cast<size_t>(c % buffers_);
    const cudaStream_t st = streams_[k];
    const size_t width = static_cast<size_t>(pencils_.count(c)) * cbytes_;
    return rows_in(buf[k], from + static_cast<size_t>(pencils_.first(c)) * cbytes_, pitch, width, rows, from_mem, st,
                   why) &&
           exec_plan(pencil_plans_.of(pencils_, c, k), st, buf[k], buf[k], why);
  };
  auto finish = [&](long long c) {
    const size_t k = static_cast<size_t>(c % buffers_);
    const size_t width = static_cast<size_t>(pencils_.count(c)) * cbytes_;
    return rows_out(to + static_cast<size_t>(pencils_.first(c)) * cbytes_, pitch, buf[k], width, rows, to_mem,
                    streams_[k], why);
  };
  return pipeline(pencils_.chunks, start, finish);
}

// Pageable arrays go through the copier's pinned staging; pinned, device
// and managed ones straight to the copy engines.
bool OutOfCoreBase::copy_in(void *dev, const char *src, size_t bytes, Memory m, cudaStream_t st, std::string *why) {
  if (m == Memory::Pageable) return copier_.to_device(dev, src, bytes, st, why);
  GPUFFTW_CK(cudaMemcpyAsync(dev, src, bytes, cudaMemcpyDefault, st), why);
  return true;
}

bool OutOfCoreBase::copy_out(char *dst, const void *dev, size_t bytes, Memory m, cudaStream_t st, std::string *why) {
  if (m == Memory::Pageable) return copier_.to_host(dst, dev, bytes, st, why);
  GPUFFTW_CK(cudaMemcpyAsync(dst, dev, bytes, cudaMemcpyDefault, st), why);
  return true;
}

bool OutOfCoreBase::rows_in(void *dev, const char *src, size_t pitch, size_t width, size_t rows, Memory m,
                            cudaStream_t st, std::string *why) {
  if (m == Memory::Pageable) return copier_.rows_to_device(dev, src, pitch, width, rows, st, why);
  GPUFFTW_CK(cudaMemcpy2DAsync(dev, width, src, pitch, width, rows, cudaMemcpyDefault, st), why);
  return true;
}

bool OutOfCoreBase::rows_out(char *dst, size_t pitch, const void *dev, size_t width, size_t rows, Memory m,
                             cudaStream_t st, std::string *why) {
  if (m == Memory::Pageable) return copier_.rows_to_host(dst, pitch, dev, width, width, rows, st, why);
  GPUFFTW_CK(cudaMemcpy2DAsync(dst, pitch, dev, width, width, rows, cudaMemcpyDefault, st), why);
  return true;
}

}  // namespace gpufftw::engine
