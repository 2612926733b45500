// libFuzzer target over the planner's inputs, with the real FFTW as the
// oracle. Each input is one guru64 call: precision, kind (c2c,
// split c2c, r2c, split r2c, c2r, split c2r, r2r), rank 0-5 (and -1, 6, 7,
// INT_MAX), howmany rank 0-3 (and -1, INT_MAX), sizes from 0 to huge and
// negative, natural, zero, negative, huge and overlapping strides, in place,
// out of place, half in place (split) and overlapping arrays, misaligned
// arrays, any sign, every r2r kind and values that are none, and flags with
// every rigor, the documented bits, FFTW's undocumented ones and unknown
// bits.
//
// gpufftw's sources are compiled into this program (so the fuzzer sees its
// branches); the real FFTW is opened by path into a link-map namespace of
// its own (dlmopen) and called directly through its guru64 functions: an
// oracle that gpufftw's own fallback (a second copy, in gpufftw's private
// namespace) does not share. For each input:
//   1. gpufftw's plan is NULL exactly where the real FFTW's is;
//   2. gpufftw's planning with FFTW_ESTIMATE leaves the arrays untouched;
//   3. where both plan a small problem with a well-defined result (outputs
//      that do not overlap each other), both execute on the same input and
//      agree within the sweep's tolerance (tests/sweep/tolerance.h);
//   4. the same plan executed on other arrays of the same alignment
//      (fftw_execute_dft & co.) gives the same result.
// Any mismatch aborts with a description of the input. Sizes whose
// planning the real FFTW could not afford (more than 2^20 points) are
// skipped; sizes past 32 bits are the GPU machine's (tests/gpu/large_gpu_test.cc).
// Inputs the real FFTW answers only by undefined behaviour are not asked
// of it: see `oracle_defined`.
#include <dlfcn.h>
#include <fcntl.h>
#include <fftw3.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../../core/precision_traits.h"
#include "../../fallback/real_fftw.h"
#include "gpufftw/gpufftw.h"

namespace {

// ---- input reading: bytes from the front, zeros once they run out ----------
class Reader {
 public:
  Reader(const uint8_t *d, size_t n) : d_(d), n_(n) {}
  uint8_t u8() { return i_ < n_ ? d_[i_++] : 0; }
  uint32_t u32() {
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= uint32_t(u8()) << (8 * k);
    return v;
  }
  uint64_t u64() { return uint64_t(u32()) | (uint64_t(u32()) << 32); }

 private:
  const uint8_t *d_;
  size_t n_, i_ = 0;
};

enum Kind { C2C, SPLIT_C2C, R2C, SPLIT_R2C, C2R, SPLIT_C2R, R2R, kKinds };
const char *kind_names[] = {"c2c", "split-c2c", "r2c", "split-r2c", "c2r", "split-c2r", "r2r"};
enum Place { OUT_OF_PLACE, IN_PLACE, HALF_IN_PLACE, OVERLAPPING, kPlaces };
const char *place_names[] = {"out-of-place", "in-place", "half-in-place", "overlapping"};

constexpr int kMaxRank = 8;  // the arrays handed over; ranks past them are never read (rank INT_MAX)

struct Input {
  bool f64 = true;
  Kind kind = C2C;
  int rank = 1, hrank = 0;
  fftw_iodim64 dims[kMaxRank] = {}, hdims[kMaxRank] = {};
  Place place = OUT_OF_PLACE;
  int misalign = 0;  // reals
  int sign = FFTW_FORWARD;
  int kinds[kMaxRank] = {};
  unsigned flags = FFTW_ESTIMATE;

