#include "dispatch/store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <set>
#include <sstream>

#include "core/env.h"
#include "core/log.h"
#include "core/time_limit.h"

namespace gpufftw {
namespace {

// 2: the real FFTW timed at each thread count (1 timed them all at the
// program's); 3: kernel picks, and the real FFTW's r2c tables; 4: 2^22-point
// batches in the real FFTW's tables, 2^24 points in the GPU's; 5: 2^24-point
// batches in the real FFTW's; 6: each CPU table's count of readings; 7:
// 2^18-point batches in the real FFTW's; 8: the GPU table's count of
// readings; 9: a choice's thread count where timing chose one ("cpu@1");
// 10: a GPU choice's placement where timing chose one ("gpu@one",
// "gpu@set"); 11: the device set's table; 12: the host link's, device
// memory's and peer links' rates, which the engine prices its solvers by;
// 13: a section for each machine, its machine line and the lines under it
// (12 held one machine's lines). A file of another version is calibrated
// again.
constexpr const char *kHeader = "gpufftw dispatch store 13";

// A machine's section starts with a line of this and the machine's name.
constexpr char kMachine[] = "machine ";
constexpr size_t kMachineLength = sizeof kMachine - 1;

bool machine_line(const std::string &line) { return line.compare(0, kMachineLength, kMachine) == 0; }

int precision_index(Precision p) { return p == Precision::F32 ? 0 : 1; }

// Whether a first line is a dispatch store's header, of any version.
bool store_header(const std::string &line) {
  const std::string header = kHeader;
  const size_t stem = header.rfind(' ') + 1;
  return line.compare(0, stem, header, 0, stem) == 0;
}

// A table of one reading from another process, after a check found it
// `faster` times as fast now (store.h): true where it changed and
// is to be saved.
template <class Rates>
bool after_check(Rates *stored, const char *name, double faster,
                 const std::function<std::optional<Rates>()> &read_again) {
  if (faster >= DispatchStore::kReadAgainBy) {
    GPUFFTW_LOG(Info, "%s runs %.2gx faster now than when it was read: reading it again", name, faster);
    const std::optional<Rates> again = read_again();
    if (!again) return false;
    *stored = fastest_of(*stored, *again);
    return true;
  }
  if (faster * DispatchStore::kReadAgainBy <= 1) return false;
  stored->readings = 2;
  return true;
}

// A choice's place in the file: where_name's text of where it runs, or
// this for the real FFTW's FFTW_ESTIMATE plan; then "@one" or "@set" for a
// GPU placement, "@<threads>" for a CPU thread count.
constexpr const char *kCpuEstimated = "cpu-estimated";

std::string choice_where(const Choice &c) {
  std::string where = c.gpu ? where_name(Where::Gpu) : c.estimated ? kCpuEstimated : where_name(Where::Cpu);
  if (!c.gpu && c.threads) where += "@" + std::to_string(c.threads);
  if (c.gpu && c.spread != Spread::Auto) where += c.spread == Spread::One ? "@one" : "@set";
  return where;
}

// A reading as saved (%.6g): a number, or inf for a plan that gave none
// and reads as never ending (the MPI layer's rival on some rank), which
// the stream's own >> does not read back. NaN and a negative time are no
// reading.
bool read_seconds(std::istream &in, double *s) {
  std::string word;
  if (!(in >> word)) return false;
  char *end = nullptr;
  *s = std::strtod(word.c_str(), &end);
  return *end == '\0' && !std::isnan(*s) && *s >= 0;
}

bool parse_choice(const std::string &line, std::string *key, Choice *c) {
  std::istringstream in(line);
  std::string tag, where, rest;
  in >> tag >> *key >> where;
  if (tag != "choice" || in.fail() || !read_seconds(in, &c->gpu_s) || !read_seconds(in, &c->cpu_s) || (in >> rest))
    return false;
  const size_t at = where.find('@');
  const bool detailed = at != std::string::npos;
  const std::string detail = detailed ? where.substr(at + 1) : "";
  if (detailed) where.resize(at);
  c->estimated = where == kCpuEstimated;
  Where w = Where::Cpu;
  if (!c->estimated && (!where_from_name(where.c_str(), &w) || w == Where::None)) return false;
  c->gpu = w == Where::Gpu;
  c->threads = 0;
  c->spread = Spread::Auto;
  if (!detailed) return true;
  if (c->gpu) {
    if (detail != "one" && detail != "set") return false;
    c->spread = detail == "one" ? Spread::One : Spread::Set;
    return true;
  }
  // Read whole before it is narrowed: a count past an int's range would
  // wrap to another count.
  char *end = nullptr;
  const long threads = std::strtol(detail.c_str(), &end, 10);
  c->threads = static_cast<int>(threads);
  return *end == '\0' && threads >= 1 && threads <= std::numeric_limits<int>::max();
}

// "kernel <key> <variant> <own_s> <cufft_s>"
bool parse_kernel(const std::string &line, std::string *key, KernelPick *k) {
  std::istringstream in(line);
  std::string tag, rest;
  in >> tag >> *key >> k->variant;
  return tag == "kernel" && !in.fail() && read_seconds(in, &k->own_s) && read_seconds(in, &k->cufft_s) &&
         !(in >> rest);
}

// A line after the machine's, of this version's file.
bool known_line(const std::string &line) {
  GpuRates g;
  CpuRates c;
  std::string key;
  Choice choice;
  KernelPick pick;
  return parse(line, &g) || parse(line, &c) || parse_choice(line, &key, &choice) || parse_kernel(line, &key, &pick);
}

// What makes a file's text no store for any machine, for its warning: not
// a dispatch store at all, or one of this version with a line that does
// not parse or a machine's section twice. "" where nothing does: a store of
// another version, or without this machine's section, is calibrated again
// without a word.
std::string what_is_wrong(const std::string &text) {
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  if (!store_header(line)) return "not a gpufftw dispatch store (its first line: \"" + line.substr(0, 60) + "\")";
  if (line != kHeader) return "";
  if (!std::getline(in, line) || !machine_line(line))
    return "corrupt (no machine line: \"" + line.substr(0, 60) + "\")";
  std::set<std::string> machines{line};
  while (std::getline(in, line))
    if (machine_line(line) ? !machines.insert(line).second : !known_line(line))
      return "corrupt (\"" + line.substr(0, 60) + "\")";
  return "";
}

// mkdir -p, each folder it makes private (0700): the store says where
// plans run, so no one else may write it. "" where the folder is there
// now, else the mkdir that failed and why.
std::string make_dirs(const std::string &dir) {
  for (size_t i = 1; i <= dir.size(); ++i)
    if (i == dir.size() || dir[i] == '/') {
      const std::string part = dir.substr(0, i);
      if (mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return "mkdir " + part + ": " + std::strerror(errno);
    }
  return "";
}

// Why the folder named for the store cannot hold it, made first where it
// is missing (so that one that cannot be is said at the first plan, not at
// the first save, which only the GPU's plans make); "" where it can.
std::string unusable_folder(const char *dir) {
  if (std::string why = make_dirs(dir); !why.empty()) return why;
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return "not a directory";
  if (access(dir, W_OK | X_OK) != 0) return std::string("access: ") + std::strerror(errno);
  return "";
}

// Why the folder `dir` could not be made, or "" where it is there or can
// be: the first part missing is made and removed again, so that nothing is
// left where the store never saves (a machine without a GPU).
std::string cannot_be_made(const std::string &dir) {
  for (size_t i = 1; i <= dir.size(); ++i) {
    if (i < dir.size() && dir[i] != '/') continue;
    const std::string part = dir.substr(0, i);
    struct stat st;
    if (stat(part.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) return part + ": " + std::strerror(ENOTDIR);
      continue;
    }
    if (mkdir(part.c_str(), 0700) != 0) return "mkdir " + part + ": " + std::strerror(errno);
    rmdir(part.c_str());
    return "";
  }
  return access(dir.c_str(), W_OK | X_OK) == 0 ? "" : "access " + dir + ": " + std::strerror(errno);
}

// The default store's path, its folder said once where it cannot be made
// (an unwritable HOME): choices are then measured again in every process.
std::string default_store_path(const std::string &dir) {
  if (const std::string why = cannot_be_made(dir); !why.empty()) {
    static std::mutex mutex;
    static std::set<std::string> *said = new std::set<std::string>;  // never destroyed: plans outlive statics
    std::lock_guard<std::mutex> lock(mutex);
    if (said->insert(dir).second)
      std::fprintf(stderr, "gpufftw: the cache folder %s cannot be made (%s); measured choices stay in this process\n",
                   dir.c_str(), why.c_str());
  }
  return dir + "/dispatch.txt";
}

// This thread's CalibrationNotice: how many are held, and where a
// calibration under them has started, when, into which file, and whether
// one gave a result that was saved (kept) or one that could not be (lost).
struct Notice {
  int held = 0;
  bool started = false, kept = false, lost = false;
  std::chrono::steady_clock::time_point since;
  std::string path;
};
thread_local Notice notice;

// Why a folder or file of the store cannot be trusted, or "" where it can:
// whoever else owns it or may write it can put choices of their own there
// (or a link in the file's place).
const char *not_owned(const struct stat &st) {
  if (st.st_uid != geteuid()) return "owned by another user";
  if (st.st_mode & (S_IWGRP | S_IWOTH)) return "writable by others than its owner";
  return "";
}

enum class FileRead { Missing, Untrusted, Read };

// The store's file, whole, where it is this user's own regular file that
// no one else may write; never through a symbolic link, never waiting on a
// FIFO. `why` says what is wrong with it where it is Untrusted.
FileRead read_trusted(const std::string &path, std::string *text, std::string *why) {
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return FileRead::Missing;
    *why = errno == ELOOP ? "a symbolic link" : std::string("unreadable (") + std::strerror(errno) + ")";
    return FileRead::Untrusted;
  }
  struct stat st;
  if (fstat(fd, &st) != 0)
    *why = std::string("unreadable (fstat: ") + std::strerror(errno) + ")";
  else if (!S_ISREG(st.st_mode))
    *why = "not a regular file";
  else
    *why = not_owned(st);
  text->clear();
  char buf[1 << 16];
  for (ssize_t got; why->empty() && (got = read(fd, buf, sizeof buf)) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) *why = std::string("unreadable (read: ") + std::strerror(errno) + ")";
    else text->append(buf, static_cast<size_t>(got));
  }
  close(fd);
  return why->empty() ? FileRead::Read : FileRead::Untrusted;
}

// Writes `text` to a new file at `path` (0600); false where it cannot. The
// name must not exist: O_EXCL never follows a link that someone put there.
bool write_new(const std::string &path, const std::string &text) {
  unlink(path.c_str());  // a temporary left by a crashed process of this pid
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  bool ok = true;
  for (size_t done = 0; ok && done < text.size();) {
    const ssize_t put = write(fd, text.data() + done, text.size() - done);
    if (put < 0 && errno == EINTR) continue;
    ok = put > 0;
    if (ok) done += static_cast<size_t>(put);
  }
  return close(fd) == 0 && ok;
}

// An exclusive flock on `path` (made if missing) for as long as it lives:
// the read, merge and rename of one save against every other process's (and
// every other store's in this process: flock is per open file). Where the
// lock file cannot be made the save goes on unlocked (its own write fails
// the same way).
class FileLock {
 public:
  explicit FileLock(const std::string &path)
      : fd_(open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600)) {
    if (fd_ < 0) {
      GPUFFTW_LOG(Info, "cannot open %s (%s): saving unlocked", path.c_str(), std::strerror(errno));
      return;
    }
    while (flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) {
        GPUFFTW_LOG(Info, "cannot lock %s (%s): saving unlocked", path.c_str(), std::strerror(errno));
        break;
      }
  }
  ~FileLock() {
    if (fd_ >= 0) close(fd_);  // and the lock with it
  }
  FileLock(const FileLock &) = delete;
  FileLock &operator=(const FileLock &) = delete;

