#include "mpi/composed/exchange.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <system_error>
#include <thread>

namespace gpufftw {
namespace mpi {
namespace composed {

std::string mpi_error(const char *call, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) len = 0;
  return std::string(call) + ": " + (len > 0 ? std::string(text, static_cast<size_t>(len)) : "error " + std::to_string(code));
}

Exchange::~Exchange() {
  int finalized = 1;
  MPI_Finalized(&finalized);
  if (row_ != MPI_DATATYPE_NULL && !finalized) MPI_Type_free(&row_);
}

bool Exchange::init(const Split &a, const Split &m, size_t unit_bytes, int me, int threads, std::string *why) {
  a_ = a;
  m_ = m;
  unit_ = unit_bytes;
  me_ = me;
  threads_ = threads > 1 ? threads : 1;
  m_all_ = 0;
  for (ptrdiff_t c : m.count) m_all_ += c;
  const int n_pes = static_cast<int>(a.count.size());
  scount_.assign(n_pes, 0);
  sdispl_.assign(n_pes, 0);
  rcount_.assign(n_pes, 0);
  rdispl_.assign(n_pes, 0);
  ptrdiff_t sent = 0, received = 0;
  for (int q = 0; q < n_pes; ++q) {
    const ptrdiff_t s = a.count[q] * m.count[me], sd = a.start[q] * m.count[me];
    // This rank's own part stays out of MPI (place reads it from the send
    // buffer): no copy into recv and back out, and no room for it there.
    const ptrdiff_t r = q == me ? 0 : a.count[me] * m.count[q];
    if (sd + s > INT_MAX || received + r > INT_MAX) return *why = "a count of rows past MPI's int", false;
    scount_[q] = q == me ? 0 : static_cast<int>(s);
    sdispl_[q] = static_cast<int>(sd);
    rcount_[q] = static_cast<int>(r);
    rdispl_[q] = static_cast<int>(received);
    sent = sd + s > sent ? sd + s : sent;
    received += r;
  }
  send_rows_ = static_cast<size_t>(sent);
  recv_rows_ = static_cast<size_t>(received);
  if (unit_bytes > static_cast<size_t>(INT_MAX)) return *why = "a row of bytes past MPI's int", false;
  int rc = MPI_Type_contiguous(static_cast<int>(unit_bytes), MPI_BYTE, &row_);
  if (rc != MPI_SUCCESS) return *why = mpi_error("MPI_Type_contiguous", rc), false;
  rc = MPI_Type_commit(&row_);
  if (rc != MPI_SUCCESS) return *why = mpi_error("MPI_Type_commit", rc), false;
  return true;
}

bool Exchange::transfer(const void *send, void *recv, MPI_Comm comm, std::string *why) const {
  const int rc = MPI_Alltoallv(send, scount_.data(), sdispl_.data(), row_, recv, rcount_.data(), rdispl_.data(), row_,
                               comm);
  if (rc != MPI_SUCCESS) return *why = mpi_error("MPI_Alltoallv", rc), false;
  return true;
}

void Exchange::place(const void *send, const void *recv, void *dest) const {
  const ptrdiff_t mine = a_.count[me_];
  const size_t n_pes = m_.count.size(), rows = n_pes * static_cast<size_t>(mine);
  if (rows == 0) return;
  // Row k is row k % mine of rank k / mine's part.
  auto copy_rows = [&](size_t from, size_t to) {
    for (size_t k = from; k < to; ++k) {
      const size_t p = k / static_cast<size_t>(mine), i = k % static_cast<size_t>(mine);
      const size_t run = static_cast<size_t>(m_.count[p]) * unit_;
      if (run == 0) continue;
      const char *part = static_cast<int>(p) == me_
                             ? static_cast<const char *>(send) + static_cast<size_t>(sdispl_[p]) * unit_
                             : static_cast<const char *>(recv) + static_cast<size_t>(rdispl_[p]) * unit_;
      std::memcpy(static_cast<char *>(dest) + static_cast<size_t>(static_cast<ptrdiff_t>(i) * m_all_ + m_.start[p]) * unit_,
                  part + i * run, run);
    }
  };
  // One thread's memcpy reaches a fraction of what memory takes; a thread
  // is worth starting only for a piece that takes much longer to copy than
  // the thread takes to start.
  constexpr size_t kMinBytesPerThread = size_t{1} << 20;
  const size_t bytes = static_cast<size_t>(mine * m_all_) * unit_;
  const size_t parts = std::max<size_t>(1, std::min({static_cast<size_t>(threads_), bytes / kMinBytesPerThread, rows}));
  std::vector<std::thread> helpers;
  helpers.reserve(parts - 1);
  for (size_t t = 1; t < parts; ++t) {
    const size_t from = rows * t / parts, to = rows * (t + 1) / parts;
    try {
      helpers.emplace_back(copy_rows, from, to);
    } catch (const std::system_error &) {
      copy_rows(from, to);  // no thread to be had: this one copies that piece too
    }
  }
  copy_rows(0, rows / parts);
  for (std::thread &h : helpers) h.join();
}

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
