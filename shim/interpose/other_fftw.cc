#include "shim/interpose/other_fftw.h"

#include <dlfcn.h>
#include <link.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/log.h"
#include "shim/interpose/libc_dlsym.h"

namespace gpufftw {
namespace {

using Range = std::pair<uintptr_t, uintptr_t>;

bool holds(const std::vector<Range> &ranges, uintptr_t a) {
  for (const Range &r : ranges)
    if (a >= r.first && a < r.second) return true;
  return false;
}

// One other FFTW: its file, a handle on it (kept, so that the lookups
// below stay valid), where its code lies, and whether it has FFTW's own
// planner (its internal X(mkplanner)). An object that defines FFTW's
// public names without one is another vendor's FFTW interface (cuFFTW,
// MKL's), or a tool in front of FFTW (a profiler's wrapper that counts
// the calls and hands each to the next definition), which made no plan.
struct OtherFftw {
  std::string file;
  uintptr_t base = 0;
  void *handle = nullptr;
  std::vector<Range> code;
  bool planner = false;
};

struct Loaded {
  std::vector<OtherFftw> fftws;
};

// An object as dl_iterate_phdr shows it.
struct Object {
  std::string file;
  uintptr_t base = 0;
  std::vector<Range> mapped, code;
};

// What this file keeps, made once and never destroyed: FFTW calls arrive
// from the program's static destructors and after them.
struct State {
  std::mutex own_mutex;
  std::vector<uintptr_t> own_bases;  // load addresses of gpufftw's own libraries
  // The latest reading of the loaded objects, published whole. A reading
  // calls into the loader (dlopen, dlsym), which may hold its own lock while
  // it runs a library's constructor that calls FFTW: no lock of gpufftw's is
  // held across a reading, so readings may overlap, and the one of the
  // newest loader state is kept.
  std::shared_ptr<const Loaded> current = std::make_shared<Loaded>();
  std::mutex publish_mutex;
  unsigned long long published_changes = 0;
};

State &state() {
  static State *const s = new State;
  return *s;
}

uintptr_t base_of(const void *code) {
  Dl_info info{};
  return dladdr(code, &info) ? reinterpret_cast<uintptr_t>(info.dli_fbase) : 0;
}

constexpr unsigned long long kUnread = ~0ull;
std::atomic<unsigned long long> seen_changes{kUnread};  // of state().current

// Objects the loader has added and removed so far: grows with every change.
unsigned long long loader_changes() {
  unsigned long long c = 0;
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        *static_cast<unsigned long long *>(data) = info->dlpi_adds + info->dlpi_subs;
        return 1;
      },
      &c);
  return c;
}

std::vector<Object> loaded_objects() {
  std::vector<Object> objects;
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        // The program itself (no name) calls its own FFTW directly, and
        // the kernel's vDSO is no file. A relative name is the one the
        // search found (LD_LIBRARY_PATH=., a dlopen of "lib/x.so"), which
        // dlopen matches again by name whatever the working folder.
        if (!info->dlpi_name || info->dlpi_name[0] == '\0' || std::strncmp(info->dlpi_name, "linux-vdso", 10) == 0)
          return 0;
        Object o;
        o.file = info->dlpi_name;
        o.base = info->dlpi_addr;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD) continue;
          const Range r{info->dlpi_addr + ph.p_vaddr, info->dlpi_addr + ph.p_vaddr + ph.p_memsz};
          o.mapped.push_back(r);
          if (ph.p_flags & PF_X) o.code.push_back(r);
        }
        static_cast<std::vector<Object> *>(data)->push_back(std::move(o));
        return 0;
      },
      &objects);
  return objects;
}

// The objects of the program's namespace (not gpufftw's private one, whose
// real FFTW never calls into gpufftw) that define an FFTW execute, or FFTW's
// threads, of their own.
std::shared_ptr<const Loaded> rescan(const Loaded &before) {
  auto now = std::make_shared<Loaded>();
  const DlsymFn lookup = libc_dlsym();
  if (!lookup) return now;
  std::vector<uintptr_t> own;
  {
    std::lock_guard<std::mutex> lock(state().own_mutex);
    own = state().own_bases;
  }
  for (const Object &o : loaded_objects()) {
    bool is_own = false;
    for (uintptr_t b : own) is_own |= holds(o.mapped, b);
    if (is_own) continue;
    void *h = dlopen(o.file.c_str(), RTLD_NOLOAD | RTLD_LAZY);
    if (!h) continue;  // in another namespace only
    link_map *lm = nullptr;
    bool fftw = dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_addr == o.base;
    auto defines_one_of = [&](std::initializer_list<const char *> probes) {
      for (const char *probe : probes)
        if (void *p = lookup(h, probe); p && holds(o.mapped, reinterpret_cast<uintptr_t>(p))) return true;
      return false;
    };
    fftw = fftw && defines_one_of({"fftwf_execute", "fftw_execute", "fftwl_execute", "fftwf_init_threads",
                                   "fftw_init_threads"});
    if (!fftw) {
      dlclose(h);
      continue;
    }
    bool known = false;
    for (const OtherFftw &k : before.fftws)
      if (k.base == o.base && k.file == o.file) {
        dlclose(h);  // the handle already held
        now->fftws.push_back(k);
        known = true;
      }
    if (known) continue;
    GPUFFTW_LOG(Info, "another FFTW is loaded: %s (its own calls and plans go back to it)", o.file.c_str());
    now->fftws.push_back(
        OtherFftw{o.file, o.base, h, o.code, defines_one_of({"fftwf_mkplanner", "fftw_mkplanner", "fftwl_mkplanner"})});
  }
  return now;
}

