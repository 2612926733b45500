// One global transpose of a composed plan, through MPI on host memory.
//
// Before it, each rank holds all of dimension `a` for its part of dimension
// `m`, stored [a][its m][unit]; after it, all of `m` for its part of `a`,
// stored [its a][m][unit], where a unit is the `unit_bytes` of the
// dimensions after both (kept together). The send side needs no packing (the
// part for rank q is one run of [q's a][its m][unit]: the serial transform
// before writes that order). MPI carries what other ranks send straight
// into its columns of the destination (what arrives from rank p, [its
// a][p's m][unit], described by a datatype of the destination's rows), so
// no receive buffer and no unpacking copy; this rank's own part is copied
// from the send buffer into its columns by several threads at once.
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

  // Bytes the send buffer needs on this rank.
  size_t send_bytes() const { return send_rows_ * unit_; }

  // The two halves of the exchange, timed apart at debug level, from send
  // ([a][my m][unit]) to dest ([my a][m][unit]):
  // transfer: the other ranks' parts, collective on `comm` (MPI_Alltoallw);
  // false, with why, where it failed.
  bool transfer(const void *send, void *dest, MPI_Comm comm, std::string *why) const;
  // place: this rank's own part.
  void place(const void *send, void *dest) const;

 private:
  Split a_, m_;
  ptrdiff_t m_all_ = 0;
  size_t unit_ = 0, send_rows_ = 0;
  int me_ = 0, threads_ = 1;
  // Per peer: 1 or 0 elements of its own type; displacements all 0 (the
  // types hold the offsets).
  std::vector<int> scount_, rcount_, zero_;
  std::vector<MPI_Datatype> stype_, rtype_;
  std::vector<MPI_Datatype> types_;  // every type made, freed with the exchange

  // Keeps *t for freeing where rc says the call that made it succeeded;
  // else false, with why naming `call`.
  bool made(int rc, MPI_Datatype *t, const char *call, std::string *why);
  static bool commit(MPI_Datatype *t, std::string *why);
};

// "MPI_Alltoallw: <MPI's error string>"
std::string mpi_error(const char *call, int code);

// Collective on comm: whether `mine` holds on every rank (MPI_Allreduce,
// minimum). Where it does not and this rank had no reason of its own, *why
// says another rank could not do `what`; where MPI failed, *why says so.
bool on_every_rank(bool mine, MPI_Comm comm, const char *what, std::string *why);

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
