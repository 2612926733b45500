#include "dispatch/thread_rules.h"

namespace gpufftw {
namespace {

// The real FFTW's candidates that apply, found by what they are rather
// than where they stand: the program's count (the most threads) and one
// thread (the program's count too where it asked for one). Whether both
// are priced: the model picks between them only then.
bool cpu_candidates(const std::vector<Candidate> &list, Candidate *program, Candidate *one) {
  const Candidate *most = nullptr, *single = nullptr;
  for (const Candidate &c : list) {
    if (c.gpu || !c.applies()) continue;
    if (!most || c.threads > most->threads) most = &c;
    if (c.threads == 1) single = &c;
  }
  if (!most) return false;
  *program = *most;
  *one = single ? *single : *most;
  return program->price && one->price;
}

}  // namespace

Candidate cheapest_cpu(const std::vector<Candidate> &list) {
  Candidate program, one;
  if (!cpu_candidates(list, &program, &one)) return program;
  return pick_threads({*program.price, program.threads}, {*one.price, one.threads}).threads == 1 ? one : program;
}

bool one_thread_may_win(const std::vector<Candidate> &list) {
  Candidate program, one;
  return cpu_candidates(list, &program, &one) && program.threads > 1 && *one.price < kOneThreadBy * *program.price;
}

}  // namespace gpufftw
