// The precision-generic bodies behind the C entry points of api.inc: each
// entry point turns its arguments into a Problem (or an Arrays for execute)
// and calls one of these.
#pragma once

#include <fftw3.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "core/config.h"
#include "core/log.h"
#include "core/plan.h"
#include "core/time_limit.h"
#include "dispatch/dispatch.h"
#include "fallback/real_fftw.h"
#include "fallback/thread_pool.h"
#include "shim/compare.h"
#include "shim/foreign.h"
#include "shim/interpose/other_fftw.h"
#include "shim/planner.h"
#include "shim/report.h"

namespace gpufftw {

// The opaque fftw_plan / fftwf_plan handle is a Plan*.
template <class Handle>
Handle handle(Plan *plan) {
  return reinterpret_cast<Handle>(plan);
}
template <class Handle>
Plan *unwrap(Handle h) {
  return reinterpret_cast<Plan *>(h);
}

template <class R>
Problem new_problem(Kind kind, unsigned flags) {
  Problem p;
  p.kind = kind;
  p.precision = precision_of<R>();
  p.flags = flags;
  return p;
}

// The real FFTW's table, or nullptr (and the caller does nothing) where it
// was not found.
// The program's fftw(f)_cleanup or fftw(f)_cleanup_threads: the real
// FFTW's planner cleaned up by `real_step` (none where the real FFTW is
// not there), which leaves it at one thread. gpufftw's choices go with it,
// and its note of the thread count, or a later plan would ask the real
// FFTW for the old count again; the serial FFTW under the MPI plans is
// cleaned up too, as FFTW's one planner would be.
template <class R>
void clean_up_planner(void (*real_step)()) {
  forget_choices(precision_of<R>());
  note_planner_threads(precision_of<R>(), 1);
  if (real_step) real_step();
  forget_foreign_wisdom(precision_of<R>(), true);
}

template <class R>
const RealFftw<R> *real() {
  const RealFftw<R> &t = real_fftw<R>();
  return t.loaded ? &t : nullptr;
}

// The real FFTW's reading of a c2c sign: FFTW_FORWARD, or else backward
// (its extract_reim swaps the real and imaginary arrays for any other
// value, so sign 7 plans a backward transform, not NULL).
inline int fftw_sign(int sign) { return sign == FFTW_FORWARD ? FFTW_FORWARD : FFTW_BACKWARD; }

// The caller's r2r kinds as the real FFTW (a release build) reads them: a
// value that is no kind is taken for FFTW_R2HC (its map_r2r_kind), and the
// plan is made. Read as ints: loading a value outside the enum's range as
// an fftw_r2r_kind is undefined behaviour in C++.
inline void set_r2r_kinds(Problem *p, const fftw_r2r_kind *kinds, int rank) {
  static_assert(sizeof(fftw_r2r_kind) == sizeof(int), "fftw_r2r_kind is an int");
  p->r2r_kinds.resize(rank);
  for (int i = 0; i < rank; ++i) {
    int k;
    std::memcpy(&k, kinds + i, sizeof k);
    if (k < FFTW_R2HC || k > FFTW_RODFT11) {
      static std::atomic<bool> said{false};
      if (!said.exchange(true))
        GPUFFTW_LOG(Warn, "r2r kind %d is no FFTW kind: taken for FFTW_R2HC, as the real FFTW takes it", k);
      k = FFTW_R2HC;
    }
    p->r2r_kinds[i] = static_cast<fftw_r2r_kind>(k);
  }
}

template <class R>
Plan *plan_many(Kind kind, const ManyLayout &m, void *in, void *out, int sign, const fftw_r2r_kind *kinds,
                unsigned flags) {
  Problem p = new_problem<R>(kind, flags);
  p.in[0] = in;
  p.out[0] = out;
  p.sign = kind == Kind::C2C ? fftw_sign(sign) : sign;
  if (!from_many(m, &p)) return nullptr;
  if (kind == Kind::R2R) {
    if (m.rank > 0 && !kinds) return nullptr;
    set_r2r_kinds(&p, kinds, m.rank);
  }
  return make_plan(p);
}

// The basic interface: one transform, contiguous, row-major.
template <class R>
Plan *plan_basic(Kind kind, int rank, const int *n, void *in, void *out, int sign, const fftw_r2r_kind *kinds,
                 unsigned flags) {
  return plan_many<R>(kind, ManyLayout{rank, n, 1, nullptr, 1, 1, nullptr, 1, 1}, in, out, sign, kinds, flags);
}

inline void *const *pair(void *a, void *b, void *store[2]) {
  store[0] = a;
  store[1] = b;
  return store;
}

// Guru and guru64: `in`/`out` hold one pointer, or two for split arrays.
template <class R, class IoDim>
Plan *plan_guru(Kind kind, int rank, const IoDim *dims, int howmany_rank, const IoDim *howmany_dims,
                void *const in[2], void *const out[2], bool split, int sign, const fftw_r2r_kind *kinds,
                unsigned flags) {
  // INT_MAX is the real FFTW's rank minus infinity: no transform rank may
  // be it (NULL), and a howmany rank of it is no loop at all, a plan that
  // does nothing, which a howmany of 0 is too; neither array is read.
  constexpr int kMinusInfinity = INT_MAX;
  if (rank < 0 || rank == kMinusInfinity || howmany_rank < 0 || (rank > 0 && !dims)) return nullptr;
  const bool no_loop = howmany_rank == kMinusInfinity;
  if (!no_loop && howmany_rank > 0 && !howmany_dims) return nullptr;
  Problem p = new_problem<R>(kind, flags);
  from_guru(rank, dims, no_loop ? 0 : howmany_rank, howmany_dims, &p);
  if (no_loop) p.howmany.assign(1, Dim{0, 0, 0});
  p.split = split;
  p.in[0] = in[0];
  p.in[1] = in[1];
  p.out[0] = out[0];
  p.out[1] = out[1];
  p.sign = kind == Kind::C2C ? fftw_sign(sign) : sign;
  if (kind == Kind::R2R) {
    if (rank > 0 && !kinds) return nullptr;
    set_r2r_kinds(&p, kinds, rank);
  }
  return make_plan(p);
}

// Which kind of plan each execute entry accepts; any other is refused with a
// message instead of running the real FFTW's apply on the wrong plan type.
inline bool accepts(Kind kind, Entry e) {
  switch (e) {
    case Entry::Execute: return true;
    case Entry::Dft:
    case Entry::SplitDft: return kind == Kind::C2C;
    case Entry::DftR2c:
    case Entry::SplitDftR2c: return kind == Kind::R2C;
    case Entry::DftC2r:
    case Entry::SplitDftC2r: return kind == Kind::C2R;
    case Entry::R2r: return kind == Kind::R2R;
  }
  return false;
}

inline void run(Plan *plan, const Arrays &arrays, const char *entry) {
  if (!plan) {
    // Said once: a program that goes on executing a plan it never checked
    // would otherwise print a line per execute.
    static std::atomic<bool> said{false};
    if (!said.exchange(true))
      GPUFFTW_LOG(Warn, "%s called with a NULL plan; nothing done (said once; every such call does nothing)", entry);
    return;
  }
  if (!accepts(plan->problem().kind, arrays.entry)) {
    GPUFFTW_LOG(Warn, "%s called with a %s plan; nothing done", entry, kind_name(plan->problem().kind));
    return;
  }
  // Counting and two clock reads cost more than a 16-point transform, and
  // plans of one problem share their counters (threads executing them would
  // fight over one cache line): only for the report.
  static const bool reported = config().report;
  auto count = [plan](uint64_t ns) {
    plan->stats->executes.fetch_add(1, std::memory_order_relaxed);
    plan->stats->execute_ns.fetch_add(ns, std::memory_order_relaxed);
  };
  if (compare_enabled() && !plan->foreign) {
    // The plan's own execute, timed apart from the comparison's work.
    const uint64_t ns = execute_compared(plan, arrays);
    if (reported) count(ns);
    return;
  }
  const auto t0 = reported ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
  plan->execute(arrays);
  if (reported)
    count(static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count()));
}

