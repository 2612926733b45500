#include "engine/in_core/cufft_job.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "engine/device/context.h"
#include "engine/in_core/own_kernel.h"

namespace gpufftw::engine {

CufftJob::CufftJob(const Geometry &g, bool direct, bool own, std::string path)
    : g_(g), direct_(direct), try_own_(own), path_(std::move(path)) {
  in_ = make_side(g, false);
  out_ = make_side(g, true);
}

CufftJob::~CufftJob() {
  if (stream_) cudaStreamSynchronize(stream_);
  for (const Step &s : steps_) retire_plan(s);
  for (cudaStream_t st : streams_)
    if (st != stream_) cudaStreamDestroy(st);
  if (stream_) cudaStreamDestroy(stream_);
}

bool CufftJob::init(std::string *why) {
  GPUFFTW_CK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), why);
  if (!direct_) return plan_dense(why);
  if (!plan_chunks(why)) return false;
  if (!chunk_plans_.empty()) {
    // Our kernel takes the whole batch at once where the arrays are on
    // the device; host arrays stream through cuFFT in chunks.
    if (try_own_ && (own_ = pick_own_kernel(g_, chunk_plans_[0], chunk_per_, stream_, &own_said_)))
      path_ = own_said_.text + " on device arrays; cuFFT in chunks on host arrays";
    return true;
  }
  if (!plan_direct(g_.loops.empty() ? 1 : g_.loops[0].n, why)) return false;
  if (try_own_ && (own_ = pick_own_kernel(g_, steps_[0], g_.loops.empty() ? 1 : g_.loops[0].n, stream_, &own_said_)))
    path_ = own_said_.text;
  return plan_slabs(why);
}

size_t CufftJob::device_bytes() const {
  size_t b = 0;
  for (const Step &s : steps_) b += s.work;
  auto span = [](const Side &s) { return static_cast<size_t>(s.max_offset() - s.min_offset() + 1) * s.elem; };
  if (!chunk_plans_.empty()) {
    const Axis &loop = g_.loops[0];
    return b + streams_.size() * (chunk_bytes(in_, loop.is, chunk_per_) + chunk_bytes(out_, loop.os, chunk_per_));
  }
  b += span(in_) * (in_.split ? 2 : 1) + span(out_) * (out_.split ? 2 : 1);
  const size_t real_size = g_.real == Real::F32 ? 4 : 8;
  if (g_.type == Type::R2R) return b + static_cast<size_t>(in_.count()) * real_size + r2r_in_bytes_ + r2r_out_bytes_;
  if (!direct_) b += static_cast<size_t>(in_.count() + out_.count()) * 2 * real_size;
  return b;
}

bool CufftJob::run(void *const in[2], void *const out[2], std::string *why) {
  if (fault_injected("execute", why)) return false;
  GPUFFTW_CK(cudaSetDevice(device()), why);
  if (!after_default_streams(memory_type(in[0]), memory_type(out[0]), stream_, why)) return false;
  std::vector<void *> scratch;
  bool ok = run_on_stream(in, out, &scratch, why);
  if (ok) ok = check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize", why);
  for (void *p : scratch) cudaFreeAsync(p, stream_);
  cudaStreamSynchronize(stream_);
  return ok;
}

bool CufftJob::run_on_stream(void *const in[2], void *const out[2], std::vector<void *> *scratch, std::string *why) {
  if (own_ && !chunk_plans_.empty() && on_device(memory_type(in[0])) && on_device(memory_type(out[0])))
    return own_->run(in[0], out[0], g_.sign, stream_, why);
  if (!chunk_plans_.empty()) return run_chunked(static_cast<char *>(in[0]), static_cast<char *>(out[0]), scratch, why);
  if (!slab_plans_.empty() && memory_type(in[0]) == Memory::Pinned && memory_type(out[0]) == Memory::Pinned)
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
    const bool ran = own_ ? own_->run(map(in[0]), map(out[0]), g_.sign, stream_, why)
                          : exec(steps_[0], map(in[0]), map(out[0]), why);
    if (!ran) return false;
  } else if (!run_dense(in, out, map, scratch, why)) {
    return false;
  }
  for (const Region &r : regions)
    if (r.output && !r.device && !copier_.to_host(r.start, r.dev, r.end - r.start, stream_, why)) return false;
  return true;
}

void CufftJob::drop_plans() {
  if (stream_) cudaStreamSynchronize(stream_);
  for (const Step &s : steps_) destroy_plan(s);
  steps_.clear();
  chunk_plans_.clear();
  slab_plans_.clear();
  pencil_plans_.clear();
}

bool CufftJob::alloc(size_t bytes, void **p, std::vector<void *> *scratch, std::string *why) {
  if (fault_injected("alloc", why)) return false;
  GPUFFTW_CK(cudaMallocAsync(p, bytes, stream_), why);
  scratch->push_back(*p);
  return true;
}

