// soak: N seconds of mixed plans and executes through gpufftw,
// checking results against the real FFTW and memory at the start and the
// end. A fixed set of problem shapes (c2c, r2c, c2r, r2r; f32 and f64;
// 1-D to 3-D; batches; in and out of place), each planned again and again
// in auto, GPU or CPU mode, FFTW_ESTIMATE or FFTW_MEASURE, on fftw_malloc
// (pinned from 1 MiB) or malloc arrays, up to kLive plans alive at once,
// executed on their own arrays or through the new-array functions.
//
// Every shape first runs once in each mode and with each flag, then all
// of them alive at once on the GPU (the warm-up), so that what gpufftw
// keeps for reuse (cuFFT plans by geometry, the stream-ordered pool, the
// real FFTW's wisdom, the report's entries) is in place; the soak keeps at
// most one plan of a shape alive, so it cannot need more of those. Then
// --settle seconds (120) of the soak's own mix, unjudged: what the mix
// fills once that the warm-up does not (up to kLive plans of all modes
// alive together) is in place too. Then, with no plan alive, at the start
// and at the end of --seconds of the mix: host RSS (after
// malloc_trim) less the pinned blocks gpufftw keeps for reuse (a cache of
// at most 2 GiB, engine/device/pinned.cc, shown apart), the pinned memory
// handed out and not freed (none: every array is freed), and the device's
// used memory. Growth of any past --max-growth (1%) and --slack-mib (2:
// page-sized noise) fails, as does any wrong result. Every minute, and at
// the end by mapping, the readings show where resident memory lies.
//
//   soak [--seconds S] [--settle S] [--check-every K] [--seed N]
//        [--max-growth F] [--slack-mib M] [--max-points P]
// --max-points leaves out the shapes of more points (batch included): the
// short run of the CPU-only test keeps to small ones.
#include <fftw3.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "../tests/sweep/fftw_traits.h"
#include "gpufftw/gpufftw.h"

namespace {

enum class Kind { C2C, R2C, C2R, R2R };
const char *kind_name(Kind k) {
  return k == Kind::C2C ? "c2c" : k == Kind::R2C ? "r2c" : k == Kind::C2R ? "c2r" : "r2r";
}

struct Shape {
  Kind kind;
  bool f32;
  std::vector<int> n;
  int howmany;
  bool in_place;  // c2c and r2r only
  fftw_r2r_kind r2r = FFTW_REDFT10;