 private:
  int fd_;
};

}  // namespace

CalibrationNotice::CalibrationNotice() { ++notice.held; }

CalibrationNotice::~CalibrationNotice() {
  if (--notice.held > 0 || !notice.started) return;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - notice.since).count();
  if (notice.lost)
    GPUFFTW_LOG(Warn, "calibrated in %.1f s, but it could not be saved (the warning above says why): later runs "
                "calibrate again", s);
  else if (notice.kept)
    GPUFFTW_LOG(Warn, "calibrated in %.1f s; later runs on this machine read it from %s", s, notice.path.c_str());
  else
    GPUFFTW_LOG(Warn, "calibration stopped after %.1f s with nothing to keep (the warning above says why)", s);
  notice.started = notice.kept = notice.lost = false;
}

DispatchStore::DispatchStore(std::string path, std::function<std::string()> machine, Calibrators calibrate)
    : path_(std::move(path)), name_machine_(std::move(machine)), calibrate_(std::move(calibrate)) {}

DispatchStore::Sections DispatchStore::sections_of(const std::string &text) {
  Sections sections;
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kHeader) return sections;
  while (std::getline(in, line))
    if (machine_line(line))
      sections.emplace_back(line.substr(kMachineLength), "");
    else if (!sections.empty())  // what_is_wrong has a section's machine line first
      sections.back().second += line + '\n';
  return sections;
}

