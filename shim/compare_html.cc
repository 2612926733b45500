#include "shim/compare_html.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "core/log.h"

namespace gpufftw {
namespace {

// The page is also well-formed XML (every tag closed, no named entities
// but XML's), so that a test can parse it.
std::string escape(const std::string &s) {
  std::string e;
  for (char c : s) {
    switch (c) {
      case '&': e += "&amp;"; break;
      case '<': e += "&lt;"; break;
      case '>': e += "&gt;"; break;
      case '"': e += "&quot;"; break;
      default: e += c;
    }
  }
  return e;
}

std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char *fmt, ...) {
  va_list args, again;
  va_start(args, fmt);
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, fmt, args);
  va_end(args);
  std::string s(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  std::vsnprintf(&s[0], s.size() + 1, fmt, again);
  va_end(again);
  return s;
}

// An error as the table and the JSON file write it, so the three agree.
std::string number(double v) { return std::isnan(v) ? "n/a" : format("%.3g", v); }

std::string duration(uint64_t ns) {
  static const char *const units[] = {"ns", "µs", "ms", "s"};
  double v = static_cast<double>(ns);
  size_t u = 0;
  // 999.5 would print as 1e+03 in its unit: it is the next unit's 1.
  while (u + 1 < sizeof units / sizeof units[0] && v >= 999.5) v /= 1000, ++u;
  return format("%.3g %s", v, units[u]);
}

std::string label(const ComparedPlan &p) {
  return escape(format("plan %llu · %s · %s%s", static_cast<unsigned long long>(p.plan), p.where.c_str(),
                       p.problem.c_str(), p.half ? " [fp16]" : ""));
}

// A log axis over whole decades holding every finite, positive value.
struct LogAxis {
  int lo = -17, hi = 0;
  double x0, x1;
  LogAxis(const std::vector<ComparedPlan> &plans, double left, double right) : x0(left), x1(right) {
    double mn = INFINITY, mx = 0;
    for (const ComparedPlan &p : plans)
      for (double v : {p.rel_l2, p.fftw_rel_l2, p.tolerance})
        if (v > 0 && std::isfinite(v)) mn = std::min(mn, v), mx = std::max(mx, v);
    if (mx > 0) lo = static_cast<int>(std::floor(std::log10(mn))), hi = static_cast<int>(std::ceil(std::log10(mx)));
    if (hi - lo < 2) lo = hi - 2;  // room on both sides of a lone value
  }
  // Zero (an exact result) at the left edge, infinity at the right.
  double x(double v) const {
    if (!(v > 0)) return x0;
    if (!std::isfinite(v)) return x1;
    const double t = (std::log10(v) - lo) / (hi - lo);
    return x0 + std::min(1.0, std::max(0.0, t)) * (x1 - x0);
  }
};

constexpr double kWidth = 1160, kAxisLeft = 20, kAxisRight = 700, kNumbers = 720;

std::string error_chart(const std::vector<ComparedPlan> &plans) {
  const double head = 56, row = 48;
  const LogAxis axis(plans, kAxisLeft, kAxisRight);
  const double height = head + row * static_cast<double>(plans.size()) + 8;
  std::string s = format("<svg class=\"chart\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\">\n", kWidth, height,
                         kWidth, height);
  // The legend, one entry per kind of mark.
  s += "<circle class=\"gpufftw\" cx=\"26\" cy=\"14\" r=\"6\"/><text x=\"38\" y=\"18\">gpufftw</text>\n";
  s += "<polygon class=\"fftw\" points=\"126,7 133,14 126,21 119,14\"/>"
       "<text x=\"140\" y=\"18\">the real FFTW, in the plan's precision</text>\n";
  s += "<line class=\"tol\" x1=\"410\" y1=\"6\" x2=\"410\" y2=\"22\"/><text x=\"420\" y=\"18\">tolerance</text>\n";
  for (int d = axis.lo; d <= axis.hi; ++d) {
    const double x = axis.x(std::pow(10.0, d));
    s += format("<line class=\"grid\" x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\"/>", x, head - 12, x, height - 4);
    s += format("<text class=\"tick\" x=\"%.1f\" y=\"%g\">1e%d</text>\n", x, head - 16, d);
  }
  for (size_t i = 0; i < plans.size(); ++i) {
    const ComparedPlan &p = plans[i];
    const double y = head + row * static_cast<double>(i), mark = y + 32;
    s += format("<g class=\"row%s\">", p.over ? " over" : "");
    if (p.over) s += format("<rect class=\"over\" x=\"0\" y=\"%g\" width=\"%g\" height=\"%g\"/>", y, kWidth, row - 2);
    s += format("<text class=\"label\" x=\"%g\" y=\"%g\">%s</text>", kAxisLeft, y + 15, label(p).c_str());
    s += format("<text class=\"compared\" x=\"%g\" y=\"%g\">%llu of %llu executes compared</text>", kNumbers, y + 15,
                static_cast<unsigned long long>(p.compared), static_cast<unsigned long long>(p.executes));
    if (p.over) s += format("<text class=\"overtext\" x=\"%g\" y=\"%g\">OVER tolerance</text>", kNumbers + 240, y + 15);
    s += format("<line class=\"base\" x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\"/>", kAxisLeft, mark, kAxisRight, mark);
    const double t = axis.x(p.tolerance);
    s += format("<line class=\"tol\" x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\"/>", t, mark - 10, t, mark + 10);
    if (!std::isnan(p.fftw_rel_l2)) {
      const double f = axis.x(p.fftw_rel_l2);
      s += format("<polygon class=\"fftw\" points=\"%.1f,%g %.1f,%g %.1f,%g %.1f,%g\"/>", f, mark - 7, f + 7, mark, f,
                  mark + 7, f - 7, mark);
    }
    if (!std::isnan(p.rel_l2)) s += format("<circle class=\"gpufftw\" cx=\"%.1f\" cy=\"%g\" r=\"6\"/>", axis.x(p.rel_l2), mark);
    s += format("<text class=\"numbers\" x=\"%g\" y=\"%g\">gpufftw <tspan class=\"gpufftw\">%s</tspan>, "
                "FFTW <tspan class=\"fftw\">%s</tspan>, tolerance <tspan class=\"tol\">%s</tspan></text>",
                kNumbers, mark + 5, number(p.rel_l2).c_str(), number(p.fftw_rel_l2).c_str(), number(p.tolerance).c_str());
    s += "</g>\n";
  }
  return s + "</svg>\n";
}

std::string time_chart(const std::vector<ComparedPlan> &plans) {
  const double row = 40, bar_max = kAxisRight - kAxisLeft;
  const double height = row * static_cast<double>(plans.size()) + 8;
  uint64_t most = 1;
  for (const ComparedPlan &p : plans) most = std::max(most, p.execute_ns);
  std::string s = format("<svg class=\"chart\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\">\n", kWidth, height,
                         kWidth, height);
  for (size_t i = 0; i < plans.size(); ++i) {
    const ComparedPlan &p = plans[i];
    const double y = row * static_cast<double>(i);
    const double w = std::max(1.0, bar_max * static_cast<double>(p.execute_ns) / static_cast<double>(most));
    s += format("<text class=\"label\" x=\"%g\" y=\"%g\">%s</text>", kAxisLeft, y + 15, label(p).c_str());
    s += format("<rect class=\"bar %s\" x=\"%g\" y=\"%g\" width=\"%.1f\" height=\"12\"/>", escape(p.where).c_str(),
                kAxisLeft, y + 21, w);
    s += format("<text class=\"time\" x=\"%g\" y=\"%g\">%s for %llu execute%s on %s</text>", kNumbers, y + 32,
                duration(p.execute_ns).c_str(), static_cast<unsigned long long>(p.executes),
                p.executes == 1 ? "" : "s", escape(p.where).c_str());
    if (p.executes > 1)
      s += format("<text class=\"each\" x=\"%g\" y=\"%g\">%s each</text>", kNumbers + 260, y + 32,
                  duration(p.execute_ns / p.executes).c_str());
    s += "\n";
  }
  return s + "</svg>\n";
}

const char kStyle[] =
    "body{font:14px sans-serif;margin:20px;color:#222;background:#fff}\n"
    "h1{font-size:20px}h2{font-size:16px;margin:24px 0 4px}p{margin:4px 0}\n"
    "svg text{font:13px sans-serif;fill:#222}svg text.tick{font-size:11px;fill:#666;text-anchor:middle}\n"
    ".grid{stroke:#ddd}.base{stroke:#999}\n"
    "circle.gpufftw{fill:#1f77b4}polygon.fftw{fill:none;stroke:#ff7f0e;stroke-width:2}\n"
    "line.tol{stroke:#d62728;stroke-width:3}\n"
    "tspan.gpufftw{fill:#1f77b4}tspan.fftw{fill:#c05a00}tspan.tol{fill:#d62728}\n"
    "rect.over{fill:#fde0e0}text.overtext{fill:#d62728;font-weight:bold}\n"
    "rect.bar{fill:#888}rect.gpu{fill:#2ca02c}rect.cpu{fill:#1f77b4}\n"
    "text.each,text.compared{fill:#666}\n";

}  // namespace

