#include "fallback/real_fftw.h"
#include "fallback/thread_pool.h"

#include <dlfcn.h>
#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "core/library_search.h"
#include "core/log.h"
#include "core/precision_traits.h"

namespace gpufftw {
namespace {

// glibc's initial threshold for a block of its own mapping (M_MMAP_THRESHOLD).
constexpr int kMmapThreshold = 128 * 1024;

// The one private namespace all real libraries share; opened by loading the
// C library into it, which stays loaded so the namespace never goes away.
Lmid_t private_namespace() {
  static const Lmid_t lmid = []() -> Lmid_t {
    Lmid_t id = LM_ID_BASE;
    void *libc = dlmopen(LM_ID_NEWLM, "libc.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!libc || dlinfo(libc, RTLD_DI_LMID, &id) != 0) {
      GPUFFTW_LOG(Warn, "dlmopen of a private namespace failed (%s)", dlerror());
      return LM_ID_BASE;
    }
    // That C library's malloc maps its first heap (a megabyte: it cannot
    // grow with brk) at its first call. Where memory is too short for it,
    // the real FFTW would abort at its first allocation; found now, its
    // plans are NULL instead, as where it is not found.
    using Malloc = void *(*)(size_t);
    using Free = void (*)(void *);
    auto malloc_there = reinterpret_cast<Malloc>(dlsym(libc, "malloc"));
    auto free_there = reinterpret_cast<Free>(dlsym(libc, "free"));
    void *first = malloc_there && free_there ? malloc_there(1) : nullptr;
    if (!first) {
      GPUFFTW_LOG(Warn, "malloc in the private namespace failed (%s)",
                  malloc_there && free_there ? "out of memory" : "malloc or free not found");
      return LM_ID_BASE;
    }
    free_there(first);
    // Nor can that heap shrink, so a block freed into it stays mapped.
    // glibc's threshold for giving a large block a mapping of its own
    // rises past every large block freed (up to 32 MB), after which the
    // real FFTW's planning buffers land in the heap and keep it grown:
    // planning would need more address space than in plain FFTW. A fixed
    // threshold (glibc's default) keeps them mapped apart, and unmapped
    // when freed.
    using Mallopt = int (*)(int, int);
    if (auto mallopt_there = reinterpret_cast<Mallopt>(dlsym(libc, "mallopt")))
      mallopt_there(M_MMAP_THRESHOLD, kMmapThreshold);
    // That C library dlopens libgcc_s the first time a thread of its own
    // unwinds (the real FFTW's workers, as they exit). Done at exit, that
    // dlopen can deadlock against the loader's shutdown; a backtrace now
    // makes it load libgcc_s at a quiet moment, once.
    using Backtrace = int (*)(void **, int);
    if (auto backtrace = reinterpret_cast<Backtrace>(dlsym(libc, "backtrace"))) {
      void *frames[2];
      backtrace(frames, 2);
    }
    return id;
  }();
  return lmid;
}

// gpufftw's own file, to never take it (or a drop-in name for it) for FFTW.
std::string own_file() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&own_file), &info) && info.dli_fname)
    return real_path(info.dli_fname);
  return {};
}

// Directories to search, in order: the directory of the library the
// application itself loaded (preload), the one gpufftw was built against,
// then the usual system ones. GPUFFTW_FFTW_DIR (a ':'-separated list)
// replaces them all; empty, it is unset, as every setting is.
std::vector<std::string> search_dirs(const char *probe_symbol) {
  if (std::vector<std::string> dirs = dirs_setting("GPUFFTW_FFTW_DIR"); !dirs.empty()) return dirs;
  std::vector<std::string> dirs;
  Dl_info info{};
  void *next = dlsym(RTLD_NEXT, probe_symbol);
  if (next && dladdr(next, &info) && info.dli_fname) dirs.push_back(dir_of(real_path(info.dli_fname)));
  append_default_dirs(&dirs);
  return dirs;
}