const std::string *DispatchStore::own_section(const Sections &sections) {
  for (const auto &[name, lines] : sections)
    if (name == machine()) return &lines;
  return nullptr;
}

const std::string &DispatchStore::machine() {
  if (machine_.empty()) machine_ = name_machine_();
  return machine_;
}

void DispatchStore::calibrating() const {
  if (notice.held == 0 || notice.started) return;
  notice.started = true;
  notice.since = std::chrono::steady_clock::now();
  notice.path = path_;
  GPUFFTW_LOG(Warn, "calibrating the cost model for this machine (once per machine, for seconds; kept in %s)",
              path_.c_str());
}

void DispatchStore::save_calibration() {
  const bool saved = save();
  if (notice.started) (saved ? notice.kept : notice.lost) = true;
}

void DispatchStore::warn_once(const std::string &what) {
  if (warned_) return;
  warned_ = true;
  GPUFFTW_LOG(Warn, "%s", what.c_str());
}

bool DispatchStore::dir_trusted() {
  const size_t slash = path_.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path_.substr(0, slash);
  // A link to a folder is fine (~/.cache often is one): stat, not lstat.
  struct stat st;
  std::string why;
  if (stat(dir.c_str(), &st) != 0) {
    if (errno == ENOENT) return false;  // nothing stored yet
    why = std::string("unreadable (stat: ") + std::strerror(errno) + ")";
  } else {
    why = S_ISDIR(st.st_mode) ? not_owned(st) : "not a directory";
  }
  if (why.empty()) return true;
  warn_once("the folder " + dir + " of the dispatch store is " + why +
            ", so it is neither read nor written: dispatch choices are measured again and kept in this process");
  return false;
}

