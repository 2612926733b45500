#include "engine/fp16/half_staging.h"

#include <algorithm>

#include "engine/fp16/host_half.h"

namespace gpufftw::engine::fp16 {
namespace {

template <class From, class To>
void convert_on_threads(void (*convert)(const From *, To *, size_t), const From *from, To *to, size_t n) {
  on_staging_threads([&](unsigned part, unsigned parts) {
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

}  // namespace gpufftw::engine::fp16
