#include "shim/compare.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/fork_guard.h"
#include "core/log.h"
#include "dispatch/dispatch.h"
#include "fallback/cpu_plan.h"
#include "fallback/real_fftw.h"
#include "shim/compare_html.h"
#include "shim/at_end.h"
#include "shim/report.h"

namespace gpufftw {
namespace {

constexpr double kToleranceC = 5.0;
// Plans computed in half precision (GPUFFTW_PRECISION=fp16): the same form
// with half's epsilon, 2^-10, and c = 0.6, so that the bound is the FP16
// path's 2e-3 at N = 4096 (docs/fp16.md; 1.9e-3 at 1024, 2.9e-3 at 2^24); cuFFT's FP16 reads
// 9.9e-4 at 1024 and 2.3e-3 at 2^24.
constexpr double kHalfToleranceC = 0.6;
constexpr double kHalfEps = 1.0 / 1024;

struct Settings {
  bool on = false;
  uint64_t every = 1;
  std::string file, html;
  bool perturb = false;
};

// A file named relative to the folder the program started in: it may
// change folder before its end, when the files are written.
std::string absolute(const char *path) {
  if (path[0] == '/' || path[0] == '\0') return path;
  char here[4096];
  return getcwd(here, sizeof here) ? std::string(here) + "/" + path : std::string(path);
}

// Never destroyed: read by the writer of the table, which runs after the
// static destructors (write_at_end).
const Settings &settings() {
  static const Settings *const s = new Settings([] {
    Settings t;
    static const char *const names[] = {"0", "1"};
    static const bool values[] = {false, true};
    t.on = env::choice("GPUFFTW_COMPARE", names, values, false);
    t.every = static_cast<uint64_t>(env::integer("GPUFFTW_COMPARE_EVERY", 1, 1, INT64_MAX, "1"));
    if (const char *f = env::get("GPUFFTW_COMPARE_FILE")) t.file = absolute(f);
    if (const char *h = env::get("GPUFFTW_COMPARE_HTML")) t.html = absolute(h);
    t.perturb = env::choice("GPUFFTW_COMPARE_PERTURB", names, values, false);
    return t;
  }());
  return *s;
}

struct Record {
  std::string problem, where;
  uint64_t executes = 0, compared = 0, over = 0;
  double rel_l2 = 0, rel_max = 0, fftw_rel_l2 = 0;  // worst seen
  double tolerance = 0;
  bool half = false;  // computed in half precision
  uint64_t execute_ns = 0;  // plan->execute alone, for the page
};

struct Registry {
  std::mutex mutex;
  std::map<uint64_t, Record> records;  // by plan id
};
Registry &registry();

// A forked child compares from nothing: the parent's records, which it
// inherits, are the parent's to write. The mutex is held across fork, so
// that the child finds the records whole and the mutex free
// (core/fork_guard.h).
void lock_for_fork() { registry().mutex.lock(); }
void unlock_in_parent() { registry().mutex.unlock(); }
void clear_in_child() {
  registry().records.clear();
  registry().mutex.unlock();
}

Registry &registry() {
  static Registry *r = [] {  // plans may run after static destructors
    guard_leaf_across_fork({lock_for_fork, unlock_in_parent, clear_in_child});
    return new Registry;
  }();
  return *r;
}

bool any_compared() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return !r.records.empty();
}

// The side's elements, read in dense row-major order into type H (complex
// as re, im pairs).
template <class R, class H>
std::vector<H> gather(const SideAxes &s, void *const ptr[2]) {
  const int64_t total = s.count(), width = s.complex ? 2 : 1;
  std::vector<H> v(static_cast<size_t>(total * width));
  const R *a = static_cast<const R *>(ptr[0]), *b = static_cast<const R *>(ptr[1]);
  for (int64_t i = 0; i < total; ++i) {
    int64_t rest = i, off = 0;
    for (size_t k = s.n.size(); k-- > 0;) {
      off += (rest % s.n[k]) * s.stride[k];
      rest /= s.n[k];
    }
    if (!s.complex) {
      v[i] = static_cast<H>(a[off]);
    } else if (s.split) {
      v[2 * i] = static_cast<H>(a[off]), v[2 * i + 1] = static_cast<H>(b[off]);
    } else {
      v[2 * i] = static_cast<H>(a[2 * off]), v[2 * i + 1] = static_cast<H>(a[2 * off + 1]);
    }
  }
  return v;
}

// The real FFTW of precision T's wisdom as it was before the reference's
// plan, put back after it: the comparison adds nothing to the wisdom the
// program exports. Held under the planner's lock, with the plan.
template <class T>
class WisdomKept {
 public:
  WisdomKept() {
    if (real_fftw<T>().loaded)
      real_fftw<T>().export_wisdom([](char c, void *s) { static_cast<std::string *>(s)->push_back(c); }, &saved_);
  }
  ~WisdomKept() {
    const RealFftw<T> &f = real_fftw<T>();
    if (!f.loaded) return;
    f.forget_wisdom();
    if (!saved_.empty() && !f.import_wisdom_from_string(saved_.c_str()))
      GPUFFTW_LOG(Warn, "the comparison mode could not put the program's wisdom back");
  }
  WisdomKept(const WisdomKept &) = delete;
  WisdomKept &operator=(const WisdomKept &) = delete;