void write_compare_html(const std::string &path, const std::vector<ComparedPlan> &plans, double tolerance_c,
                        double half_tolerance_c) {
  size_t over = 0;
  for (const ComparedPlan &p : plans) over += p.over ? 1 : 0;
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>";
  page += "<title>gpufftw compare: " + escape(program_invocation_short_name) + "</title>\n<style>";
  page += kStyle;
  page += "</style></head><body>\n<h1>gpufftw compare: " + escape(program_invocation_short_name) + "</h1>\n";
  page += format("<p class=\"summary\">%zu plans, %zu over tolerance</p>\n", plans.size(), over);
  page += "<h2>Errors</h2>\n";
  page += format("<p>Relative L2 error, ||out - ref||<sub>2</sub> / ||ref||<sub>2</sub>, the worst of each plan's "
                 "compared executes; ref: the real FFTW in higher precision. Tolerance c·ε·√log<sub>2</sub>N, "
                 "c = %g, ε of the plan's precision, N the transform size (plans computed in half precision: "
                 "c = %g, ε = 2<sup>-10</sup>). An exact result sits at the axis' left end.</p>\n",
                 tolerance_c, half_tolerance_c);
  page += error_chart(plans);
  page += "<h2>Time</h2>\n<p>The plan's executes where they ran, the comparison's own work left out.</p>\n";
  page += time_chart(plans);
  page += "</body></html>\n";

  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    GPUFFTW_LOG(Warn, "GPUFFTW_COMPARE_HTML: fopen(%s) failed: %s", path.c_str(), std::strerror(errno));
    return;
  }
  const bool written = std::fwrite(page.data(), 1, page.size(), f) == page.size();
  const int err = errno;
  if (std::fclose(f) != 0 || !written)
    GPUFFTW_LOG(Warn, "GPUFFTW_COMPARE_HTML: %s(%s) failed: %s", written ? "fclose" : "fwrite", path.c_str(),
                std::strerror(written ? errno : err));
}

}  // namespace gpufftw
