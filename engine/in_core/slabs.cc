#include <algorithm>

#include "engine/device/context.h"
#include "engine/in_core/cufft_job.h"

namespace gpufftw::engine {

// Streams and cuFFT's plans for the slab path, where in_core_layout found
// it serves the geometry (layout_.slabs, layout_.pencils).
bool CufftJob::plan_slabs(std::string *why) {
  if (!layout_.slabs) return true;
  const size_t rank = g_.dims.size();
  if (streams_.empty()) streams_.push_back(stream_);
  cudaStream_t second;
  GPUFFTW_CK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking), why);
  streams_.push_back(second);
  const long long per = g_.dims[0].n / layout_.slabs;
  const long long plane_in = product(in_.n, 1, rank), plane_out = product(out_.n, 1, rank);
  std::vector<long long> trailing;
  for (size_t i = 1; i < rank; ++i) trailing.push_back(g_.dims[i].n);
  const long long row = plane_out / out_.n[1], width = out_.n[1] / layout_.pencils;
  for (int k = 0; k < 2; ++k) {
    Step slab;
    slab.type = cufft_type(g_.type, g_.real);
    slab.sign = g_.sign;
    if (!add_step(slab, static_cast<int>(rank - 1), trailing.data(), nullptr, 1, plane_in, nullptr, 1, plane_out, per,
                  why))
      return false;
    slab_plans_.push_back(steps_.back());
  }
  for (int k = 0; k < 2; ++k) {
    Step pencil;
    pencil.type = complex_type(g_.real);
    pencil.sign = g_.type == Type::C2C ? g_.sign : CUFFT_FORWARD;
    long long n0 = g_.dims[0].n, embed0 = n0;
    if (!add_step(pencil, 1, &n0, &embed0, plane_out, 1, &embed0, plane_out, 1, width * row, why)) return false;
    pencil_plans_.push_back(steps_.back());
  }
  return true;
}

// One large 2-D or 3-D transform on pinned arrays, in two phases that
// overlap compute with the bus: slabs of dim 0 are copied in and given
// their trailing-dims transform as they arrive (two streams, so one
// slab's FFT runs under the next one's copy); then dim 0 is transformed
// in chunks of dim 1, each copied out (a 2-D copy: n0 rows) while the
// next chunk computes.
bool CufftJob::run_slabs(char *in, char *out, std::vector<void *> *scratch, std::string *why) {
  const bool in_place = in == out;
  const size_t cbytes = 2 * (g_.real == Real::F32 ? sizeof(float) : sizeof(double));
  const long long n0 = g_.dims[0].n;
  const long long plane_in = product(in_.n, 1, in_.n.size()), plane_out = product(out_.n, 1, out_.n.size());
  const size_t in_total = static_cast<size_t>(n0 * plane_in) * in_.elem;
  const size_t out_total = static_cast<size_t>(n0 * plane_out) * out_.elem;
  void *d_in = nullptr, *d_out = nullptr;
  if (!alloc(std::max(in_total, in_place ? out_total : 0), &d_in, scratch, why)) return false;
  d_out = d_in;
  if (g_.type != Type::C2C && !alloc(out_total, &d_out, scratch, why)) return false;
  if (!join_streams(why)) return false;
  cudaStream_t st[2] = {streams_[0], streams_[1]};
  const long long slabs = layout_.slabs, per = n0 / slabs;
  for (long long k = 0; k < slabs; ++k) {
    const size_t ib = static_cast<size_t>(per * plane_in) * in_.elem, ob = static_cast<size_t>(per * plane_out) * out_.elem;
    char *src = static_cast<char *>(d_in) + k * ib, *dst = static_cast<char *>(d_out) + k * ob;
    GPUFFTW_CK(cudaMemcpyAsync(src, in + k * ib, ib, cudaMemcpyHostToDevice, st[k % 2]), why);
    if (!exec_plan(slab_plans_[k % 2], st[k % 2], src, dst, why)) return false;
  }
  // Dim 0 needs every slab: each stream waits for the other's last one.
  cudaEvent_t done[2];
  for (int i = 0; i < 2; ++i) {
    GPUFFTW_CK(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming), why);
    GPUFFTW_CK(cudaEventRecord(done[i], st[i]), why);
  }
  for (int i = 0; i < 2; ++i) GPUFFTW_CK(cudaStreamWaitEvent(st[i], done[1 - i], 0), why);
  for (int i = 0; i < 2; ++i) cudaEventDestroy(done[i]);
  const long long n1 = out_.n[1], chunks = layout_.pencils, width = n1 / chunks;
  const long long row = plane_out / n1;  // complex elements per (i0, i1)
  const size_t pitch = static_cast<size_t>(plane_out) * cbytes, wbytes = static_cast<size_t>(width * row) * cbytes;
  for (long long c = 0; c < chunks; ++c) {
    char *at = static_cast<char *>(d_out) + c * wbytes;
    if (!exec_plan(pencil_plans_[c % 2], st[c % 2], at, at, why)) return false;
    GPUFFTW_CK(cudaMemcpy2DAsync(out + c * wbytes, pitch, at, pitch, wbytes, static_cast<size_t>(n0),
                                 cudaMemcpyDeviceToHost, st[c % 2]),
               why);
  }
  for (int i = 0; i < 2; ++i) GPUFFTW_CK(cudaStreamSynchronize(st[i]), why);
  return true;
}

}  // namespace gpufftw::engine
