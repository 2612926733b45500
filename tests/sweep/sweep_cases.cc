#include "sweep_cases.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <stdexcept>

namespace sweep {

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kC2C: return "c2c";
    case Kind::kR2C: return "r2c";
    case Kind::kC2R: return "c2r";
    case Kind::kR2R: return "r2r";
    case Kind::kSplitC2C: return "splitc2c";
    case Kind::kSplitR2C: return "splitr2c";
    case Kind::kSplitC2R: return "splitc2r";
  }
  return "?";
}

const char* api_name(Api a) {
  switch (a) {
    case Api::kBasic: return "basic";
    case Api::kBasicNd: return "basicnd";
    case Api::kMany: return "many";
    case Api::kGuru: return "guru";
    case Api::kGuru64: return "guru64";
  }
  return "?";
}

const char* flags_name(Flags f) {
  switch (f) {
    case Flags::kEstimate: return "estimate";
    case Flags::kMeasure: return "measure";
    case Flags::kEstimatePreserve: return "preserve";
    case Flags::kEstimateUnaligned: return "unaligned";
  }
  return "?";
}

const char* precision_name(Precision p) {
  return p == Precision::kF32 ? "f32" : "f64";
}

bool is_split(Kind k) {
  return k == Kind::kSplitC2C || k == Kind::kSplitR2C || k == Kind::kSplitC2R;
}

bool is_guru(Api a) { return a == Api::kGuru || a == Api::kGuru64; }

bool Case::input_must_be_preserved() const {
  if (inplace) return false;
  if (flags == Flags::kEstimatePreserve) return true;
  if (input_is_half()) return false;  // c2r: FFTW_DESTROY_INPUT by default
  if (kind == Kind::kR2R &&
      std::find(r2r.begin(), r2r.end(), ref::R2r::kHC2R) != r2r.end())
    return false;  // hc2r: FFTW_DESTROY_INPUT by default (manual)
  return true;
}

bool Case::fftw_has_no_plan() const {
  if (!input_is_half() || inplace || flags != Flags::kEstimatePreserve)
    return false;
  // Observed rule: NULL as soon as a dimension other than the last has
  // n > 1 (FFTW's c2r does those dimensions in place in the input first).
  for (std::size_t d = 0; d + 1 < n.size(); ++d)
    if (n[d] > 1) return true;
  return false;
}