  std::string describe() const {
    std::string s = std::string(f64 ? "f64 " : "f32 ") + kind_names[kind] + " rank " + std::to_string(rank) + " [";
    for (int i = 0; i < std::min(std::max(rank, 0), kMaxRank); ++i)
      s += (i ? ", " : "") + std::to_string(dims[i].n) + "/" + std::to_string(dims[i].is) + "/" +
           std::to_string(dims[i].os) + (kind == R2R ? "/k" + std::to_string(kinds[i]) : "");
    s += "] howmany rank " + std::to_string(hrank) + " [";
    for (int i = 0; i < std::min(std::max(hrank, 0), kMaxRank); ++i)
      s += (i ? ", " : "") + std::to_string(hdims[i].n) + "/" + std::to_string(hdims[i].is) + "/" +
           std::to_string(hdims[i].os);
    char buf[96];
    std::snprintf(buf, sizeof buf, "] %s misalign %d sign %d flags 0x%x", place_names[place], misalign, sign, flags);
    return s + buf;
  }
};

int64_t pick_n(Reader &r, bool loop) {
  const uint8_t sel = r.u8();
  static const int64_t nice[] = {1, 2, 3, 4, 5, 7, 8, 11, 13, 16, 17, 30, 64, 97, 100, 128, 210, 256, 1000, 1024};
  static const int64_t bad[] = {-1, -2, INT_MIN, -(int64_t(1) << 40), INT64_MIN};
  static const int64_t huge[] = {INT_MAX, int64_t(1) << 31, (int64_t(1) << 32) + 1, int64_t(1) << 40, INT64_MAX};
  if (sel < (loop ? 110 : 150)) return 1 + r.u8() % 24;
  if (sel < 190) return nice[r.u8() % 20];
  if (sel < 215) return 0;
  if (sel < 235) return bad[r.u8() % 5];
  return huge[r.u8() % 5];
}

// natural: the stride a contiguous layout would have.
int64_t pick_stride(Reader &r, int64_t natural) {
  const uint8_t sel = r.u8();
  static const int64_t huge[] = {int64_t(1) << 31, -(int64_t(1) << 31), int64_t(1) << 40, -(int64_t(1) << 40),
                                 INT64_MAX, INT64_MIN, int64_t(1) << 62};
  if (sel < 140) return natural;
  if (sel < 185) return int64_t(r.u8() % 72) - 8;
  if (sel < 200) return 0;
  if (sel < 215) return -natural;
  if (sel < 235) return natural * (1 + r.u8() % 3);
  return huge[r.u8() % 7];
}

Input decode(const uint8_t *data, size_t size) {
  Reader r(data, size);
  Input in;
  const uint8_t head = r.u8();
  in.f64 = head & 1;
  in.kind = static_cast<Kind>((head >> 1) % kKinds);
  const uint8_t rk = r.u8();
  static const int odd_ranks[] = {-1, 6, 7, INT_MAX, INT_MIN};
  in.rank = rk < 225 ? rk % 6 : odd_ranks[rk % 5];
  const uint8_t hk = r.u8();
  static const int odd_hranks[] = {-1, INT_MAX, 4};
  in.hrank = hk < 235 ? hk % 4 : odd_hranks[hk % 3];
  // Sizes first, then strides (the natural ones follow from the sizes).
  const int nd = std::min(std::max(in.rank, 0), kMaxRank), nh = std::min(std::max(in.hrank, 0), kMaxRank);
  for (int i = 0; i < nd; ++i) in.dims[i].n = pick_n(r, false);
  for (int i = 0; i < nh; ++i) in.hdims[i].n = pick_n(r, true);
  auto ext = [](int64_t n) { return n > 0 && n < (int64_t(1) << 24) ? n : 1; };
  // The natural strides saturate at 2^40 (never an overflow of their own).
  auto grow = [&](int64_t natural, int64_t n) {
    const int64_t cap = int64_t(1) << 40;
    return natural > cap / ext(n) ? cap : natural * ext(n);
  };
  int64_t natural = 1;
  for (int i = nd - 1; i >= 0; --i) {
    in.dims[i].is = pick_stride(r, natural);
    in.dims[i].os = r.u8() < 170 ? in.dims[i].is : pick_stride(r, natural);
    natural = grow(natural, in.dims[i].n);
  }
  for (int i = nh - 1; i >= 0; --i) {
    in.hdims[i].is = pick_stride(r, natural);
    in.hdims[i].os = r.u8() < 170 ? in.hdims[i].is : pick_stride(r, natural);
    natural = grow(natural, in.hdims[i].n);
  }
  const uint8_t pl = r.u8();
  in.place = static_cast<Place>(pl % kPlaces);
  in.misalign = (pl >> 2) & 1;
  const uint8_t sg = r.u8();
  in.sign = sg < 110 ? FFTW_FORWARD : sg < 220 ? FFTW_BACKWARD : static_cast<int>(r.u32());
  for (int i = 0; i < kMaxRank; ++i) {
    const uint8_t k = r.u8();
    static const int odd_kinds[] = {11, -1, 42, INT_MAX};
    in.kinds[i] = k < 240 ? k % 11 : odd_kinds[k % 4];
  }
  const uint8_t fl = r.u8();
  static const unsigned rigor[] = {FFTW_ESTIMATE, FFTW_MEASURE, FFTW_PATIENT, FFTW_EXHAUSTIVE};  // MEASURE is 0
  in.flags = rigor[fl & 3];
  static const unsigned documented[] = {FFTW_DESTROY_INPUT, FFTW_UNALIGNED, FFTW_CONSERVE_MEMORY,
                                        FFTW_PRESERVE_INPUT, FFTW_WISDOM_ONLY};
  for (int b = 0; b < 5; ++b)
    if (fl & (4 << b)) in.flags |= documented[b];
  if (fl & 0x80) {
    // FFTW's undocumented planner bits (1<<9 .. 1<<20), and bits it has no
    // meaning for at all.
    in.flags |= r.u32() & 0x001ffe00u;
    if (r.u8() & 1) in.flags |= r.u32() & 0xffe00000u;
  }
  return in;
}

// ---- the real FFTW, in a namespace of its own --------------------------------
// Both sides through the table gpufftw's fallback keeps of the real FFTW
// (fallback/real_fftw.h): `ours` filled with gpufftw's own functions,
// compiled in, the real one looked up in the real library.
template <class R>
using Api = gpufftw::RealFftw<R>;
template <class R>
using Traits = gpufftw::PrecisionTraits<R>;

template <class R>
Api<R> ours();
#define FUZZ_OURS_FIELD(P, name) a.name = ::P##name;
#define FUZZ_OURS(R_, P)                            \
  template <>                                       \
  Api<R_> ours<R_>() {                              \
    Api<R_> a;                                      \
    GPUFFTW_REAL_CORE_FUNCS(FUZZ_OURS_FIELD, P)     \
    return a;                                       \
  }
FUZZ_OURS(double, fftw_)
FUZZ_OURS(float, fftwf_)
#undef FUZZ_OURS
#undef FUZZ_OURS_FIELD

[[noreturn]] void fail(const std::string &what, const Input &in) {
  std::fprintf(stderr, "FUZZ MISMATCH: %s\n  input: %s\n", what.c_str(), in.describe().c_str());
  std::fflush(stderr);
  abort();
}

void *real_handle(const char *lib) {
  static void *first = nullptr;
  static Lmid_t lmid = LM_ID_NEWLM;
  const char *dir = getenv("GPUFFTW_FFTW_DIR");
  const std::string path = std::string(dir && *dir ? dir : GPUFFTW_FFTW_LIBDIR) + "/" + lib;
  void *h = dlmopen(lmid, path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    std::fprintf(stderr, "planner_fuzz: cannot open the real FFTW %s: %s\n", path.c_str(), dlerror());
    abort();
  }
  if (!first) {
    first = h;
    dlinfo(h, RTLD_DI_LMID, &lmid);
  }
  return h;
}

template <class R>
Api<R> load_real() {
  Api<R> a;
  void *h = real_handle(Traits<R>::lib);
  auto get = [&](auto *slot, const char *name) {
    using T = std::remove_reference_t<decltype(*slot)>;
    *slot = reinterpret_cast<T>(dlsym(h, (std::string(Traits<R>::prefix) + name).c_str()));
    if (!*slot) {
      std::fprintf(stderr, "planner_fuzz: the real FFTW lacks %s%s\n", Traits<R>::prefix, name);
      abort();
    }
  };
#define FUZZ_GET(P, name) get(&a.name, #name);
  GPUFFTW_REAL_CORE_FUNCS(FUZZ_GET, )
#undef FUZZ_GET
  return a;
}

// ---- layouts ------------------------------------------------------------------
// Everything in reals. The input and output sides of each kind: how many
// reals one element takes (2: interleaved complex), the unit of its strides,
// whether it has a second (imaginary) array, and whether its last dimension
// holds n/2+1 elements (the complex side of r2c/c2r).
struct Side {
  int unit;       // reals per stride step
  int width;      // reals per element
  bool two;       // split: a second array, same offsets
  bool half;      // last dim has n/2+1 elements
};
Side in_side(Kind k) {
  switch (k) {
    case C2C: return {2, 2, false, false};
    case SPLIT_C2C: return {1, 1, true, false};
    case R2C: case SPLIT_R2C: case R2R: return {1, 1, false, false};
    case C2R: return {2, 2, false, true};
    case SPLIT_C2R: return {1, 1, true, true};
    default: return {1, 1, false, false};
  }
}
Side out_side(Kind k) {
  switch (k) {
    case C2C: return {2, 2, false, false};
    case SPLIT_C2C: return {1, 1, true, false};
    case R2C: return {2, 2, false, true};
    case SPLIT_R2C: return {1, 1, true, true};
    default: return {1, 1, false, false};
  }
}

// Offsets (in reals) of every element of one side, or false where there
// are more than `cap` of them.
bool offsets(const Input &in, bool input, const Side &s, size_t cap, std::vector<int64_t> *out) {
  std::vector<std::pair<int64_t, int64_t>> loops;  // (count, stride in reals)
  for (int i = 0; i < in.hrank; ++i) loops.push_back({in.hdims[i].n, (input ? in.hdims[i].is : in.hdims[i].os) * s.unit});
  for (int i = 0; i < in.rank; ++i) {
    int64_t n = in.dims[i].n;
    if (s.half && i == in.rank - 1) n = n / 2 + 1;
    loops.push_back({n, (input ? in.dims[i].is : in.dims[i].os) * s.unit});
  }
  size_t total = 1;
  for (auto &l : loops)
    if (l.first == 0) {
      out->clear();
      return true;
    }
  for (auto &l : loops) {
    if (l.first < 0 || static_cast<size_t>(l.first) > cap) return false;
    total *= static_cast<size_t>(l.first);
    if (total > cap) return false;
  }
  out->assign(1, 0);
  for (auto &l : loops) {
    std::vector<int64_t> next;
    next.reserve(out->size() * l.first);
    for (int64_t base : *out)
      for (int64_t j = 0; j < l.first; ++j) next.push_back(base + j * l.second);
    out->swap(next);
  }
  return true;
}

bool injective(std::vector<int64_t> v, int width) {
  std::sort(v.begin(), v.end());
  for (size_t i = 1; i < v.size(); ++i)
    if (v[i] - v[i - 1] < width) return false;
  return true;
}

// Planning only (FFTW_ESTIMATE, arrays never touched) is all that is asked
// where the problem is too large to execute here.
constexpr size_t kExecuteCap = size_t(1) << 15;  // elements a side
constexpr int64_t kSpanCap = int64_t(1) << 20;    // reals an array
constexpr int64_t kPlanCap = int64_t(1) << 20;    // points the real FFTW is asked to plan

// Whether the real FFTW's answer is defined behaviour (else it is not
// asked, and gpufftw's answer is checked to be harmless only).
//  - an r2r kind outside the enum: FFTW's map_r2r_kind takes it for R2HC
//    after an assertion compiled out (A(0)): gpufftw plans it as R2HC too
//    (checked against the real FFTW asked with R2HC instead);
//  - sizes the real FFTW would allocate or overflow on: not asked.
struct Verdict {
  bool kosher;      // FFTW's guru64 checks pass
  bool affordable;  // and the real FFTW can plan it here
};
Verdict judge(const Input &in) {
  if (in.rank < 0 || in.rank == INT_MAX || in.hrank < 0) return {false, true};
  for (int i = 0; i < in.rank; ++i)
    if (in.dims[i].n <= 0) return {false, true};
  if (in.hrank != INT_MAX)
    for (int i = 0; i < in.hrank; ++i)
      if (in.hdims[i].n < 0) return {false, true};
  bool affordable = true;
  int64_t points = 1;
  auto times = [&](int64_t n) {
    if (n > kPlanCap || (points *= n) > kPlanCap) affordable = false;
  };
  for (int i = 0; i < in.rank && affordable; ++i) times(in.dims[i].n);
  if (in.hrank != INT_MAX)
    for (int i = 0; i < in.hrank && affordable; ++i) times(std::max<int64_t>(in.hdims[i].n, 1));
  // Strides whose products overflow 64 bits are undefined behaviour in the
  // real FFTW's tensor arithmetic: not asked.
  for (int i = 0; i < in.rank; ++i)
    for (int64_t s : {in.dims[i].is, in.dims[i].os})
      if (s > (int64_t(1) << 42) || s < -(int64_t(1) << 42)) affordable = false;
  if (in.hrank != INT_MAX)
    for (int i = 0; i < in.hrank; ++i)
      for (int64_t s : {in.hdims[i].is, in.hdims[i].os})
        if (s > (int64_t(1) << 42) || s < -(int64_t(1) << 42)) affordable = false;
  return {true, affordable};
}

// An array whose first element is 64-byte aligned, so that arrays made
// alike have the same alignment (the new-array execute's rule).
template <class R>
struct Buf {
  std::vector<R> store;
  R *p = nullptr;
  size_t n = 0;
  R *data() { return p; }
  void resize(size_t count) {
    store.assign(count + 64 / sizeof(R), R(0));
    const uintptr_t at = reinterpret_cast<uintptr_t>(store.data());
    p = store.data() + ((64 - at % 64) % 64) / sizeof(R);
    n = count;
  }
  R *begin() { return p; }
  R *end() { return p + n; }
  const R *begin() const { return p; }
  const R *end() const { return p + n; }
  bool operator==(const Buf &o) const { return n == o.n && std::equal(begin(), end(), o.begin()); }
};

// One side's arrays for one implementation.
template <class R>
struct Arrays {
  Buf<R> a, b, c, d;  // in (re), in (im), out (re), out (im)
  R *in0 = nullptr, *in1 = nullptr, *out0 = nullptr, *out1 = nullptr;
};

template <class R>
struct Runner {
  Api<R> real = load_real<R>();
  Api<R> ours = ::ours<R>();

