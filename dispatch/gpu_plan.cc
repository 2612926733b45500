#include "dispatch/gpu_plan.h"

#include <atomic>
#include <chrono>
#include <mutex>

#include "core/log.h"
#include "dispatch/dispatch.h"
#include "engine/engine.h"
#include "fallback/cpu_plan.h"
#include "fallback/real_fftw.h"

namespace gpufftw {
namespace {

engine::R2rKind r2r_kind(fftw_r2r_kind k) {
  switch (k) {
    case FFTW_R2HC: return engine::R2rKind::R2HC;
    case FFTW_HC2R: return engine::R2rKind::HC2R;
    case FFTW_DHT: return engine::R2rKind::DHT;
    case FFTW_REDFT00: return engine::R2rKind::REDFT00;
    case FFTW_REDFT01: return engine::R2rKind::REDFT01;
    case FFTW_REDFT10: return engine::R2rKind::REDFT10;
    case FFTW_REDFT11: return engine::R2rKind::REDFT11;
    case FFTW_RODFT00: return engine::R2rKind::RODFT00;
    case FFTW_RODFT01: return engine::R2rKind::RODFT01;
    case FFTW_RODFT10: return engine::R2rKind::RODFT10;
    case FFTW_RODFT11: return engine::R2rKind::RODFT11;
  }
  return engine::R2rKind::R2HC;  // valid(Problem) let no other kind through
}

// `way`: how an fp16 problem computes (Single: in single precision);
// `solver`: the engine's solver made first ("": its cheapest).
engine::Geometry geometry(const Problem &p, Spread spread, Fp16Way way, const std::string &solver = "") {
  engine::Geometry g;
  switch (p.kind) {
    case Kind::C2C: g.type = engine::Type::C2C; break;
    case Kind::R2C: g.type = engine::Type::R2C; break;
    case Kind::C2R: g.type = engine::Type::C2R; break;
    case Kind::R2R: g.type = engine::Type::R2R; break;
  }
  g.real = p.precision == Precision::F32 ? engine::Real::F32 : engine::Real::F64;
  g.sign = p.sign;
  for (fftw_r2r_kind k : p.r2r_kinds) g.kinds.push_back(r2r_kind(k));
  for (const Dim &d : p.dims) g.dims.push_back({d.n, d.is, d.os});
  for (const Dim &d : p.howmany) g.loops.push_back({d.n, d.is, d.os});
  g.split_in = p.split && p.kind != Kind::R2C;
  g.split_out = p.split && p.kind != Kind::C2R;
  g.in_place = p.in_place();
  g.half = half_wanted(p) && way != Fp16Way::Single;
  g.half_way = way == Fp16Way::Ours             ? engine::HalfWay::Ours
               : way == Fp16Way::SingleOnHalves ? engine::HalfWay::SingleOnHalves
                                                : engine::HalfWay::CufftHalf;
  g.own_kernels = p.flags & (FFTW_ESTIMATE | FFTW_WISDOM_ONLY) ? engine::Geometry::OwnKernels::Recall
                                                                : engine::Geometry::OwnKernels::Tune;
  g.spread = spread;
  g.solver = solver;
  return g;
}

std::unique_ptr<Plan> cpu_twin(const Problem &p) {
  // Planned without measuring, so it never touches the arrays and costs
  // little; it computes any call the GPU cannot.
  const Problem q = p.estimated();
  return p.precision == Precision::F32 ? make_cpu_plan<float>(q) : make_cpu_plan<double>(q);
}

// FFTW's planner flags beyond the documented ones (FFTW_ESTIMATE_PATIENT
// to FFTW_ALLOW_PRUNING in fftw3.h) take algorithms away from its planner,
// which may then find none (FFTW_NO_BUFFERING on a c2r, say).
constexpr unsigned kRestrictingFlags = ((FFTW_ALLOW_PRUNING << 1) - 1) & ~(FFTW_ESTIMATE_PATIENT - 1);

// Whether the real FFTW plans every problem of this form, so that the twin
// can wait until it is needed: out of place on arrays apart, or c2c in
// place over equal strides, with no restricting flag; never a
// multi-dimensional c2r asked to preserve its input. Its
// FFTW_ESTIMATE planning costs as much as the real FFTW's own, on big
// problems many times gpufftw's own planning, which a GPU plan need not
// pay up front (docs/dispatch-sweep.md, "Planning time").
bool twin_can_wait(const Problem &p) {
  if (p.kind == Kind::C2R && p.dims.size() > 1 && (p.flags & FFTW_PRESERVE_INPUT)) return false;
  if (arrays_overlap(p) || (p.flags & kRestrictingFlags)) return false;
  if (!p.in_place()) return true;
  if (p.kind != Kind::C2C) return false;
  for (const std::vector<Dim> *v : {&p.dims, &p.howmany})
    for (const Dim &d : *v)
      if (d.is != d.os) return false;
  return true;
}

class GpuPlan final : public Plan {
 public:
  GpuPlan(const Problem &p, std::unique_ptr<engine::FftJob> job, std::unique_ptr<Plan> twin)
      : Plan(p),
        job_(std::move(job)),
        twin_(std::move(twin)),
        on_device_(arrays_on_device(p)) {}