// Opens `file` from the first directory where it is the real FFTW; the
// real one is told from gpufftw by its not defining gpufftw_version.
void *open_real(const std::vector<std::string> &dirs, const char *file, std::string *path, std::string *searched) {
  static const std::string self = own_file();
  Lmid_t lmid = private_namespace();
  if (lmid == LM_ID_BASE) return nullptr;
  for (const std::string &dir : dirs) {
    std::string candidate = dir + "/" + file;
    *searched += (searched->empty() ? "" : ", ") + candidate;
    if (access(candidate.c_str(), R_OK) != 0 || real_path(candidate) == self) continue;
    void *h = dlmopen(lmid, candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      *searched += std::string(" (") + dlerror() + ")";  // there, but not loaded: memory may be short
      continue;
    }
    if (dlsym(h, "gpufftw_version")) {
      dlclose(h);
      continue;
    }
    *path = candidate;
    return h;
  }
  return nullptr;
}

// The table's cleanup: the real one, counted (real_cleanups).
template <class R>
struct Cleanups {
  static inline std::atomic<uint64_t> count{0};
  static inline void (*real)() = nullptr;
};
template <class R>
void counted_cleanup() {
  Cleanups<R>::count.fetch_add(1);
  Cleanups<R>::real();
}

// Fills the field `name` of the table t from the library `handle`; `ok`
// turns false where that library lacks it.
#define GPUFFTW_LOAD(handle, name) \
  ok &= load_symbol(handle, std::string(N::prefix) + #name, "the real FFTW", &t.name);

template <class R>
RealFftw<R> load() {
  using N = PrecisionTraits<R>;
  RealFftw<R> t;
  std::string searched;
  std::vector<std::string> dirs = search_dirs((std::string(N::prefix) + "plan_guru64_dft").c_str());
  void *h = open_real(dirs, N::lib, &t.path, &searched);
  if (!h) {
    GPUFFTW_LOG(Warn, "the real FFTW (%s precision) was not found; searched %s (GPUFFTW_FFTW_DIR names other "
                "directories); plans of this precision will be NULL", N::word, searched.c_str());
    return t;
  }
  bool ok = true;
  GPUFFTW_REAL_CORE_FUNCS(GPUFFTW_LOAD, h)
  t.loaded = ok;
  if (ok) {
    Cleanups<R>::real = t.cleanup;
    t.cleanup = counted_cleanup<R>;
  }
  GPUFFTW_LOG(Info, "real FFTW %s from %s", N::word, t.path.c_str());
  // The threads library must sit beside the library just opened: it links
  // to libfftw3*.so.3 by SONAME, which the namespace now resolves to that one.
  std::string threads_path, threads_searched;
  void *ht = open_real({dir_of(t.path)}, N::threads_lib, &threads_path, &threads_searched);
  if (ht) {
    ok = true;
    GPUFFTW_REAL_THREADS_FUNCS(GPUFFTW_LOAD, ht)
    t.threads_loaded = ok;
    if (t.threads_loaded) t.threads_set_callback(parallel_loop, nullptr);
  } else
    GPUFFTW_LOG(Warn, "no %s beside %s: FFTW's threads are not available", N::threads_lib, t.path.c_str());
  return t;
}
#undef GPUFFTW_LOAD

}  // namespace

template <class R>
const RealFftw<R> &real_fftw() {
  static const RealFftw<R> table = load<R>();
  return table;
}

template const RealFftw<float> &real_fftw<float>();
template const RealFftw<double> &real_fftw<double>();
template const RealFftw<long double> &real_fftw<long double>();

template <class R>
uint64_t real_cleanups() {
  return Cleanups<R>::count.load();
}

template uint64_t real_cleanups<float>();
template uint64_t real_cleanups<double>();
template uint64_t real_cleanups<long double>();

}  // namespace gpufftw
