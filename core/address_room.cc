#include "core/address_room.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace gpufftw {
namespace {

// A bound of the real FFTW's peak need while planning, in bytes:
//   slack + per_data * (every point of every transform)
//         + per_longest * (the longest dimension's points)
//         + per_bluestein * (Bluestein's padded length, in complex numbers)
// each count in the array's elements (complex for c2c, reals otherwise).
// The terms follow what FFTW allocates: its planner's tables and small
// blocks (slack), buffers and twiddles over the whole array (data; for one
// dimension this and `longest` add up), and, for a large prime factor p,
// Bluestein's arrays over the power of two at least 2p - 1.
struct Bound {
  double per_data, per_longest, per_bluestein;
  uint64_t slack;
};

constexpr uint64_t kMiB = 1 << 20;

// Each bound sits well above the largest need measured for its flags, with
// plain FFTW and in gpufftw's namespace (VmPeak less VmSize around one
// plan, its arrays allocated; docs/results/hardening.md, "Address space
// under ulimit -v"): the more FFTW's planner tries, the more it holds at
// once. FFTW_EXHAUSTIVE also tries Bluestein on lengths that are not prime,
// and its planner's tables grow by megabytes even for small lengths.
constexpr Bound kEstimateBound{0.25, 1.25, 3, 2 * kMiB};
// FFTW_ESTIMATE's plan of a complex transform of power-of-two lengths, the
// commonest, needs far less than the array: without this bound of its own,
// such a plan would be refused where it fits many times over. Its slack
// is one step of the namespace's heap, which grows by a megabyte.
constexpr Bound kEstimatePow2Bound{0.5, 0, 0, 1 * kMiB};
constexpr Bound kMeasureBound{0.5, 2.5, 3, 2 * kMiB};
constexpr Bound kPatientBound{0.75, 3.25, 3, 4 * kMiB};
constexpr Bound kExhaustiveBound{1, 4, 4, 32 * kMiB};

// Past this length factoring costs more than it tells: the length is taken
// as prime (a larger bound), and no such plan fits under a limit anyway.
constexpr int64_t kFactorLimit = int64_t{1} << 40;

int64_t largest_prime_factor(int64_t n) {
  if (n > kFactorLimit) return n;
  int64_t largest = 1;
  for (int64_t d = 2; d * d <= n; ++d)
    while (n % d == 0) {
      largest = d;
      n /= d;
    }
  return std::max(largest, n);
}

// The smallest power of two at least 2p - 1.
double bluestein_length(int64_t p) {
  double nb = 1;
  while (nb < 2.0 * static_cast<double>(p) - 1) nb *= 2;
  return nb;
}

bool powers_of_two(const std::vector<Dim> &dims) {
  return std::all_of(dims.begin(), dims.end(), [](const Dim &d) { return (d.n & (d.n - 1)) == 0; });
}

const Bound &bound_of(const Problem &p, unsigned flags) {
  if (flags & FFTW_ESTIMATE) return p.kind == Kind::C2C && powers_of_two(p.dims) ? kEstimatePow2Bound : kEstimateBound;
  if (flags & FFTW_EXHAUSTIVE) return kExhaustiveBound;
  if (flags & FFTW_PATIENT) return kPatientBound;
  return kMeasureBound;
}

uint64_t need(const Problem &p, size_t real_bytes, unsigned flags) {
  const Bound &b = bound_of(p, flags);
  const bool exhaustive = !(flags & FFTW_ESTIMATE) && (flags & FFTW_EXHAUSTIVE);  // Bluestein on any length
  const double element = static_cast<double>(real_bytes) * (p.kind == Kind::C2C ? 2 : 1);
  const double points = static_cast<double>(p.transform_size()) * static_cast<double>(p.batch());
  // The lengths FFTW transforms: an r2r of n goes through a real DFT of
  // n - 1 (REDFT00), n + 1 (RODFT00) or n.
  int64_t longest = 1, prime = 1;
  for (const Dim &d : p.dims) {
    longest = std::max(longest, d.n);
    for (int64_t m : {d.n - 1, d.n, d.n + 1}) {
      if (m < 1 || (m != d.n && p.kind != Kind::R2R)) continue;
      prime = std::max(prime, exhaustive ? m : largest_prime_factor(m));
    }
  }
  const double bytes = static_cast<double>(b.slack) + b.per_data * points * element +
                       b.per_longest * static_cast<double>(longest) * element +
                       b.per_bluestein * bluestein_length(prime) * 2 * static_cast<double>(real_bytes);
  return bytes >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(bytes);
}

// The first number of /proc/self/statm (the mapped size, in pages), read
// without allocating: where room is short, an allocation may fail.
std::optional<uint64_t> mapped_pages() {
  const int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char text[64];
  const ssize_t got = read(fd, text, sizeof text - 1);
  close(fd);
  if (got <= 0) return std::nullopt;
  text[got] = '\0';
  char *end = nullptr;
  const uint64_t pages = strtoull(text, &end, 10);
  if (end == text) return std::nullopt;
  return pages;
}

}  // namespace

PlanNeeds plan_needs(const Problem &p, size_t real_bytes) {
  return {need(p, real_bytes, p.flags), need(p, real_bytes, FFTW_ESTIMATE)};
}

Room plan_room(uint64_t limit, uint64_t in_use, const PlanNeeds &needs, unsigned flags) {
  const uint64_t room = limit > in_use ? limit - in_use : 0;
  if (room >= needs.as_asked) return Room::AsAsked;
  const bool measuring = !(flags & (FFTW_ESTIMATE | FFTW_WISDOM_ONLY));
  if (measuring && room >= needs.estimated) return Room::Estimate;
  return Room::None;
}

std::optional<AddressSpace> address_space() {
  rlimit r{};
  if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return std::nullopt;
  const std::optional<uint64_t> pages = mapped_pages();
  if (!pages) return std::nullopt;
  return AddressSpace{r.rlim_cur, *pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE))};
}

std::string megabytes(uint64_t bytes) {
  char text[32];
  snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return text;
}

}  // namespace gpufftw
