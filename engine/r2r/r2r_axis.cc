#include "engine/r2r/r2r_axis.h"

namespace gpufftw::engine {
namespace {

size_t element_bytes(Type fft, bool input, Real r) {
  const size_t real = r == Real::F32 ? sizeof(float) : sizeof(double);
  const bool complex = fft == Type::C2C || (input ? fft == Type::C2R : fft == Type::R2C);
  return complex ? 2 * real : real;
}

}  // namespace

size_t R2rAxis::in_bytes(Real r) const {
  return static_cast<size_t>(shape.outer * shape.inner * in_len) * element_bytes(fft, true, r);
}

size_t R2rAxis::out_bytes(Real r) const {
  return static_cast<size_t>(shape.outer * shape.inner * out_len) * element_bytes(fft, false, r);
}

bool r2r_axis(R2rKind kind, const AxisShape &shape, R2rAxis *a, std::string *why) {
  const long long n = shape.n;
  a->kind = kind;
  a->shape = shape;
  switch (kind) {
    case R2rKind::R2HC:
    case R2rKind::DHT:
    case R2rKind::REDFT10:
    case R2rKind::RODFT10: a->fft = Type::R2C, a->length = n; break;
    case R2rKind::HC2R:
    case R2rKind::REDFT01:
    case R2rKind::RODFT01: a->fft = Type::C2R, a->length = n; break;
    case R2rKind::REDFT00:
      if (n < 2) return *why = "REDFT00 of size " + std::to_string(n) + " (FFTW needs n >= 2)", false;
      a->fft = Type::R2C, a->length = 2 * (n - 1);
      break;
    case R2rKind::RODFT00: a->fft = Type::R2C, a->length = 2 * (n + 1); break;
    case R2rKind::REDFT11:
    case R2rKind::RODFT11: a->fft = Type::C2C, a->length = 2 * n; break;
  }
  const long long half = a->length / 2 + 1;
  a->in_len = a->fft == Type::C2R ? half : a->length;
  a->out_len = a->fft == Type::R2C ? half : a->length;
  return true;
}

}  // namespace gpufftw::engine
