#include "dispatch/thread_rules.h"

namespace gpufftw {
namespace {

// The real FFTW's priced candidates, found by what they are rather than
// where they stand: the program's count (the most threads priced) and one
// thread (the program's count too where it asked for one).
void cpu_candidates(const std::vector<Candidate> &list, Candidate *program, Candidate *one) {
  const Candidate *most = nullptr, *single = nullptr;
  for (const Candidate &c : list) {
    if (c.gpu || !c.applies() || !c.price) continue;
    if (!most || c.threads > most->threads) most = &c;
    if (c.threads == 1) single = &c;
  }
  *program = *most;
  *one = single ? *single : *most;
}

}  // namespace

Candidate cheapest_cpu(const std::vector<Candidate> &list) {
  Candidate program, one;
  cpu_candidates(list, &program, &one);
  return pick_threads({*program.price, program.threads}, {*one.price, one.threads}).threads == 1 ? one : program;
}

bool one_thread_may_win(const std::vector<Candidate> &list) {
  Candidate program, one;
  cpu_candidates(list, &program, &one);
  return program.threads > 1 && *one.price < kOneThreadBy * *program.price;
}

}  // namespace gpufftw
