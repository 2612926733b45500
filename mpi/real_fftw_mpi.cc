#include "mpi/real_fftw_mpi.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <vector>

#include "core/library_search.h"
#include "core/log.h"

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
// the usual system directories.
std::vector<std::string> search_dirs(const char *probe) {
  if (const char *env = getenv("GPUFFTW_FFTW_MPI_DIR")) return split_dirs(env);
  std::vector<std::string> dirs;
  std::string loaded = loaded_file_defining(probe);
  if (!loaded.empty()) dirs.push_back(dir_of(loaded));
  if (const char *env = getenv("GPUFFTW_FFTW_DIR"))
    for (std::string &d : split_dirs(env)) dirs.push_back(std::move(d));
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

template <class R>
struct Names;
template <>
struct Names<double> {
  static constexpr const char *mpi = "libfftw3_mpi.so.3";
  static constexpr const char *serial = "libfftw3.so.3";
  static constexpr const char *threads = "libfftw3_threads.so.3";
  static constexpr const char *threads_probe = "fftw_plan_with_nthreads";
  static constexpr const char *mpi_probe = "fftw_mpi_local_size_guru";  // the real one's, not gpufftw's
  static constexpr const char *serial_probe = "fftw_the_planner";       // FFTW-internal
  static constexpr const char *word = "double";
};
template <>
struct Names<float> {
  static constexpr const char *mpi = "libfftw3f_mpi.so.3";
  static constexpr const char *serial = "libfftw3f.so.3";
  static constexpr const char *threads = "libfftw3f_threads.so.3";
  static constexpr const char *threads_probe = "fftwf_plan_with_nthreads";
  static constexpr const char *mpi_probe = "fftwf_mpi_local_size_guru";
  static constexpr const char *serial_probe = "fftwf_the_planner";
  static constexpr const char *word = "single";
};

template <class T>
bool load_symbol(void *h, const std::string &name, T *slot) {
  *slot = reinterpret_cast<T>(dlsym(h, name.c_str()));
  if (!*slot) GPUFFTW_LOG(Warn, "the real FFTW MPI lacks %s", name.c_str());
  return *slot != nullptr;
}

#define GPUFFTW_MPI_LOAD(P, name) ok &= load_symbol(h, #P "mpi_" #name, &t.name);
#define GPUFFTW_MPI_SERIAL_LOAD(P, name) ok &= load_symbol(hs, #P #name, &t.serial_##name);

bool load_all(RealFftwMpi<double> &t, void *h, void *hs) {
  bool ok = true;
  GPUFFTW_MPI_FUNCS(GPUFFTW_MPI_LOAD, fftw_)
  GPUFFTW_MPI_SERIAL_FUNCS(GPUFFTW_MPI_SERIAL_LOAD, fftw_)
  return ok;
}
bool load_all(RealFftwMpi<float> &t, void *h, void *hs) {
  bool ok = true;
  GPUFFTW_MPI_FUNCS(GPUFFTW_MPI_LOAD, fftwf_)
  GPUFFTW_MPI_SERIAL_FUNCS(GPUFFTW_MPI_SERIAL_LOAD, fftwf_)
  return ok;
}
void load_threads(RealFftwMpi<double> &t, void *ht) {
  bool ok = true;
  void *hs = ht;
  GPUFFTW_MPI_THREADS_FUNCS(GPUFFTW_MPI_SERIAL_LOAD, fftw_)
  if (!ok) t.serial_init_threads = nullptr, t.serial_plan_with_nthreads = nullptr;
}
void load_threads(RealFftwMpi<float> &t, void *ht) {
  bool ok = true;
  void *hs = ht;
  GPUFFTW_MPI_THREADS_FUNCS(GPUFFTW_MPI_SERIAL_LOAD, fftwf_)
  if (!ok) t.serial_init_threads = nullptr, t.serial_plan_with_nthreads = nullptr;
}
#undef GPUFFTW_MPI_LOAD
#undef GPUFFTW_MPI_SERIAL_LOAD

template <class R>
RealFftwMpi<R> load() {
  using N = Names<R>;
  RealFftwMpi<R> t;
  std::string searched;
  std::vector<std::string> dirs = search_dirs(N::mpi_probe);
  for (const std::string &dir : dirs) {
    std::string mpi_path = dir + "/" + N::mpi;
    searched += (searched.empty() ? "" : ", ") + mpi_path;
    if (access(mpi_path.c_str(), R_OK) != 0) continue;
    // The real serial FFTW first: the one already loaded where the program
    // linked it (preload), else the one beside the real FFTW MPI, else the
    // first real one of the other directories.
    std::vector<std::string> serial_candidates;
    std::string loaded = loaded_file_defining(N::serial_probe);
    if (!loaded.empty()) serial_candidates.push_back(loaded);
    serial_candidates.push_back(dir + "/" + N::serial);
    for (const std::string &d : dirs) serial_candidates.push_back(d + "/" + N::serial);
    void *hs = nullptr;
    for (const std::string &s : serial_candidates)
      if ((hs = open_defining(s, N::serial_probe, RTLD_NOW | RTLD_GLOBAL))) {
        t.serial_path = s;
        break;
      }
    if (!hs) {
      GPUFFTW_LOG(Warn, "no real serial FFTW (%s precision) for %s", N::word, mpi_path.c_str());
      continue;
    }
    void *h = open_defining(mpi_path, N::mpi_probe, RTLD_NOW | RTLD_LOCAL);
    if (!h) continue;
    t.path = mpi_path;
    t.loaded = load_all(t, h, hs);
    // Its threads library, beside the serial one (its internal names resolve
    // to that one, global now), where there is one.
    if (void *ht = open_defining(dir_of(real_path(t.serial_path)) + "/" + N::threads, N::threads_probe,
                                 RTLD_NOW | RTLD_GLOBAL))
      load_threads(t, ht);
    GPUFFTW_LOG(Info, "real FFTW MPI %s from %s, its serial FFTW %s", N::word, t.path.c_str(),
                t.serial_path.c_str());
    return t;
  }
  GPUFFTW_LOG(Warn, "the real FFTW MPI (%s precision) was not found; searched %s (GPUFFTW_FFTW_MPI_DIR names "
              "other directories); its plans will be NULL", N::word, searched.c_str());
  return t;
}

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

template <class R>
void sync_threads() {
  const RealFftwMpi<R> &t = real_fftw_mpi<R>();
  if (!t.serial_init_threads || !t.serial_plan_with_nthreads) return;
  static std::atomic<bool> started{false};
  const int n = planner_nthreads(static_cast<R *>(nullptr));
  if (n > 1 && !started.load()) {
    if (!t.serial_init_threads()) return;
    started.store(true);
  }
  if (started.load()) t.serial_plan_with_nthreads(n > 0 ? n : 1);
}

template void sync_threads<double>();
template void sync_threads<float>();

}  // namespace mpi
}  // namespace gpufftw
