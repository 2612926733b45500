#include "mpi/composed/plan.h"

#include <gpufftw/gpufftw.h>

#include <algorithm>
#include <vector>

#include "core/log.h"
#include "mpi/composed/steps.h"

namespace gpufftw {
namespace mpi {
namespace composed {
namespace {

std::string composed_over(int n_pes) {
  return "composed over " + std::to_string(n_pes) + " rank" + (n_pes > 1 ? "s" : "") + ": ";
}

}  // namespace

template <class R>
std::unique_ptr<Plan<R>> Plan<R>::build(const Layout &l, int me, int n_pes, void *in, void *out, int sign,
                                        unsigned flags, const std::string &host_why, std::string *why) {
  std::unique_ptr<Plan> p(new Plan(l, me, n_pes, in, out));
  const unsigned planner_flags = serial_flags(flags);
  const ptrdiff_t R_ = l.rest;
  const int f = l.in_dim, o = 1 - f;
  const ptrdiff_t nf = l.n[f], no = l.n[o];
  const bool c2r = l.kind == Kind::C2R;
  C *const out_c = static_cast<C *>(out);
  std::string steps;
  auto plan = [&](Dims dims, Dims howmany, void *from, void *to, Kind kind) {
    return Steps<R>::plan(l, {std::move(dims), std::move(howmany)}, from, to, kind, sign, planner_flags);
  };

  if (n_pes == 1) {
    // One serial plan from the input's order of dims 0 and 1 to the output's.
    Dims dims(2), howmany;
    for (int i = 0; i < 2; ++i) {
      dims[i].n = l.n[i];
      dims[i].is = i == l.in_dim ? l.n[1 - i] * R_ : R_;
      dims[i].os = i == l.out_dim ? l.n[1 - i] * R_ : R_;
    }
    append_rest(l, &dims);
    append_howmany(l, &howmany);
    p->first_ = plan(dims, howmany, in, out, l.kind);
    p->whole_ = p->first_ != nullptr;
    // The real FFTW plans no r2c or c2r in place between a transposed and
    // a plain order: such a one takes the steps below, its exchanges copies
    // within the rank.
    if (!p->first_ && (l.kind == Kind::C2C || in != out))
      return *why = "gpufftw's serial planner gave no plan for the whole transform", nullptr;
    if (p->whole_) steps = describe("one serial plan", p->first_);
  }
  if (!p->whole_) {
    // Step 4 is needed where the output is cut along f; the exchange in
    // between then cuts o as FFTW does by default.
    p->second_in_place_ = l.out_dim == o;
    const Split middle = p->second_in_place_ ? l.out : default_split(no, n_pes);
    const ptrdiff_t lf = l.in.count[me], lo = middle.count[me];
    const size_t unit = static_cast<size_t>(R_) * sizeof(C);
    // The copies into place get the threads the program gave FFTW's planner.
    const int threads = S::planner_nthreads();
    if (!p->there_.init(middle, l.in, unit, me, threads, why)) return nullptr;
    if (!p->second_in_place_ && !p->back_.init(l.out, middle, unit, me, threads, why)) return nullptr;
    const size_t send = std::max(p->there_.send_bytes(), p->back_.send_bytes());
    const size_t middle_bytes = p->second_in_place_ ? 0 : static_cast<size_t>(lo * nf) * unit;
    // At least one value each, so a rank without data still has buffers
    // to name in the collective calls.
    p->send_ = S::alloc(std::max<size_t>(send / sizeof(C), 1));
    if (!p->second_in_place_) p->middle_ = S::alloc(std::max<size_t>(middle_bytes / sizeof(C), 1));
    if (!p->send_ || (!p->second_in_place_ && !p->middle_))
      return *why = "fftw_alloc_complex of the exchange buffers failed", nullptr;
    if (lf > 0) {
      Shape step = first_step(l, lf, lf);
      if (c2r) {
        // Dimension 0 only: the rest waits for step 5. Where the input is
        // cut along 0 this step just copies into the exchange's order.
        step = {{{no, R_, lf * R_}}, {{lf, no * R_, R_}}};
        if (o == 1) step.howmany.push_back(step.dims[0]), step.dims.clear();
        step.howmany.push_back({R_, 1, 1});  // dims 2.. and the howmany transforms
      }
      p->first_ = plan(step.dims, step.howmany, in, p->send_, c2r ? Kind::C2C : l.kind);
      if (!p->first_) return *why = "gpufftw's serial planner gave no plan for step 1", nullptr;
    }
    // Step 3 transforms f: for a c2r, only where f is 0.
    if (lo > 0 && !(c2r && f == 1)) {
      C *from = p->second_in_place_ ? out_c : p->middle_, *to = p->second_in_place_ ? out_c : p->send_;
      const Shape step = p->second_in_place_ ? third_step_in_place(l, lo) : third_step_across(l, lo);
      p->second_ = plan(step.dims, step.howmany, from, to, Kind::C2C);
      if (!p->second_) return *why = "gpufftw's serial planner gave no plan for step 3", nullptr;
    }
    const ptrdiff_t planes = l.out.count[me];
    if (c2r && planes > 0) {
      // Step 5: the c2r of dims 1.. of this rank's planes, in place.
      Dims dims{{l.n[1], R_, R_}}, howmany{{planes, l.n[1] * R_, l.n[1] * R_}};
      append_rest(l, &dims);
      append_howmany(l, &howmany);
      p->last_ = plan(dims, howmany, out, out, Kind::C2R);
      if (!p->last_) return *why = "gpufftw's serial planner gave no plan for step 5", nullptr;
    }
    steps = describe_steps({{1, p->first_}, {3, p->second_}, {5, p->last_}});
    if (steps.empty()) steps = "no data on this rank";
    steps += p->second_in_place_ ? "; one global transpose" : "; two global transposes";
    steps += " through MPI_Alltoallw on host memory, each step crossing PCIe both ways where on a GPU (" + host_why +
             ")";
  }
  bool gpu = false;
  for (auto step : {p->first_, p->second_, p->last_})
    gpu = gpu || (step && where_of(step) == Where::Gpu);
  p->where_ = gpu ? Where::Gpu : Where::Cpu;
  p->why_ = composed_over(n_pes) + steps;
  return p;
}

#ifdef GPUFFTW_HAVE_CUDA
template <class R>
std::unique_ptr<Plan<R>> Plan<R>::build(const Layout &l, int me, int n_pes, void *in, void *out,
                                        std::unique_ptr<Resident<R>> resident) {
  std::unique_ptr<Plan> p(new Plan(l, me, n_pes, in, out));
  p->where_ = Where::Gpu;
  p->why_ = composed_over(n_pes) + resident->steps();
  p->resident_ = std::move(resident);
  return p;
}
#endif

template <class R>
Plan<R>::~Plan() {
  if (first_) S::destroy(first_);
  if (second_) S::destroy(second_);
  if (last_) S::destroy(last_);
  S::free(send_);
  S::free(middle_);
  int finalized = 1;
  MPI_Finalized(&finalized);
  if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
}

template <class R>
std::vector<typename Serial<R>::Plan> Plan<R>::steps() const {
#ifdef GPUFFTW_HAVE_CUDA
  if (resident_) return resident_->plans();
#endif
  std::vector<typename S::Plan> all;
  for (auto step : {first_, second_, last_})
    if (step) all.push_back(step);
  return all;
}

template <class R>
void Plan<R>::execute(void *in, void *out) {
#ifdef GPUFFTW_HAVE_CUDA
  if (resident_) {
    // At debug level each execute says where this rank's time went.
    const bool timed = log_level() >= LogLevel::Debug;
    typename Resident<R>::Times t;
    std::string why;
    if (!resident_->execute(in, out, timed ? &t : nullptr, &why))
      GPUFFTW_LOG(Warn, "composed distributed DFT, rank %d: %s; the output is not computed", me_, why.c_str());
    else if (timed)
      GPUFFTW_LOG(Debug,
                  "composed execute on the GPU, rank %d, ms: in with step 1 and pack %.2f; exchange %.2f; step 3 "
                  "%.2f; %s and out %.2f; total %.2f",
                  me_, t.in, t.there, t.third, layout_.out_dim == layout_.in_dim ? "exchange back" : "turn", t.out,
                  t.in + t.there + t.third + t.out);
    return;
  }
#endif
  execute_on_host(in, out);
}

template <class R>
void Plan<R>::execute_on_host(void *in, void *out) {
  C *const out_c = static_cast<C *>(out);
  if (whole_) {
    Steps<R>::run(first_, layout_.kind, in, out);
    return;
  }
  // At debug level each execute says where this rank's time went. A
  // barrier before each exchange then takes the wait for slower ranks (a
  // shared GPU, a step on the CPU) out of the exchange's own time.
  const bool timed = log_level() >= LogLevel::Debug;
  double ms[8] = {};  // step 1; wait, MPI_Alltoallw, place; step 3; wait, MPI_Alltoallw, place
  double last = timed ? MPI_Wtime() : 0;
  auto mark = [&](int at) {
    if (!timed) return;
    const double now = MPI_Wtime();
    ms[at] = (now - last) * 1e3;
    last = now;
  };
  std::string why;
  auto exchange = [&](const Exchange &x, C *dest, int at) {
    if (timed) {
      const int rc = MPI_Barrier(comm_);
      if (rc != MPI_SUCCESS) why = mpi_error("MPI_Barrier", rc);
      mark(at);
    }
    if (!why.empty() || !x.transfer(send_, dest, comm_, &why)) {
      GPUFFTW_LOG(Warn, "composed distributed DFT, rank %d: %s; the output is not computed", me_, why.c_str());
      return false;
    }
    mark(at + 1);
    x.place(send_, dest);
    mark(at + 2);
    return true;
  };
  if (first_) Steps<R>::run(first_, layout_.kind == Kind::R2C ? Kind::R2C : Kind::C2C, in, send_);
  mark(0);
  if (!exchange(there_, second_in_place_ ? out_c : middle_, 1)) return;
  if (second_in_place_) {
    if (second_) S::execute(second_, out_c, out_c);
    mark(4);
  } else {
    if (second_) S::execute(second_, middle_, send_);
    mark(4);
    if (!exchange(back_, out_c, 5)) return;
  }
  if (last_) Steps<R>::run(last_, Kind::C2R, out, out);
  if (!timed) return;
  char back[128] = "";
  if (!second_in_place_)
    std::snprintf(back, sizeof back, "; back: wait %.2f, MPI_Alltoallw %.2f, place %.2f", ms[5], ms[6], ms[7]);
  double total = 0;
  for (double t : ms) total += t;
  GPUFFTW_LOG(Debug,
              "composed execute, rank %d, ms: step 1 %.2f; exchange: wait %.2f, MPI_Alltoallw %.2f, place %.2f; "
              "step 3 %.2f%s; total %.2f",
              me_, ms[0], ms[1], ms[2], ms[3], ms[4], back, total);
}

template <class R>
void Plan<R>::fprint(FILE *f) const {
  const char *kind = layout_.kind == Kind::R2C ? "r2c" : layout_.kind == Kind::C2R ? "c2r" : "dft";
  std::fprintf(f, "(gpufftw-mpi-composed-%s %d ranks", kind, n_pes_);
  for (auto step : steps()) {
    std::fprintf(f, "\n  ");
    S::fprint(step, f);
  }
  std::fprintf(f, ")");
}

template <class R>
void Plan<R>::flops(double *add, double *mul, double *fma) const {
  *add = *mul = *fma = 0;
  for (auto step : steps()) {
    double a = 0, m = 0, x = 0;
    S::flops(step, &a, &m, &x);
    *add += a, *mul += m, *fma += x;
  }
}

template <class R>
double Plan<R>::cost() const {
  double sum = 0;
  for (auto step : steps()) sum += S::cost(step);
  return sum;
}

template <class R>
double Plan<R>::estimate_cost() const {
  double sum = 0;
  for (auto step : steps()) sum += S::estimate_cost(step);
  return sum;
}

template class Plan<double>;
template class Plan<float>;

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
