#include "shim/gpu_plan.h"

#include <atomic>

#include "engine/engine.h"
#include "fallback/cpu_plan.h"
#include "fallback/real_fftw.h"
#include "shim/log.h"

namespace gpufftw {
namespace {

// The physical sizes behind one side's strides: stride of the last dim,
// and nembed[i] = dims[i-1].stride / dims[i].stride, which must cover the
// logical size. false where cuFFT's layout cannot say it.
bool embed(const std::vector<Dim> &dims, bool output, const long long *logical, long long *nembed,
           long long *stride) {
  const int rank = static_cast<int>(dims.size());
  auto s = [&](int i) { return output ? dims[i].os : dims[i].is; };
  *stride = s(rank - 1);
  nembed[0] = logical[0];
  for (int i = 1; i < rank; ++i) {
    if (s(i) <= 0 || s(i - 1) % s(i) != 0) return false;
    nembed[i] = s(i - 1) / s(i);
    if (nembed[i] < logical[i]) return false;
  }
  return *stride > 0;
}

bool to_layout(const Problem &p, engine::Layout *l, std::string *why) {
  const int rank = static_cast<int>(p.dims.size());
  if (p.kind == Kind::R2R) return *why = "r2r: cuFFT has none, and our kernels are not there yet", false;
  if (p.split) return *why = "split arrays are not on the GPU yet", false;
  if (rank < 1 || rank > 3) return *why = "rank " + std::to_string(rank) + " (the GPU takes 1 to 3)", false;
  if (p.howmany.size() > 1) return *why = "more than one howmany dimension", false;
  l->rank = rank;
  long long nin[3], nout[3];
  for (int i = 0; i < rank; ++i) l->n[i] = nin[i] = nout[i] = p.dims[i].n;
  if (p.kind == Kind::R2C) nout[rank - 1] = l->n[rank - 1] / 2 + 1;
  if (p.kind == Kind::C2R) nin[rank - 1] = l->n[rank - 1] / 2 + 1;
  if (!embed(p.dims, false, nin, l->inembed, &l->istride) || !embed(p.dims, true, nout, l->onembed, &l->ostride))
    return *why = "strides cuFFT's advanced layout cannot state", false;
  l->batch = p.howmany.empty() ? 1 : p.howmany[0].n;
  l->idist = p.howmany.empty() ? 0 : p.howmany[0].is;
  l->odist = p.howmany.empty() ? 0 : p.howmany[0].os;
  if (l->batch < 1) return *why = "an empty batch", false;
  if (l->batch > 1 && (l->idist <= 0 || l->odist <= 0)) return *why = "a batch with non-positive distance", false;
  return true;
}

engine::Type engine_type(Kind k) {
  return k == Kind::R2C ? engine::Type::R2C : k == Kind::C2R ? engine::Type::C2R : engine::Type::C2C;
}

std::unique_ptr<Plan> cpu_twin(const Problem &p) {
  // Planned without measuring, so it never touches the arrays and costs
  // little; it computes any call the GPU cannot.
  Problem q = p;
  q.flags = (q.flags & ~(FFTW_MEASURE | FFTW_PATIENT | FFTW_EXHAUSTIVE)) | FFTW_ESTIMATE;
  return p.precision == Precision::F32 ? make_cpu_plan<float>(q) : make_cpu_plan<double>(q);
}

class GpuPlan final : public Plan {
 public:
  GpuPlan(const Problem &p, std::unique_ptr<engine::FftJob> job, std::unique_ptr<Plan> twin)
      : Plan(p), job_(std::move(job)), twin_(std::move(twin)) {}

  void execute(const Arrays &x) override {
    const void *in = nullptr;
    void *out = nullptr;
    switch (x.entry) {
      case Entry::Execute: in = problem().in[0], out = problem().out[0]; break;
      case Entry::Dft:
      case Entry::DftR2c:
      case Entry::DftC2r: in = x.a[0], out = x.a[1]; break;
      default: return on_cpu(x, "a split-array execute of an interleaved plan");
    }
    std::string why;
    if (!job_->run(in, out, &why)) on_cpu(x, why);
  }

  void print(FILE *out) const override {
    std::fprintf(out, "(gpufftw-gpu cuFFT %s on %s)", problem().describe().c_str(), engine::device_name().c_str());
  }
  void flops(double *add, double *mul, double *fma) const override {
    if (twin_) twin_->flops(add, mul, fma);
  }
  double cost() const override { return twin_ ? twin_->cost() : 0.0; }
  double estimate_cost() const override { return twin_ ? twin_->estimate_cost() : 0.0; }
  const char *where() const override { return "gpu"; }

 private:
  void on_cpu(const Arrays &x, const std::string &why) {
    static std::atomic<bool> said{false};
    if (!said.exchange(true))
      GPUFFTW_LOG(Warn, "GPU execute failed (%s); this and later failed calls run on the real FFTW", why.c_str());
    if (twin_)
      twin_->execute(x);
    else
      GPUFFTW_LOG(Warn, "no real FFTW to fall back on: %s was not computed", problem().describe().c_str());
  }

  std::unique_ptr<engine::FftJob> job_;
  std::unique_ptr<Plan> twin_;
};

}  // namespace

std::unique_ptr<Plan> make_gpu_plan(const Problem &p, std::string *why) {
  engine::Layout layout;
  if (!to_layout(p, &layout, why)) return nullptr;
  auto job = engine::FftJob::create(engine_type(p.kind), p.precision == Precision::F32 ? engine::Real::F32 : engine::Real::F64,
                                    layout, p.sign, why);
  if (!job) return nullptr;
  // Where the real FFTW refuses the problem (multi-dim c2r with
  // FFTW_PRESERVE_INPUT, say), so do we: the same plans are NULL either way.
  std::unique_ptr<Plan> twin = cpu_twin(p);
  if (!twin && (p.precision == Precision::F32 ? real_fftw<float>().loaded : real_fftw<double>().loaded))
    return *why = "the real FFTW gives no plan for it", nullptr;
  return std::make_unique<GpuPlan>(p, std::move(job), std::move(twin));
}

}  // namespace gpufftw