namespace {

// ---------------------------------------------------------------- geometry

// Geometry of the basic and advanced interfaces, as FFTW derives it
// (api/plan-many-dft*.c, rdft2-pad.c): physical dims = embed or n, where
// a NULL complex-side embed has n/2+1 in the last dim and a NULL real-side
// embed of an in-place r2c/c2r has the padded 2*(n/2+1).
Geometry many_geometry(const Case& c, bool with_howmany) {
  const ManyParams& m = c.many;
  const std::size_t r = c.n.size();
  auto phys = [&](bool input) {
    const std::vector<int>& embed = input ? m.inembed : m.onembed;
    std::vector<Index> p(c.n.begin(), c.n.end());
    if (!embed.empty()) {
      p.assign(embed.begin(), embed.end());
    } else if (r > 0) {
      bool complex_side = input ? c.input_is_half() : c.output_is_half();
      bool real_side = input ? c.output_is_half() : c.input_is_half();
      if (complex_side) p.back() = c.n.back() / 2 + 1;
      if (real_side && c.inplace) p.back() = 2 * (c.n.back() / 2 + 1);
    }
    return p;
  };
  std::vector<Index> is = row_major_strides(phys(true), m.istride);
  std::vector<Index> os = row_major_strides(phys(false), m.ostride);
  Geometry g;
  for (std::size_t d = 0; d < r; ++d) g.dims.push_back({c.n[d], is[d], os[d]});
  if (with_howmany) g.howmany.push_back({m.howmany, m.idist, m.odist});
  return g;
}

MemorySpec memory_for(const Case& c) {
  const Index ei = extent(c.geo, true, c.input_is_half());
  const Index eo = extent(c.geo, false, c.output_is_half());
  MemorySpec m;
  auto real_view = [](int buf, Index off) {
    ArrayView v;
    v.re = {buf, off};
    return v;
  };
  auto ileave_view = [](int buf, Index scale) {  // complex, im = re + 1
    ArrayView v;
    v.complex = true;
    v.re = {buf, 0};
    v.im = {buf, 1};
    v.scale = scale;
    return v;
  };
  auto split_view = [](int buf, Index im_off) {  // re at 0, im at im_off
    ArrayView v;
    v.complex = true;
    v.re = {buf, 0};
    v.im = {buf, im_off};
    return v;
  };
  switch (c.kind) {
    case Kind::kC2C:
      if (c.inplace) {
        m.buffer_scalars = {2 * std::max(ei, eo)};
        m.in = m.out = ileave_view(0, 2);
      } else {
        m.buffer_scalars = {2 * ei, 2 * eo};
        m.in = ileave_view(0, 2);
        m.out = ileave_view(1, 2);
      }
      break;
    case Kind::kR2C:
      if (c.inplace) {
        m.buffer_scalars = {std::max(ei, 2 * eo)};
        m.in = real_view(0, 0);
        m.out = ileave_view(0, 2);
      } else {
        m.buffer_scalars = {ei, 2 * eo};
        m.in = real_view(0, 0);
        m.out = ileave_view(1, 2);
      }
      break;
    case Kind::kC2R:
      if (c.inplace) {
        m.buffer_scalars = {std::max(2 * ei, eo)};
        m.in = ileave_view(0, 2);
        m.out = real_view(0, 0);
      } else {
        m.buffer_scalars = {2 * ei, eo};
        m.in = ileave_view(0, 2);
        m.out = real_view(1, 0);
      }
      break;
    case Kind::kR2R:
      if (c.inplace) {
        m.buffer_scalars = {std::max(ei, eo)};
        m.in = m.out = real_view(0, 0);
      } else {
        m.buffer_scalars = {ei, eo};
        m.in = real_view(0, 0);
        m.out = real_view(1, 0);
      }
      break;
    // Split arrays: the real and imaginary parts of one side live in one
    // allocation, im at a fixed distance after re, because new-array execute
    // requires ii - ri and io - ro to be the same as when planning (FFTW
    // manual, "New-array Execute Functions").  The distance has a small odd
    // or even pad so the im array's alignment varies.
    case Kind::kSplitC2C:
      if (c.split_interleaved) {  // strides already doubled
        if (c.inplace) {
          m.buffer_scalars = {std::max(ei, eo) + 1};
          m.in = m.out = ileave_view(0, 1);
        } else {
          m.buffer_scalars = {ei + 1, eo + 1};
          m.in = ileave_view(0, 1);
          m.out = ileave_view(1, 1);
        }
      } else if (c.inplace) {
        Index e = std::max(ei, eo) + c.split_pad;
        m.buffer_scalars = {2 * e};
        m.in = m.out = split_view(0, e);
      } else {
        m.buffer_scalars = {2 * (ei + c.split_pad), 2 * (eo + c.split_pad)};
        m.in = split_view(0, ei + c.split_pad);
        m.out = split_view(1, eo + c.split_pad);
      }
      break;
    case Kind::kSplitR2C:
      if (c.inplace) {  // in == ro
        Index e = std::max(ei, eo) + c.split_pad;
        m.buffer_scalars = {e + eo};
        m.in = real_view(0, 0);
        m.out = split_view(0, e);
      } else if (c.split_interleaved) {
        m.buffer_scalars = {ei, eo + 1};
        m.in = real_view(0, 0);
        m.out = ileave_view(1, 1);
      } else {
        m.buffer_scalars = {ei, 2 * (eo + c.split_pad)};
        m.in = real_view(0, 0);
        m.out = split_view(1, eo + c.split_pad);
      }
      break;
    case Kind::kSplitC2R:
      if (c.inplace) {  // out == ri
        Index e = std::max(ei, eo) + c.split_pad;
        m.buffer_scalars = {e + ei};
        m.in = split_view(0, e);
        m.out = real_view(0, 0);
      } else if (c.split_interleaved) {
        m.buffer_scalars = {ei + 1, eo};
        m.in = ileave_view(0, 1);
        m.out = real_view(1, 0);
      } else {
        m.buffer_scalars = {2 * (ei + c.split_pad), eo};
        m.in = split_view(0, ei + c.split_pad);
        m.out = real_view(1, 0);
      }
      break;
  }
  return m;
}

// ---------------------------------------------------------------- generator

struct Variant {
  Kind kind;
  int sign;
  int r2r_kind;  // index into ref::R2r, -1 if none
};

const std::vector<int> kSizes1 = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                  12, 13, 15, 16, 17, 19, 20, 23, 24, 25, 27,
                                  29, 31, 32, 36, 37, 45, 48, 49, 53, 60, 61, 64};