 private:
  std::string saved_;
};

// The problem's transform by the real FFTW in precision T, on dense arrays.
// `in` is consumed (c2r may overwrite it). Empty if the real FFTW gives no plan.
template <class T>
std::vector<T> dense_transform(const Problem &p, std::vector<T> in) {
  Problem d = p;
  d.split = false;
  d.flags = FFTW_ESTIMATE;
  const SideAxes si = side_axes(p, false), so = side_axes(p, true);
  std::vector<T> out(static_cast<size_t>(so.count() * (so.complex ? 2 : 1)));
  int64_t is = 1, os = 1;
  const size_t loops = p.howmany.size();
  for (size_t k = si.n.size(); k-- > 0;) {
    Dim &dim = k < loops ? d.howmany[k] : d.dims[k - loops];
    dim.is = is, dim.os = os;
    is *= si.n[k], os *= so.n[k];
  }
  d.in[0] = in.data(), d.in[1] = nullptr;
  d.out[0] = out.data(), d.out[1] = nullptr;
  // Made and destroyed as the program's plans are, under the planner's
  // lock: threads execute at once, and the real FFTW's planner is not
  // theirs to share (nor made so where it has no threads library).
  std::unique_ptr<Plan> plan;
  {
    GPUFFTW_PLANNER_LOCKED;
    WisdomKept<T> kept;
    plan = make_cpu_plan<T>(d);
  }
  if (!plan) return {};
  plan->execute({Entry::Execute, {}});
  GPUFFTW_PLANNER_LOCKED;
  plan.reset();
  return out;
}

struct Errors {
  double rel_l2, rel_max;
};

// The worse of two errors; NaN, once seen, stays: an output that is not a
// number is the worst.
double worst(double kept, double seen) { return std::isnan(seen) || seen > kept ? seen : kept; }

template <class A, class H>
Errors errors(const std::vector<A> &got, const std::vector<H> &ref) {
  long double num = 0, den = 0, dmax = 0, rmax = 0;
  for (size_t i = 0; i < ref.size() && i < got.size(); ++i) {
    const long double d = static_cast<long double>(got[i]) - static_cast<long double>(ref[i]);
    num += d * d;
    den += static_cast<long double>(ref[i]) * ref[i];
    dmax = std::max(dmax, std::fabs(d));
    rmax = std::max(rmax, std::fabs(static_cast<long double>(ref[i])));
  }
  if (got.size() != ref.size()) return {INFINITY, INFINITY};
  return {den > 0 ? static_cast<double>(std::sqrt(num / den)) : (num > 0 ? INFINITY : 0.0),
          rmax > 0 ? static_cast<double>(dmax / rmax) : (dmax > 0 ? INFINITY : 0.0)};
}

// The plan's own execute, timed for the page apart from the comparison's work.
uint64_t timed_execute(Plan *plan, const Arrays &arrays) {
  const auto t0 = std::chrono::steady_clock::now();
  plan->execute(arrays);
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
}

// One compared execute of a plan of precision R, with reference type H;
// the plan's own execute's nanoseconds.
template <class R, class H>
uint64_t compare_once(Plan *plan, const Arrays &arrays, void *const in[2], void *const out[2]) {
  const Problem &p = plan->problem();
  const SideAxes si = side_axes(p, false), so = side_axes(p, true);
  std::vector<H> in_high = gather<R, H>(si, in);
  std::vector<R> in_own = gather<R, R>(si, in);
  const uint64_t ns = timed_execute(plan, arrays);
  if (settings().perturb) static_cast<R *>(out[0])[0] += 1;  // element 0 lies at offset 0 in every layout
  const std::vector<H> got = gather<R, H>(so, out);
  const std::vector<H> ref = dense_transform<H>(p, std::move(in_high));
  const std::vector<R> own = dense_transform<R>(p, std::move(in_own));
  const bool half = computes_in_half(*plan);
  const double eps = half ? kHalfEps : std::is_same<R, float>::value ? 1.1920929e-7 : 2.220446049250313e-16;
  const double n = static_cast<double>(p.transform_size());
  const double tol = (half ? kHalfToleranceC : kToleranceC) * eps * std::sqrt(std::max(1.0, std::log2(n)));
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  Record &rec = r.records[plan->id];
  rec.execute_ns += ns;
  // Nothing to compare (a loop of zero), or no reference to compare with
  // (the real FFTW of the precision above gives no plan): not compared.
  if (ref.empty()) return ns;
  const Errors e = errors(got, ref);
  const Errors f = own.empty() ? Errors{NAN, NAN} : errors(own, ref);
  rec.compared++;
  rec.tolerance = tol;
  rec.half = half;
  rec.rel_l2 = worst(rec.rel_l2, e.rel_l2);
  rec.rel_max = worst(rec.rel_max, e.rel_max);
  rec.fftw_rel_l2 = worst(rec.fftw_rel_l2, f.rel_l2);
  if (!(e.rel_l2 <= tol)) rec.over++;
  return ns;
}

// A number as JSON has it: none for an infinite or NaN error (JSON has
// neither), whose plan is over its tolerance anyway.
std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

// One line a plan, each written whole and appended: every process of the
// program (an MPI job's ranks, a child it runs) adds its own, none
// overwriting another's.
void write_file(const std::string &path) {
  const int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    GPUFFTW_LOG(Warn, "GPUFFTW_COMPARE_FILE=%s cannot be written (%s)", path.c_str(), std::strerror(errno));
    return;
  }
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto &kv : r.records) {
    const Record &c = kv.second;
    char head[96];
    std::snprintf(head, sizeof head, "{\"pid\":%ld,\"plan\":%llu,", static_cast<long>(getpid()),
                  static_cast<unsigned long long>(kv.first));
    const std::string line = head + std::string("\"problem\":\"") + c.problem + "\",\"where\":\"" + c.where +
                             "\",\"executes\":" + std::to_string(c.executes) +
                             ",\"compared\":" + std::to_string(c.compared) +
                             ",\"gpufftw_rel_l2\":" + json_number(c.rel_l2) +
                             ",\"gpufftw_rel_max\":" + json_number(c.rel_max) +
                             ",\"fftw_rel_l2\":" + json_number(c.fftw_rel_l2) +
                             ",\"tolerance\":" + json_number(c.tolerance) + ",\"half\":" + (c.half ? "true" : "false") +
                             ",\"over\":" + (c.over ? "true" : "false") + "}\n";
    if (write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
      GPUFFTW_LOG(Warn, "GPUFFTW_COMPARE_FILE=%s: a line could not be written (%s)", path.c_str(), std::strerror(errno));
      break;
    }
  }
  close(fd);
}

