// The real FFTW's threads, made by the program's own libc. FFTW's threads
// library creates its workers with pthread_create; called from the libc of
// gpufftw's private namespace, that can wait forever on the main loader's
// TLS lock (the stack: fftwf_spawn_loop -> pthread_create -> _dl_allocate_tls_init,
// one hang in a few runs at 16 threads). So gpufftw hands FFTW this
// parallel loop (fftw_threads_set_callback) and FFTW creates no thread.
#pragma once

#include <cstddef>

namespace gpufftw {

// FFTW's callback: work(jobdata + i * elsize) for i in [0, njobs), in
// parallel, returning when all are done. Safe from several threads at once
// and from inside a job (the caller runs jobs no worker has taken).
void parallel_loop(void *(*work)(char *), char *jobdata, size_t elsize, int njobs, void *data);

}  // namespace gpufftw