  template <class A>
  typename Traits<R>::plan plan(const A &api, const Input &in, unsigned flags, R *i0, R *i1, R *o0, R *o1,
                          const fftw_r2r_kind *kinds) {
    using C = typename Traits<R>::complex;
    const int hrank = in.hrank;
    switch (in.kind) {
      case C2C:
        return api.plan_guru64_dft(in.rank, in.dims, hrank, in.hdims, reinterpret_cast<C *>(i0),
                                   reinterpret_cast<C *>(o0), in.sign, flags);
      case SPLIT_C2C: return api.plan_guru64_split_dft(in.rank, in.dims, hrank, in.hdims, i0, i1, o0, o1, flags);
      case R2C: return api.plan_guru64_dft_r2c(in.rank, in.dims, hrank, in.hdims, i0, reinterpret_cast<C *>(o0), flags);
      case SPLIT_R2C: return api.plan_guru64_split_dft_r2c(in.rank, in.dims, hrank, in.hdims, i0, o0, o1, flags);
      case C2R: return api.plan_guru64_dft_c2r(in.rank, in.dims, hrank, in.hdims, reinterpret_cast<C *>(i0), o0, flags);
      case SPLIT_C2R: return api.plan_guru64_split_dft_c2r(in.rank, in.dims, hrank, in.hdims, i0, i1, o0, flags);
      case R2R: return api.plan_guru64_r2r(in.rank, in.dims, hrank, in.hdims, i0, o0, kinds, flags);
      default: return nullptr;
    }
  }

