// Other FFTW libraries in the program's namespace: the system's libfftw3 that
// a program linked or dlopened beside gpufftw, a private copy in an
// application's folder, a plug-in with FFTW linked in. Lookups by name are
// answered with gpufftw's entries (shim/interpose/dlsym.cc); where a call
// still arrives from inside one of those libraries, or one of their plans
// arrives at gpufftw, it goes back to that library, so that a plan only ever
// runs in the library that made it.
#pragma once

#include <utility>

namespace gpufftw {

// Rereads the loaded objects where the loader has added or removed one since
// the last reading; cheap otherwise (one step of dl_iterate_phdr).
void refresh_other_fftws();

// `name` as the other FFTW whose code holds `code` resolves it (its own
// definition first, then its dependencies'); null where `code` lies in no
// other FFTW, or the name resolves to gpufftw's.
void *other_fftw_function(const void *code, const char *name);

// `name` of the other FFTW that made `plan`, a plan gpufftw did not make;
// null, said once per name, where no other FFTW is loaded.
void *plan_owner_function(const char *name);

// Held around a call to a plan's owner on this thread, so that a call the
// owner hands back to gpufftw goes to the next one (plan_owner_function).
struct OwnerCall {
  OwnerCall();
  ~OwnerCall();
  OwnerCall(const OwnerCall &) = delete;
  OwnerCall &operator=(const OwnerCall &) = delete;
};

// Whether `code` lies in one of gpufftw's own libraries: libgpufftw itself
// and those that said so with note_own_library (libgpufftw_mpi).
bool is_own_code(const void *code);
void note_own_library(const void *code);

// Whether `code` lies in the program's own file, which calls its own FFTW
// directly where it has one: no call from there comes from another FFTW.
bool in_program_file(const void *code);

// An entry point's call arriving from inside another FFTW (its internal call
// to a public name that gpufftw, first in the lookup order, answered):
// that FFTW's own function of the same name, else null.
template <class F>
F called_from_other_fftw(const void *return_address, const char *name) {
  if (in_program_file(return_address)) return nullptr;
  refresh_other_fftws();
  return reinterpret_cast<F>(other_fftw_function(return_address, name));
}

// A plan gpufftw did not make, given to one of its entries: the call made
// by the FFTW that made it, or nothing (the entry's zero value) where no
// other FFTW is loaded.
template <class F, class... A>
auto call_plan_owner(const char *name, A... args) -> decltype(std::declval<F>()(args...)) {
  if (F f = reinterpret_cast<F>(plan_owner_function(name))) {
    const OwnerCall under_way;
    return f(args...);
  }
  return decltype(std::declval<F>()(args...))();
}

}  // namespace gpufftw