bool DispatchStore::read_file(std::string *text) {
  std::string why;
  switch (read_trusted(path_, text, &why)) {
    case FileRead::Missing: return false;
    case FileRead::Untrusted:
      warn_once(path_ + " is " + why + ", so it is ignored (never followed) and replaced when choices are next saved");
      return false;
    case FileRead::Read: return true;
  }
  return false;
}

void DispatchStore::check() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (loaded_ || checked_) return;
  checked_ = true;
  std::string text;
  if (!dir_trusted() || !read_file(&text)) return;
  const std::string wrong = what_is_wrong(text);
  if (!wrong.empty()) warn_once(path_ + " is " + wrong + ", so it is ignored and replaced when choices are next saved");
}

void DispatchStore::load() {
  if (loaded_) return;
  loaded_ = true;
  std::string text;
  if (!dir_trusted() || !read_file(&text)) return;
  const std::string wrong = what_is_wrong(text);
  if (!wrong.empty()) {
    warn_once(path_ + " is " + wrong + ", so it is ignored and replaced when choices are next saved");
    return;
  }
  const Sections sections = sections_of(text);
  const std::string *ours = own_section(sections);
  if (!ours) {
    GPUFFTW_LOG(Info, "%s %s: calibrating again", path_.c_str(),
                sections.empty() ? "is of another version" : "holds nothing for this machine");
    return;
  }
  std::istringstream in(*ours);
  std::optional<GpuRates> gpu;
  std::map<std::pair<int, int>, CpuRates> cpu;
  std::map<std::string, Choice> choices;
  std::map<std::string, KernelPick> kernels;
  for (std::string line; std::getline(in, line);) {
    GpuRates g;
    CpuRates c;
    std::string key;
    Choice choice;
    KernelPick pick;
    // Every line parses as one of these (what_is_wrong).
    if (parse(line, &g))
      gpu = g;
    else if (parse(line, &c))
      cpu[{precision_index(c.precision), c.threads}] = c;
    else if (parse_choice(line, &key, &choice))
      choices[key] = choice;
    else if (parse_kernel(line, &key, &pick))
      kernels[key] = pick;
  }
  gpu_ = gpu;
  cpu_ = std::move(cpu);
  choices_ = std::move(choices);
  kernels_ = std::move(kernels);
}