  template <class A>
  void execute_new(const A &api, const Input &in, typename Traits<R>::plan p, R *i0, R *i1, R *o0, R *o1) {
    using C = typename Traits<R>::complex;
    switch (in.kind) {
      case C2C: api.execute_dft(p, reinterpret_cast<C *>(i0), reinterpret_cast<C *>(o0)); break;
      case SPLIT_C2C: api.execute_split_dft(p, i0, i1, o0, o1); break;
      case R2C: api.execute_dft_r2c(p, i0, reinterpret_cast<C *>(o0)); break;
      case SPLIT_R2C: api.execute_split_dft_r2c(p, i0, o0, o1); break;
      case C2R: api.execute_dft_c2r(p, reinterpret_cast<C *>(i0), o0); break;
      case SPLIT_C2R: api.execute_split_dft_c2r(p, i0, i1, o0); break;
      case R2R: api.execute_r2r(p, i0, o0); break;
      default: break;
    }
  }

  // Arrays covering [lo, hi) reals around each base pointer, filled from
  // `seed` the same way for every implementation.
  struct Geometry {
    bool executable = false;
    int64_t in_lo = 0, in_hi = 1, out_lo = 0, out_hi = 1;
    std::vector<int64_t> in_off, out_off;
  };

  void setup(const Input &in, const Geometry &g, uint64_t seed, Arrays<R> *x) {
    const Side si = in_side(in.kind), so = out_side(in.kind);
    // One pool per side; in place and overlapping arrays share the input's.
    // A split side's imaginary array lies one region after its real one in
    // the same pool: arrays made alike for the new-array execute keep
    // ii - ri and io - ro, as FFTW requires of them.
    const bool shared = in.place != OUT_OF_PLACE;
    const int64_t shift = in.place == OVERLAPPING ? 1 : 0;
    int64_t lo = g.in_lo, hi = g.in_hi;
    if (shared) lo = std::min(lo, g.out_lo + shift), hi = std::max(hi, g.out_hi + shift);
    const int64_t pad = 8 + in.misalign;
    auto fill = [&](Buf<R> &v, int64_t n, uint64_t salt) {
      v.resize(static_cast<size_t>(n));
      std::mt19937_64 rng(seed ^ salt);
      std::uniform_real_distribution<double> u(-0.5, 0.5);
      for (R &e : v) e = static_cast<R>(u(rng));
    };
    const bool two = si.two || so.two;
    const int64_t in_region = hi - lo + 2 * pad, out_region = g.out_hi - g.out_lo + 2 * pad;
    fill(x->a, in_region * (two ? 2 : 1), 1);
    x->in0 = x->a.data() + (pad - lo);
    if (two) x->in1 = x->in0 + in_region;
    if (shared) {
      x->out0 = x->in0 + shift;
      x->out1 = two ? x->in1 + shift : nullptr;
      if (in.place == HALF_IN_PLACE && so.two) {
        fill(x->d, out_region, 4);
        x->out1 = x->d.data() + (pad - g.out_lo);
      }
    } else {
      fill(x->c, out_region * (so.two ? 2 : 1), 3);
      x->out0 = x->c.data() + (pad - g.out_lo);
      if (so.two) x->out1 = x->out0 + out_region;
    }
    if (!si.two) x->in1 = nullptr;
    if (!so.two && !(shared && two)) x->out1 = nullptr;
    // 64-byte aligned (Buf), then misaligned on purpose by `misalign` reals.
  }