const std::vector<int> kSizes2 = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
const std::vector<int> kSizes3 = {2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 1};
const std::vector<int> kSizes4 = {1, 2, 3, 4, 5, 6};

std::vector<int> pick_sizes(Rng& rng, int rank, const std::vector<ref::R2r>& kinds) {
  const std::vector<int>& pool =
      rank == 1 ? kSizes1 : rank == 2 ? kSizes2 : rank == 3 ? kSizes3 : kSizes4;
  const Index cap = rank == 1 ? 64 : rank == 2 ? 192 : rank == 3 ? 360 : 300;
  for (;;) {
    std::vector<int> n;
    Index p = 1;
    for (int d = 0; d < rank; ++d) {
      int v = pick(rng, pool);
      if (!kinds.empty() && v < ref::r2r_min_n(kinds[static_cast<std::size_t>(d)])) v = 2;
      n.push_back(v);
      p *= v;
    }
    if (p <= cap) return n;
  }
}

// howmany dims for the guru interfaces.
std::vector<Index> pick_howmany(Rng& rng, int hrank) {
  std::vector<Index> h;
  for (int i = 0; i < hrank; ++i) h.push_back(1 + rand_below(rng, 3));
  return h;
}

// Guru geometry: non-unit and permuted strides, howmany dims interleaved with
// transform dims.
Geometry guru_geometry(Rng& rng, const Case& c, int hrank) {
  const std::size_t r = c.n.size();
  std::vector<Index> hcounts = pick_howmany(rng, hrank);
  std::vector<Index> nreal(c.n.begin(), c.n.end());
  std::vector<Index> nhalf = nreal;
  if (r > 0) nhalf.back() = nhalf.back() / 2 + 1;
  auto join = [&](const std::vector<Index>& t) {
    std::vector<Index> all = t;
    all.insert(all.end(), hcounts.begin(), hcounts.end());
    return all;
  };
  const bool half_in = c.input_is_half(), half_out = c.output_is_half();
  std::vector<Index> is, os;
  static const std::vector<Index> kUnits = {1, 1, 2, 3};
  if (!c.inplace) {
    is = random_strides(rng, join(half_in ? nhalf : nreal), pick(rng, kUnits));
    os = random_strides(rng, join(half_out ? nhalf : nreal), pick(rng, kUnits));
  } else if ((c.kind == Kind::kR2C || c.kind == Kind::kC2R) && r > 0) {
    // Interleaved in-place r2c/c2r: each complex row of n/2+1 elements (stride
    // s) holds its real row (same stride s, in reals); everything else is laid
    // out over whole rows, real strides twice the complex ones.
    Index s = 1 + rand_below(rng, 2);
    Index row = s * nhalf.back() + rand_below(rng, 2);
    std::vector<Index> rest(nhalf.begin(), nhalf.end() - 1);
    rest.insert(rest.end(), hcounts.begin(), hcounts.end());
    std::vector<Index> cs = random_strides(rng, rest, row);
    std::vector<Index> cplx, real;
    for (std::size_t i = 0; i < cs.size(); ++i) {
      cplx.push_back(cs[i]);
      real.push_back(2 * cs[i]);
    }
    cplx.insert(cplx.begin() + static_cast<std::ptrdiff_t>(r - 1), s);
    real.insert(real.begin() + static_cast<std::ptrdiff_t>(r - 1), s);
    is = c.kind == Kind::kR2C ? real : cplx;
    os = c.kind == Kind::kR2C ? cplx : real;
  } else if (c.kind == Kind::kSplitR2C || c.kind == Kind::kSplitC2R) {
    // In-place split r2c (in == ro) / c2r (out == ri): one layout for the
    // real and the complex side, over the real counts (never fewer than the
    // complex ones). FFTW plans these only with every howmany stride beyond
    // the whole transform (rdft2_inplace_strides in FFTW's source), so:
    // transform dims row-major (padded), howmany dims outside them.
    std::vector<std::size_t> order;
    for (std::size_t d = r; d-- > 0;) order.push_back(d);
    for (std::size_t h = hcounts.size(); h-- > 0;) order.push_back(r + h);
    is = os = padded_strides(rng, join(nreal), order, pick(rng, kUnits));
  } else {
    // In-place with identical layouts (c2c, r2r, split c2c).
    is = os = random_strides(rng, join(nreal), pick(rng, kUnits));
  }
  if (c.split_interleaved) {
    for (Index& v : is) v *= 2;
    for (Index& v : os) v *= 2;
  }
  Geometry g;
  for (std::size_t d = 0; d < r; ++d) g.dims.push_back({c.n[d], is[d], os[d]});
  for (std::size_t h = 0; h < hcounts.size(); ++h)
    g.howmany.push_back({hcounts[h], is[r + h], os[r + h]});
  return g;
}