// FFTW's *_to_filename and system-wisdom functions, on top of the real
// FILE* versions (the real ones call their FILE* sibling through the PLT).
template <class R>
int export_wisdom_to_filename(const char *filename) {
  const RealFftw<R> *f = real<R>();
  FILE *file = filename ? std::fopen(filename, "w") : nullptr;
  if (!f || !file) {
    if (file) std::fclose(file);
    return 0;
  }
  f->export_wisdom_to_file(file);
  int ok = !std::ferror(file);
  if (std::fclose(file)) ok = 0;
  return ok;
}

template <class R>
int import_wisdom_from_filename(const char *filename) {
  const RealFftw<R> *f = real<R>();
  FILE *file = filename ? std::fopen(filename, "r") : nullptr;
  if (!f || !file) {
    if (file) std::fclose(file);
    return 0;
  }
  int ok = f->import_wisdom_from_file(file);
  std::fclose(file);
  return ok;
}

// FFTW reads system wisdom from /etc/fftw/wisdom, wisdomf for single.
template <class R>
int import_system_wisdom() {
  return import_wisdom_from_filename<R>(std::is_same<R, float>::value ? "/etc/fftw/wisdomf" : "/etc/fftw/wisdom");
}

// Through the callback form, so the string is allocated by this process's
// malloc (the real FFTW's malloc is another C library's, in its namespace).
template <class R>
char *export_wisdom_to_string() {
  const RealFftw<R> *f = real<R>();
  if (!f) return nullptr;
  std::string s;
  f->export_wisdom([](char c, void *d) { static_cast<std::string *>(d)->push_back(c); }, &s);
  char *out = static_cast<char *>(std::malloc(s.size() + 1));
  if (out) std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

// Printed by this process's stdio into a string the caller frees with free().
inline char *sprint_plan(const Plan *plan) {
  if (!plan) return nullptr;
  char *buf = nullptr;
  size_t size = 0;
  FILE *mem = open_memstream(&buf, &size);
  if (!mem) return nullptr;
  plan->print(mem);
  std::fclose(mem);
  return buf;
}

}  // namespace gpufftw