  long real_crashes = 0;

  // The crashes seen all had a negative stride or were in place with
  // strides that differ between input and output (unbounded recursion: split
  // c2r n=12 in place, howmany {2, is 12, os 30}), or arrays spanning 2^31
  // reals and more (an allocation the size of the span fails: "fftw:
  // alloc.c:29: assertion failed: p", an abort); only such inputs pay for
  // the child process.
  static bool risky(const Input &in) {
    long double span = 0;
    const bool shared = in.place != OUT_OF_PLACE;
    auto dim = [&](const fftw_iodim64 &d) {
      if (d.is < 0 || d.os < 0 || (shared && d.is != d.os)) return true;
      span += static_cast<long double>(std::max(d.is, d.os)) * static_cast<long double>(std::max<int64_t>(d.n - 1, 0));
      return false;
    };
    for (int i = 0; i < in.rank; ++i)
      if (dim(in.dims[i])) return true;
    if (in.hrank != INT_MAX)
      for (int i = 0; i < in.hrank; ++i)
        if (dim(in.hdims[i])) return true;
    return span > (1 << 24);
  }

  bool real_survives(const Input &in, unsigned flags, const Arrays<R> &x, const fftw_r2r_kind *kinds) {
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) return true;
    if (pid == 0) {
      for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) signal(sig, SIG_DFL);  // no handler's report
      const int null = open("/dev/null", O_WRONLY);
      if (null >= 0) dup2(null, 2);  // its crash report is not the fuzzer's
      auto q = plan(real, in, flags, x.in0, x.in1, x.out0, x.out1, kinds);
      if (q) real.destroy_plan(q);
      _exit(0);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
      if (errno != EINTR) return true;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
    static bool said = false;
    if (!said) {
      said = true;
      std::fprintf(stderr, "planner_fuzz: the real FFTW itself crashes on %s (status %d): not compared\n",
                   in.describe().c_str(), status);
    }
    return false;
  }

