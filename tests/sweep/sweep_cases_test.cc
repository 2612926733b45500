// Checks the sweep's case list itself: that it covers every value of every
// axis several times and every interface for every kind, and that every
// generated layout is valid (elements in bounds, no two elements of one side
// on the same scalar).
#include <gtest/gtest.h>

#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "layouts.h"
#include "sweep_cases.h"

namespace sweep {
namespace {

constexpr int kMinHits = 3;  // every axis value, per kind, at least this often

const std::vector<Kind> kAllKinds = {Kind::kC2C,      Kind::kR2C,      Kind::kC2R,
                                     Kind::kR2R,      Kind::kSplitC2C, Kind::kSplitR2C,
                                     Kind::kSplitC2R};

std::vector<Api> apis_for(Kind k) {
  if (is_split(k)) return {Api::kGuru, Api::kGuru64};  // split: guru only
  return {Api::kBasic, Api::kBasicNd, Api::kMany, Api::kGuru, Api::kGuru64};
}

template <class Key>
std::map<Key, int> count_by(const std::function<Key(const Case&)>& key) {
  std::map<Key, int> m;
  for (const Case& c : sweep_cases()) ++m[key(c)];
  return m;
}

TEST(SweepCases, NamesAreUniqueAndValid) {
  std::set<std::string> names;
  for (const Case& c : sweep_cases()) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    for (char ch : c.name)
      EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') << c.name;
  }
}

TEST(SweepCases, EveryInterfaceForEveryKind) {
  auto m = count_by<std::pair<Kind, Api>>(
      [](const Case& c) { return std::make_pair(c.kind, c.api); });
  for (Kind k : kAllKinds)
    for (Api a : apis_for(k))
      EXPECT_GE((m[{k, a}]), kMinHits) << kind_name(k) << " " << api_name(a);
}

TEST(SweepCases, EveryAxisValuePerKind) {
  for (Kind k : kAllKinds) {
    std::map<std::string, int> hits;
    for (const Case& c : sweep_cases()) {
      if (c.kind != k) continue;
      ++hits["rank" + std::to_string(c.n.size())];
      ++hits[c.inplace ? "inplace" : "oop"];
      ++hits[precision_name(c.precision)];
      ++hits[flags_name(c.flags)];
      ++hits[c.new_array ? "newarray" : "execute"];
      if (is_guru(c.api)) ++hits["guru_howmany_rank" + std::to_string(c.geo.howmany.size())];
      if (c.kind == Kind::kC2C || c.kind == Kind::kSplitC2C)
        ++hits[c.sign < 0 ? "forward" : "backward"];
      if (is_split(c.kind) && c.split_interleaved) ++hits["split_interleaved"];
      if (is_split(c.kind) && !c.split_interleaved) ++hits["split_separate"];
      if (c.api == Api::kMany) {
        ++hits[c.many.inembed.empty() ? "many_null_embed" : "many_embed"];
        ++hits[(c.many.idist == 1 || c.many.odist == 1) ? "many_dist1" : "many_blocked"];
        ++hits[(c.many.istride > 1 || c.many.ostride > 1) ? "many_stride" : "many_unit_stride"];
      }
    }
    std::vector<std::string> want = {"rank1", "rank2", "rank3", "rank4", "inplace", "oop",
                                     "f32", "f64", "estimate", "measure", "preserve",
                                     "unaligned", "newarray", "execute",
                                     "guru_howmany_rank1", "guru_howmany_rank2"};
    if (k == Kind::kC2C || k == Kind::kSplitC2C) {
      want.push_back("forward");
      want.push_back("backward");
    }
    if (is_split(k)) {
      want.push_back("split_interleaved");
      want.push_back("split_separate");
    } else {
      for (const char* s : {"many_null_embed", "many_embed", "many_blocked", "many_stride",
                            "many_unit_stride"})
        want.push_back(s);
      if (k != Kind::kR2C && k != Kind::kC2R) want.push_back("many_dist1");
    }
    for (const std::string& w : want) EXPECT_GE(hits[w], kMinHits) << kind_name(k) << " " << w;
  }
}

TEST(SweepCases, InPlaceAndUnalignedMeetNewArrayExecute) {
  auto m = count_by<std::tuple<bool, bool, bool>>([](const Case& c) {
    return std::make_tuple(c.inplace, c.new_array, c.flags == Flags::kEstimateUnaligned);
  });
  for (bool ip : {false, true})
    for (bool na : {false, true})
      for (bool un : {false, true})
        EXPECT_GE((m[{ip, na, un}]), kMinHits) << ip << na << un;
}

TEST(SweepCases, EveryR2rKindInEveryPosition) {
  std::map<std::pair<int, std::size_t>, int> hits;  // (kind, dim) -> count
  for (const Case& c : sweep_cases())
    for (std::size_t d = 0; d < c.r2r.size(); ++d)
      ++hits[{static_cast<int>(c.r2r[d]), std::min<std::size_t>(d, 1)}];
  for (int k = 0; k < ref::kNumR2rKinds; ++k) {
    EXPECT_GE((hits[{k, 0}]), kMinHits) << ref::r2r_name(static_cast<ref::R2r>(k));
    EXPECT_GE((hits[{k, 1}]), kMinHits) << ref::r2r_name(static_cast<ref::R2r>(k));
  }
}

TEST(SweepCases, SizesAreSmallAndVaried) {
  std::set<int> sizes1;
  int prime_multi = 0;
  for (const Case& c : sweep_cases()) {
    if (c.n.size() == 1) {
      EXPECT_LE(c.n[0], 64) << c.name;
      sizes1.insert(c.n[0]);
    } else {
      for (int v : c.n) {
        EXPECT_LE(v, 16) << c.name;
        prime_multi += (v == 7 || v == 11 || v == 13);
      }
    }
  }
  for (int v : {1, 2, 3, 5, 7, 11, 13, 16, 17, 31, 37, 53, 61, 64})
    EXPECT_TRUE(sizes1.count(v)) << "1-D size " << v << " missing";
  EXPECT_GE(prime_multi, 20);
}

// Every element of one side is on its own scalars, inside its buffer.
TEST(SweepCases, LayoutsAreValid) {
  for (const Case& c : sweep_cases()) {
    for (bool input : {true, false}) {
      const ArrayView& v = input ? c.mem.in : c.mem.out;
      const bool half = input ? c.input_is_half() : c.output_is_half();
      std::set<std::pair<int, Index>> used;
      for (Index o : element_offsets(c.geo, input, half)) {
        std::vector<Ptr> parts = {v.re};
        if (v.complex) parts.push_back(v.im);
        for (const Ptr& p : parts) {
          const Index s = p.off + o * v.scale;
          ASSERT_GE(s, 0) << c.name;
          ASSERT_LT(s, c.mem.buffer_scalars[static_cast<std::size_t>(p.buf)]) << c.name;
          ASSERT_TRUE(used.insert({p.buf, s}).second)
              << c.name << (input ? " input" : " output") << " scalar " << s << " used twice";
        }
      }
    }
  }
}

TEST(SweepCases, Count) {
  // Keeps the sweep fast (long-double oracle): about 1,200 cases.
  EXPECT_GE(sweep_cases().size(), 1000u);
  EXPECT_LE(sweep_cases().size(), 2000u);
}

}  // namespace
}  // namespace sweep
