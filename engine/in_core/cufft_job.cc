#include "engine/in_core/cufft_job.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "engine/device/context.h"
#include "engine/in_core/own_kernel.h"

namespace gpufftw::engine {

CufftJob::CufftJob(const Geometry &g, InCoreLayout layout, bool own, std::string path)
    : g_(g), layout_(std::move(layout)), try_own_(own), path_(std::move(path)) {
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
  if (!layout_.direct) {
    if (!plan_dense(why)) return false;
  } else if (layout_.chunk_per) {
    if (!plan_chunks(why)) return false;
    plan_whole_batch();
    // Our kernel runs the whole batch on device arrays: its rival there is
    // cuFFT's plan of the whole batch, else a chunk's scaled to the batch.
    const bool whole = whole_step_ >= 0;
    own_ = try_own_ ? pick_own_kernel(g_, whole ? steps_[whole_step_] : chunk_plans_[0],
                                      whole ? g_.loops[0].n : layout_.chunk_per, stream_, &own_said_)
                    : nullptr;
    if (own_ && whole) drop_whole_batch();
  } else {
    const long long batch = g_.loops.empty() ? 1 : g_.loops[0].n;
    if (!plan_direct(batch, why)) return false;
    whole_step_ = 0;
    own_ = try_own_ ? pick_own_kernel(g_, steps_[0], batch, stream_, &own_said_) : nullptr;
    if (!plan_slabs(why)) return false;
  }
  routes_ = in_core_routes(layout_, own_ != nullptr, whole_step_ >= 0);
  path_ = (own_ ? own_said_.text : path_) + "; " + routes_.describe();
  return true;
}

size_t CufftJob::device_bytes() const {
  size_t b = layout_.held_bytes + r2r_in_bytes_ + r2r_out_bytes_;
  for (const Step &s : steps_) b += s.work;
  return b;
}

bool CufftJob::run(void *const in[2], void *const out[2], std::string *why) {
  if (fault_injected("execute", why)) return false;
  GPUFFTW_CK(cudaSetDevice(device()), why);
  // Asked once a call: each answer is a driver call.
  const Memory in_mem = memory_type(in[0]), out_mem = in[0] == out[0] ? in_mem : memory_type(out[0]);
  if (runs_on_legacy_stream(in_mem, out_mem, in[0] == out[0])) return run_on_legacy_stream(in[0], out[0], why);
  if (!after_default_streams(in_mem, out_mem, stream_, why)) return false;
  std::vector<void *> scratch;
  bool ok = run_on_stream(in, out, in_mem, out_mem, &scratch, why);
  // What was queued finishes before the call returns, run through or not:
  // the arrays are the caller's again, and the fall-back's to write.
  const cudaError_t done = cudaStreamSynchronize(stream_);
  if (ok) ok = check(done, "cudaStreamSynchronize", why);
  if (!scratch.empty()) {
    for (void *p : scratch) cudaFreeAsync(p, stream_);
    cudaStreamSynchronize(stream_);
  }
  return ok;
}

// A transform of device arrays that needs no buffer of its own runs where
// cuFFT on the default stream would: on the legacy default stream, which
// waits for the program's work on every blocking stream, its thread's
// default stream among them. The job's own stream would have to ask the
// driver about the program's default streams at every call, which costs
// more than a small transform (docs/results/fp16.md, "Where an execute
// on device arrays spends its time").
bool CufftJob::runs_on_legacy_stream(Memory in_mem, Memory out_mem, bool in_place) const {
  if (arrays_at(in_mem, out_mem) != ArraysAt::Device || g_.type == Type::R2R || in_.split || out_.split)
    return false;
  // A c2r's input is copied before cuFFT or our kernel overwrites it.
  if (c2r_needs_copy(in_place)) return false;
  const Route route = routes_.at(ArraysAt::Device);
  return route == Route::OwnKernel || (route == Route::Whole && whole_step_ >= 0);
}

bool CufftJob::run_on_legacy_stream(void *in, void *out, std::string *why) {
  const bool ran = routes_.at(ArraysAt::Device) == Route::OwnKernel
                       ? own_->run(in, out, g_.sign, cudaStreamLegacy, why)
                       : exec_plan(steps_[whole_step_], cudaStreamLegacy, in, out, why);
  // Run through or not, what was queued finishes before the call returns.
  const cudaError_t done = cudaStreamSynchronize(cudaStreamLegacy);
  return ran && check(done, "cudaStreamSynchronize", why);
}

// The route was chosen when the job was made, for arrays of each kind;
// where this call's arrays lie is what picks among them (routes.h says
// why only a call knows).
bool CufftJob::run_on_stream(void *const in[2], void *const out[2], Memory in_mem, Memory out_mem,
                             std::vector<void *> *scratch, std::string *why) {
  char *const in0 = static_cast<char *>(in[0]), *const out0 = static_cast<char *>(out[0]);
  const Route route = routes_.at(arrays_at(in_mem, out_mem));
  switch (route) {
    case Route::Chunks: return run_chunks(in0, out0, on_device(in_mem), on_device(out_mem), scratch, why);
    case Route::StagedChunks:
      return run_staged_chunks(in0, out0, on_device(in_mem), on_device(out_mem), scratch, why);
    case Route::Slabs: return run_slabs(in0, out0, scratch, why);
    case Route::Whole:
    case Route::OwnKernel:
    case Route::Gathered: break;
  }
  std::vector<Region> regions = regions_of(in, out, in_mem, out_mem);
  for (Region &r : regions)
    if (!stage(&r, scratch, why)) return false;
  auto map = [&](const void *p) -> void * {
    for (const Region &r : regions)
      if (static_cast<const char *>(p) >= r.start && static_cast<const char *>(p) < r.end)
        return r.dev + (static_cast<const char *>(p) - r.start);
    return const_cast<void *>(p);
  };
  const bool ran = route == Route::Gathered    ? run_dense(in, out, map, scratch, why)
                  : route == Route::OwnKernel ? own_->run(map(in[0]), map(out[0]), g_.sign, stream_, why)
                                              : exec(steps_[whole_step_], map(in[0]), map(out[0]), why);
  if (!ran) return false;
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

std::string over_cap(size_t bytes, size_t cap) {
  return "needs " + std::to_string(bytes >> 20) + " MiB of device memory, over the cap of " +
         std::to_string(cap >> 20) + " MiB (GPUFFTW_DEVICE_MEMORY)";
}

// The job within the device memory cap, or nullptr with why. `own`: our
// kernels are tried (and measured, where the geometry asks for it).
std::unique_ptr<CufftJob> in_core_job(const Geometry &g, const Ask &ask, bool own, Reason *why) {
  const size_t cap = device_memory_cap();
  InCoreLayout layout = in_core_layout(g, cap);
  why->code = Reason::Code::NoJob;
  // Arrays that alone pass the cap make no job, and cuFFT is not asked to
  // plan (and allocate a work area for) a problem that size.
  if (layout.held_bytes > cap) return why->text = over_cap(layout.held_bytes, cap), nullptr;
  std::string path = g.type == Type::R2R ? "r2r on cuFFT"
                     : layout.direct     ? "cuFFT"
                                         : "cuFFT, gathered (" + layout.not_direct + ")";
  // Where our kernels take the shape and were not kept: why not.
  const std::string own_said = said(ask, Gives::OwnKernels);
  if (!own && layout.direct && own_kernel_suits(g) && !own_said.empty()) path += " (" + own_said + ")";
  if (g.half) path += " (fp16 not taken: " + said(ask, Gives::Half) + ")";
  auto job = std::make_unique<CufftJob>(g, std::move(layout), own, path);
  // A job that fails drops its plans rather than caching them: the
  // out-of-core solvers asked next need the device memory.
  if (!job->init(&why->text)) {
    job->drop_plans();
    return nullptr;
  }
  if (job->device_bytes() <= cap) return job;
  why->text = over_cap(job->device_bytes(), cap);
  job->drop_plans();
  return nullptr;
}

// The in-core job's price: the arrays over the link once each way, and
// cuFFT's pass over them on the device, with a kernel's pass each way
// where they are gathered (r2r: a pass per dimension besides).
Price in_core_price(const Geometry &g) {
  const double bytes = array_bytes(g);
  std::string not_direct;
  double passes = direct_layout(g, &not_direct) ? 1 : 3;
  if (g.type == Type::R2R) passes += static_cast<double>(g.dims.size());
  return {bytes, passes * bytes};
}

// Where a pick remembered, or the lack of one, already keeps cuFFT, our
// kernels do not take the geometry (a recall, no timing).
bool own_kernel_solver_suits(const Geometry &g, const std::vector<int> &, Reason *why_not) {
  std::string layout;
  if (!own_kernel_suits(g) || !direct_layout(g, &layout))
    return decline(why_not, Reason::Code::NotItsKind, "our kernels take dense c2c of the shapes they have kernels for");
  return !own_kernel_declines(g, why_not);
}

// cuFFT's price, its device passes at our kernel's measured share of
// cuFFT's time (equal where tuning is still to measure them: the table
// asks our kernels first at equal prices, and their make tunes).
Price own_kernel_cost(const Geometry &g, const std::vector<int> &) {
  Price p = in_core_price(g);
  p.device_bytes *= own_kernel_time_ratio(g);
  return p;
}

Price in_core_cost(const Geometry &g, const std::vector<int> &) { return in_core_price(g); }

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

const Solver kOwnKernelSolver = {
    "own kernel", false, Gives::OwnKernels, own_kernel_solver_suits, own_kernel_cost, make_own_kernel};
const Solver kR2rSolver = {"r2r passes", false, Gives::Transform, r2r_suits, in_core_cost, make_in_core};
const Solver kInCoreSolver = {"cuFFT", false, Gives::Transform, in_core_suits, in_core_cost, make_in_core};

}  // namespace gpufftw::engine