// Advanced-interface parameters.
void pick_many(Rng& rng, Case& c) {
  ManyParams& m = c.many;
  m.howmany = 2 + static_cast<int>(rand_below(rng, 3));
  const std::size_t r = c.n.size();
  const bool rdft2 = c.kind == Kind::kR2C || c.kind == Kind::kC2R;
  auto logical = [&](bool complex_side) {
    std::vector<int> p = c.n;
    if (complex_side) p.back() = p.back() / 2 + 1;
    return p;
  };
  auto padded = [&](std::vector<int> p) {
    for (std::size_t d = 0; d < r; ++d) p[d] += static_cast<int>(rand_below(rng, 3));
    return p;
  };
  auto prod = [](const std::vector<int>& p) {
    Index v = 1;
    for (int x : p) v *= x;
    return v;
  };
  // One side: embed (maybe NULL), stride and dist, blocked or interleaved.
  auto side = [&](bool complex_side, std::vector<int>& embed, int& stride,
                  int& dist) {
    embed.clear();
    std::vector<int> phys = logical(complex_side);
    if (rand_below(rng, 2)) {
      embed = padded(phys);
      phys = embed;
    }
    if (rand_below(rng, 3) == 0) {  // batch-interleaved: dist 1
      stride = m.howmany + static_cast<int>(rand_below(rng, 2));
      dist = 1;
    } else {
      stride = 1 + static_cast<int>(rand_below(rng, 3));
      dist = static_cast<int>(stride * prod(phys) + pick(rng, std::vector<Index>{0, 1, 5}));
    }
  };
  const bool in_cplx = c.input_is_half(), out_cplx = c.output_is_half();
  if (!c.inplace) {
    side(in_cplx, m.inembed, m.istride, m.idist);
    side(out_cplx, m.onembed, m.ostride, m.odist);
  } else if (!rdft2) {
    side(false, m.inembed, m.istride, m.idist);
    m.onembed = m.inembed;
    m.ostride = m.istride;
    m.odist = m.idist;
  } else {
    // In-place r2c/c2r: complex side blocked, real side the padded view of it
    // (same stride, last embed and dist doubled).  NULL embeds on both sides
    // are FFTW's own padded default.
    std::vector<int> cembed, rembed;
    std::vector<int> cphys = logical(true);
    if (rand_below(rng, 2)) {
      cembed = padded(cphys);
      cphys = cembed;
      rembed = cembed;
      rembed.back() *= 2;
    }
    int s = 1 + static_cast<int>(rand_below(rng, 2));
    int cdist = static_cast<int>(s * prod(cphys) + rand_below(rng, 3));
    bool real_in = c.kind == Kind::kR2C;
    m.inembed = real_in ? rembed : cembed;
    m.onembed = real_in ? cembed : rembed;
    m.istride = m.ostride = s;
    m.idist = real_in ? 2 * cdist : cdist;
    m.odist = real_in ? cdist : 2 * cdist;
  }
  // FFTW 3.3.10 bug: single precision, howmany 4, input istride 4 / idist 1
  // and output ostride 1 with an odd odist crashes (SIGSEGV in a SIMD
  // codelet, at planning with FFTW_MEASURE, at execute with FFTW_ESTIMATE).
  // Steer clear of it (an even odist is fine).
  if (m.howmany == 4 && m.istride == 4 && m.idist == 1 && m.ostride == 1 && m.odist % 2)
    ++m.odist;
}

