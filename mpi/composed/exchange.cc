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

bool on_every_rank(bool mine, MPI_Comm comm, const char *what, std::string *why) {
  int all = mine;
  const int rc = MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, comm);
  if (rc != MPI_SUCCESS) return *why = mpi_error("MPI_Allreduce", rc), false;
  if (!all && why->empty()) *why = std::string("another rank could not ") + what;
  return all != 0;
}

Exchange::~Exchange() {
  int finalized = 1;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (MPI_Datatype &t : types_) MPI_Type_free(&t);
}

bool Exchange::made(int rc, MPI_Datatype *t, const char *call, std::string *why) {
  if (rc != MPI_SUCCESS) return *why = mpi_error(call, rc), false;
  types_.push_back(*t);
  return true;
}

bool Exchange::commit(MPI_Datatype *t, std::string *why) {
  const int rc = MPI_Type_commit(t);
  if (rc != MPI_SUCCESS) return *why = mpi_error("MPI_Type_commit", rc), false;
  return true;
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
  if (unit_bytes > static_cast<size_t>(INT_MAX)) return *why = "a row of bytes past MPI's int", false;
  MPI_Datatype row;
  // Committed too: it stands for the peers that take nothing, and MPI
  // checks every type it is handed.
  if (!made(MPI_Type_contiguous(static_cast<int>(unit_bytes), MPI_BYTE, &row), &row, "MPI_Type_contiguous", why) ||
      !commit(&row, why))
    return false;
  // Each peer's part is one element of a type of its own that says where it
  // lies (in bytes, as MPI_Aint: no int offsets to overflow): on the send
  // side one run of rows, on the receive side the columns it fills in the
  // destination, so what arrives lands in place with no copy of ours.
  const ptrdiff_t mine = a.count[me];
  if (mine > INT_MAX) return *why = "a count of rows past MPI's int", false;
  scount_.assign(n_pes, 0);
  rcount_.assign(n_pes, 0);
  zero_.assign(n_pes, 0);
  stype_.assign(n_pes, row);
  rtype_.assign(n_pes, row);
  ptrdiff_t sent = 0;
  // This rank's own part (q == me) stays out of MPI: place copies it from
  // the send buffer with several threads.
  for (int q = 0; q < n_pes; ++q) {
    const ptrdiff_t s = a.count[q] * m.count[me], sd = a.start[q] * m.count[me];
    sent = std::max(sent, sd + s);
    if (q == me) continue;
    if (s > INT_MAX || m.count[q] > INT_MAX) return *why = "a count of rows past MPI's int", false;
    if (s > 0) {
      const int rows = static_cast<int>(s);
      const MPI_Aint at = static_cast<MPI_Aint>(sd) * static_cast<MPI_Aint>(unit_bytes);
      if (!made(MPI_Type_create_hindexed(1, &rows, &at, row, &stype_[q]), &stype_[q], "MPI_Type_create_hindexed",
                why) ||
          !commit(&stype_[q], why))
        return false;
      scount_[q] = 1;
    }
    if (mine > 0 && m.count[q] > 0) {
      MPI_Datatype columns;
      const MPI_Aint pitch = static_cast<MPI_Aint>(m_all_) * static_cast<MPI_Aint>(unit_bytes);
      const MPI_Aint at = static_cast<MPI_Aint>(m.start[q]) * static_cast<MPI_Aint>(unit_bytes);
      const int one = 1;
      if (!made(MPI_Type_create_hvector(static_cast<int>(mine), static_cast<int>(m.count[q]), pitch, row, &columns),
                &columns, "MPI_Type_create_hvector", why) ||
          !made(MPI_Type_create_hindexed(1, &one, &at, columns, &rtype_[q]), &rtype_[q], "MPI_Type_create_hindexed",
                why) ||
          !commit(&rtype_[q], why))
        return false;
      rcount_[q] = 1;
    }
  }
  send_rows_ = static_cast<size_t>(sent);
  return true;
}

bool Exchange::transfer(const void *send, void *dest, MPI_Comm comm, std::string *why) const {
  const int rc = MPI_Alltoallw(send, scount_.data(), zero_.data(), stype_.data(), dest, rcount_.data(), zero_.data(),
                               rtype_.data(), comm);
  if (rc != MPI_SUCCESS) return *why = mpi_error("MPI_Alltoallw", rc), false;
  return true;
}

void Exchange::place(const void *send, void *dest) const {
  const size_t rows = static_cast<size_t>(a_.count[me_]);
  const size_t run = static_cast<size_t>(m_.count[me_]) * unit_;
  if (rows == 0 || run == 0) return;
  const char *part = static_cast<const char *>(send) + static_cast<size_t>(a_.start[me_] * m_.count[me_]) * unit_;
  auto copy_rows = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      std::memcpy(static_cast<char *>(dest) + (i * static_cast<size_t>(m_all_) + static_cast<size_t>(m_.start[me_])) * unit_,
                  part + i * run, run);
  };
  // One thread's memcpy reaches a fraction of what memory takes; a thread
  // is worth starting only for a piece that takes much longer to copy than
  // the thread takes to start.
  constexpr size_t kMinBytesPerThread = size_t{1} << 20;
  const size_t parts = std::max<size_t>(1, std::min({static_cast<size_t>(threads_), rows * run / kMinBytesPerThread, rows}));
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
