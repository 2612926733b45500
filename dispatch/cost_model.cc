#include "dispatch/cost_model.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

namespace gpufftw {
namespace {

bool positive(double v) { return std::isfinite(v) && v > 0; }

// log2 of the time at x (a log2 size) on the polyline through (xs, log2 ts):
// flat below the first point (the fixed cost), proportional to the size
// beyond the last (slope 1 in log-log).
double log_time(const std::vector<double> &xs, const std::vector<double> &ts, double x) {
  if (x <= xs.front()) return std::log2(ts.front());
  for (size_t i = 1; i < xs.size(); ++i)
    if (x <= xs[i]) {
      const double a = std::log2(ts[i - 1]), b = std::log2(ts[i]);
      return a + (b - a) * (x - xs[i - 1]) / (xs[i] - xs[i - 1]);
    }
  return std::log2(ts.back()) + (x - xs.back());
}

double real_bytes(const Problem &p) { return p.precision == Precision::F32 ? 4.0 : 8.0; }

// Points of the complex side of an r2c/c2r transform.
double half_points(const Problem &p) {
  if (p.dims.empty()) return 1.0;
  const double n_last = static_cast<double>(p.dims.back().n);
  return static_cast<double>(p.transform_size()) / n_last * (std::floor(n_last / 2) + 1);
}

// Bytes of one side: reals on the real side of r2c/c2r (and both of r2r),
// complex numbers elsewhere, n/2+1 of them along the last dim on the
// complex side of r2c/c2r.
double side_bytes(const Problem &p, bool output) {
  const Kind real_side = output ? Kind::C2R : Kind::R2C, complex_half = output ? Kind::R2C : Kind::C2R;
  const double batch = static_cast<double>(p.batch());
  if (p.kind == real_side || p.kind == Kind::R2R)
    return static_cast<double>(p.transform_size()) * batch * real_bytes(p);
  const double points = p.kind == complex_half ? half_points(p) : static_cast<double>(p.transform_size());
  return points * batch * 2 * real_bytes(p);
}

// The 1-D row of size index i as a polyline over log2 of all points.
double one_d_log_time(const CpuRates::OneD &table, size_t i, double log_total) {
  std::vector<double> xs{static_cast<double>(CpuRates::kLog2[i])}, ts{table[i][0]};
  for (size_t j = 0; j < CpuRates::kTotals.size(); ++j)
    if (CpuRates::kTotals[j] > CpuRates::kLog2[i]) xs.push_back(CpuRates::kTotals[j]), ts.push_back(table[i][1 + j]);
  // Fewer points than the row's n: as a part of one transform.
  if (log_total < xs.front()) return std::log2(ts.front()) + (log_total - xs.front());
  return log_time(xs, ts, log_total);
}

}  // namespace

double bytes_in(const Problem &p) { return side_bytes(p, false); }
double bytes_out(const Problem &p) { return side_bytes(p, true); }

bool GpuRates::valid() const {
  if (readings < 1 || !positive(link_rate) || !positive(device_rate) || !positive(peer_rate)) return false;
  for (const auto &memory : seconds)
    for (const auto &row : memory)
      for (double v : row)
        if (!positive(v)) return false;
  for (const auto &memory : set_seconds)
    for (const auto &row : memory)
      for (double v : row)
        if (v != 0 && !positive(v)) return false;
  return true;
}

bool CpuRates::valid() const {
  if (threads < 1 || readings < 1) return false;
  for (const OneD *table : {&one_d, &one_d_r2c})
    for (size_t i = 0; i < table->size(); ++i) {
      if (!positive((*table)[i][0])) return false;
      for (size_t j = 0; j < kTotals.size(); ++j)
        if (kTotals[j] > kLog2[i] ? !positive((*table)[i][1 + j]) : (*table)[i][1 + j] != 0) return false;
    }
  for (const MultiD *table : {&multi_d, &multi_d_r2c})
    for (const auto &row : *table)
      for (double v : row)
        if (!positive(v)) return false;
  return true;
}

namespace {
// Cell by cell the smaller, for tables of two dimensions; a cell one
// reading did not take (0) has the other's.
template <class Table>
void take_faster(Table *mine, const Table &theirs) {
  for (size_t i = 0; i < mine->size(); ++i)
    for (size_t j = 0; j < (*mine)[i].size(); ++j) {
      double &m = (*mine)[i][j];
      const double t = theirs[i][j];
      m = m == 0 ? t : t == 0 ? m : std::min(m, t);
    }
}
}  // namespace

GpuRates fastest_of(const GpuRates &a, const GpuRates &b) {
  GpuRates r = a;
  // A set cell that one reading split and the other did not (0) takes the
  // one it has.
  for (size_t pinned = 0; pinned < r.seconds.size(); ++pinned) {
    take_faster(&r.seconds[pinned], b.seconds[pinned]);
    take_faster(&r.set_seconds[pinned], b.set_seconds[pinned]);
  }
  r.link_rate = std::max(a.link_rate, b.link_rate);
  r.device_rate = std::max(a.device_rate, b.device_rate);
  r.peer_rate = std::max(a.peer_rate, b.peer_rate);
  r.readings = a.readings + b.readings;
  return r;
}

CpuRates fastest_of(const CpuRates &a, const CpuRates &b) {
  CpuRates r = a;
  take_faster(&r.one_d, b.one_d);
  take_faster(&r.one_d_r2c, b.one_d_r2c);
  take_faster(&r.multi_d, b.multi_d);
  take_faster(&r.multi_d_r2c, b.multi_d_r2c);
  r.readings = a.readings + b.readings;
  return r;
}

int CpuCell::log2() const {
  return rank == 1 ? CpuRates::kLog2[size] : (rank == 2 ? CpuRates::kLog2Rank2 : CpuRates::kLog2Rank3)[size];
}

int CpuCell::total_log2() const { return rank == 1 && column > 0 ? CpuRates::kTotals[column - 1] : log2(); }

int64_t CpuCell::batch() const { return int64_t{1} << (total_log2() - log2()); }

namespace {
template <class Rates>
auto &cell_of(Rates &r, const CpuCell &c) {
  if (c.rank == 1) return (c.c2c ? r.one_d : r.one_d_r2c)[c.size][c.column];
  return (c.c2c ? r.multi_d : r.multi_d_r2c)[c.rank - 2][c.size];
}
}  // namespace

double &CpuCell::in(CpuRates *r) const { return cell_of(*r, *this); }
double CpuCell::in(const CpuRates &r) const { return cell_of(r, *this); }

void reread_outliers(CpuRates *r, const std::function<double(const CpuCell &)> &time) {
  auto timed = [r](const CpuCell &c) {
    const double v = c.in(*r);
    return v > 0 && timed_cell(r->threads, c.total_log2());
  };
  auto reread = [&](const CpuCell &c) {
    const double again = time(c);
    if (again > 0) c.in(r) = std::min(c.in(*r), again);
  };
  // Rows first (an r2c cell is then held to settled c2c ones).
  for (bool c2c : {true, false})
    for (size_t i = 0; i < CpuRates::kSizes; ++i)
      for (size_t j = 0; j < CpuRates::kTotals.size(); ++j) {
        const CpuCell cell{c2c, 1, i, j};
        if (!timed(cell)) continue;
        for (size_t k = j + 1; k <= CpuRates::kTotals.size(); ++k) {
          const CpuCell next{c2c, 1, i, k};
          if (!timed(next)) continue;
          if (cell.in(*r) > next.in(*r)) reread(cell);
          break;
        }
      }
  for (int rank = 1; rank <= 3; ++rank)
    for (size_t i = 0; i < static_cast<size_t>(rank == 1 ? CpuRates::kSizes : CpuRates::kMultiSizes); ++i)
      for (size_t j = 0; j < (rank == 1 ? 1 + CpuRates::kTotals.size() : 1); ++j) {
        const CpuCell r2c{false, rank, i, j}, c2c{true, rank, i, j};
        if (timed(r2c) && timed(c2c) && r2c.in(*r) > c2c.in(*r)) reread(r2c);
      }
}

namespace {
// As many c2c f32 points as move as many bytes (16 per point, in and out).
double log2_points(const Problem &p) { return std::log2(std::max((bytes_in(p) + bytes_out(p)) / 16, 1.0)); }
}  // namespace

double gpu_seconds(const Problem &p, bool pinned, const GpuRates &r) {
  const auto &row = r.seconds[pinned ? 1 : 0][p.batch() > 1 ? 1 : 0];
  const std::vector<double> xs(GpuRates::kLog2.begin(), GpuRates::kLog2.end()), ts(row.begin(), row.end());
  return std::exp2(log_time(xs, ts, log2_points(p)));
}

std::optional<double> gpu_set_seconds(const Problem &p, bool pinned, const GpuRates &r) {
  const auto &row = r.set_seconds[pinned ? 1 : 0][p.batch() > 1 ? 1 : 0];
  std::vector<double> xs, ts;
  for (size_t k = 0; k < row.size(); ++k)
    if (row[k] > 0) xs.push_back(GpuRates::kLog2[k]), ts.push_back(row[k]);
  const double x = log2_points(p);
  if (xs.empty() || x < xs.front()) return std::nullopt;
  return std::exp2(log_time(xs, ts, x));
}

double between_work(const Problem &p, double back_to_back_s) {
  // In place, one array holds both sides.
  const double bytes = p.in_place() ? std::max(bytes_in(p), bytes_out(p)) : bytes_in(p) + bytes_out(p);
  return bytes >= kBackToBackBytes ? kBackToBackFastBy * back_to_back_s : back_to_back_s;
}

namespace {
double table_seconds(const Problem &p, const CpuRates &r) {
  const int rank = std::clamp(static_cast<int>(p.dims.size()), 1, 3);
  // r2c, c2r and r2r (priced as r2c) from the r2c tables, by reals.
  const bool c2c = p.kind == Kind::C2C;
  const double n = std::max(static_cast<double>(p.transform_size()), 1.0);
  const double batch = static_cast<double>(std::max<int64_t>(p.batch(), 1));
  const double log_n = std::log2(n), log_total = std::log2(n * batch);
  if (rank > 1) {
    // A batch of multi-dimensional transforms parallelises like one
    // transform of as many points.
    const auto &sizes = rank == 2 ? CpuRates::kLog2Rank2 : CpuRates::kLog2Rank3;
    const auto &row = (c2c ? r.multi_d : r.multi_d_r2c)[rank - 2];
    const std::vector<double> xs(sizes.begin(), sizes.end()), ts(row.begin(), row.end());
    return std::exp2(log_time(xs, ts, log_total));
  }
  // Between the two rows of transform sizes around n, by log2 n.
  const CpuRates::OneD &table = c2c ? r.one_d : r.one_d_r2c;
  const auto &sizes = CpuRates::kLog2;
  size_t i = 0;
  while (i + 2 < sizes.size() && log_n > sizes[i + 1]) ++i;
  const double w = std::clamp((log_n - sizes[i]) / (sizes[i + 1] - sizes[i]), 0.0, 1.0);
  return std::exp2(one_d_log_time(table, i, log_total) * (1 - w) + one_d_log_time(table, i + 1, log_total) * w);
}
}  // namespace

bool past_codelets(const Problem &p) {
  for (const Dim &d : p.dims) {
    int64_t n = d.n;
    for (int64_t prime : {2, 3, 5, 7, 11, 13})
      while (n % prime == 0) n /= prime;
    if (n > 1) return true;
  }
  return false;
}

double cpu_seconds(const Problem &p, const CpuRates &r) {
  return between_work(p, table_seconds(p, r)) * (past_codelets(p) ? kPastCodeletsBy : 1);
}

void fill_one_d_row(CpuRates::OneD *table, size_t i, int threads, const std::function<double(int64_t)> &time) {
  const int log2 = CpuRates::kLog2[i];
  auto &row = (*table)[i];
  row[0] = time(1);
  double last = row[0];
  int last_log2 = log2;
  for (size_t j = 0; j < CpuRates::kTotals.size(); ++j) {
    const int total = CpuRates::kTotals[j];
    if (total <= log2) continue;
    row[1 + j] = timed_cell(threads, total) ? time(int64_t{1} << (total - log2)) : last * std::exp2(total - last_log2);
    last = row[1 + j];
    last_log2 = total;
  }
}

void fill_multi_d_cell(CpuRates *r, const CpuCell &cell, const std::function<double(const CpuCell &)> &time) {
  if (!timed_cell(r->threads, cell.total_log2()) && cell.size > 0) {
    const CpuCell below{cell.c2c, cell.rank, cell.size - 1, 0};
    cell.in(r) = below.in(*r) * std::exp2(cell.log2() - below.log2());
    return;
  }
  cell.in(r) = time(cell);
}

CpuPick pick_threads(const CpuPick &program, const CpuPick &one) {
  return kOneThreadBy * one.seconds < program.seconds ? one : program;
}

std::string format(const GpuRates &r) {
  std::ostringstream o;
  o.precision(6);
  o << "gpu " << r.readings << ' ' << r.link_rate << ' ' << r.device_rate << ' ' << r.peer_rate;
  for (const GpuRates::Table *table : {&r.seconds, &r.set_seconds})
    for (const auto &memory : *table)
      for (const auto &row : memory)
        for (double v : row) o << ' ' << v;
  return o.str();
}

std::string format(const CpuRates &r) {
  std::ostringstream o;
  o.precision(6);
  o << "cpu " << (r.precision == Precision::F32 ? "f32" : "f64") << ' ' << r.threads << ' ' << r.readings;
  for (const CpuRates::OneD *table : {&r.one_d, &r.one_d_r2c})
    for (const auto &row : *table)
      for (double v : row) o << ' ' << v;
  for (const CpuRates::MultiD *table : {&r.multi_d, &r.multi_d_r2c})
    for (const auto &row : *table)
      for (double v : row) o << ' ' << v;
  return o.str();
}

bool parse(const std::string &line, GpuRates *r) {
  std::istringstream in(line);
  std::string tag, rest;
  GpuRates g;
  in >> tag >> g.readings >> g.link_rate >> g.device_rate >> g.peer_rate;
  for (GpuRates::Table *table : {&g.seconds, &g.set_seconds})
    for (auto &memory : *table)
      for (auto &row : memory)
        for (double &v : row) in >> v;
  if (tag != "gpu" || in.fail() || (in >> rest) || !g.valid()) return false;
  *r = g;
  return true;
}

bool parse(const std::string &line, CpuRates *r) {
  std::istringstream in(line);
  std::string tag, precision, rest;
  CpuRates c;
  in >> tag >> precision >> c.threads >> c.readings;
  c.precision = precision == "f64" ? Precision::F64 : Precision::F32;
  for (CpuRates::OneD *table : {&c.one_d, &c.one_d_r2c})
    for (auto &row : *table)
      for (double &v : row) in >> v;
  for (CpuRates::MultiD *table : {&c.multi_d, &c.multi_d_r2c})
    for (auto &row : *table)
      for (double &v : row) in >> v;
  if (tag != "cpu" || (precision != "f32" && precision != "f64") || in.fail() || (in >> rest) || !c.valid())
    return false;
  *r = c;
  return true;
}

double estimate_loses_by(const Problem &p) {
  return estimate_loses_by(p.transform_size() * p.batch());
}

void settle(double *gpu_s, double *cpu_s, const std::function<double()> &read_gpu,
            const std::function<double()> &read_cpu) {
  if (std::max(*gpu_s, *cpu_s) > kRereadWithin * std::min(*gpu_s, *cpu_s)) return;
  std::array<double, 3> g{*gpu_s}, c{*cpu_s};
  for (size_t i = 1; i < g.size(); ++i) {
    g[i] = read_gpu();
    c[i] = read_cpu();
  }
  std::sort(g.begin(), g.end());
  std::sort(c.begin(), c.end());
  *gpu_s = g[1];
  *cpu_s = c[1];
}

bool estimated_stands_in(double gpu_s, double measured_s, double estimated_s) {
  return measured_s > gpu_s && estimated_s < gpu_s;
}

bool lost_in_a_spell(double winner_s, double loser_s, double loser_price) {
  return loser_s > kSpellReadBy * loser_price && loser_price < winner_s;
}

void doubt(double *loser_s, double winner_s, double witness_s, double by, const std::function<double()> &read) {
  if (*loser_s <= by * witness_s || witness_s >= winner_s) return;
  for (int i = 0; i < kDoubtReadings && *loser_s >= winner_s; ++i) *loser_s = std::min(*loser_s, read());
}

}  // namespace gpufftw