  ~GpuPlan() override {
    // Freeing into a lost context may fail, hang or fault; what the job
    // holds goes with the process.
    if (engine::gpu_lost()) (void)job_.release();
  }

  void execute(const Arrays &x) override {
    void *in[2] = {nullptr, nullptr}, *out[2] = {nullptr, nullptr};
    std::string why;
    if (gpu_engine_lost(&why)) {
      on_cpu(x, why, true);
      return;
    }
    if (!resolve_arrays(problem(), x, in, out)) {
      on_cpu(x, "a split-array execute of an interleaved plan", false);
      return;
    }
    bool ran;
    {
      // FFTW lets threads execute one plan on their own arrays at once; the
      // job's device buffers and streams serve one call at a time.
      std::lock_guard<std::mutex> one_at_a_time(run_mutex_);
      ran = job_->run(in, out, &why);
    }
    if (!ran) on_cpu(x, why, gpu_engine_lost(nullptr));  // this call may be what lost it
  }

  void print(FILE *out) const override {
    std::fprintf(out, "(gpufftw-gpu %s: %s on %s, %s)", job_->path().c_str(), problem().describe().c_str(),
                 engine::device_name().c_str(), job_->placement.c_str());
  }
  void flops(double *add, double *mul, double *fma) const override {
    if (const Plan *t = twin()) t->flops(add, mul, fma);
  }
  double cost() const override { return twin() ? twin()->cost() : 0.0; }
  double estimate_cost() const override { return twin() ? twin()->estimate_cost() : 0.0; }
  Where where() const override { return Where::Gpu; }
  const engine::FftJob &job() const { return *job_; }

 private:
  // Planned on first need, as the planner would: under its lock, so that
  // no other thread plans with the real FFTW meanwhile.
  const Plan *twin() const {
    std::call_once(twin_once_, [this] {
      if (twin_) return;  // planned up front
      GPUFFTW_PLANNER_LOCKED;
      twin_ = cpu_twin(problem());
    });
    return twin_.get();
  }

  // Whether this call's arrays lie in device memory: the plan's own, as
  // they were when it was made, or those a new-array execute gave it,
  // which may lie elsewhere than the plan's.
  bool call_on_device(const Arrays &x) const {
    if (x.entry == Entry::Execute) return on_device_;
    for (void *a : x.a)
      if (a && engine::memory_type(a) == Memory::Device) return true;
    return false;
  }