void write_html(const std::string &path) {
  std::vector<ComparedPlan> plans;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const auto &kv : r.records) {
      const Record &c = kv.second;
      plans.push_back({kv.first, c.problem, c.where, c.executes, c.compared, c.rel_l2, c.fftw_rel_l2, c.tolerance,
                       c.half, c.over > 0, c.execute_ns});
    }
  }
  write_compare_html(path, plans, kToleranceC, kHalfToleranceC);
}

void arm_exit() {
  write_at_end([] {
    if (!any_compared()) return;  // a forked child that executed no plan
    std::fflush(stdout);  // the program's own output first
    write_compare_table(stderr);
    if (!settings().file.empty()) write_file(settings().file);
    if (!settings().html.empty()) write_html(settings().html);
  });
}

// The reference transforms plan in the real FFTW of the plan's precision
// and of the one above it; not while that would harm the program's plans.
bool references_may_plan(Precision precision) {
  return precision == Precision::F32 ? may_plan_without_harm<float>() && may_plan_without_harm<double>()
                                     : may_plan_without_harm<double>() && may_plan_without_harm<long double>();
}

// Read as the program starts, so that the files' names are taken
// relative to the folder it starts in.
__attribute__((constructor)) void read_settings_at_start() { settings(); }

}  // namespace