  size_t points() const {
    size_t p = 1;
    for (int v : n) p *= static_cast<size_t>(v);
    return p;
  }
  // Complex points of the half spectrum (r2c/c2r).
  size_t half() const { return points() / static_cast<size_t>(n.back()) * static_cast<size_t>(n.back() / 2 + 1); }
  // Each side's distance between transforms and length, in reals.
  size_t in_dist() const { return kind == Kind::C2C ? 2 * points() : kind == Kind::C2R ? 2 * half() : points(); }
  size_t out_dist() const { return kind == Kind::C2C ? 2 * points() : kind == Kind::R2C ? 2 * half() : points(); }
  size_t in_reals() const { return in_dist() * static_cast<size_t>(howmany); }
  size_t out_reals() const { return out_dist() * static_cast<size_t>(howmany); }
  std::string describe() const {
    std::string s = std::string(kind_name(kind)) + (f32 ? " f32 " : " f64 ");
    for (size_t i = 0; i < n.size(); ++i) s += (i ? "x" : "") + std::to_string(n[i]);
    return s + " batch " + std::to_string(howmany) + (in_place ? " in place" : "");
  }
};

// FFTW of one precision on the soak's layouts: unit strides, the
// transforms of a batch `id` (in) and `od` (out) elements apart.
template <class T>
struct Api {
  using F = sweep::FftwApi<T>;
  using Plan = typename F::plan;
  using C = typename F::complex;
  static Plan dft(int r, const int *n, int h, C *i, int id, C *o, int od, unsigned f) {
    return F::plan_many_dft(r, n, h, i, nullptr, 1, id, o, nullptr, 1, od, FFTW_FORWARD, f);
  }
  static Plan r2c(int r, const int *n, int h, T *i, int id, C *o, int od, unsigned f) {
    return F::plan_many_dft_r2c(r, n, h, i, nullptr, 1, id, o, nullptr, 1, od, f);
  }
  static Plan c2r(int r, const int *n, int h, C *i, int id, T *o, int od, unsigned f) {
    return F::plan_many_dft_c2r(r, n, h, i, nullptr, 1, id, o, nullptr, 1, od, f);
  }
  static Plan r2r(int r, const int *n, int h, T *i, int id, T *o, int od, const fftw_r2r_kind *k, unsigned f) {
    return F::plan_many_r2r(r, n, h, i, nullptr, 1, id, o, nullptr, 1, od, k, f);
  }
  static void new_array(Plan p, Kind k, void *i, void *o) {
    switch (k) {
      case Kind::C2C: F::execute_dft(p, static_cast<C *>(i), static_cast<C *>(o)); break;
      case Kind::R2C: F::execute_dft_r2c(p, static_cast<T *>(i), static_cast<C *>(o)); break;
      case Kind::C2R: F::execute_dft_c2r(p, static_cast<C *>(i), static_cast<T *>(o)); break;
      case Kind::R2R: F::execute_r2r(p, static_cast<T *>(i), static_cast<T *>(o)); break;
    }
  }
};

template <class T>
void *make_plan(const Shape &s, void *in, void *out, unsigned flags) {
  using A = Api<T>;
  using C = typename A::C;
  const int r = static_cast<int>(s.n.size()), h = s.howmany;
  const int id = static_cast<int>(s.in_dist() / (s.kind == Kind::C2C || s.kind == Kind::C2R ? 2 : 1));
  const int od = static_cast<int>(s.out_dist() / (s.kind == Kind::C2C || s.kind == Kind::R2C ? 2 : 1));
  switch (s.kind) {
    case Kind::C2C: return A::dft(r, s.n.data(), h, static_cast<C *>(in), id, static_cast<C *>(out), od, flags);
    case Kind::R2C: return A::r2c(r, s.n.data(), h, static_cast<T *>(in), id, static_cast<C *>(out), od, flags);
    case Kind::C2R: return A::c2r(r, s.n.data(), h, static_cast<C *>(in), id, static_cast<T *>(out), od, flags);
    case Kind::R2R: {
      const std::vector<fftw_r2r_kind> kinds(s.n.size(), s.r2r);
      return A::r2r(r, s.n.data(), h, static_cast<T *>(in), id, static_cast<T *>(out), od, kinds.data(), flags);
    }
  }
  return nullptr;
}

void execute(const Shape &s, void *p) {
  if (s.f32)
    sweep::FftwApi<float>::execute(static_cast<fftwf_plan>(p));
  else
    sweep::FftwApi<double>::execute(static_cast<fftw_plan>(p));
}
void new_array(const Shape &s, void *p, void *in, void *out) {
  if (s.f32)
    Api<float>::new_array(static_cast<fftwf_plan>(p), s.kind, in, out);
  else
    Api<double>::new_array(static_cast<fftw_plan>(p), s.kind, in, out);
}
void destroy(const Shape &s, void *p) {
  if (s.f32)
    sweep::FftwApi<float>::destroy_plan(static_cast<fftwf_plan>(p));
  else
    sweep::FftwApi<double>::destroy_plan(static_cast<fftw_plan>(p));
}
void *plan(const Shape &s, void *in, void *out, unsigned flags) {
  return s.f32 ? make_plan<float>(s, in, out, flags) : make_plan<double>(s, in, out, flags);
}

void store(const Shape &s, void *dst, const std::vector<double> &v) {
  for (size_t i = 0; i < v.size(); ++i)
    if (s.f32)
      static_cast<float *>(dst)[i] = static_cast<float>(v[i]);
    else
      static_cast<double *>(dst)[i] = v[i];
}
std::vector<double> fetch(const Shape &s, const void *src, size_t count) {
  std::vector<double> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = s.f32 ? static_cast<const float *>(src)[i] : static_cast<const double *>(src)[i];
  return v;
}

// A shape's arrays: fftw_malloc'd (pinned from 1 MiB where a GPU is) or
// malloc'd (pageable); the same allocator for the new-array set, which
// FFTW's alignment rule needs.
struct Arrays {
  bool fftw = true;
  size_t bytes_in = 0, bytes_out = 0;
  void *in = nullptr, *out = nullptr;
  void make(const Shape &s, bool use_fftw) {
    fftw = use_fftw;
    const size_t r = s.f32 ? 4 : 8;
    bytes_in = s.in_reals() * r;
    bytes_out = s.out_reals() * r;
    in = alloc(s.in_place ? std::max(bytes_in, bytes_out) : bytes_in);
    out = s.in_place ? in : alloc(bytes_out);
  }
  void *alloc(size_t b) const {
    if (fftw) return fftw_malloc(b);
    void *p = nullptr;
    return posix_memalign(&p, 64, b) == 0 ? p : nullptr;
  }
  void release() {
    if (out != in) fftw ? fftw_free(out) : std::free(out);
    fftw ? fftw_free(in) : std::free(in);
    in = out = nullptr;
  }
};

struct Stats {
  long plans = 0, executes = 0, new_array = 0, checked = 0, wrong = 0;
  long where_gpu = 0, where_cpu = 0;
};

struct Soak {
  std::vector<Shape> shapes;
  std::vector<std::vector<double>> inputs;  // canonical input per shape
  Stats st;
  int check_every = 10;