bool DispatchStore::not_saved(const std::string &why) {
  if (!save_warned_)
    GPUFFTW_LOG(Warn, "%s: dispatch choices and calibration stay in this process", why.c_str());
  else
    GPUFFTW_LOG(Info, "%s: dispatch choices and calibration stay in this process", why.c_str());
  save_warned_ = true;
  return false;
}

bool DispatchStore::save() {
  const size_t slash = path_.rfind('/');
  // A folder that cannot be made, or is not to be trusted, was said
  // already (dispatch_store_path, dir_trusted).
  if (const std::string why = slash == std::string::npos ? "" : make_dirs(path_.substr(0, slash)); !why.empty()) {
    GPUFFTW_LOG(Info, "cannot create the directory of %s (%s): dispatch choices stay in this process", path_.c_str(),
                why.c_str());
    return false;
  }
  if (!dir_trusted()) return false;
  // Read, merge and replace under one lock: another process may have added
  // choices, kernel picks or tables since we read the file, and without the
  // lock one that saves between our read and our rename loses them. Other
  // machines' sections are kept as they are, a corrupt file's not at all.
  const FileLock lock(path_ + ".lock");
  std::map<std::string, Choice> merged;
  std::map<std::string, KernelPick> merged_kernels;
  std::optional<GpuRates> their_gpu;
  std::map<std::pair<int, int>, CpuRates> their_cpu;
  Sections others;
  std::string text;
  if (read_file(&text) && what_is_wrong(text).empty())
    for (auto &[name, lines] : sections_of(text)) {
      if (name != machine()) {
        if (others.size() + 1 < kMachinesKept) others.emplace_back(name, std::move(lines));
        continue;
      }
      std::istringstream in(lines);
      for (std::string line; std::getline(in, line);) {
        std::string key;
        Choice c;
        KernelPick k;
        GpuRates g;
        CpuRates r;
        if (parse_choice(line, &key, &c)) {
          if (forgotten_line(key, line)) continue;
          merged[key] = c;
        } else if (parse_kernel(line, &key, &k)) {
          if (forgotten_line(key, line)) continue;
          merged_kernels[key] = k;
        } else if (parse(line, &g)) {
          their_gpu = g;
        } else if (parse(line, &r)) {
          their_cpu[{precision_index(r.precision), r.threads}] = r;
        }
      }
    }
  for (const auto &kv : choices_)
    if (!passing_.count(kv.first)) merged[kv.first] = kv.second;
  for (const auto &kv : kernels_) merged_kernels[kv.first] = kv.second;
  // Tables: ours where we have one, theirs where only they do.
  for (const auto &kv : cpu_) their_cpu[kv.first] = kv.second;
  const std::optional<GpuRates> &gpu = gpu_ ? gpu_ : their_gpu;
  // Named for this host and process: machines sharing the folder (a HOME
  // on a cluster's file system, where the lock above may not reach across
  // nodes) or containers with process ids of their own would otherwise
  // write one temporary, and one would rename the other's.
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  const std::string tmp = path_ + ".tmp." + host + "." + std::to_string(getpid());
  {
    std::ostringstream out;
    out << kHeader << '\n' << kMachine << machine() << '\n';
    if (gpu) out << format(*gpu) << '\n';
    for (const auto &kv : their_cpu) out << format(kv.second) << '\n';
    char buf[64];
    for (const auto &kv : merged) {
      std::snprintf(buf, sizeof buf, " %s %.6g %.6g", choice_where(kv.second).c_str(), kv.second.gpu_s,
                    kv.second.cpu_s);
      out << "choice " << kv.first << buf << '\n';
    }
    for (const auto &kv : merged_kernels) {
      std::snprintf(buf, sizeof buf, " %.6g %.6g", kv.second.own_s, kv.second.cufft_s);
      out << "kernel " << kv.first << ' ' << kv.second.variant << buf << '\n';
    }
    for (const auto &[name, lines] : others) out << kMachine << name << '\n' << lines;
    if (!write_new(tmp, out.str())) {
      const std::string why = "cannot write " + tmp + " (" + std::strerror(errno) + ")";
      std::remove(tmp.c_str());
      return not_saved(why);
    }
  }
  // A rename replaces the file whole: a reader never sees half of it, and
  // a link in its place is replaced, not followed.
  if (std::rename(tmp.c_str(), path_.c_str()) != 0) {
    const std::string why = "cannot replace " + path_ + " (" + std::strerror(errno) + ")";
    std::remove(tmp.c_str());
    return not_saved(why);
  }
  return true;
}

