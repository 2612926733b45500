// The cost model behind FFTW_ESTIMATE dispatch: the execute time of a
// problem on the GPU (host arrays over PCIe) and on the real FFTW with a
// given thread count, interpolated from times measured once per machine
// (calibrate.h). Times, not rates: fixed costs (a launch and a sync, the
// real FFTW waking its threads) dominate small problems and a per-point
// rate cannot carry them. Pure functions of the tables, so tests can
// inject them.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/problem.h"

namespace gpufftw {

// Seconds of the engine, end to end, on c2c f32 1-D problems of 2^kLog2[i]
// points in all: one transform, or a batch of transforms of 1024 points
// (fewer where the whole is smaller); on pageable and on pinned arrays.
// Other problems are looked up by the bytes they move. Up to 2^24 points
// (128 MiB each way): at 2^22 the pipeline is not yet at its full rate,
// so prices taken proportional from there run high on bigger batches and
// send them to the CPU where the GPU is faster (docs/dispatch-sweep.md,
// "The model's tables", has the measurements behind each column).
//
// The same cells over the whole device set, as its split runs them with
// every GPU's link busy at once (set_seconds): 0 where the split takes no
// such cell (one GPU in the set, or a cell too small to split). A problem
// is priced over the set only from the smallest cell the split took up.
//
// With them, the bytes per second the engine prices its solvers by
// (engine.h's Rates, measured by its measure_rates): over the host link,
// in and out together; read plus written in device memory; pulled by one
// GPU from another of the set (the link's rate where they have no peer
// access).
struct GpuRates {
  static constexpr int kSizes = 6;
  static constexpr std::array<int, kSizes> kLog2{8, 12, 16, 19, 22, 24};
  static constexpr int kBatchN = 1024;
  using Table = std::array<std::array<std::array<double, kSizes>, 2>, 2>;  // [pinned][batch][size]
  Table seconds{};      // one GPU
  Table set_seconds{};  // the device set's split
  double link_rate = 0, device_rate = 0, peer_rate = 0;
  // Calibrations, each in a process of its own, whose fastest cells these
  // are (dispatch/store.h says why a second one may be taken).
  int readings = 1;
  bool valid() const;
};

// Seconds of the real FFTW with FFTW_ESTIMATE plans, one precision and one
// thread count (each precision's library has its own
// fftw_plan_with_nthreads), c2c and r2c (complex numbers or reals): 1-D
// transforms of n = 2^kLog2[i], alone and in batches of 2^kTotals[j] points
// in all (0 where that is not more than n); 2-D and 3-D single transforms
// of 2^kLog2Rank2/3[i] points, up to 2^24: past the caches the real
// FFTW's 2-D and 3-D run far slower than proportional to 2^20's (a
// distributed plan of 2^30 points priced from 2^20 read many times fast),
// so the largest cell is read, not extrapolated. r2c has tables of its own: the real FFTW's
// r2c of n reals can run well slower than its c2c of n/2, which a
// half-size c2c price misses. Batches of 2^22 and 2^24 points: past the
// last-level cache the real FFTW slows beyond proportional to 2^20's, and
// again from 2^22 to 2^24, so prices taken proportional would send such
// batches to the CPU where the GPU is faster. Batches of 2^18 points: with
// threads the real FFTW's time grows far less than proportional from 2^16
// (its threads' fixed cost) and far more to 2^20 (past the caches), so a
// price between them runs high, most on r2c. The measurements behind each
// column: docs/dispatch-sweep.md, "The model's tables".
struct CpuRates {
  static constexpr int kSizes = 6;
  static constexpr std::array<int, kSizes> kLog2{4, 7, 10, 13, 16, 20};
  static constexpr std::array<int, 6> kTotals{12, 16, 18, 20, 22, 24};
  static constexpr int kMultiSizes = 7;
  static constexpr std::array<int, kMultiSizes> kLog2Rank2{8, 10, 12, 14, 16, 20, 24};
  static constexpr std::array<int, kMultiSizes> kLog2Rank3{6, 9, 12, 15, 18, 20, 24};
  Precision precision = Precision::F32;
  int threads = 1;
  using OneD = std::array<std::array<double, 1 + kTotals.size()>, kSizes>;  // [size][0 alone, 1 + j batched]
  using MultiD = std::array<std::array<double, kMultiSizes>, 2>;           // [rank - 2][size]
  OneD one_d{}, one_d_r2c{};
  MultiD multi_d{}, multi_d_r2c{};
  // Calibrations, each in a process of its own, whose fastest cells these
  // are (dispatch/store.h says why a second one may be taken).
  int readings = 1;
  bool valid() const;
};

// Cell by cell the faster of two readings of the same table, and of each
// rate the higher, readings added: a host's slow spell only ever slows a
// reading.
CpuRates fastest_of(const CpuRates &a, const CpuRates &b);
GpuRates fastest_of(const GpuRates &a, const GpuRates &b);

// One cell of a CpuRates table: a 1-D one (rank 1: one_d[size][column]) or
// a 2-D or 3-D one (multi_d[rank - 2][size]), c2c or r2c, and the problem
// it times: `batch` transforms of 2^log2() points, 2^total_log2() in all.
struct CpuCell {
  bool c2c;
  int rank;
  size_t size, column;  // column: rank 1 only
  int log2() const;
  int total_log2() const;
  int64_t batch() const;
  double &in(CpuRates *r) const;
  double in(const CpuRates &r) const;
};

// Cells a slow spell of the host may have read high, by what a table
// should satisfy, read once more (`time`) and kept at the faster reading:
// an r2c cell above the c2c cell of its shape (r2c does half the work),
// and a 1-D cell above the next measured cell of its row (a bigger batch;
// threads make one transform of 1024 points slower than four, so some
// cells are read twice for nothing, a few milliseconds). A spell of a few
// milliseconds can read one cell many times slow (docs/how-it-works.md,
// FFTW_MEASURE's rules: "Outliers read again"). Cells past
// kOneThreadTimedTo at one thread are not timed, and not read.
void reread_outliers(CpuRates *r, const std::function<double(const CpuCell &)> &time);

// Bytes the transform reads and writes on the host (each side's elements
// times their size: what crosses PCIe).
double bytes_in(const Problem &p);
double bytes_out(const Problem &p);

// The real FFTW's time between a program's other work, from a time read
// back to back (the calibration's cells, FFTW_MEASURE's readings): where
// its arrays hold kBackToBackBytes or more, by kBackToBackFastBy. Past
// the last-level cache, back-to-back executes run faster than executes
// between other work, and ties there went to the CPU and lost; the GPU's
// readings do not move so (docs/how-it-works.md, FFTW_MEASURE's rules:
// "Back to back").
constexpr double kBackToBackBytes = 64.0 * (1 << 20);
constexpr double kBackToBackFastBy = 1.25;
double between_work(const Problem &p, double back_to_back_s);

// The real FFTW on sizes with a prime factor over 13 (past its
// hard-coded codelets: generic and Rader's algorithm) runs several times
// slower than on the powers of two the tables hold, and r2c far more so.
// Priced as powers of two, such a size looks close to the GPU, and
// FFTW_MEASURE spends its planning timing the real FFTW's plan against a
// GPU many times faster. The factor is the smallest ratio measured
// (docs/dispatch-sweep.md, "The model's tables"), so that no such size is
// priced above what it runs.
constexpr double kPastCodeletsBy = 4.0;
bool past_codelets(const Problem &p);

// Predicted execute times in seconds; r's precision is p's. The real
// FFTW's between other work (between_work), and kPastCodeletsBy higher
// past its codelets.
double gpu_seconds(const Problem &p, bool pinned, const GpuRates &r);
// The device set's split: none where the set's table has no cell as large
// as the problem, or none at all.
std::optional<double> gpu_set_seconds(const Problem &p, bool pinned, const GpuRates &r);
double cpu_seconds(const Problem &p, const CpuRates &r);

// Row i of a 1-D table, from `time(batch)`: the seconds of `batch`
// transforms of 2^kLog2[i] points. One thread is timed up to
// 2^kOneThreadTimedTo points in all and taken as proportional beyond:
// there a call takes tens of milliseconds, and timing them would be most
// of a calibration's time, while the model never picks one thread for
// such a batch (one must be kOneThreadBy faster than all cores).
constexpr int kOneThreadTimedTo = 20;
// Whether a calibration at `threads` times a cell of 2^total_log2 points
// in all; else the cell is proportional to the one below it, and not read.
constexpr bool timed_cell(int threads, int total_log2) { return threads != 1 || total_log2 <= kOneThreadTimedTo; }
void fill_one_d_row(CpuRates::OneD *table, size_t i, int threads, const std::function<double(int64_t)> &time);
// A 2-D or 3-D cell (rank 2 or 3) of *r, from `time(cell)`; likewise at one
// thread past 2^kOneThreadTimedTo points, proportional to the cell below it.
void fill_multi_d_cell(CpuRates *r, const CpuCell &cell, const std::function<double(const CpuCell &)> &time);

// Of the real FFTW's predicted seconds at the program's thread count and
// at one thread, the pick. One thread only where the model says so by
// kOneThreadBy: with threads the real FFTW can be far slower than one on
// small problems (waking its threads costs more than the transform), but
// the tables are c2c powers of two and are off on r2c and on batches of
// small transforms, which its threads split well; a wrong one-thread pick
// can lose several times over, where keeping the program's threads loses
// nothing against the real FFTW (docs/dispatch-sweep.md, "The model's
// tables").
struct CpuPick {
  double seconds;
  int threads;
};
constexpr double kOneThreadBy = 2.0;
CpuPick pick_threads(const CpuPick &program, const CpuPick &one);

// One line each, for the store and the log; parse returns false on
// anything malformed.
std::string format(const GpuRates &r);
std::string format(const CpuRates &r);
bool parse(const std::string &line, GpuRates *r);
bool parse(const std::string &line, CpuRates *r);

// The model's verdict on one problem: the side it predicts faster, and
// whether by so wide a margin (kSureRatio) that FFTW_MEASURE need not time
// both (the real FFTW's MEASURE alone can take 20 s on a big problem).
// Inline: the MPI layer, a library of its own, draws its verdicts between
// the composed plan and the real FFTW MPI by the same rule.
struct Verdict {
  bool gpu = false, sure = false;
  double gpu_s = 0, cpu_s = 0;
};
constexpr double kSureRatio = 4.0;
inline Verdict judge(double gpu_s, double cpu_s) {
  Verdict v;
  v.gpu_s = gpu_s;
  v.cpu_s = cpu_s;
  v.gpu = v.gpu_s < v.cpu_s;
  v.sure = std::max(v.gpu_s, v.cpu_s) > kSureRatio * std::min(v.gpu_s, v.cpu_s);
  return v;
}

// FFTW_MEASURE's rules below are described together, each with the failure
// it prevents and the measurements behind it, in docs/how-it-works.md
// ("FFTW_MEASURE's rules"); measure.cc's measured() and remember() apply them.

// FFTW_MEASURE's cut: where the real FFTW's FFTW_ESTIMATE plan of the
// problem reads this many times slower than the GPU, its measured plan is
// taken to lose too, and is not made: measuring costs the real FFTW
// seconds on big problems, and from kEstimateNearPoints on, more than
// auto's whole plan may cost. Measured plans can run many times faster
// than estimated ones on small problems, but far less so from
// kEstimateNearPoints on, hence the nearer cut there
// (docs/dispatch-sweep.md, "FFTW_MEASURE").
constexpr double kEstimateLosesBy = 3.0;
constexpr int64_t kEstimateNearPoints = int64_t{1} << 22;
constexpr double kNearEstimateLosesBy = 1.6;
// Of a problem of `points` in all (inline: the MPI layer cuts by it too),
// and of p's.
inline double estimate_loses_by(int64_t points) {
  return points >= kEstimateNearPoints ? kNearEstimateLosesBy : kEstimateLosesBy;
}
double estimate_loses_by(const Problem &p);

// FFTW_MEASURE's first reading of each side (*gpu_s, *cpu_s), settled: where
// they are within kRereadWithin of each other, each side is read twice
// more, in turn, and keeps the median of its three readings, so that a
// slow spell of the host that lasts one reading falls on one of three.
// Readings further apart are left as they are: a spell that slowed a side
// more than kRereadWithin is doubt's to find.
constexpr double kRereadWithin = 3.0;
void settle(double *gpu_s, double *cpu_s, const std::function<double()> &read_gpu,
            const std::function<double()> &read_cpu);

// FFTW_MEASURE's reading of the side that lost (*loser_s, against the
// winner's winner_s), doubted where a witness prices that side `by` times
// lower and low enough to win: a slow spell of the host may have read it,
// over more than settle's readings or too far from the other side's for
// settle to look. It is read again, up to kDoubtReadings times, keeping
// the fastest (a spell only ever slows a reading), until it wins.
// Witnesses: the model, by kDoubtedBy; and the reading of the real FFTW's
// FFTW_ESTIMATE plan of the problem, by 1 (the measured plan is the
// fastest the real FFTW found). The estimated plan's own reading is
// doubted against FFTW_MEASURE's cut (estimate_loses_by) in winner_s's
// place: past the cut it leaves the measured plan unmade.
constexpr double kDoubtedBy = 3.0;
constexpr int kDoubtReadings = 3;
void doubt(double *loser_s, double winner_s, double witness_s, double by, const std::function<double()> &read);

// Whether the real FFTW's FFTW_ESTIMATE plan takes the CPU's side in
// FFTW_MEASURE's place: where its measured plan still loses to the GPU
// after doubt's readings again, but the estimated plan, read before the
// real FFTW measured, beat the GPU. Both are the real FFTW's plans; the
// measured one is only the faster in the real FFTW's own timing, and the
// readings just after its measuring can run slow. The estimated plan's one
// reading stands (read again after the measuring, it ran slow too): a slow
// spell only ever slows a reading.
bool estimated_stands_in(double gpu_s, double measured_s, double estimated_s);

// Whether FFTW_MEASURE's choice may have been read in a slow spell of the
// host: the side that lost read over kSpellReadBy times the model's price
// for it (loser_s against loser_price), and at its price it would have won
// (loser_price below winner_s). Such a choice serves the process that
// measured it but is not stored for later ones, which measure again: a
// spell that lasts minutes outlasts settle's and doubt's readings again,
// and a stored choice outlasts the spell.
constexpr double kSpellReadBy = 1.5;
bool lost_in_a_spell(double winner_s, double loser_s, double loser_price);

}  // namespace gpufftw