std::shared_ptr<const Loaded> loaded() { return std::atomic_load(&state().current); }

// The program's own mapped ranges: dl_iterate_phdr's first object.
std::vector<Range> program_ranges() {
  std::vector<Range> ranges;
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &ph = info->dlpi_phdr[i];
          if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X))
            static_cast<std::vector<Range> *>(data)->push_back(
                {info->dlpi_addr + ph.p_vaddr, info->dlpi_addr + ph.p_vaddr + ph.p_memsz});
        }
        return 1;
      },
      &ranges);
  return ranges;
}

}  // namespace

bool in_program_file(const void *code) {
  static const std::vector<Range> *const ranges = new std::vector<Range>(program_ranges());
  return holds(*ranges, reinterpret_cast<uintptr_t>(code));
}

void note_own_library(const void *code) {
  if (uintptr_t b = base_of(code)) {
    std::lock_guard<std::mutex> lock(state().own_mutex);
    state().own_bases.push_back(b);
  }
  seen_changes.store(kUnread);  // the next refresh rereads
}

bool is_own_code(const void *code) {
  static const uintptr_t self = base_of(reinterpret_cast<const void *>(&is_own_code));
  const uintptr_t b = base_of(code);
  if (b == self) return true;
  std::lock_guard<std::mutex> lock(state().own_mutex);
  for (uintptr_t o : state().own_bases)
    if (o == b) return true;
  return false;
}

void refresh_other_fftws() {
  static const bool self_noted = (note_own_library(reinterpret_cast<const void *>(&refresh_other_fftws)), true);
  (void)self_noted;
  const unsigned long long changes = loader_changes();
  if (changes == seen_changes.load(std::memory_order_acquire)) return;
  const std::shared_ptr<const Loaded> before = loaded();
  std::shared_ptr<const Loaded> now = rescan(*before);
  State &st = state();
  std::lock_guard<std::mutex> lock(st.publish_mutex);
  if (changes < st.published_changes) {
    // An overlapping reading of a newer state was kept: this one's new
    // handles go back.
    for (const OtherFftw &o : now->fftws) {
      bool held = false;
      for (const OtherFftw &k : before->fftws) held |= k.handle == o.handle;
      if (!held) dlclose(o.handle);
    }
    return;
  }
  st.published_changes = changes;
  std::atomic_store(&st.current, std::move(now));
  seen_changes.store(changes, std::memory_order_release);
}

void *other_fftw_function(const void *code, const char *name) {
  const std::shared_ptr<const Loaded> l = loaded();
  for (const OtherFftw &o : l->fftws) {
    if (!holds(o.code, reinterpret_cast<uintptr_t>(code))) continue;
    void *f = libc_dlsym()(o.handle, name);
    if (!f || is_own_code(f)) return nullptr;
    // Called from inside that very function: a wrapper of the name handing
    // the program's call on (dlsym with RTLD_NEXT, or a handle on the next
    // library), which gpufftw answers; sent back, it would come round again.
    Dl_info caller{};
    if (dladdr(code, &caller) && caller.dli_saddr == f) return nullptr;
    GPUFFTW_LOG(Debug, "%s called from inside %s: answered by that library", name, o.file.c_str());
    return f;
  }
  return nullptr;
}

namespace {
// How many of this thread's calls to a plan's owner are under way.
thread_local int owner_calls = 0;
}  // namespace

OwnerCall::OwnerCall() { ++owner_calls; }
OwnerCall::~OwnerCall() { --owner_calls; }

void *plan_owner_function(const char *name) {
  refresh_other_fftws();
  const std::shared_ptr<const Loaded> l = loaded();
  // The candidates in order: FFTW's own first, then the other interfaces.
  // A call that comes back while this thread's earlier ones are under way
  // was handed on by the one they went to (a tool in front of FFTW, with
  // RTLD_NEXT), and goes on to the next candidate, so that none is asked
  // twice.
  int skip = owner_calls;
  for (const bool planner : {true, false})
    for (const OtherFftw &o : l->fftws) {
      if (o.planner != planner) continue;
      void *f = libc_dlsym()(o.handle, name);
      if (!f || is_own_code(f) || skip-- > 0) continue;
      GPUFFTW_LOG(Debug, "%s called with a plan of %s: run by that library", name, o.file.c_str());
      return f;
    }
  static std::atomic<bool> said{false};
  if (!said.exchange(true))
    GPUFFTW_LOG(Warn, "%s called with a plan gpufftw did not make, and no other FFTW is loaded to run it; "
                "nothing done", name);
  return nullptr;
}

}  // namespace gpufftw