  static bool same(const Arrays<R> &x, const Arrays<R> &y) {
    return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
  }

  // Outputs that are not finite, of one implementation (for the message).
  long non_finite(const Input &in, const Geometry &g, const Arrays<R> &x) {
    const Side so = out_side(in.kind);
    long count = 0;
    for (int64_t o : g.out_off)
      for (int w = 0; w < so.width; ++w) {
        count += !std::isfinite(x.out0[o + w]);
        if (so.two) count += !std::isfinite(x.out1[o + w]);
      }
    return count;
  }

  // Where the output array is the input's (in place, or a split r2c's real
  // output on its input), whether each transform's outputs land on no input
  // but its own: where they land on another transform's inputs the result
  // depends on the order the transforms run in, which neither FFTW nor
  // gpufftw defines. `offsets` lists a transform's elements together.
  static bool transforms_apart(const Input &in, const Geometry &g, int in_width, int out_width) {
    size_t h = 1;
    for (int i = 0; i < in.hrank; ++i) h *= static_cast<size_t>(in.hdims[i].n);
    if (h <= 1 || g.in_off.empty() || g.out_off.empty()) return true;
    const size_t per_in = g.in_off.size() / h, per_out = g.out_off.size() / h;
    std::vector<std::pair<int64_t, size_t>> inputs;  // (real's position, its transform)
    inputs.reserve(g.in_off.size() * in_width);
    for (size_t t = 0; t < h; ++t)
      for (size_t k = 0; k < per_in; ++k)
        for (int w = 0; w < in_width; ++w) inputs.push_back({g.in_off[t * per_in + k] + w, t});
    std::sort(inputs.begin(), inputs.end());
    for (size_t t = 0; t < h; ++t)
      for (size_t k = 0; k < per_out; ++k)
        for (int w = 0; w < out_width; ++w) {
          const int64_t pos = g.out_off[t * per_out + k] + w;
          for (auto it = std::lower_bound(inputs.begin(), inputs.end(), std::make_pair(pos, size_t(0)));
               it != inputs.end() && it->first == pos; ++it)
            if (it->second != t) return false;
        }
    return true;
  }

