#include "mpi/composed/resident.h"

#include <gpufftw/gpufftw.h>

#include <chrono>

namespace gpufftw {
namespace mpi {
namespace composed {
namespace {

bool cuda_ok(cudaError_t e, const char *call, std::string *why) {
  if (e == cudaSuccess) return true;
  *why = std::string(call) + ": " + cudaGetErrorString(e);
  return false;
}
// A CUDA runtime call, its failure named by the function called.
#define GPUFFTW_CUDA(fn, ...) \
  if (!cuda_ok(fn(__VA_ARGS__), #fn, why)) return false

double ms_since(std::chrono::steady_clock::time_point *t) {
  const auto now = std::chrono::steady_clock::now();
  const double ms = std::chrono::duration<double, std::milli>(now - *t).count();
  *t = now;
  return ms;
}

}  // namespace

bool resident_suits(const Layout &layout, int n_pes, std::string *why) {
  if (n_pes < 2) return *why = "one rank, whose one serial plan crosses PCIe once each way", false;
  if (layout.kind == Kind::C2R) return *why = "a c2r, whose last step needs the output's planes on the host", false;
  return true;
}

template <class R>
std::unique_ptr<Resident<R>> Resident<R>::build(const Layout &l, int me, int n_pes, int device,
                                                std::shared_ptr<const NcclComm> nccl,
                                                int sign, unsigned serial_flags, std::string *why) {
  std::unique_ptr<Resident> p(new Resident);
  p->layout_ = l;
  p->device_ = device;
  p->nccl_ = std::move(nccl);
  p->unit_ = static_cast<size_t>(l.rest) * sizeof(C);
  p->route_ = make_route(l, me, n_pes, p->unit_, kChunkBytes);
  const Route &r = p->route_;
  const ptrdiff_t my_f = r.my_f;
  const int chunks = r.chunks;
  auto fail = [why](const std::string &what) { return *why = what, nullptr; };
  if (!cuda_ok(cudaSetDevice(device), "cudaSetDevice", why)) return nullptr;
  const size_t bytes = static_cast<size_t>(r.buffer_units()) * p->unit_;
  for (char **b : {&p->x_, &p->y_, &p->z_})
    if (!cuda_ok(cudaMalloc(reinterpret_cast<void **>(b), bytes), "cudaMalloc", why)) return nullptr;
  for (cudaStream_t *s : {&p->in_, &p->out_, &p->net_})
    if (!cuda_ok(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags", why))
      return nullptr;
  for (auto *events : {&p->arrived_, &p->ready_})
    for (int k = 0; k < chunks; ++k) {
      cudaEvent_t e;
      if (!cuda_ok(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags", why))
        return nullptr;
      events->push_back(e);
    }
  const ptrdiff_t lo = r.o_mid.count[me];
  p->there_ = r.there();
  for (int k = 0; k < chunks; ++k) {
    p->packs_.push_back(r.pack(piece(my_f, chunks, k)));
    if (r.back)
      p->back_.push_back(r.back_chunk(k));
    else
      p->turns_.push_back(r.turn(piece(lo, chunks, k)));
  }

  // The steps, planned on the device buffers: step 1 once per chunk size.
  const Kind first_kind = l.kind == Kind::R2C ? Kind::R2C : Kind::C2C;
  for (int k = 0; k < chunks; ++k) {
    const ptrdiff_t c = piece(my_f, chunks, k).count;
    if (c > 0 && !p->first_.count(c)) {
      typename S::Plan step =
          Steps<R>::plan(l, first_step_in_place(l, c), p->x_, p->x_, first_kind, sign, serial_flags);
      if (!step) return fail("gpufftw's serial planner gave no plan for step 1 on the GPU");
      p->first_[c] = step;
    }
  }
  if (lo > 0) {
    p->third_ = Steps<R>::plan(l, third_step_in_middle(l, lo), p->z_, p->z_, Kind::C2C, sign, serial_flags);
    if (!p->third_) return fail("gpufftw's serial planner gave no plan for step 3 on the GPU");
  }
  for (typename S::Plan step : p->plans())
    if (where_of(step) != Where::Gpu)
      return fail("a step on device buffers did not land on the GPU: " + describe("it", step));
  std::string &s = p->steps_;
  s = describe_steps({{1, p->first_.empty() ? nullptr : p->first_.begin()->second}, {3, p->third_}});
  if (s.empty()) s = "no data on this rank";
  s += std::string("; ") + (r.back ? "two global transposes" : "one global transpose") +
       " GPU to GPU (NCCL); the slab crosses PCIe once each way, in " + std::to_string(chunks) + " chunk" +
       (chunks > 1 ? "s" : "") + " overlapping the work on the GPU";
  return p;
}

template <class R>
Resident<R>::~Resident() {
  cudaSetDevice(device_);
  for (typename S::Plan step : plans()) S::destroy(step);
  for (cudaStream_t s : {in_, out_, net_})
    if (s) cudaStreamSynchronize(s), cudaStreamDestroy(s);
  for (cudaEvent_t e : arrived_) cudaEventDestroy(e);
  for (cudaEvent_t e : ready_) cudaEventDestroy(e);
  for (char *b : {x_, y_, z_})
    if (b) cudaFree(b);
}

template <class R>
std::vector<typename Serial<R>::Plan> Resident<R>::plans() const {
  std::vector<typename S::Plan> all;
  for (const auto &e : first_) all.push_back(e.second);
  if (third_) all.push_back(third_);
  return all;
}

template <class R>
bool Resident<R>::exchange(const Transfer &t, const char *from, char *to, std::string *why) {
  const NcclApi &api = nccl_->api();
  NcclApi::Result rc = api.group_start();
  if (rc != 0) return *why = api.error("ncclGroupStart", rc), false;
  for (size_t q = 0; q < t.send.size(); ++q) {
    const int peer = static_cast<int>(q);
    if (t.send[q].count > 0 && rc == 0)
      rc = api.send(from + static_cast<size_t>(t.send[q].offset) * unit_, static_cast<size_t>(t.send[q].count) * unit_,
                    NcclApi::kBytes, peer, nccl_->get(), net_);
    if (rc != 0) {
      *why = api.error("ncclSend", rc);
      break;
    }
    if (t.recv[q].count > 0)
      rc = api.recv(to + static_cast<size_t>(t.recv[q].offset) * unit_, static_cast<size_t>(t.recv[q].count) * unit_,
                    NcclApi::kBytes, peer, nccl_->get(), net_);
    if (rc != 0) {
      *why = api.error("ncclRecv", rc);
      break;
    }
  }
  const NcclApi::Result end = api.group_end();
  if (rc != 0) return false;
  if (end != 0) return *why = api.error("ncclGroupEnd", end), false;
  return true;
}

template <class R>
bool Resident<R>::copy(const std::vector<Block> &blocks, const char *from, char *to, cudaMemcpyKind kind,
                       cudaStream_t stream, std::string *why) {
  const size_t u = unit_;
  for (const Block &b : blocks)
    GPUFFTW_CUDA(cudaMemcpy2DAsync, to + static_cast<size_t>(b.to) * u, static_cast<size_t>(b.to_pitch) * u,
                 from + static_cast<size_t>(b.from) * u, static_cast<size_t>(b.from_pitch) * u,
                 static_cast<size_t>(b.width) * u, static_cast<size_t>(b.rows), kind, stream);
  return true;
}

template <class R>
bool Resident<R>::execute(const void *in, void *out, Times *times, std::string *why) {
  GPUFFTW_CUDA(cudaSetDevice, device_);
  const Route &r = route_;
  const char *host_in = static_cast<const char *>(in);
  char *host_out = static_cast<char *>(out);
  auto t = std::chrono::steady_clock::now();
  const Kind first_kind = layout_.kind == Kind::R2C ? Kind::R2C : Kind::C2C;

  // In: every chunk's copy queued at once; each chunk's step 1 as soon as
  // it has arrived (the serial execute returns when its work is done), then
  // its pack, on the exchange's stream.
  const size_t plane = static_cast<size_t>(r.no) * unit_;
  for (int k = 0; k < r.chunks; ++k) {
    const Run c = piece(r.my_f, r.chunks, k);
    if (c.count == 0) continue;
    const size_t at = static_cast<size_t>(c.offset) * plane;
    GPUFFTW_CUDA(cudaMemcpyAsync, x_ + at, host_in + at, static_cast<size_t>(c.count) * plane, cudaMemcpyHostToDevice,
                 in_);
    GPUFFTW_CUDA(cudaEventRecord, arrived_[k], in_);
  }
  for (int k = 0; k < r.chunks; ++k) {
    const Run c = piece(r.my_f, r.chunks, k);
    if (c.count == 0) continue;
    GPUFFTW_CUDA(cudaEventSynchronize, arrived_[k]);
    char *at = x_ + static_cast<size_t>(c.offset) * plane;
    Steps<R>::run(first_.at(c.count), first_kind, at, at);
    if (!copy(packs_[k], x_, y_, cudaMemcpyDeviceToDevice, net_, why)) return false;
  }
  if (times) times->in = ms_since(&t);

  // The first exchange, straight into [f][my o]; step 3 in place there.
  if (!exchange(there_, y_, z_, why)) return false;
  GPUFFTW_CUDA(cudaStreamSynchronize, net_);
  if (times) times->there = ms_since(&t);
  if (third_) Steps<R>::run(third_, Kind::C2C, z_, z_);
  if (times) times->third = ms_since(&t);

  // Out, chunk by chunk: each chunk's part of the second exchange (or its
  // turn into [my o][f]) on the exchange's stream, its copy out after it.
  const ptrdiff_t lo = r.o_mid.count[r.me];
  const size_t row = static_cast<size_t>(r.nf) * unit_;
  for (int k = 0; k < r.chunks; ++k) {
    if (r.back) {
      if (!exchange(back_[k], z_, y_, why)) return false;
    } else if (!copy(turns_[k], z_, x_, cudaMemcpyDeviceToDevice, net_, why)) {
      return false;
    }
    GPUFFTW_CUDA(cudaEventRecord, ready_[k], net_);
    GPUFFTW_CUDA(cudaStreamWaitEvent, out_, ready_[k], 0);
    if (r.back) {
      if (!copy(back_[k].place, y_, host_out, cudaMemcpyDeviceToHost, out_, why)) return false;
    } else {
      const Run c = piece(lo, r.chunks, k);
      const size_t at = static_cast<size_t>(c.offset) * row;
      if (c.count > 0)
        GPUFFTW_CUDA(cudaMemcpyAsync, host_out + at, x_ + at, static_cast<size_t>(c.count) * row,
                     cudaMemcpyDeviceToHost, out_);
    }
  }
  GPUFFTW_CUDA(cudaStreamSynchronize, out_);
  if (times) times->out = ms_since(&t);
  return true;
}

template class Resident<double>;
template class Resident<float>;

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