  // `lost`: the engine is lost, which gpu_engine_lost has logged.
  void on_cpu(const Arrays &x, const std::string &why, bool lost) {
    static std::atomic<bool> said{false};
    if (!lost && !said.exchange(true))
      GPUFFTW_LOG(Warn, "GPU execute failed (%s); this and later failed calls run on the real FFTW", why.c_str());
    if (call_on_device(x)) {
      // The real FFTW would read device memory from the host and crash.
      static std::atomic<bool> said_device{false};
      if (!said_device.exchange(true))
        GPUFFTW_LOG(Warn, "%s: arrays in device memory, which the real FFTW cannot reach: not computed",
                    problem().describe().c_str());
      return;
    }
    if (twin())
      twin_->execute(x);
    else
      GPUFFTW_LOG(Warn, "no real FFTW to fall back on: %s was not computed", problem().describe().c_str());
  }

  std::unique_ptr<engine::FftJob> job_;
  std::mutex run_mutex_;
  mutable std::unique_ptr<Plan> twin_;  // written only inside twin_once_
  mutable std::once_flag twin_once_;
  const bool on_device_;  // the plan's arrays are device memory
};

}  // namespace

bool arrays_on_device(const Problem &p) {
  return engine::memory_type(p.in[0]) == Memory::Device || engine::memory_type(p.out[0]) == Memory::Device;
}

bool gpu_engine_lost(std::string *why) {
  std::string what;
  if (!engine::gpu_lost(&what)) return false;
  static std::once_flag said;
  std::call_once(said, [&what] {
    GPUFFTW_LOG(Warn, "the GPU was lost to a sticky CUDA error (%s): every execute and plan of this process runs on "
                "the real FFTW from now on", what.c_str());
  });
  if (why) *why = "the GPU was lost (" + what + "): the real FFTW runs every plan of this process";
  return true;
}

std::unique_ptr<Plan> make_gpu_plan(const Problem &p, Spread spread, Fp16Way way, const std::string &solver,
                                    std::string *why) {
  if (gpu_engine_lost(why)) return nullptr;
  const auto t0 = std::chrono::steady_clock::now();
  auto job = engine::FftJob::create(geometry(p, spread, way, solver), why);
  if (!job) return nullptr;
  const double job_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  // Where the real FFTW refuses the problem (multi-dim c2r with
  // FFTW_PRESERVE_INPUT, say), so do we: the same plans are NULL either way.
  std::unique_ptr<Plan> twin;
  if (!twin_can_wait(p)) {
    twin = cpu_twin(p);
    if (!twin && (p.precision == Precision::F32 ? real_fftw<float>().loaded : real_fftw<double>().loaded))
      return *why = "the real FFTW gives no plan for it", nullptr;
  }
  // With the plan's whole time (shim/planner.cc), where planning goes: on a
  // machine's first use of a cuFFT kernel, cuFFT builds it inside the
  // job's plan (the CUDA JIT cache keeps it for later processes:
  // docs/dispatch-sweep.md, "cuFFT's first plans").
  GPUFFTW_LOG(Debug, "%s on the GPU, job made in %.3f ms: %s", p.describe().c_str(), job_ms, job->path().c_str());
  return std::make_unique<GpuPlan>(p, std::move(job), std::move(twin));
}

std::vector<SolverOffer> gpu_offers(const Problem &p, Spread spread) {
  std::vector<SolverOffer> offers;
  if (gpu_engine_lost(nullptr)) return offers;
  for (const engine::Offer &o : engine::offers(geometry(p, spread, Fp16Way::Single)))
    offers.push_back({o.solver, o.seconds, o.fallback});
  return offers;
}

std::string gpu_plan_path(const Plan &gpu_plan) { return static_cast<const GpuPlan &>(gpu_plan).job().path(); }
std::string gpu_plan_solver(const Plan &gpu_plan) { return static_cast<const GpuPlan &>(gpu_plan).job().solver; }
bool gpu_plan_half(const Plan &gpu_plan) { return static_cast<const GpuPlan &>(gpu_plan).job().half(); }
std::string gpu_plan_placement(const Plan &gpu_plan) {
  return static_cast<const GpuPlan &>(gpu_plan).job().placement;
}

}  // namespace gpufftw
