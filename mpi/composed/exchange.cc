#include "mpi/composed/exchange.h"

#include <climits>
#include <cstring>

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

bool Exchange::init(const Split &a, const Split &m, size_t unit_bytes, int me, std::string *why) {
  a_ = a;
  m_ = m;
  unit_ = unit_bytes;
  me_ = me;
  m_all_ = 0;
  for (ptrdiff_t c : m.count) m_all_ += c;
  const int n_pes = static_cast<int>(a.count.size());
  scount_.assign(n_pes, 0);
  sdispl_.assign(n_pes, 0);
  rcount_.assign(n_pes, 0);
  rdispl_.assign(n_pes, 0);
  ptrdiff_t sent = 0, received = 0;
  for (int q = 0; q < n_pes; ++q) {
    const ptrdiff_t s = a.count[q] * m.count[me], sd = a.start[q] * m.count[me], r = a.count[me] * m.count[q];
    if (sd + s > INT_MAX || received + r > INT_MAX) return *why = "a count of rows past MPI's int", false;
    scount_[q] = static_cast<int>(s);
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

bool Exchange::run(const void *send, void *recv, void *dest, MPI_Comm comm, std::string *why) const {
  const int rc = MPI_Alltoallv(send, scount_.data(), sdispl_.data(), row_, recv, rcount_.data(), rdispl_.data(), row_,
                               comm);
  if (rc != MPI_SUCCESS) return *why = mpi_error("MPI_Alltoallv", rc), false;
  const auto *from = static_cast<const char *>(recv);
  auto *to = static_cast<char *>(dest);
  const ptrdiff_t mine = a_.count[me_];
  for (size_t p = 0; p < m_.count.size(); ++p) {
    const size_t run = static_cast<size_t>(m_.count[p]) * unit_;
    if (run == 0) continue;
    const char *src = from + static_cast<size_t>(rdispl_[p]) * unit_;
    for (ptrdiff_t i = 0; i < mine; ++i)
      std::memcpy(to + (static_cast<size_t>(i * m_all_ + m_.start[p])) * unit_, src + static_cast<size_t>(i) * run, run);
  }
  return true;
}

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