// Scratch comes from the pool in stream_'s order; the other streams may
// touch it only after that point of stream_.
bool CufftJob::join_streams(std::string *why) {
  cudaEvent_t ready;
  GPUFFTW_CK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming), why);
  bool ok = check(cudaEventRecord(ready, stream_), "cudaEventRecord", why);
  for (cudaStream_t st : streams_)
    if (ok && st != stream_) ok = check(cudaStreamWaitEvent(st, ready, 0), "cudaStreamWaitEvent", why);
  cudaEventDestroy(ready);
  return ok;
}

// Whether p is scratch of this run (staged already, free to overwrite).
bool CufftJob::owned(const void *p, const std::vector<void *> *scratch) {
  return std::find(scratch->begin(), scratch->end(), p) != scratch->end();
}

// Adds `step` with a cuFFT plan of `rank` dims n over the given embeds,
// from the cache or new.
bool CufftJob::add_step(Step step, int rank, const long long *n, long long *inembed, long long istride,
                        long long idist, long long *onembed, long long ostride, long long odist, long long batch,
                        std::string *why) {
  if (!make_plan(&step, rank, n, inembed, istride, idist, onembed, ostride, odist, batch, why)) return false;
  steps_.push_back(step);
  return true;
}

namespace {

// What the solver that gives `what`, asked before, said where it did not
// take g.
std::string said(const Ask &ask, Gives what) {
  const Reason *r = ask.declined(what);
  return r ? r->text : "";
}

// The job within the device memory cap, or nullptr with why. `own`: our
// kernels are tried (and measured, where the geometry asks for it).
std::unique_ptr<CufftJob> in_core_job(const Geometry &g, const Ask &ask, bool own, Reason *why) {
  std::string why_not;
  const bool direct = direct_layout(g, &why_not);
  std::string path = g.type == Type::R2R ? "r2r on cuFFT" : direct ? "cuFFT" : "cuFFT, gathered (" + why_not + ")";
  // Where our kernels take the shape and were not kept: why not.
  if (!own && direct && own_kernel_suits(g)) path += " (" + said(ask, Gives::OwnKernels) + ")";
  if (g.half) path += " (fp16 not taken: " + said(ask, Gives::Half) + ")";
  auto job = std::make_unique<CufftJob>(g, direct, own, path);
  why->code = Reason::Code::NoJob;
  // A job that fails drops its plans rather than caching them: the
  // out-of-core solvers asked next need the device memory.
  if (!job->init(&why->text)) {
    job->drop_plans();
    return nullptr;
  }
  const size_t cap = device_memory_cap();
  if (job->device_bytes() <= cap) return job;
  why->text = "needs " + std::to_string(job->device_bytes() >> 20) + " MiB of device memory, over the cap of " +
              std::to_string(cap >> 20) + " MiB (GPUFFTW_DEVICE_MEMORY)";
  job->drop_plans();
  return nullptr;
}

// Where a pick remembered, or the lack of one, already keeps cuFFT, our
// kernels do not take the geometry (a recall, no timing).
bool own_kernel_solver_suits(const Geometry &g, const std::vector<int> &, Reason *why_not) {
  std::string layout;
  if (!own_kernel_suits(g) || !direct_layout(g, &layout))
    return decline(why_not, Reason::Code::NotItsKind, "our kernels take dense c2c of the shapes they have kernels for");
  return !own_kernel_declines(g, why_not);
}

// Where tuning now keeps cuFFT, no job: its cuFFT plans go back to the
// cache, and the cuFFT solver after this one makes them again from there.
std::unique_ptr<FftJob> make_own_kernel(const Geometry &g, const Ask &ask, Reason *why) {
  std::unique_ptr<CufftJob> job = in_core_job(g, ask, true, why);
  if (job && !job->runs_own_kernel()) return *why = job->own_kernel_said(), nullptr;
  return job;
}

bool r2r_suits(const Geometry &g, const std::vector<int> &, Reason *why_not) {
  if (g.type != Type::R2R) return decline(why_not, Reason::Code::NotItsKind, "not r2r");
  return true;
}

bool in_core_suits(const Geometry &g, const std::vector<int> &, Reason *why_not) {
  if (g.type == Type::R2R) return decline(why_not, Reason::Code::NotItsKind, "r2r: the r2r passes' own");
  return true;
}

std::unique_ptr<FftJob> make_in_core(const Geometry &g, const Ask &ask, Reason *why) {
  return in_core_job(g, ask, false, why);
}

}  // namespace

const Solver kOwnKernelSolver = {"own kernel", false, Gives::OwnKernels, own_kernel_solver_suits, make_own_kernel};
const Solver kR2rSolver = {"r2r passes", false, Gives::Transform, r2r_suits, make_in_core};
const Solver kInCoreSolver = {"cuFFT", false, Gives::Transform, in_core_suits, make_in_core};

}  // namespace gpufftw::engine