  // The real FFTW's answer for shape i (CPU mode, FFTW_ESTIMATE).
  // The real FFTW's output of shape s for `input` (an FFTW_ESTIMATE plan
  // made, run and destroyed in GPUFFTW_MODE_CPU).
  std::vector<double> on_cpu(const Shape &s, const std::vector<double> &input) {
    const gpufftw_mode saved = gpufftw_get_mode();
    gpufftw_set_mode(GPUFFTW_MODE_CPU);
    Arrays a;
    a.make(s, false);
    void *p = plan(s, a.in, a.out, FFTW_ESTIMATE);
    store(s, a.in, input);
    execute(s, p);
    std::vector<double> r = fetch(s, a.out, s.out_reals());
    destroy(s, p);
    a.release();
    gpufftw_set_mode(saved);
    return r;
  }

  std::vector<double> reference(size_t i) { return on_cpu(shapes[i], inputs[i]); }

  void compare(size_t i, const void *out, const char *how) {
    const Shape &s = shapes[i];
    const std::vector<double> got = fetch(s, out, s.out_reals()), want = reference(i);
    double d = 0, w = 0;
    for (size_t k = 0; k < got.size(); ++k) d += (got[k] - want[k]) * (got[k] - want[k]), w += want[k] * want[k];
    const double err = std::sqrt(d / w), tol = s.f32 ? 5e-5 : 1e-11;
    ++st.checked;
    if (!(err <= tol)) {
      ++st.wrong;
      std::printf("WRONG: %s (%s): relative L2 error %.3g over %.3g\n", s.describe().c_str(), how, err, tol);
    }
  }

