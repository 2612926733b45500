#include <algorithm>

#include "engine/device/context.h"
#include "engine/in_core/cufft_job.h"

namespace gpufftw::engine {

// The caller's arrays as merged byte ranges: an in-place transform, or a
// split pair that interleaves, is one region staged once.
std::vector<Region> CufftJob::regions_of(void *const in[2], void *const out[2], Memory in_mem,
                                         Memory out_mem) const {
  std::vector<Region> ranges;
  auto add = [&](void *p, const Side &s, bool output, Memory mem) {
    if (!p) return;
    Region r;
    r.start = static_cast<char *>(p) + s.min_offset() * static_cast<long long>(s.elem);
    r.end = static_cast<char *>(p) + (s.max_offset() + 1) * static_cast<long long>(s.elem);
    r.input = !output;
    r.output = output;
    r.written = output ? static_cast<size_t>(s.count()) * s.elem : 0;
    r.device = on_device(mem);
    ranges.push_back(r);
  };
  add(in[0], in_, false, in_mem);
  if (in_.split) add(in[1], in_, false, memory_type(in[1]));
  add(out[0], out_, true, out_mem);
  if (out_.split) add(out[1], out_, true, memory_type(out[1]));
  std::sort(ranges.begin(), ranges.end(), [](const Region &a, const Region &b) { return a.start < b.start; });
  std::vector<Region> merged;
  for (const Region &r : ranges) {
    if (!merged.empty() && r.start < merged.back().end) {
      Region &m = merged.back();
      m.end = std::max(m.end, r.end);
      m.input |= r.input;
      m.output |= r.output;
      m.written += r.written;
      m.device &= r.device;
    } else {
      merged.push_back(r);
    }
  }
  return merged;
}

bool CufftJob::stage(Region *r, std::vector<void *> *scratch, std::string *why) {
  const size_t bytes = r->end - r->start;
  // The dense path works on its own copies anyway.
  const bool c2r_input = r->input && layout_.direct && c2r_needs_copy(r->output);
  if (r->device && !c2r_input) {
    r->dev = r->start;
    return true;
  }
  void *d = nullptr;
  if (!alloc(bytes, &d, scratch, why)) return false;
  r->dev = static_cast<char *>(d);
  // Output-only bytes the transform does not write must come back as
  // they were, so such a region is copied in too.
  if (!(r->input || r->written < bytes)) return true;
  if (r->device) {
    GPUFFTW_CK(cudaMemcpyAsync(r->dev, r->start, bytes, cudaMemcpyDeviceToDevice, stream_), why);
    return true;
  }
  return copier_.to_device(r->dev, r->start, bytes, stream_, why);
}

}  // namespace gpufftw::engine
