// Finding the real FFTW libraries on disk and their functions in them: what
// the serial loader (fallback/real_fftw.cc) and the MPI one
// (mpi/real_fftw_mpi.cc) share.
#pragma once

#include <string>
#include <vector>

namespace gpufftw {

// `path` with its links resolved, or `path` itself where it cannot be.
std::string real_path(const std::string &path);

// The directory part of `file` ("." for a bare name).
std::string dir_of(const std::string &file);

// The directories the setting `var` names (a ':'-separated list, empty
// entries dropped); none where it is unset, or where it names none (":"),
// which is said once as a bad value: the caller then searches the usual
// places, as for an unset one, rather than nowhere.
std::vector<std::string> dirs_setting(const char *var);

// The directories where FFTW is looked for after any the caller knows of:
// the one gpufftw was built against, then the usual system ones.
void append_default_dirs(std::vector<std::string> *dirs);

// The address of `name` in the library opened as `handle`, or null, said in
// the log as a function `library` lacks.
void *find_symbol(void *handle, const std::string &name, const char *library);

// Fills *slot with `name` from `handle` (find_symbol); false where it is not there.
template <class F>
bool load_symbol(void *handle, const std::string &name, const char *library, F *slot) {
  *slot = reinterpret_cast<F>(find_symbol(handle, name, library));
  return *slot != nullptr;
}

}  // namespace gpufftw