std::optional<GpuRates> DispatchStore::gpu_rates() {
  std::lock_guard<std::mutex> lock(mutex_);
  load();
  if (!gpu_ && gpu_why_.empty()) {
    const OutsideThePlan calibration;
    GpuRates r;
    if (calibrate_.gpu) calibrating();
    if (calibrate_.gpu && calibrate_.gpu(&r, &gpu_why_)) {
      gpu_ = r;
      gpu_checked_ = true;  // this process's own reading
      save_calibration();
    } else if (gpu_why_.empty()) {
      gpu_why_ = "no GPU calibration";
    }
    if (!gpu_) GPUFFTW_LOG(Warn, "the GPU could not be calibrated (%s): auto mode keeps plans on the CPU", gpu_why_.c_str());
  } else if (gpu_ && !gpu_checked_ && gpu_->readings < 2 && calibrate_.check_gpu && calibrate_.gpu) {
    const OutsideThePlan calibration;
    const double faster = calibrate_.check_gpu(*gpu_);
    const auto read_again = [this]() -> std::optional<GpuRates> {
      GpuRates again;
      std::string why;
      if (calibrate_.gpu(&again, &why)) return again;
      GPUFFTW_LOG(Info, "the GPU's table could not be read again (%s): kept as it was", why.c_str());
      return std::nullopt;
    };
    gpu_checked_ = faster > 0;
    if (gpu_checked_ && after_check<GpuRates>(&*gpu_, "the GPU's table", faster, read_again)) save();
  }
  return gpu_;
}

std::optional<GpuRates> DispatchStore::held_gpu_rates() {
  std::lock_guard<std::mutex> lock(mutex_);
  load();
  return gpu_;
}

CpuRates DispatchStore::cpu_rates(Precision precision, int threads) {
  std::lock_guard<std::mutex> lock(mutex_);
  load();
  const std::pair<int, int> key{precision_index(precision), threads};
  const bool first_ask = cpu_seen_.insert(key).second;
  auto it = cpu_.find(key);
  if (it == cpu_.end()) {
    const OutsideThePlan calibration;
    calibrating();
    CpuRates r = calibrate_.cpu(precision, threads);
    if (r.valid()) {
      cpu_[key] = r;
      save_calibration();
    }
    return r;
  }
  CpuRates &stored = it->second;
  if (first_ask && stored.readings < 2 && calibrate_.check_cpu) {
    const OutsideThePlan calibration;
    const std::string name = std::string("the real FFTW's table (") + (precision == Precision::F32 ? "f32" : "f64") +
                             ", " + std::to_string(threads) + " threads)";
    const auto read_again = [&]() -> std::optional<CpuRates> {
      const CpuRates again = calibrate_.cpu(precision, threads);
      return again.valid() ? std::optional<CpuRates>(again) : std::nullopt;
    };
    if (after_check<CpuRates>(&stored, name.c_str(), calibrate_.check_cpu(stored), read_again)) save();
  }
  return stored;
}