  // The input of shape i: random reals, or for c2r the real FFTW's r2c of
  // random reals (a Hermitian input, the only kind whose c2r is defined
  // the same way by every implementation).
  std::vector<double> make_input(const Shape &s, std::mt19937_64 &rng) {
    std::uniform_real_distribution<double> u(-0.5, 0.5);
    if (s.kind != Kind::C2R) {
      std::vector<double> v(s.in_reals());
      for (double &x : v) x = u(rng);
      return v;
    }
    Shape r2c = s;
    r2c.kind = Kind::R2C;
    std::vector<double> real(r2c.in_reals());
    for (double &x : real) x = u(rng);
    return on_cpu(r2c, real);
  }
};

// The shapes: a fixed set, so that gpufftw's caches reach their size in
// the warm-up; sizes from tiny (CPU) to a few million points (GPU in auto).
std::vector<Shape> make_shapes(size_t max_points) {
  std::vector<Shape> v;
  const fftw_r2r_kind r2r_kinds[] = {FFTW_REDFT10, FFTW_REDFT01, FFTW_RODFT10, FFTW_DHT, FFTW_R2HC, FFTW_REDFT00};
  const std::vector<std::vector<int>> dims = {{64}, {1000}, {4096}, {65536}, {1 << 20}, {128, 128}, {512, 512},
                                              {1024, 1000}, {32, 32, 32}, {128, 128, 128}};
  const int batches[] = {1, 16, 1, 4, 1, 1, 4, 1, 8, 1};
  int k = 0;
  for (Kind kind : {Kind::C2C, Kind::R2C, Kind::C2R, Kind::R2R})
    for (bool f32 : {true, false})
      for (size_t d = 0; d < dims.size(); ++d, ++k) {
        if (kind == Kind::R2R && dims[d].size() > 1 && d % 2) continue;  // fewer multi-dim r2r
        Shape s{kind, f32, dims[d], batches[d], false};
        s.in_place = (kind == Kind::C2C || kind == Kind::R2R) && (k % 3 == 0);
        s.r2r = r2r_kinds[k % 6];
        if (s.points() * static_cast<size_t>(s.howmany) <= max_points) v.push_back(s);
      }
  return v;
}

struct Memory {
  double rss = 0, pinned_live = 0, pinned_kept = 0, device = 0;  // bytes; rss less pinned_kept
  // Where RSS lies, to tell a leak from memory a library fills once:
  // anonymous and file-backed resident memory (a library's pages read in),
  // what this namespace's malloc has handed out, and the thread count.
  double anon = 0, file = 0, heap = 0;
  int threads = 0;
};
double status_value(const char *key) {  // the N of a "Key: N [kB]" line of /proc/self/status
  double v = 0;
  if (FILE *f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    const size_t n = std::strlen(key);
    while (std::fgets(line, sizeof line, f))
      if (!std::strncmp(line, key, n) && line[n] == ':') v = std::atof(line + n + 1);
    std::fclose(f);
  }
  return v;
}
Memory read_memory() {
  malloc_trim(0);  // freed heap the allocator keeps is no leak
  Memory m;
  long pages = 0, resident = 0;
  if (FILE *f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  gpufftw_memory_stats g;
  gpufftw_memory(&g);
  m.pinned_live = static_cast<double>(g.pinned_live);
  m.pinned_kept = static_cast<double>(g.pinned_kept);
  m.rss = static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) - m.pinned_kept;
  m.device = static_cast<double>(g.device_used);
  m.anon = status_value("RssAnon") * 1024;
  m.file = status_value("RssFile") * 1024;
  m.heap = static_cast<double>(mallinfo2().uordblks);
  m.threads = static_cast<int>(status_value("Threads"));
  return m;
}
// Each mapping of the process (/proc/self/smaps), by its start address and
// what backs it (a mapping such as the heap grows at its end): its size and
// resident KiB. Where growth lies when it is not in malloc: a library's own
// mmap, a thread's stack, the driver's memory.
struct Mapping {
  long size_kib = 0, rss_kib = 0;
};
std::map<std::string, Mapping> mappings() {
  std::map<std::string, Mapping> m;
  if (FILE *f = std::fopen("/proc/self/smaps", "r")) {
    char line[512];
    std::string key;
    while (std::fgets(line, sizeof line, f)) {
      unsigned long lo = 0, hi = 0;
      long kib = 0;
      char perms[8] = "", name[256] = "";
      if (std::sscanf(line, "Rss: %ld kB", &kib) == 1) {
        m[key].rss_kib += kib;
      } else if (std::sscanf(line, "%lx-%lx %7s %*s %*s %*s %255[^\n]", &lo, &hi, perms, name) >= 3) {
        char at[24];
        std::snprintf(at, sizeof at, "%lx", lo);
        key = std::string(at) + " " + perms + " " + (name[0] ? name : "[anonymous]");
        m[key].size_kib = static_cast<long>((hi - lo) / 1024);
      }
    }
    std::fclose(f);
  }
  return m;
}
// The mappings whose resident memory grew the most from `before` to now.
void print_growth_by_mapping(const std::map<std::string, Mapping> &before) {
  std::vector<std::pair<long, std::string>> grew;
  for (const auto &[key, now] : mappings()) {
    const auto b = before.find(key);
    const long d = now.rss_kib - (b == before.end() ? 0 : b->second.rss_kib);
    if (d > 0)
      grew.emplace_back(d, key + ", " + std::to_string(now.size_kib) + " KiB mapped" +
                               (b == before.end() ? " (new)" : ""));
  }
  std::sort(grew.rbegin(), grew.rend());
  for (size_t i = 0; i < grew.size() && i < 6; ++i)
    std::printf("grew by mapping: %+.2f MiB at %s\n", static_cast<double>(grew[i].first) / 1024,
                grew[i].second.c_str());
}

void print_memory(const char *when, const Memory &m) {
  std::printf("%s: host RSS %.1f MiB (less pinned kept; anonymous %.1f, file-backed %.1f, malloc in use %.1f), "
              "%d threads, pinned live %.1f MiB, pinned kept %.1f MiB, device used %.1f MiB\n",
              when, m.rss / 1048576, m.anon / 1048576, m.file / 1048576, m.heap / 1048576, m.threads,
              m.pinned_live / 1048576, m.pinned_kept / 1048576, m.device / 1048576);
}

struct Live {
  size_t shape;
  void *plan = nullptr;
  Arrays a, b;  // b: the new-array set
};

}  // namespace

