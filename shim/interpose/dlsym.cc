// dlsym and dlvsym, exported by gpufftw: a program that opens FFTW itself
// (Python's ctypes and cffi, Julia, plug-in hosts) and looks its functions
// up by handle gets gpufftw's entries, whatever the flags or the path it
// opened FFTW with. Without this, the program would run the real FFTW it
// opened, unseen, or, where that FFTW's own internal calls bind to gpufftw's
// exports (Debian's), mix the two and crash.
//
// Each is a few instructions of assembly that ask gpufftw_dlsym_redirect
// and, where it has no answer, jump to the C library's own function with
// the caller's return address in place: the C library reads that address
// to resolve RTLD_NEXT and RTLD_DEFAULT for the caller, not for gpufftw.
#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/library_search.h"
#include "core/log.h"
#include "shim/interpose/libc_dlsym.h"
#include "shim/interpose/other_fftw.h"

namespace gpufftw {
namespace {

// Compared by hand, not with strncmp: a sanitizer's runtime asks for
// dlsym as it starts, before its own string functions can run.
bool starts_with(const char *s, const char *prefix) {
  while (*prefix && *s == *prefix) ++s, ++prefix;
  return *prefix == 0;
}

// The names gpufftw exports for FFTW: the C API (fftw_, fftwf_, and their
// _mpi_ forms) and the legacy Fortran one (dfftw_, sfftw_).
bool fftw_name(const char *name) {
  return starts_with(name, "fftw") || starts_with(name, "dfftw_") || starts_with(name, "sfftw_");
}

bool in_program_namespace(void *address) {
  Dl_info info{};
  link_map *lm = nullptr;
  Lmid_t id = LM_ID_BASE;
  return dladdr1(address, &info, reinterpret_cast<void **>(&lm), RTLD_DL_LINKMAP) && lm &&
         dlinfo(lm, RTLD_DI_LMID, &id) == 0 && id == LM_ID_BASE;
}

// A handle on the gpufftw library at `file` (already loaded, or loaded now
// where `load`), or null.
void *open_own(const std::string &file, bool load) {
  if (file.empty()) return nullptr;
  if (void *h = dlopen(file.c_str(), RTLD_NOLOAD | RTLD_LAZY)) return h;
  if (!load) return nullptr;
  void *h = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) GPUFFTW_LOG(Warn, "dlopen of %s failed (%s): the real FFTW MPI's functions stay its own", file.c_str(),
                      dlerror());
  return h;
}

std::string own_file() {
  Dl_info info{};
  return dladdr(reinterpret_cast<void *>(&own_file), &info) && info.dli_fname ? real_path(info.dli_fname)
                                                                              : std::string();
}

// gpufftw's own entry for `name`: libgpufftw's, or libgpufftw_mpi's for the
// MPI API, which is loaded beside this library where the program did not
// load it (a program that opens the real FFTW MPI itself).
void *own_entry(const char *name) {
  static void *const self = open_own(own_file(), false);
  void *h = self;
  if (std::strstr(name, "_mpi_")) {
    static void *const mpi = open_own(dir_of(own_file()) + "/libgpufftw_mpi.so.1", true);
    h = mpi;
  }
  void *e = h ? libc_dlsym()(h, name) : nullptr;
  return e && is_own_code(e) ? e : nullptr;
}

// A lookup made while answering another (the loader's and gpufftw's own
// calls) goes straight to the C library.
thread_local bool answering = false;

}  // namespace
}  // namespace gpufftw

