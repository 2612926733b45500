// One global transpose of a composed plan, through MPI on host memory.
//
// Before it, each rank holds all of dimension `a` for its part of dimension
// `m`, stored [a][its m][unit]; after it, all of `m` for its part of `a`,
// stored [its a][m][unit], where a unit is the `unit_bytes` of the
// dimensions after both (kept together). The send side needs no packing (the
// part for rank q is one run of [q's a][its m][unit]: the serial transform
// before writes that order). MPI carries only what other ranks send; what
// arrives from rank p, [its a][p's m][unit], and this rank's own part, read
// straight from the send buffer, are then copied into their columns of the
// destination by several threads at once.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

#include "mpi/composed/layout.h"

namespace gpufftw {
namespace mpi {
namespace composed {

class Exchange {
 public:
  Exchange() = default;
  Exchange(const Exchange &) = delete;
  Exchange &operator=(const Exchange &) = delete;
  ~Exchange();

  // False, with why, where a count does not fit MPI's int or an MPI call
  // failed. `me` is this rank; `threads` copy the parts into place (FFTW's
  // planner threads). No communication.
  bool init(const Split &a, const Split &m, size_t unit_bytes, int me, int threads, std::string *why);

  // Bytes each buffer needs on this rank.
  size_t send_bytes() const { return send_rows_ * unit_; }
  size_t recv_bytes() const { return recv_rows_ * unit_; }

  // The two halves of the exchange, timed apart at debug level:
  // transfer: send ([a][my m][unit]) -> recv (scratch), other ranks' parts,
  // collective on `comm`; false, with why, where MPI_Alltoallv failed.
  bool transfer(const void *send, void *recv, MPI_Comm comm, std::string *why) const;
  // place: recv and this rank's part of send -> dest ([my a][m][unit]).
  void place(const void *send, const void *recv, void *dest) const;

 private:
  Split a_, m_;
  ptrdiff_t m_all_ = 0;
  size_t unit_ = 0, send_rows_ = 0, recv_rows_ = 0;
  int me_ = 0, threads_ = 1;
  MPI_Datatype row_ = MPI_DATATYPE_NULL;
  std::vector<int> scount_, sdispl_, rcount_, rdispl_;
};

// "MPI_Alltoallv: <MPI's error string>"
std::string mpi_error(const char *call, int code);

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
