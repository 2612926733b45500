// What dispatch keeps across runs, in one file per user with a section per
// machine: the calibrated rates of the cost model, the choices that
// measuring made, and the engine's picks between our own kernels and cuFFT
// (engine/in_core/own_kernel.h). The file is $GPUFFTW_CACHE_DIR/dispatch.txt,
// else under $XDG_CACHE_HOME/gpufftw/, else ~/.cache/gpufftw/. A machine
// (GPU, driver, the GPUs the process may use, CPU, cores, FFTW and gpufftw
// versions) reads only its own section, and its saves replace only that
// one: processes of several machines share one home (an MPI job's ranks
// each given a GPU of their own, login and compute nodes), and each keeps
// what it measured. A file of another version, or a corrupt one, is
// recalibrated and rewritten. It is read only where it and its folder are
// the user's own and no one else can write them, never through a symbolic
// link; folders it makes are private (0700), the file 0600. A folder others
// can write is neither read nor written (choices then last for the
// process): whoever can write the folder decides what the file says.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/kernel_pick.h"
#include "core/where.h"
#include "dispatch/cost_model.h"

namespace gpufftw {

// A measured choice between the GPU and the real FFTW for one problem.
struct Choice {
  bool gpu = false;
  double gpu_s = 0, cpu_s = 0;
  bool estimated = false;  // the CPU's plan is the real FFTW's FFTW_ESTIMATE one (estimated_stands_in)
  int threads = 0;         // the CPU's plan's thread count where timing chose one; 0: the program's
  // The GPU's placement where timing chose between one GPU and the set;
  // Auto: the engine's own.
  Spread spread = Spread::Auto;
};

class DispatchStore {
 public:
  struct Calibrators {
    std::function<bool(GpuRates *, std::string *)> gpu;
    std::function<CpuRates(Precision, int)> cpu;
    // How many times faster than `stored` a few of its cells run now
    // (tens of milliseconds); none: tables are never checked.
    std::function<double(const CpuRates &stored)> check_cpu;
    // The same for the GPU's, or 0 where it cannot tell yet: the GPU's
    // table is checked at the first ask once this process has started CUDA
    // for a plan of its own, since a process whose plans all stay on the
    // CPU never starts it (automatic, policy.cc).
    std::function<double(const GpuRates &stored)> check_gpu;
  };
  // `machine` names this machine as its section of the file records it;
  // asked only when the file is first read for its contents (naming the GPU
  // may start CUDA).
  DispatchStore(std::string path, std::function<std::string()> machine, Calibrators calibrate);

  // Reads the file, where it has not been read yet, only to warn now where
  // it cannot be used: not the user's own, not a dispatch store, or
  // corrupt. Its contents are taken at first need.
  void check();

  // The rates, calibrated (and saved) the first time they are asked for.
  // A table of one reading, taken in another process, is checked the
  // first time this process asks for it: where it now runs
  // kReadAgainBy times faster, the host was in a slow spell while it was
  // read, and it is read again and the faster of each cell kept; where it
  // agrees, it has two readings and is not checked again; where it runs
  // slower, this process is in a slow spell, and the next checks
  // (docs/how-it-works.md, FFTW_MEASURE's rules: "Checked by the next
  // process"). Calibrating and checking are outside the plan that asks
  // (OutsideThePlan): its time limit neither bounds them nor pays for
  // them.
  std::optional<GpuRates> gpu_rates();
  // The GPU's rates as this process or the file holds them, neither
  // calibrated nor checked here: for a plan that asks for no price.
  std::optional<GpuRates> held_gpu_rates();
  CpuRates cpu_rates(Precision precision, int threads);
  static constexpr double kReadAgainBy = 1.3;
  // The machines whose sections the file keeps, the most recently saved:
  // each CUDA_VISIBLE_DEVICES a job's ranks were given names a machine of
  // its own, and a file that kept every one would grow without end, read
  // whole by every process. The one saved longest ago is dropped first.
  static constexpr size_t kMachinesKept = 16;