bool compare_enabled() { return settings().on; }

uint64_t execute_compared(Plan *plan, const Arrays &arrays) {
  arm_exit();
  const Problem &p = plan->problem();
  uint64_t k;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    Record &rec = r.records[plan->id];
    if (rec.problem.empty()) rec.problem = p.describe(), rec.where = where_name(plan->where());
    k = rec.executes++;
  }
  void *in[2], *out[2];
  if (k % settings().every != 0 || !resolve_arrays(p, arrays, in, out) ||
      !references_may_plan(p.precision)) {
    const uint64_t ns = timed_execute(plan, arrays);
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.records[plan->id].execute_ns += ns;
    return ns;
  }
  return p.precision == Precision::F32 ? compare_once<float, double>(plan, arrays, in, out)
                                       : compare_once<double, long double>(plan, arrays, in, out);
}

void write_compare_table(FILE *out) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  uint64_t over = 0;
  for (const auto &kv : r.records) over += kv.second.over ? 1 : 0;
  std::fprintf(out,
               "gpufftw compare: %zu plans, %llu over tolerance (c*eps*sqrt(log2 N), c = %g; plans computed in half "
               "precision: c = %g, eps = 2^-10)\n",
               r.records.size(), static_cast<unsigned long long>(over), kToleranceC, kHalfToleranceC);
  // Each error is normalized its own way, so max may read below L2.
  std::fprintf(out,
               "  L2 = ||out - ref||_2 / ||ref||_2, max = max|out - ref| / max|ref|, each the worst of the plan's "
               "executes; ref: the real FFTW in higher precision\n");
  std::fprintf(out, "  %5s %-5s %9s %11s %11s %11s %9s  %s\n", "plan", "where", "compared", "gpufftw L2", "gpufftw max",
               "FFTW L2", "tolerance", "problem");
  for (const auto &kv : r.records) {
    const Record &c = kv.second;
    std::fprintf(out, "  %5llu %-5s %4llu/%-4llu %11.3g %11.3g %11.3g %9.3g  %s%s%s\n",
                 static_cast<unsigned long long>(kv.first), c.where.c_str(), static_cast<unsigned long long>(c.compared),
                 static_cast<unsigned long long>(c.executes), c.rel_l2, c.rel_max, c.fftw_rel_l2, c.tolerance,
                 c.problem.c_str(), c.half ? " [fp16]" : "", c.over ? "  OVER" : "");
  }
}

}  // namespace gpufftw
