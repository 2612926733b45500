// The C library's own dlsym and dlvsym, found without calling dlsym: once
// gpufftw exports dlsym itself (shim/interpose/dlsym.cc), every call by
// name would reach gpufftw's.
#pragma once

namespace gpufftw {

using DlsymFn = void *(*)(void *, const char *);
using DlvsymFn = void *(*)(void *, const char *, const char *);

// Read from the dynamic symbol table of the object that defines dlerror
// (the C library, or libdl where the C library is older than 2.34). Null
// where that table cannot be read; set once, before first use.
DlsymFn libc_dlsym();
DlvsymFn libc_dlvsym();

}  // namespace gpufftw
