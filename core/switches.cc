#include "core/switches.h"

#include <cstring>

namespace gpufftw {
namespace {

const Switch kSwitches[] = {
    {"GPUFFTW_MODE", true, "auto, gpu, cpu", "auto",
     "where plans run: auto, each plan where it runs faster; gpu, every problem the GPU can take; cpu, all on the "
     "real FFTW"},
    {"GPUFFTW_PRECISION", true, "fp32, fp16", "fp32",
     "fp16 (opt-in): fftwf_ c2c, r2c and c2r plans on the GPU compute in half precision where that is faster "
     "(relative L2 error about 1e-3)"},
    {"GPUFFTW_FP16_WAY", true, "auto, ours, cufft-fp16, fp32-on-halves, fp32", "auto",
     "under fp16, how plans compute: auto, the fastest by the cost model or, under FFTW_MEASURE, by timing; else "
     "that way wherever it takes the problem (for tests and benchmarks)"},
    {"GPUFFTW_MEASURE", true, "auto, always", "auto",
     "always: FFTW_MEASURE times both sides even where the cost model is sure"},
    {"GPUFFTW_CACHE_DIR", false, "an absolute path to a folder gpufftw can write",
     "$XDG_CACHE_HOME/gpufftw or ~/.cache/gpufftw",
     "where dispatch.txt keeps the machine's calibration and the measured choices"},
    {"GPUFFTW_LOG", true, "off, warn, info, debug", "warn",
     "the log on stderr; info: where the real FFTW came from; debug: every call, where each plan went and why"},
    {"GPUFFTW_REPORT", true, "0, 1", "0", "1: a table at exit of the plans, where they ran and why, their executes"},
    {"GPUFFTW_COMPARE", true, "0, 1", "0", "1: comparison mode, every execute also on the real FFTW (gpufftw-compare)"},
    {"GPUFFTW_COMPARE_EVERY", false, "an integer N from 1", "1", "in comparison mode, compare one execute in N"},
    {"GPUFFTW_COMPARE_FILE", false, "a file", "none",
     "in comparison mode, also write one JSON line per plan to that file"},
    {"GPUFFTW_COMPARE_HTML", false, "a file", "none",
     "in comparison mode, also write the comparison as one self-contained HTML page to that file"},
    {"GPUFFTW_COMPARE_PERTURB", true, "0, 1", "0", "test hook: 1 puts an error into gpufftw's results"},
    {"GPUFFTW_FFTW_DIR", false, "folders, :-separated", "the usual places",
     "where to look for the real libfftw3*.so.3"},
    {"GPUFFTW_FFTW_MPI_DIR", false, "folders, :-separated", "the usual places",
     "where to look for the real libfftw3(f)_mpi.so.3 and the serial FFTW it was built with"},
    {"GPUFFTW_DEVICE", false, "a CUDA device number", "device 0 and the others of its model",
     "the one GPU to use (among those CUDA_VISIBLE_DEVICES shows)"},
    {"GPUFFTW_DEVICES", false, "all, or a comma list of distinct device numbers",
     "device 0 and the others of its model", "the GPUs a plan may use"},
    {"GPUFFTW_DEVICE_MEMORY", false, "bytes, or with K, M, G", "four fifths of the free device memory",
     "device memory one plan may hold: batches are chunked to fit; a single transform over it runs on the real "
     "FFTW"},
    {"GPUFFTW_PINNED_MIN", false, "bytes", "1048576", "fftw_malloc hands out pinned memory from this size up"},
    {"GPUFFTW_MPI_PATH", true, "auto, composed, real", "auto",
     "FFTW MPI programs: distributed DFTs composed (local transforms through gpufftw, transposes through MPI) or "
     "on the real FFTW MPI; auto: composed where every rank has a GPU"},
    {"GPUFFTW_MPI_EXCHANGE", true, "auto, host", "auto",
     "composed plans: auto, GPU to GPU through NCCL where every rank can; host, MPI on host memory"},
    {"GPUFFTW_LIBRARY", false, "a file", "libgpufftw.so.1 beside the tools",
     "the libgpufftw.so.1 gpufftw-run and gpufftw-compare preload"},
    {"GPUFFTW_MPI_LIBRARY", false, "a file", "libgpufftw_mpi.so.1 beside the tools",
     "the libgpufftw_mpi.so.1 gpufftw-run preloads for FFTW MPI programs"},
    {"GPUFFTW_FAULT", false, "plan, execute, alloc or sticky, each optionally @DEVICE", "no fault",
     "test hook: that GPU step fails as a CUDA error would"},
    {"GPUFFTW_SPLIT_TEST", false, "an integer from 1 to 64", "no split test",
     "test hook: plans split over that many shares of one GPU, as over a set"},
};

}  // namespace

const Switch *switches(size_t *count) {
  *count = sizeof kSwitches / sizeof kSwitches[0];
  return kSwitches;
}

const Switch *find_switch(const char *name) {
  for (const Switch &s : kSwitches)
    if (std::strcmp(s.name, name) == 0) return &s;
  return nullptr;
}

}  // namespace gpufftw