  bool recall(const std::string &problem_key, Choice *choice);
  // Stored in the file for later processes, or where not `lasting`
  // (lost_in_a_spell), kept for this process alone.
  void remember(const std::string &problem_key, const Choice &choice, bool lasting = true);
  bool recall_kernel(const std::string &key, KernelPick *pick);
  void remember_kernel(const std::string &key, const KernelPick &pick);
  // fftw_forget_wisdom: this process forgets the choices and kernel picks
  // whose keys match, and the file loses those it holds now at this
  // process's next write.
  void forget(const std::function<bool(const std::string &)> &which);

  const std::string &path() const { return path_; }

 private:
  // A file's sections, in the order they were saved, the latest first:
  // each machine's name and the lines under its machine line.
  using Sections = std::vector<std::pair<std::string, std::string>>;
  // The sections of a file of this version that what_is_wrong passes
  // (store.cc); none for a file of another version.
  static Sections sections_of(const std::string &text);
  // This machine's lines among `sections`, or null where it has none.
  const std::string *own_section(const Sections &sections);
  const std::string &machine();  // named at the first ask, under mutex_
  // Said before a calibration whose result is stored (CalibrationNotice).
  void calibrating() const;
  // The folder is this user's and only theirs (else warned about once).
  bool dir_trusted();
  // The file, where it is this user's own and only theirs (else warned
  // about once); false where it is missing or not to be trusted.
  bool read_file(std::string *text);
  void warn_once(const std::string &what);  // one warning per store
  void load();  // under mutex_, once
  // Under mutex_; merges choices another process saved meanwhile. False
  // where the file could not be replaced, said as not_saved does.
  bool save();
  // A save that failed (a full disk, a quota, a folder in the file's
  // place): a warning the first time, since every later process then
  // calibrates and measures again; the log's info after.
  bool not_saved(const std::string &why);
  // A calibration's save, its outcome told by the notice of the plan that
  // started it; a calibration outside any plan's notice tells none, and
  // leaves nothing for the next plan's notice to tell as its own.
  void save_calibration();

  std::mutex mutex_;
  const std::string path_;
  const std::function<std::string()> name_machine_;
  std::string machine_;
  const Calibrators calibrate_;
  bool loaded_ = false;
  bool checked_ = false;
  bool warned_ = false;
  bool save_warned_ = false;
  // Each forgotten key's line in the file when it was forgotten: a line
  // that still reads so is not merged back from the file.
  std::map<std::string, std::string> forgotten_;
  bool forgotten_line(const std::string &key, const std::string &line) const {
    const auto it = forgotten_.find(key);
    return it != forgotten_.end() && it->second == line;
  }
  std::optional<GpuRates> gpu_;
  std::string gpu_why_;
  bool gpu_checked_ = false;  // the GPU's table read or checked in this process
  std::map<std::pair<int, int>, CpuRates> cpu_;  // by (precision, threads)
  std::set<std::pair<int, int>> cpu_seen_;       // tables read or checked in this process
  std::map<std::string, Choice> choices_;
  std::set<std::string> passing_;  // keys of choices_ this process keeps out of the file
  std::map<std::string, KernelPick> kernels_;
};

// The first plans on a new machine calibrate the cost model, for seconds.
// Held while a plan is made, a notice tells the user so on stderr: one line
// as the first calibration under it starts (once per machine, and where the
// result is kept), one as the last notice of the thread ends, with the time
// it took.
class CalibrationNotice {
 public:
  CalibrationNotice();
  ~CalibrationNotice();
  CalibrationNotice(const CalibrationNotice &) = delete;
  CalibrationNotice &operator=(const CalibrationNotice &) = delete;
};

// The store's file: the directory the environment gives, and dispatch.txt.
// GPUFFTW_CACHE_DIR, where set, is made if missing; one that is relative,
// or that cannot be made or written, is warned about and the default taken.
// A default folder that cannot be made is said once (it is made only by
// the first save); a relative XDG_CACHE_HOME or HOME is ignored.
std::string dispatch_store_path();

}  // namespace gpufftw
