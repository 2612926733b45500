// A batch over several GPUs: the loop of most iterations is cut into one
// share per GPU, each share a job of its own on its device (staging
// pipeline, streams, pinned slots and copy threads of its own), all run at
// once from threads of their own. In half precision (Geometry::half) each
// share is a half job, whose host side converts its own share to halves on
// its device's staging threads.
#include <algorithm>

#include "engine/device/context.h"
#include "engine/device/device_set.h"
#include "engine/multi/partition.h"
#include "engine/multi/split_job.h"
#include "engine/multi/split_shapes.h"
#include "engine/multi/whole_on_owner.h"
#include "engine/staging/sides.h"

namespace gpufftw::engine {
namespace {

class BatchSplitJob final : public FftJob {
 public:
  struct Part {
    int device;
    long long begin;  // the share's first iteration of the loop
    std::unique_ptr<FftJob> job;
  };

  BatchSplitJob(const Geometry &g, size_t loop, std::vector<Part> parts, OneGpuPlanner one_gpu)
      : g_(g), loop_(loop), parts_(std::move(parts)), whole_(g, parts_[0].device, std::move(one_gpu)) {
    const Side in = make_side(g, false), out = make_side(g, true);
    in_step_ = static_cast<long long>(in.elem) * g.loops[loop].is;
    out_step_ = static_cast<long long>(out.elem) * g.loops[loop].os;
    std::string shares;
    for (const Part &p : parts_)
      shares += (shares.empty() ? "" : "+") + std::to_string(part_size(p));
    std::vector<int> set;
    for (const Part &p : parts_) set.push_back(p.device);
    placement = "GPUs " + device_list(set) + ": the batch split " + shares;
  }

  ~BatchSplitJob() override {
    for (Part &p : parts_) {
      DeviceScope on(p.device);
      p.job.reset();
    }
  }

  std::string path() const override { return parts_[0].job->path(); }
  bool half() const override { return parts_[0].job->half(); }

  bool run(void *const in[2], void *const out[2], std::string *why) override {
    // Arrays in one GPU's memory are transformed there, whole.
    const Memory mi = memory_type(in[0]), mo = memory_type(out[0]);
    if (on_device(mi) || on_device(mo)) return whole_.run(on_device(mi) ? in[0] : out[0], in, out, why);
    const int n = static_cast<int>(parts_.size());
    std::vector<std::string> whys(n);
    std::vector<char> ok(n, 0);
    on_device_threads(n, [&](int k) {
      const Part &p = parts_[k];
      DeviceScope on(p.device);
      if (!on.ok()) {
        whys[k] = on.why();
        return;
      }
      void *pin[2], *pout[2];
      for (int s = 0; s < 2; ++s) {
        pin[s] = in[s] ? static_cast<char *>(in[s]) + p.begin * in_step_ : nullptr;
        pout[s] = out[s] ? static_cast<char *>(out[s]) + p.begin * out_step_ : nullptr;
      }
      ok[k] = p.job->run(pin, pout, &whys[k]);
    });
    for (int k = 0; k < n; ++k)
      if (!ok[k]) return *why = "GPU " + std::to_string(parts_[k].device) + ": " + whys[k], false;
    return true;
  }

 private:
  long long part_size(const Part &p) const {
    const size_t i = &p - parts_.data();
    const long long end = i + 1 < parts_.size() ? parts_[i + 1].begin : g_.loops[loop_].n;
    return end - p.begin;
  }

  Geometry g_;
  size_t loop_;
  std::vector<Part> parts_;
  long long in_step_ = 0, out_step_ = 0;  // bytes per iteration of the loop
  WholeOnOwner whole_;
};

// Each share's job planned on its GPU by the one-GPU planner.
std::unique_ptr<FftJob> make_batch_split(const Geometry &g, const Ask &ask, Reason *why_not) {
  const Geometry h = without_unit_loops(g);
  const size_t loop = split_loop(h);
  auto no_job = [why_not](int device, const std::string &why) {
    *why_not = {Reason::Code::NoJob, "batch: GPU " + std::to_string(device) + ": " + why};
    return nullptr;
  };
  std::vector<BatchSplitJob::Part> parts;
  const std::vector<Share> shares = split_evenly(h.loops[loop].n, static_cast<int>(ask.set.size()));
  enable_peer_access(ask.set);
  for (size_t k = 0; k < shares.size(); ++k) {
    Geometry part = h;
    part.loops[loop].n = shares[k].size();
    DeviceScope on(ask.set[k]);
    if (!on.ok()) return no_job(ask.set[k], on.why());
    std::string why;
    std::unique_ptr<FftJob> job = ask.one_gpu(part, &why);
    if (!job) return no_job(ask.set[k], why);
    // One precision over the set: where the half job took one share and
    // not another (the other's past the device memory cap, say), the plan
    // would be half in half.
    if (!parts.empty() && job->half() != parts[0].job->half())
      return no_job(ask.set[k], "its share and GPU " + std::to_string(ask.set[0]) +
                                    "'s differ in precision (the half job took one only)");
    parts.push_back({ask.set[k], shares[k].begin, std::move(job)});
  }
  return std::make_unique<BatchSplitJob>(h, loop, std::move(parts), ask.one_gpu);
}

}  // namespace

const Solver kBatchSplitSolver = {"batch split", true, Gives::Transform, batch_split_suits, batch_split_cost,
                                  make_batch_split};

}  // namespace gpufftw::engine