bool DispatchStore::recall(const std::string &problem_key, Choice *choice) {
  std::lock_guard<std::mutex> lock(mutex_);
  load();
  auto it = choices_.find(problem_key);
  if (it == choices_.end()) return false;
  *choice = it->second;
  return true;
}

void DispatchStore::remember(const std::string &problem_key, const Choice &choice, bool lasting) {
  std::lock_guard<std::mutex> lock(mutex_);
  load();
  choices_[problem_key] = choice;
  if (!lasting) {
    passing_.insert(problem_key);
    return;
  }
  passing_.erase(problem_key);
  save();
}

bool DispatchStore::recall_kernel(const std::string &key, KernelPick *pick) {
  std::lock_guard<std::mutex> lock(mutex_);
  load();
  auto it = kernels_.find(key);
  if (it == kernels_.end()) return false;
  *pick = it->second;
  return true;
}

void DispatchStore::remember_kernel(const std::string &key, const KernelPick &pick) {
  std::lock_guard<std::mutex> lock(mutex_);
  load();
  kernels_[key] = pick;
  save();
}

void DispatchStore::forget(const std::function<bool(const std::string &)> &which) {
  std::lock_guard<std::mutex> lock(mutex_);
  load();
  for (auto it = choices_.begin(); it != choices_.end();) it = which(it->first) ? choices_.erase(it) : std::next(it);
  for (auto it = passing_.begin(); it != passing_.end();) it = which(*it) ? passing_.erase(it) : std::next(it);
  for (auto it = kernels_.begin(); it != kernels_.end();) it = which(it->first) ? kernels_.erase(it) : std::next(it);
  // The file loses, at this process's next write, the lines it holds now:
  // a line another process writes later, of the same key too, is theirs
  // to keep.
  std::string text;
  if (!dir_trusted() || !read_file(&text) || !what_is_wrong(text).empty()) return;
  const Sections sections = sections_of(text);
  const std::string *ours = own_section(sections);
  if (!ours) return;
  std::istringstream in(*ours);
  for (std::string line; std::getline(in, line);) {
    std::string key;
    Choice c;
    KernelPick k;
    if ((parse_choice(line, &key, &c) || parse_kernel(line, &key, &k)) && which(key)) forgotten_[key] = line;
  }
}

std::string dispatch_store_path() {
  if (const char *d = env::get("GPUFFTW_CACHE_DIR")) {
    const char *fallback = "$XDG_CACHE_HOME/gpufftw or ~/.cache/gpufftw";
    // Relative, it would name another folder in each working directory.
    if (d[0] != '/')
      env::warn_bad("GPUFFTW_CACHE_DIR", d, "an absolute path", fallback);
    else if (const std::string why = unusable_folder(d); !why.empty())
      env::warn_bad("GPUFFTW_CACHE_DIR", d, "a folder gpufftw can write (" + why + ")", fallback);
    else
      return std::string(d) + "/dispatch.txt";
  }
  // A relative XDG_CACHE_HOME or HOME would name another folder in each
  // working directory, as a relative GPUFFTW_CACHE_DIR would: the XDG Base
  // Directory specification has such a value ignored, and so is HOME's.
  if (const char *x = env::get("XDG_CACHE_HOME"); x && x[0] == '/')
    return default_store_path(std::string(x) + "/gpufftw");
  if (const char *h = env::get("HOME"); h && h[0] == '/')
    return default_store_path(std::string(h) + "/.cache/gpufftw");
  return "/tmp/gpufftw-" + std::to_string(getuid()) + "/dispatch.txt";
}

}  // namespace gpufftw
