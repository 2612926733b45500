#include "engine/staging/half_staging.h"

#include <algorithm>

#include "engine/staging/host_half.h"

namespace gpufftw::engine::fp16 {
namespace {

template <class From, class To>
void convert_on_threads(void (*convert)(const From *, To *, size_t), const From *from, To *to, size_t n) {
  on_staging_threads(StagingWork::Convert, [&](unsigned part, unsigned parts) {
    constexpr size_t kLine = 32;
    const size_t lines = (n + kLine - 1) / kLine, per = (lines + parts - 1) / parts;
    const size_t begin = std::min(n, part * per * kLine), end = std::min(n, begin + per * kLine);
    convert(from + begin, to + begin, end - begin);
  });
}

}  // namespace

void to_half_on_threads(const float *src, uint16_t *dst, size_t n) { convert_on_threads(to_half, src, dst, n); }
void to_float_on_threads(const uint16_t *src, float *dst, size_t n) { convert_on_threads(to_float, src, dst, n); }

// The copier's offsets and lengths count the device's bytes: a half each.
bool to_device_halves(HostCopier &copier, uint16_t *dst, const float *src, size_t count, cudaStream_t stream,
                      std::string *why) {
  auto fill = [src](char *at, size_t off, size_t len) {
    to_half(src + off / sizeof(uint16_t), reinterpret_cast<uint16_t *>(at), len / sizeof(uint16_t));
  };
  return copier.staged_to_device(dst, count * sizeof(uint16_t), fill, stream, why);
}

bool to_host_floats(HostCopier &copier, float *dst, const uint16_t *src, size_t count, cudaStream_t stream,
                    std::string *why) {
  auto drain = [dst](char *at, size_t off, size_t len) {
    to_float(reinterpret_cast<const uint16_t *>(at), dst + off / sizeof(uint16_t), len / sizeof(uint16_t));
  };
  return copier.staged_to_host(src, count * sizeof(uint16_t), drain, stream, why);
}

bool rows_to_host_floats(HostCopier &copier, float *dst, size_t pitch, const uint16_t *src, size_t spitch,
                         size_t width, size_t rows, cudaStream_t stream, std::string *why) {
  // A block of the slots' halves may start inside a row and end past it.
  auto drain = [=](char *at, size_t off, size_t len) {
    const uint16_t *h = reinterpret_cast<const uint16_t *>(at);
    const size_t first = off / sizeof(uint16_t), count = len / sizeof(uint16_t);
    for (size_t x = 0; x < count;) {
      const size_t row = (first + x) / width, col = (first + x) % width, n = std::min(count - x, width - col);
      to_float(h + x, dst + row * pitch + col, n);
      x += n;
    }
  };
  return copier.staged_rows_to_host(reinterpret_cast<const char *>(src), spitch * sizeof(uint16_t),
                                    width * sizeof(uint16_t), rows, drain, stream, why);
}

}  // namespace gpufftw::engine::fp16
