// An unchanged FFTW program whose C++ static objects own plans: one
// object's destructor calls fftw_cleanup() while others' plans are alive,
// and their destructors then execute their plans and destroy them. FFTW
// calls a plan used after cleanup undefined, yet plain FFTW runs it; under
// gpufftw (comparison mode included) it must run too. Four plans are made
// and five executes run, three in destructors of objects constructed
// before gpufftw first planned or executed: a table printed at exit that
// counts fewer was printed before those destructors ran.
#include <fftw3.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

// A transform of n points whose result is known: a unit impulse at 0 gives
// all ones.
class Transform {
 public:
  Transform() = default;  // planned later, by make
  explicit Transform(int n) { make(n); }
  ~Transform() {
    run();
    fftw_destroy_plan(plan_);
    fftw_free(a_);
  }
  Transform(const Transform &) = delete;
  Transform &operator=(const Transform &) = delete;

  void make(int n) {
    n_ = n;
    a_ = fftw_alloc_complex(n);
    if (!a_) std::exit(3);
    plan_ = fftw_plan_dft_1d(n, a_, a_, FFTW_FORWARD, FFTW_ESTIMATE);
    if (!plan_) std::exit(4);
  }

  void run() {
    for (int i = 0; i < n_; ++i) a_[i][0] = a_[i][1] = 0;
    a_[0][0] = 1;
    fftw_execute(plan_);
    for (int i = 0; i < n_; ++i)
      if (std::fabs(a_[i][0] - 1) > 1e-12 || std::fabs(a_[i][1]) > 1e-12) {
        std::fprintf(stderr, "static_cleanup: n=%d element %d is wrong\n", n_, i);
        std::_Exit(5);
      }
  }

 private:
  int n_ = 0;
  fftw_complex *a_ = nullptr;
  fftw_plan plan_ = nullptr;
};

struct Cleanup {
  ~Cleanup() { fftw_cleanup(); }
};

// Destroyed in the reverse order of construction: late, cleanup, early, lazy.
Transform lazy;       // constructed before any plan
Transform early(64);  // planned before any execute
Cleanup cleanup;

}  // namespace

int main() {
  lazy.make(48);
  Transform in_main(32);
  in_main.run();
  static Transform late(80);
  std::puts("static_cleanup: main done");
  return 0;
}
