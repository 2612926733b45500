#include "dispatch/thread_rules.h"

namespace gpufftw {
namespace {

// The real FFTW's candidates: at the program's count (first in the list)
// and at one thread, the same where the program asked for one.
void cpu_candidates(const std::vector<Candidate> &list, Candidate *program, Candidate *one) {
  *program = list.front();
  *one = list.size() > 1 && !list[1].gpu ? list[1] : list.front();
}

}  // namespace

Candidate cheapest_cpu(const std::vector<Candidate> &list) {
  Candidate program, one;
  cpu_candidates(list, &program, &one);
  return pick_threads({program.price, program.threads}, {one.price, one.threads}).threads == 1 ? one : program;
}

bool one_thread_may_win(const std::vector<Candidate> &list) {
  Candidate program, one;
  cpu_candidates(list, &program, &one);
  return program.threads > 1 && one.price < kOneThreadBy * program.price;
}

}  // namespace gpufftw