int main(int argc, char **argv) {
  double seconds = 600, settle = 120, max_growth = 0.01, slack_mib = 2;
  size_t max_points = SIZE_MAX;
  unsigned seed = 27;
  Soak soak;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--seconds" && v) seconds = std::atof(argv[++i]);
    else if (a == "--settle" && v) settle = std::atof(argv[++i]);
    else if (a == "--check-every" && v) soak.check_every = std::max(1, std::atoi(argv[++i]));
    else if (a == "--seed" && v) seed = static_cast<unsigned>(std::atoi(argv[++i]));
    else if (a == "--max-growth" && v) max_growth = std::atof(argv[++i]);
    else if (a == "--max-points" && v) max_points = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--slack-mib" && v) slack_mib = std::atof(argv[++i]);
    else
      return std::fprintf(stderr, "usage: soak [--seconds S] [--settle S] [--check-every K] [--seed N] "
                                  "[--max-growth F] [--slack-mib M] [--max-points P]\n"),
             2;
  }
  std::mt19937_64 rng(seed);
  soak.shapes = make_shapes(max_points);
  for (const Shape &s : soak.shapes) soak.inputs.push_back(soak.make_input(s, rng));
  const bool gpu = gpufftw_gpu_available();
  std::printf("soak: %zu shapes, %.0f s, %s, check every %d executes\n", soak.shapes.size(), seconds,
              gpu ? "GPU present" : "no GPU (the CPU path)", soak.check_every);
  const gpufftw_mode modes[] = {GPUFFTW_MODE_AUTO, GPUFFTW_MODE_GPU, GPUFFTW_MODE_CPU};
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };

  auto make_live = [&](size_t shape, gpufftw_mode mode, unsigned flags, bool fftw_arrays) {
    Live l;
    l.shape = shape;
    const Shape &s = soak.shapes[shape];
    l.a.make(s, fftw_arrays);
    l.b.make(s, fftw_arrays);
    gpufftw_set_mode(mode);
    l.plan = plan(s, l.a.in, l.a.out, flags);
    ++soak.st.plans;
    if (!l.plan) {
      std::printf("WRONG: %s: no plan\n", s.describe().c_str());
      ++soak.st.wrong;
    } else {
      ++(std::strcmp(gpufftw_plan_where(l.plan), "gpu") == 0 ? soak.st.where_gpu : soak.st.where_cpu);
    }
    return l;
  };
  auto run = [&](Live &l, bool other_arrays, bool check) {
    const Shape &s = soak.shapes[l.shape];
    Arrays &x = other_arrays ? l.b : l.a;
    store(s, x.in, soak.inputs[l.shape]);
    if (other_arrays) {
      new_array(s, l.plan, x.in, x.out);
      ++soak.st.new_array;
    } else {
      execute(s, l.plan);
    }
    ++soak.st.executes;
    if (check) soak.compare(l.shape, x.out, other_arrays ? "new-array execute" : "execute");
  };
  auto drop = [&](Live &l) {
    if (l.plan) destroy(soak.shapes[l.shape], l.plan);
    l.a.release();
    l.b.release();
  };

  // FFTW_MEASURE times both sides: only where that costs little.
  auto measurable = [&](size_t shape) {
    return soak.shapes[shape].points() * static_cast<size_t>(soak.shapes[shape].howmany) <= (1 << 16);
  };
  // Warm-up: every shape in every mode, on both kinds of arrays, with
  // each flag the soak gives it (FFTW_MEASURE leaves wisdom in the real
  // FFTW and choices in gpufftw's store), checked.
  for (size_t i = 0; i < soak.shapes.size(); ++i)
    for (gpufftw_mode m : modes)
      for (bool fftw_arrays : {true, false})
        for (unsigned flags : {FFTW_ESTIMATE, FFTW_MEASURE}) {
          if (flags == FFTW_MEASURE && !measurable(i)) continue;
          Live l = make_live(i, m, flags, fftw_arrays);
          if (l.plan) {
            run(l, false, true);
            run(l, true, true);
          }
          drop(l);
        }
  // All at once on the GPU: as many cuFFT plans and pinned blocks of a
  // kind as the soak can hold alive together.
  std::vector<Live> all;
  for (size_t i = 0; i < soak.shapes.size(); ++i) {
    all.push_back(make_live(i, GPUFFTW_MODE_GPU, FFTW_ESTIMATE, true));
    if (all.back().plan) run(all.back(), false, false), run(all.back(), true, false);
  }
  for (Live &l : all) drop(l);
  all.clear();
  std::printf("warm-up: %.1f s, %ld plans (%ld on the GPU), %ld executes, %ld wrong\n", elapsed(), soak.st.plans,
              soak.st.where_gpu, soak.st.executes, soak.st.wrong);
  print_memory("after the warm-up", read_memory());

  constexpr size_t kLive = 8;
  std::vector<Live> live;
  std::uniform_real_distribution<double> u(0, 1);
  // The soak's mix for `span` seconds, then every plan dropped. A reading a
  // minute, with the live plans held: growth that levels off is a cache
  // filling, growth that keeps its pace a leak.
  auto mix = [&](const char *phase, double span) {
    const double from = elapsed();
    double next_sample = from + 60;
    while (elapsed() < from + span) {
      if (elapsed() >= next_sample) {
        char when[96];
        std::snprintf(when, sizeof when, "%s minute %.0f (%ld plans)", phase, (elapsed() - from) / 60, soak.st.plans);
        print_memory(when, read_memory());
        std::fflush(stdout);
        next_sample += 60;
      }
      if (live.size() < kLive || u(rng) < 0.2) {
        if (live.size() >= kLive) {
          const size_t k = rng() % live.size();
          drop(live[k]);
          live.erase(live.begin() + static_cast<long>(k));
        }
        size_t shape = rng() % soak.shapes.size();
        auto is_live = [&](size_t s) {
          for (const Live &l : live)
            if (l.shape == s) return true;
          return false;
        };
        while (is_live(shape)) shape = (shape + 1) % soak.shapes.size();
        const double m = u(rng);
        const gpufftw_mode mode = m < 0.6 ? GPUFFTW_MODE_AUTO : m < 0.8 ? GPUFFTW_MODE_GPU : GPUFFTW_MODE_CPU;
        const unsigned flags = measurable(shape) && u(rng) < 0.3 ? FFTW_MEASURE : FFTW_ESTIMATE;
        live.push_back(make_live(shape, mode, flags, u(rng) < 0.7));
        if (!live.back().plan) {
          drop(live.back());
          live.pop_back();
        }
        continue;
      }
      Live &l = live[rng() % live.size()];
      run(l, u(rng) < 0.3, soak.st.executes % soak.check_every == 0);
    }
    for (Live &l : live) drop(l);
    live.clear();
  };
  // The mix itself first, unjudged: what it fills once (memory the
  // warm-up's one plan at a time does not reach) is no leak.
  mix("settle", settle);
  const Memory start = read_memory();
  const std::map<std::string, Mapping> start_mappings = mappings();
  print_memory("start", start);
  std::fflush(stdout);
  const double soak_start = elapsed();
  mix("soak", seconds);
  gpufftw_set_mode(GPUFFTW_MODE_AUTO);
  const Memory end = read_memory();
  print_memory("end", end);
  print_growth_by_mapping(start_mappings);
  std::printf("soak: %.1f s, %ld plans made (%ld on the GPU, %ld on the CPU), %ld executes (%ld new-array), "
              "%ld checked, %ld wrong (the warm-up and the settling included)\n",
              elapsed() - soak_start, soak.st.plans, soak.st.where_gpu, soak.st.where_cpu, soak.st.executes,
              soak.st.new_array, soak.st.checked, soak.st.wrong);
  bool grew = false;
  auto growth = [&](const char *what, double a, double b, bool judged) {
    const double g = a > 0 ? (b - a) / a : 0;
    const bool over = judged && b - a > std::max(max_growth * a, slack_mib * 1048576);
    std::printf("growth: %s %+.2f%% (%+.2f MiB)%s\n", what, 100 * g, (b - a) / 1048576,
                over ? ": TOO MUCH" : judged ? "" : " (a bounded cache: not judged)");
    grew = grew || over;
  };
  growth("host RSS less pinned kept", start.rss, end.rss, true);
  growth("pinned live", start.pinned_live, end.pinned_live, true);
  growth("pinned kept", start.pinned_kept, end.pinned_kept, false);
  growth("device used", start.device, end.device, true);
  const bool pass = soak.st.wrong == 0 && !grew;
  std::printf("soak: %s\n", pass ? "PASS" : grew ? "FAIL (memory grew)" : "FAIL (wrong results)");
  return pass ? 0 : 1;
}
