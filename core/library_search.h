// Finding the real FFTW libraries on disk: what the serial loader
// (fallback/real_fftw.cc) and the MPI one (mpi/real_fftw_mpi.cc) share.
#pragma once

#include <string>
#include <vector>

namespace gpufftw {

// `path` with its links resolved, or `path` itself where it cannot be.
std::string real_path(const std::string &path);

// The directory part of `file` ("." for a bare name).
std::string dir_of(const std::string &file);

// The entries of a ':'-separated list of directories, empty ones dropped.
std::vector<std::string> split_dirs(const char *list);

// The directories where FFTW is looked for after any the caller knows of:
// the one gpufftw was built against, then the usual system ones.
void append_default_dirs(std::vector<std::string> *dirs);

}  // namespace gpufftw