  double error(const Input &in, const Geometry &g, const Arrays<R> &got, const Arrays<R> &want) {
    const Side so = out_side(in.kind);
    long double num = 0, den = 0;
    auto add = [&](const R *p, const R *q) {
      for (int64_t o : g.out_off)
        for (int w = 0; w < so.width; ++w) {
          const long double a = p[o + w], b = q[o + w];
          num += (a - b) * (a - b);
          den += b * b;
        }
    };
    add(got.out0, want.out0);
    if (so.two) add(got.out1, want.out1);
    if (den == 0) return num == 0 ? 0 : INFINITY;
    return static_cast<double>(std::sqrt(num / den));
  }

  void run(const Input &in, uint64_t seed) {
    const Verdict v = judge(in);
    if (!v.affordable) return;  // the GPU machine's (sizes past what the real FFTW can plan here)
    fftw_r2r_kind kinds[kMaxRank], oracle_kinds[kMaxRank];
    for (int i = 0; i < kMaxRank; ++i) {
      memcpy(&kinds[i], &in.kinds[i], sizeof(int));  // as a C caller passes it
      const int k = in.kinds[i] >= FFTW_R2HC && in.kinds[i] <= FFTW_RODFT11 ? in.kinds[i] : FFTW_R2HC;
      oracle_kinds[i] = static_cast<fftw_r2r_kind>(k);
    }
    // Where the arrays can be made, the problem executed.
    Geometry g;
    const Side si = in_side(in.kind), so = out_side(in.kind);
    bool small = v.kosher && in.hrank != INT_MAX && offsets(in, true, si, kExecuteCap, &g.in_off) &&
                 offsets(in, false, so, kExecuteCap, &g.out_off);
    if (small) {
      auto span = [](const std::vector<int64_t> &o, int width, int64_t *lo, int64_t *hi) {
        *lo = 0, *hi = 1;
        if (o.empty()) return;
        *lo = *std::min_element(o.begin(), o.end());
        *hi = *std::max_element(o.begin(), o.end()) + width;
      };
      span(g.in_off, si.width, &g.in_lo, &g.in_hi);
      span(g.out_off, so.width, &g.out_lo, &g.out_hi);
      small = g.in_hi - g.in_lo <= kSpanCap && g.out_hi - g.out_lo <= kSpanCap;
    }
    // Too large to hold: planned with FFTW_ESTIMATE only, on arrays that
    // are never touched (FFTW's contract, and gpufftw's).
    // (FFTW_MEASURE is 0: a plan measures unless FFTW_ESTIMATE is set.)
    unsigned flags = in.flags;
    const auto just_estimate = [&] { flags = (flags & ~unsigned(FFTW_PATIENT | FFTW_EXHAUSTIVE)) | FFTW_ESTIMATE; };
    if (!small) {
      g = Geometry{};
      just_estimate();
    }
    // Measuring beyond small sizes costs seconds: the fuzzer's time, not
    // the planner's inputs.
    if (small && g.out_off.size() > 4096) just_estimate();
    Input used = in;
    used.flags = flags;
    Arrays<R> mine, theirs;
    setup(used, g, seed, &mine);
    setup(used, g, seed, &theirs);
    // FFTW_WISDOM_ONLY is answered from wisdom: both start from none.
    ours.forget_wisdom();
    real.forget_wisdom();

    // The real FFTW 3.3.10 itself crashes on some valid problems (its
    // planner recurses without end on r2c rank 3, dims {4,18,-6} {3,6,6}
    // {6,1,1}, FFTW_ESTIMATE, and on split c2r n=12 in place with howmany
    // {2, 12, 30}: segfaults in a plain C program too; it aborts on
    // allocations as large as arrays with strides of 2^31). gpufftw
    // forwards such a problem to it as the program's own FFTW would get it,
    // so there is no answer to compare: asked first in a child process, and
    // where that dies, not asked of either.
    if (v.kosher && risky(in) && !real_survives(used, flags, theirs, oracle_kinds)) {
      ++real_crashes;
      return;
    }
    auto p = plan(ours, used, flags, mine.in0, mine.in1, mine.out0, mine.out1, kinds);
    const bool estimate = flags & FFTW_ESTIMATE;
    if (estimate && !same(mine, theirs)) fail("gpufftw's FFTW_ESTIMATE planning wrote to the arrays", used);
    if (!v.kosher) {
      if (p) fail("gpufftw planned what the real FFTW refuses before planning (not a valid problem)", used);
      return;
    }
    auto q = plan(real, used, flags, theirs.in0, theirs.in1, theirs.out0, theirs.out1, oracle_kinds);
    if (!p != !q)
      fail(std::string("plan NULL-ness differs: gpufftw ") + (p ? "planned" : "NULL") + ", the real FFTW " +
               (q ? "planned" : "NULL"),
           used);
    if (!p) return;
    // A transform that may destroy its input (c2r unless
    // FFTW_PRESERVE_INPUT, anything with FFTW_DESTROY_INPUT) has no one
    // result where input elements overlap: it works in them (both
    // implementations gave the same 9,357 NaNs of 12,852 outputs on such
    // an input, split c2r rank 3 with overlapping input strides).
    const bool may_destroy = ((in.kind == C2R || in.kind == SPLIT_C2R) && !(flags & FFTW_PRESERVE_INPUT)) ||
                             (flags & FFTW_DESTROY_INPUT);
    const bool defined_result = small && injective(g.out_off, so.width) && in.place != OVERLAPPING &&
                                (!may_destroy || injective(g.in_off, si.width)) &&
                                (in.place == OUT_OF_PLACE || transforms_apart(in, g, si.width, so.width));
    // c2r of an input that is not Hermitian: algorithms may differ; the
    // same estimated plan on the CPU does not.
    const bool hermitian_free = in.kind == C2R || in.kind == SPLIT_C2R;
    const bool same_algorithm = estimate && std::string(gpufftw_plan_where(p)) == "cpu";
    if (defined_result && (!hermitian_free || same_algorithm)) {
      // Fresh inputs after any measuring.
      Arrays<R> fresh;
      setup(used, g, seed * 31 + 7, &fresh);
      auto load = [&](Arrays<R> &x) {
        std::copy(fresh.a.begin(), fresh.a.end(), x.a.begin());
        std::copy(fresh.b.begin(), fresh.b.end(), x.b.begin());
        std::copy(fresh.c.begin(), fresh.c.end(), x.c.begin());
        std::copy(fresh.d.begin(), fresh.d.end(), x.d.begin());
      };
      load(mine);
      load(theirs);
      ours.execute(p);
      real.execute(q);
      double n = 1;
      for (int i = 0; i < in.rank; ++i) n *= static_cast<double>(in.dims[i].n);
      const double l = n > 1 ? std::log2(n) : 1.0;
      const double tol = 2 * 5.0 * Traits<R>::epsilon * std::sqrt(std::max(1.0, l));
      const double err = error(used, g, mine, theirs);
      if (!(err <= tol))
        fail("results differ: relative error " + std::to_string(err) + " over " + std::to_string(tol) + " on " +
                 gpufftw_plan_where(p) + "; outputs not finite: gpufftw " + std::to_string(non_finite(used, g, mine)) +
                 ", the real FFTW " + std::to_string(non_finite(used, g, theirs)) + " of " +
                 std::to_string(g.out_off.size()),
             used);
      // The plan again, through the new-array execute, on copies of the
      // same data at the same alignment: the same result.
      if (in.place == OUT_OF_PLACE || in.place == IN_PLACE) {
        Arrays<R> copy;
        setup(used, g, seed * 31 + 7, &copy);
        execute_new(ours, used, p, copy.in0, copy.in1, copy.out0, copy.out1);
        const double err2 = error(used, g, copy, theirs);
        if (!(err2 <= tol))
          fail("new-array execute differs: relative error " + std::to_string(err2) + " on " +
                   gpufftw_plan_where(p),
               used);
      }
    }
    ours.destroy_plan(p);
    real.destroy_plan(q);
  }
};

Runner<double> *runner_d;
Runner<float> *runner_f;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // A store of dispatch choices of this run alone.
  if (!getenv("GPUFFTW_CACHE_DIR")) {
    static char dir[] = "/tmp/gpufftw-fuzz-XXXXXX";
    if (mkdtemp(dir)) setenv("GPUFFTW_CACHE_DIR", dir, 1);
  }
  runner_d = new Runner<double>;
  runner_f = new Runner<float>;
  // Measuring is bounded: the planner's time is not the subject.
  for (auto *set : {runner_d->real.set_timelimit, runner_d->ours.set_timelimit}) set(0.02);
  for (auto *set : {runner_f->real.set_timelimit, runner_f->ours.set_timelimit}) set(0.02);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const Input in = decode(data, size);
  static const bool verbose = getenv("GPUFFTW_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "planner_fuzz: %s\n", in.describe().c_str());
  uint64_t seed = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) seed = (seed ^ data[i]) * 1099511628211ull;
  if (in.f64)
    runner_d->run(in, seed);
  else
    runner_f->run(in, seed);
  return 0;
}