std::string sizes_name(const std::vector<int>& n) {
  std::string s = "n";
  for (std::size_t d = 0; d < n.size(); ++d)
    s += (d ? "x" : "") + std::to_string(n[d]);
  return s;
}

std::string make_name(const Case& c) {
  std::string s = kind_name(c.kind);
  if (c.kind == Kind::kC2C || c.kind == Kind::kSplitC2C)
    s += c.sign < 0 ? "_fwd" : "_bwd";
  if (c.kind == Kind::kR2R) {
    s += "_";
    for (std::size_t d = 0; d < c.r2r.size(); ++d)
      s += std::string(d ? "x" : "") + ref::r2r_name(c.r2r[d]);
  }
  s += "_" + sizes_name(c.n) + "_" + api_name(c.api);
  if (c.api == Api::kMany) s += "_h" + std::to_string(c.many.howmany);
  if (is_guru(c.api)) {
    s += "_h";
    for (std::size_t i = 0; i < c.geo.howmany.size(); ++i)
      s += (i ? "x" : "") + std::to_string(c.geo.howmany[i].n);
    if (c.geo.howmany.empty()) s += "0";
  }
  if (c.split_interleaved) s += "_ileave";
  s += c.inplace ? "_inplace" : "_oop";
  s += std::string("_") + precision_name(c.precision) + "_" + flags_name(c.flags);
  if (c.new_array) s += "_newarray";
  return s;
}

