#include <algorithm>

#include "engine/device/context.h"
#include "engine/in_core/cufft_job.h"

namespace gpufftw::engine {

// Streams, and cuFFT's plans for chunks of layout_.chunk_per transforms
// (in_core_layout says where a batch goes in chunks, and how many).
bool CufftJob::plan_chunks(std::string *why) {
  const long long per = layout_.chunk_per, rem = g_.loops[0].n % per;
  streams_.push_back(stream_);
  for (int k = 1; k < kChunkStreams; ++k) {
    cudaStream_t st;
    GPUFFTW_CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), why);
    streams_.push_back(st);
  }
  const size_t before = steps_.size();
  for (int k = 0; k < kChunkStreams + (rem ? 1 : 0); ++k)
    if (!plan_direct(k < kChunkStreams ? per : rem, why)) return false;
  chunk_plans_.assign(steps_.begin() + static_cast<long>(before), steps_.end());
  return true;
}

// Device arrays have no copies for chunks to hide, and a batch in chunks
// runs as many of cuFFT's launches as it has chunks: one plan over the
// whole batch serves them instead, where its work area fits within the
// cap beside the chunks' (else they run in chunks too).
void CufftJob::plan_whole_batch() {
  std::string why;
  if (!plan_direct(g_.loops[0].n, &why)) return;
  whole_step_ = static_cast<int>(steps_.size()) - 1;
  if (device_bytes() > device_memory_cap()) drop_whole_batch();
}

void CufftJob::drop_whole_batch() {
  destroy_plan(steps_[whole_step_]);
  steps_.erase(steps_.begin() + whole_step_);
  whole_step_ = -1;
}

// A batch in chunks of transforms, round-robin over the streams: the copy
// in of one chunk, the FFT of another and the copy out of a third run at
// once on pinned arrays; device arrays are used where they lie (run_chunks).
// Pageable arrays are staged whole through the copier (its threads are the
// bottleneck, so they must not wait on each chunk) where the routes say
// that fits the cap (run_staged_chunks); else chunk by chunk. Device memory
// stays a few chunks otherwise.
bool CufftJob::run_staged_chunks(char *in, char *out, bool in_dev, bool out_dev, std::vector<void *> *scratch,
                                 std::string *why) {
  const Axis &loop = g_.loops[0];
  const bool in_place = in == out;
  const size_t in_all = chunk_bytes(in_, loop.is, loop.n), out_all = chunk_bytes(out_, loop.os, loop.n);
  const size_t in_stage = in_place ? std::max(in_all, out_all) : in_all;
  void *d_in = in, *d_out = out;
  if (!in_dev || c2r_needs_copy(in_place)) {
    if (!alloc(in_stage, &d_in, scratch, why)) return false;
    if (in_dev)
      GPUFFTW_CK(cudaMemcpyAsync(d_in, in, in_stage, cudaMemcpyDeviceToDevice, stream_), why);
    else if (!copier_.to_device(d_in, in, in_stage, stream_, why))
      return false;
  }
  if (in_place)
    d_out = d_in;
  else if (!out_dev && !alloc(out_all, &d_out, scratch, why))
    return false;
  GPUFFTW_CK(cudaStreamSynchronize(stream_), why);
  if (!run_chunks(static_cast<char *>(d_in), static_cast<char *>(d_out), true, true, scratch, why)) return false;
  return out_dev || copier_.to_host(out, d_out, in_place ? in_stage : out_all, stream_, why);
}

bool CufftJob::run_chunks(char *in, char *out, bool in_dev, bool out_dev, std::vector<void *> *scratch,
                          std::string *why) {
  const Axis &loop = g_.loops[0];
  const bool in_place = in == out;
  const bool stage_in = !in_dev || c2r_needs_copy(in_place, owned(in, scratch));
  const long long batch = loop.n, per = layout_.chunk_per;
  const size_t in_bytes = chunk_bytes(in_, loop.is, per), out_bytes = chunk_bytes(out_, loop.os, per);
  const size_t buf_in = in_place ? std::max(in_bytes, out_bytes) : in_bytes;
  std::vector<void *> d_in(streams_.size()), d_out(streams_.size());
  for (size_t k = 0; k < streams_.size(); ++k) {
    if (stage_in && !alloc(buf_in, &d_in[k], scratch, why)) return false;
    if (!in_place && !out_dev && !alloc(out_bytes, &d_out[k], scratch, why)) return false;
  }
  if (!join_streams(why)) return false;
  for (long long first = 0, c = 0; first < batch; first += per, ++c) {
    const size_t k = static_cast<size_t>(c) % streams_.size();
    const cudaStream_t st = streams_[k];
    const long long count = std::min(per, batch - first);
    const size_t ib = chunk_bytes(in_, loop.is, count), ob = chunk_bytes(out_, loop.os, count);
    const size_t inb = in_place ? std::max(ib, ob) : ib;
    char *hin = in + first * loop.is * static_cast<long long>(in_.elem);
    char *hout = out + first * loop.os * static_cast<long long>(out_.elem);
    void *src = stage_in ? d_in[k] : hin;
    void *dst = in_place ? src : out_dev ? hout : d_out[k];
    if (stage_in && in_dev) GPUFFTW_CK(cudaMemcpyAsync(src, hin, inb, cudaMemcpyDeviceToDevice, st), why);
    if (stage_in && !in_dev && !copier_.to_device(src, hin, inb, st, why)) return false;
    if (!exec_plan(count == per ? chunk_plans_[k] : chunk_plans_.back(), st, src, dst, why)) return false;
    if (!out_dev && !copier_.to_host(hout, dst, in_place ? inb : ob, st, why)) return false;
  }
  for (cudaStream_t st : streams_) GPUFFTW_CK(cudaStreamSynchronize(st), why);
  return true;
}

}  // namespace gpufftw::engine