extern "C" {

// The C library's functions, where the assembly below jumps when gpufftw
// has no answer of its own.
__attribute__((visibility("hidden"))) gpufftw::DlsymFn gpufftw_libc_dlsym = nullptr;
__attribute__((visibility("hidden"))) gpufftw::DlvsymFn gpufftw_libc_dlvsym = nullptr;

// gpufftw's entry where `name` is an FFTW function that gpufftw exports,
// looked up on a handle that resolves it to another FFTW in the program's
// namespace, by a caller other than gpufftw; else null, and the C library
// answers. `version` is dlvsym's, null for dlsym.
__attribute__((visibility("hidden"), used)) void *gpufftw_dlsym_redirect(void *handle, const char *name,
                                                                    const char *version, const void *caller) {
  using namespace gpufftw;
  // Without the C library's functions the jump below has nowhere to go:
  // said plainly, rather than a jump through a null pointer. Set here, not
  // in a function's static, whose guard a sanitizer's runtime, asking as it
  // starts, cannot yet run.
  if (!__atomic_load_n(&gpufftw_libc_dlsym, __ATOMIC_ACQUIRE)) {
    const DlsymFn s = libc_dlsym();
    const DlvsymFn v = libc_dlvsym();
    if (!s || !v) {
      std::fputs("gpufftw: the C library's dlsym and dlvsym are not in its dynamic symbol table; "
                 "gpufftw cannot stand in front of them\n", stderr);
      std::abort();
    }
    __atomic_store_n(&gpufftw_libc_dlvsym, v, __ATOMIC_RELEASE);
    __atomic_store_n(&gpufftw_libc_dlsym, s, __ATOMIC_RELEASE);
  }
  if (!name || !fftw_name(name) || handle == RTLD_DEFAULT || handle == RTLD_NEXT || answering) return nullptr;
  answering = true;
  void *answer = nullptr;
  if (!is_own_code(caller)) {
    void *found = version ? gpufftw_libc_dlvsym(handle, name, version) : gpufftw_libc_dlsym(handle, name);
    if (found && !is_own_code(found) && in_program_namespace(found)) {
      answer = own_entry(name);
      if (answer) GPUFFTW_LOG(Debug, "dlsym(%s) on another FFTW's handle: gpufftw's own", name);
    }
  }
  answering = false;
  return answer;
}

}  // extern "C"

#if defined(__x86_64__)
// The System V calling convention: handle, name (and dlvsym's version) in
// rdi, rsi (rdx); the caller's return address at the top of the stack.
// dlsym and dlvsym each name, in r11 (free at a call), the C library's
// function to go on to, and share one body: it saves the arguments, asks
// gpufftw_dlsym_redirect with the stack realigned to 16 bytes, and returns
// its answer or jumps on with the arguments and the stack as they came
// (dlsym's null version in rdx is nothing to the C library's dlsym).
__asm__(R"(
        .text
        .type gpufftw_dlsym_lookup, @function
        .p2align 4
gpufftw_dlsym_lookup:
        .cfi_startproc
        pushq %rdi
        .cfi_adjust_cfa_offset 8
        pushq %rsi
        .cfi_adjust_cfa_offset 8
        pushq %rdx
        .cfi_adjust_cfa_offset 8
        pushq %r11
        .cfi_adjust_cfa_offset 8
        subq $8, %rsp
        .cfi_adjust_cfa_offset 8
        movq 40(%rsp), %rcx
        call gpufftw_dlsym_redirect
        addq $8, %rsp
        .cfi_adjust_cfa_offset -8
        popq %r11
        .cfi_adjust_cfa_offset -8
        popq %rdx
        .cfi_adjust_cfa_offset -8
        popq %rsi
        .cfi_adjust_cfa_offset -8
        popq %rdi
        .cfi_adjust_cfa_offset -8
        testq %rax, %rax
        jz 1f
        ret
1:
        jmp *(%r11)
        .cfi_endproc
        .size gpufftw_dlsym_lookup, .-gpufftw_dlsym_lookup

        .globl dlsym
        .type dlsym, @function
        .p2align 4
dlsym:
        .cfi_startproc
        endbr64
        xorl %edx, %edx
        leaq gpufftw_libc_dlsym(%rip), %r11
        jmp gpufftw_dlsym_lookup
        .cfi_endproc
        .size dlsym, .-dlsym

        .globl dlvsym
        .type dlvsym, @function
        .p2align 4
dlvsym:
        .cfi_startproc
        endbr64
        leaq gpufftw_libc_dlvsym(%rip), %r11
        jmp gpufftw_dlsym_lookup
        .cfi_endproc
        .size dlvsym, .-dlvsym
)");
#endif
