#include "engine/in_core/routes.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace gpufftw::engine {
namespace {

constexpr size_t kPathMinBytes = size_t{32} << 20;  // chunks and slabs: below this the copies are too short to hide

size_t span_bytes(const Side &s) {
  return static_cast<size_t>(s.max_offset() - s.min_offset() + 1) * s.elem * (s.split ? 2 : 1);
}

// Transforms per chunk: about 16 MB a chunk and at least 8 chunks, fewer
// bytes where the cap asks (three streams' buffers and cuFFT's work
// areas); 0 where the batch is not chunked.
long long chunk_per(const Geometry &g, const Side &in, const Side &out, size_t cap) {
  if (g.loops.size() != 1) return 0;
  const Axis &loop = g.loops[0];
  const long long span_in = extent(in), span_out = extent(out);
  const size_t total = static_cast<size_t>(loop.n) * (span_in * in.elem + span_out * out.elem);
  const long long written = product(out.n, 1, out.n.size());
  const bool same_bytes = loop.is * static_cast<long long>(in.elem) == loop.os * static_cast<long long>(out.elem);
  // The chunks carry each chunk's whole output span back: gaps within a
  // transform or between two would come back as what the device buffer
  // held, where FFTW leaves the program's bytes.
  if (loop.n < 8 || total < kPathMinBytes || loop.is < span_in || loop.os != span_out || written != span_out ||
      (g.in_place && !same_bytes))
    return 0;
  long long chunks = std::min<long long>(loop.n, std::max<long long>(8, static_cast<long long>(total >> 24)));
  while (chunks < loop.n && 6 * (total / static_cast<size_t>(chunks)) > cap) chunks *= 2;
  chunks = std::min(chunks, loop.n);
  return (loop.n + chunks - 1) / chunks;
}

// 8 down to 4: the slabs (or pencil groups) a dim splits evenly into.
long long divisor(long long n) {
  for (long long d = 8; d >= 4; --d)
    if (n % d == 0) return d;
  return 0;
}

const char *words(Route r) {
  switch (r) {
    case Route::Whole: return "whole, host ones staged";
    case Route::OwnKernel: return "our kernel, host ones staged";
    case Route::Gathered: return "gathered into dense buffers";
    case Route::Chunks: return "in chunks over three streams";
    case Route::StagedChunks: return "staged whole, then in chunks";
    case Route::Slabs: return "slabs then pencils, copies overlapped";
  }
  return "";
}

}  // namespace

size_t chunk_bytes(const Side &s, long long dist, long long count) {
  return static_cast<size_t>(((count - 1) * dist + extent(s)) * static_cast<long long>(s.elem));
}

ArraysAt arrays_at(Memory in, Memory out) {
  if (on_device(in) && on_device(out)) return ArraysAt::Device;
  if (in == Memory::Pinned && out == Memory::Pinned) return ArraysAt::Pinned;
  if (in == Memory::Pageable || out == Memory::Pageable) return ArraysAt::Pageable;
  return ArraysAt::Mixed;
}

InCoreLayout in_core_layout(const Geometry &g, size_t cap) {
  InCoreLayout l;
  const Side in = make_side(g, false), out = make_side(g, true);
  const size_t real_size = g.real == Real::F32 ? sizeof(float) : sizeof(double);
  l.direct = direct_layout(g, &l.not_direct);
  if (!l.direct) {
    // The dense buffers: r2r's one of reals, else one per side of its
    // complex numbers (r2c and c2r's real side counted so too).
    const size_t dense = g.type == Type::R2R ? static_cast<size_t>(in.count()) * real_size
                                             : static_cast<size_t>(in.count() + out.count()) * 2 * real_size;
    l.held_bytes = span_bytes(in) + span_bytes(out) + dense;
    return l;
  }
  l.chunk_per = chunk_per(g, in, out, cap);
  if (l.chunk_per) {
    const Axis &loop = g.loops[0];
    const size_t in_all = chunk_bytes(in, loop.is, loop.n), out_all = chunk_bytes(out, loop.os, loop.n);
    l.stage_whole = (g.in_place ? std::max(in_all, out_all) : in_all + out_all) <= cap;
    l.held_bytes =
        kChunkStreams * (chunk_bytes(in, loop.is, l.chunk_per) + chunk_bytes(out, loop.os, l.chunk_per));
    return l;
  }
  l.held_bytes = span_bytes(in) + span_bytes(out);
  const size_t rank = g.dims.size();
  if (!g.loops.empty() || rank < 2 || rank > 3 || g.type == Type::C2R || (g.type == Type::R2C && g.in_place))
    return l;
  const size_t bytes = static_cast<size_t>(in.count()) * in.elem + static_cast<size_t>(out.count()) * out.elem;
  const long long slabs = divisor(g.dims[0].n), pencils = divisor(out.n[1]);
  if (in.dense() && out.dense() && bytes >= kPathMinBytes && slabs && pencils) l.slabs = slabs, l.pencils = pencils;
  return l;
}

Route Routes::at(ArraysAt a) const {
  switch (a) {
    case ArraysAt::Device: return device;
    case ArraysAt::Pinned: return pinned;
    case ArraysAt::Pageable: return pageable;
    case ArraysAt::Mixed: return mixed;
  }
  return pageable;
}

std::string Routes::describe() const {
  const std::pair<const char *, Route> kinds[] = {
      {"device", device}, {"pinned", pinned}, {"pageable", pageable}, {"mixed", mixed}};
  std::vector<Route> seen;
  std::string s;
  for (const auto &k : kinds) {
    if (std::find(seen.begin(), seen.end(), k.second) != seen.end()) continue;
    seen.push_back(k.second);
    std::vector<const char *> names;
    for (const auto &same : kinds)
      if (same.second == k.second) names.push_back(same.first);
    std::string list;
    for (size_t i = 0; i < names.size(); ++i)
      list += std::string(i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    s += (s.empty() ? "" : "; ") + list + " arrays: " + words(k.second);
  }
  return s;
}

Routes in_core_routes(const InCoreLayout &l, bool own, bool whole) {
  Routes r;
  if (!l.direct) {
    r.device = r.pinned = r.pageable = r.mixed = Route::Gathered;
    return r;
  }
  if (l.chunk_per) {
    // Our kernel, else cuFFT's plan of the whole batch, takes the batch at
    // once where both arrays are on the device: there are no copies for
    // chunks to hide. Host arrays stream through cuFFT in chunks.
    r.device = own ? Route::OwnKernel : whole ? Route::Whole : Route::Chunks;
    r.pinned = r.mixed = Route::Chunks;
    r.pageable = l.stage_whole ? Route::StagedChunks : Route::Chunks;
    return r;
  }
  r.device = r.pinned = r.pageable = r.mixed = own ? Route::OwnKernel : Route::Whole;
  if (l.slabs) r.pinned = Route::Slabs;
  return r;
}

}  // namespace gpufftw::engine
