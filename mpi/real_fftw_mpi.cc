#include "mpi/real_fftw_mpi.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <vector>

#include "core/library_search.h"
#include "core/log.h"
#include "core/precision_traits.h"
#include "shim/foreign.h"

namespace gpufftw {
namespace mpi {
namespace {

// The file that defines `symbol` among the objects already loaded, or "".
std::string loaded_file_defining(const char *symbol) {
  Dl_info info{};
  void *p = dlsym(RTLD_DEFAULT, symbol);
  if (p && dladdr(p, &info) && info.dli_fname) return real_path(info.dli_fname);
  return {};
}

// Where to look: GPUFFTW_FFTW_MPI_DIR (a ':'-separated list) replaces all
// the rest; else the directory of the real FFTW MPI the program loaded
// itself (preload), GPUFFTW_FFTW_DIR, the FFTW gpufftw was built against and
// the usual system directories. Either, empty, is unset.
std::vector<std::string> search_dirs(const char *probe) {
  if (std::vector<std::string> dirs = dirs_setting("GPUFFTW_FFTW_MPI_DIR"); !dirs.empty()) return dirs;
  std::vector<std::string> dirs;
  std::string loaded = loaded_file_defining(probe);
  if (!loaded.empty()) dirs.push_back(dir_of(loaded));
  for (std::string &d : dirs_setting("GPUFFTW_FFTW_DIR")) dirs.push_back(std::move(d));
  append_default_dirs(&dirs);
  return dirs;
}

// Opens `path` in the program's namespace; keeps it only if `symbol` is
// defined by that very file (not by gpufftw, which a drop-in name of it
// would bring along).
void *open_defining(const std::string &path, const char *symbol, int mode) {
  if (access(path.c_str(), R_OK) != 0) return nullptr;
  void *h = dlopen(path.c_str(), mode);
  if (!h) {
    GPUFFTW_LOG(Info, "skipping %s: %s", path.c_str(), dlerror());
    return nullptr;
  }
  Dl_info info{};
  void *p = dlsym(h, symbol);
  if (p && dladdr(p, &info) && info.dli_fname && real_path(info.dli_fname) == real_path(path)) return h;
  GPUFFTW_LOG(Info, "skipping %s: not the real FFTW (%s is not its own)", path.c_str(), symbol);
  dlclose(h);
  return nullptr;
}

// Fills the table t from the library `handle`: the MPI library's functions
// (prefixed mpi_) and the serial library's (as serial_ fields); `ok` turns
// false where that library lacks one.
#define GPUFFTW_MPI_LOAD(handle, name) \
  ok &= load_symbol(handle, std::string(N::prefix) + "mpi_" #name, "the real FFTW MPI", &t.name);
#define GPUFFTW_MPI_SERIAL_LOAD(handle, name) \
  ok &= load_symbol(handle, std::string(N::prefix) + #name, "the real FFTW", &t.serial_##name);

template <class R>
RealFftwMpi<R> load() {
  using N = PrecisionTraits<R>;
  // A function only the real FFTW MPI defines (gpufftw's has no local_size_guru),
  // one FFTW-internal to the serial library, and one of its threads library.
  const std::string mpi_probe = std::string(N::prefix) + "mpi_local_size_guru",
                    serial_probe = std::string(N::prefix) + "the_planner",
                    threads_probe = std::string(N::prefix) + "plan_with_nthreads";
  RealFftwMpi<R> t;
  std::string searched;
  std::vector<std::string> dirs = search_dirs(mpi_probe.c_str());
  for (const std::string &dir : dirs) {
    std::string mpi_path = dir + "/" + N::mpi_lib;
    searched += (searched.empty() ? "" : ", ") + mpi_path;
    if (access(mpi_path.c_str(), R_OK) != 0) continue;
    // The real serial FFTW first: the one already loaded where the program
    // linked it (preload), else the one beside the real FFTW MPI, else the
    // first real one of the other directories.
    std::vector<std::string> serial_candidates;
    std::string loaded = loaded_file_defining(serial_probe.c_str());
    if (!loaded.empty()) serial_candidates.push_back(loaded);
    serial_candidates.push_back(dir + "/" + N::lib);
    for (const std::string &d : dirs) serial_candidates.push_back(d + "/" + N::lib);
    void *hs = nullptr;
    for (const std::string &s : serial_candidates)
      if ((hs = open_defining(s, serial_probe.c_str(), RTLD_NOW | RTLD_GLOBAL))) {
        t.serial_path = s;
        break;
      }
    if (!hs) {
      GPUFFTW_LOG(Warn, "no real serial FFTW (%s precision) for %s", N::word, mpi_path.c_str());
      continue;
    }
    void *h = open_defining(mpi_path, mpi_probe.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) continue;
    t.path = mpi_path;
    bool ok = true;
    GPUFFTW_MPI_FUNCS(GPUFFTW_MPI_LOAD, h)
    GPUFFTW_MPI_SERIAL_FUNCS(GPUFFTW_MPI_SERIAL_LOAD, hs)
    t.loaded = ok;
    // Its planner holds the MPI plans' wisdom: the program's
    // fftw_forget_wisdom and fftw_cleanup, gpufftw's, reach it from here on.
    if (ok) gpufftw_foreign_wisdom(sizeof(R) == sizeof(float) ? 'f' : 'd', t.serial_forget_wisdom, t.serial_cleanup);
    // Its threads library, beside the serial one (its internal names resolve
    // to that one, global now), where there is one.
    if (void *ht = open_defining(dir_of(real_path(t.serial_path)) + "/" + N::threads_lib, threads_probe.c_str(),
                                 RTLD_NOW | RTLD_GLOBAL)) {
      ok = true;
      GPUFFTW_MPI_THREADS_FUNCS(GPUFFTW_MPI_SERIAL_LOAD, ht)
      if (!ok) t.serial_init_threads = nullptr, t.serial_plan_with_nthreads = nullptr;
    }
    GPUFFTW_LOG(Info, "real FFTW MPI %s from %s, its serial FFTW %s", N::word, t.path.c_str(),
                t.serial_path.c_str());
    return t;
  }
  GPUFFTW_LOG(Warn, "the real FFTW MPI (%s precision) was not found; searched %s (GPUFFTW_FFTW_MPI_DIR names "
              "other directories); its plans will be NULL", N::word, searched.c_str());
  return t;
}
#undef GPUFFTW_MPI_LOAD
#undef GPUFFTW_MPI_SERIAL_LOAD

}  // namespace

template <class R>
const RealFftwMpi<R> &real_fftw_mpi() {
  static const RealFftwMpi<R> table = load<R>();
  return table;
}

template const RealFftwMpi<double> &real_fftw_mpi<double>();
template const RealFftwMpi<float> &real_fftw_mpi<float>();

namespace {
int planner_nthreads(double *) { return fftw_planner_nthreads(); }  // gpufftw's
int planner_nthreads(float *) { return fftwf_planner_nthreads(); }
}  // namespace

namespace {

// A TimeLimitWithin's seconds per precision (0 double, 1 float); kNone
// where none is open on this thread.
constexpr double kNone = -2;
thread_local double limit_within[2] = {kNone, kNone};

template <class R>
double &limit_within_of() {
  return limit_within[sizeof(R) == sizeof(float)];
}

}  // namespace

template <class R>
void sync_serial() {
  const RealFftwMpi<R> &t = real_fftw_mpi<R>();
  if (t.serial_set_timelimit) {
    const double within = limit_within_of<R>();
    const double limit =
        within != kNone ? within : gpufftw_foreign_time_limit(sizeof(R) == sizeof(float) ? 'f' : 'd');
    t.serial_set_timelimit(limit);
    GPUFFTW_LOG(Debug, "the real FFTW MPI's serial planner: time limit %s",
                limit < 0 ? "none" : (std::to_string(limit) + " s").c_str());
  }
  if (!t.serial_init_threads || !t.serial_plan_with_nthreads) return;
  static std::atomic<bool> started{false};
  const int n = planner_nthreads(static_cast<R *>(nullptr));
  if (n > 1 && !started.load()) {
    if (!t.serial_init_threads()) return;
    started.store(true);
  }
  if (started.load()) t.serial_plan_with_nthreads(n > 0 ? n : 1);
}

template <class R>
TimeLimitWithin<R>::TimeLimitWithin(double seconds) : outer_(limit_within_of<R>()) {
  limit_within_of<R>() = seconds;
}

template <class R>
TimeLimitWithin<R>::~TimeLimitWithin() {
  limit_within_of<R>() = outer_;
}

template void sync_serial<double>();
template void sync_serial<float>();
template class TimeLimitWithin<double>;
template class TimeLimitWithin<float>;

}  // namespace mpi
}  // namespace gpufftw