std::vector<Case> build() {
  // A fixed seed keeps the case list (and test names) stable; setting
  // GPUFFTW_SWEEP_LAYOUT_SEED draws a different sweep, for soak runs.
  std::uint32_t layout_seed = 20240917u;
  if (const char* s = std::getenv("GPUFFTW_SWEEP_LAYOUT_SEED"))
    layout_seed = static_cast<std::uint32_t>(std::strtoul(s, nullptr, 0));
  Rng rng(layout_seed);
  std::vector<Variant> variants = {
      {Kind::kC2C, -1, -1}, {Kind::kC2C, +1, -1}, {Kind::kR2C, -1, -1},
      {Kind::kC2R, +1, -1}, {Kind::kSplitC2C, -1, -1},
      {Kind::kSplitC2C, +1, -1}, {Kind::kSplitR2C, -1, -1},
      {Kind::kSplitC2R, +1, -1}};
  for (int k = 0; k < ref::kNumR2rKinds; ++k) variants.push_back({Kind::kR2R, 0, k});

  const std::vector<Flags> kAllFlags = {Flags::kEstimate, Flags::kMeasure,
                                        Flags::kEstimatePreserve,
                                        Flags::kEstimateUnaligned};
  std::vector<Case> cases;
  int guru_counter = 0, r2r_mix = 0;
  auto add = [&](const Variant& v, Api api, int rank, bool inplace,
                 Precision prec) {
    Case c;
    c.kind = v.kind;
    c.sign = v.sign;
    c.api = api;
    c.inplace = inplace;
    c.precision = prec;
    c.flags = pick(rng, kAllFlags);
    c.new_array = rand_below(rng, 3) == 0;
    if (v.kind == Kind::kR2R) {
      // Dimension 0 has the variant's kind; the others cycle through all
      // kinds, so that multi-dim r2r mixes kinds.
      c.r2r.push_back(static_cast<ref::R2r>(v.r2r_kind));
      for (int d = 1; d < rank; ++d)
        c.r2r.push_back(static_cast<ref::R2r>(r2r_mix++ % ref::kNumR2rKinds));
    }
    if (is_split(v.kind)) {
      if (!(inplace && v.kind != Kind::kSplitC2C))
        c.split_interleaved = rand_below(rng, 3) == 0;
      c.split_pad = pick(rng, std::vector<Index>{0, 1, 2, 5});
    }
    c.n = pick_sizes(rng, rank, c.r2r);
    if (api == Api::kMany) pick_many(rng, c);
    if (is_guru(api)) {
      static const int kHowmanyRanks[] = {1, 2, 1, 2, 0};
      c.geo = guru_geometry(rng, c, kHowmanyRanks[guru_counter++ % 5]);
    }
    finish_case(c);
    cases.push_back(std::move(c));
  };

  // Every (variant, interface, rank 1..3, placement) in both precisions,
  // kRepeats times with different sizes/layouts/flags; plus rank-4 cases.
  constexpr int kRepeats = 2;
  for (const Variant& v : variants) {
    std::vector<Api> apis;
    if (is_split(v.kind))
      apis = {Api::kGuru, Api::kGuru64};
    else
      apis = {Api::kBasic, Api::kMany, Api::kGuru, Api::kGuru64};
    for (Api api : apis) {
      for (int rank = 1; rank <= 3; ++rank) {
        for (bool inplace : {false, true}) {
          // r2r has 11 variants: one repeat is enough there.
          const int reps = v.kind == Kind::kR2R ? 1 : kRepeats;
          for (int rep = 0; rep < reps; ++rep) {
            for (Precision prec : {Precision::kF32, Precision::kF64}) {
              Api a = api;
              if (a == Api::kBasic && rand_below(rng, 3) == 0) a = Api::kBasicNd;
              add(v, a, rank, inplace, prec);
            }
          }
        }
      }
      // Rank 4, both precisions, placement at random.
      for (Precision prec : {Precision::kF32, Precision::kF64})
        add(v, api == Api::kBasic ? Api::kBasicNd : api, 4,
            rand_below(rng, 2) == 1, prec);
    }
  }

  // Unique names.
  std::map<std::string, int> seen;
  for (Case& c : cases) {
    int k = seen[c.name]++;
    if (k) c.name += "_v" + std::to_string(k + 1);
  }
  return cases;
}

}  // namespace

void finish_case(Case& c) {
  if (c.api == Api::kBasic || c.api == Api::kBasicNd) {
    c.many = ManyParams{};
    c.geo = many_geometry(c, false);
  } else if (c.api == Api::kMany) {
    c.geo = many_geometry(c, true);
  }
  c.mem = memory_for(c);
  c.name = make_name(c);
}

const std::vector<Case>& sweep_cases() {
  static const std::vector<Case> cases = build();
  return cases;
}

}  // namespace sweep
