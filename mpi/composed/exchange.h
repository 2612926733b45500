// One global transpose of a composed plan, through MPI on host memory.
//
// Before it, each rank holds all of dimension `a` for its part of dimension
// `m`, stored [a][its m][unit]; after it, all of `m` for its part of `a`,
// stored [its a][m][unit], where a unit is the `unit_bytes` of the
// dimensions after both (kept together). The send side needs no packing (the
// part for rank q is one run of [q's a][its m][unit]: the serial transform
// before writes that order); what arrives from rank p, [its a][p's m][unit],
// is copied into its columns of the destination.
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
  // failed. `me` is this rank; no communication.
  bool init(const Split &a, const Split &m, size_t unit_bytes, int me, std::string *why);

  // Bytes each buffer needs on this rank.
  size_t send_bytes() const { return send_rows_ * unit_; }
  size_t recv_bytes() const { return recv_rows_ * unit_; }

  // send ([a][my m][unit]) -> recv (scratch) -> dest ([my a][m][unit]),
  // collective on `comm`. False, with why, where the exchange failed.
  bool run(const void *send, void *recv, void *dest, MPI_Comm comm, std::string *why) const;

 private:
  Split a_, m_;
  ptrdiff_t m_all_ = 0;
  size_t unit_ = 0, send_rows_ = 0, recv_rows_ = 0;
  int me_ = 0;
  MPI_Datatype row_ = MPI_DATATYPE_NULL;
  std::vector<int> scount_, sdispl_, rcount_, rdispl_;
};

// "MPI_Alltoallv: <MPI's error string>"
std::string mpi_error(const char *call, int code);

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
