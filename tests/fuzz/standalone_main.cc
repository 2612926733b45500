// A main for planner_fuzz.cc without libFuzzer (any compiler): runs every
// input file or folder named, then, with -seconds=N, mutations of them (and
// random inputs) for N seconds. Linked against libgpufftw.so, so it runs
// where the library was built: ctest's fuzz_corpus replays the corpus in
// every build, and on the GPU machine it fuzzes the GPU path
// (GPUFFTW_MODE=gpu), where clang may not be. Not coverage-guided.
//
//   gpufftw_fuzz_replay [-seconds=N] [-seed=S] [-out=FILE] FILE_OR_DIR...
//
// A failing input is written to FILE (default fuzz-crash-input) before the
// process dies.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

std::vector<uint8_t> current;  // the input running now
const char *crash_file = "fuzz-crash-input";

void on_fatal(int sig) {
  const int fd = open(crash_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    ssize_t ignored = write(fd, current.data(), current.size());
    (void)ignored;
    close(fd);
  }
  const char msg[] = "gpufftw_fuzz_replay: the failing input is written to the crash file\n";
  ssize_t ignored = write(2, msg, sizeof msg - 1);
  (void)ignored;
  signal(sig, SIG_DFL);
  raise(sig);
}

std::vector<uint8_t> read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void collect(const std::string &path, std::vector<std::string> *files) {
  if (DIR *d = opendir(path.c_str())) {
    std::vector<std::string> names;
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.') names.push_back(path + "/" + e->d_name);
    closedir(d);
    std::sort(names.begin(), names.end());
    files->insert(files->end(), names.begin(), names.end());
  } else {
    files->push_back(path);
  }
}

// VmRSS of this process, in kB (memory growth across a long run).
long rss_kb() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return 0;
}

void run(const std::vector<uint8_t> &input) {
  current = input;
  LLVMFuzzerTestOneInput(current.data(), current.size());
}

}  // namespace

int main(int argc, char **argv) {
  double seconds = 0;
  uint64_t seed = std::random_device{}();
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("-seconds=", 0) == 0)
      seconds = std::atof(a.c_str() + 9);
    else if (a.rfind("-seed=", 0) == 0)
      seed = std::strtoull(a.c_str() + 6, nullptr, 10);
    else if (a.rfind("-out=", 0) == 0)
      crash_file = argv[i] + 5;
    else
      collect(a, &files);
  }
  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) signal(sig, on_fatal);
  LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::vector<uint8_t>> corpus;
  for (const std::string &f : files) {
    corpus.push_back(read_file(f));
    run(corpus.back());
  }
  std::printf("gpufftw_fuzz_replay: %zu inputs of the corpus passed (rss %ld kB)\n", corpus.size(), rss_kb());
  if (seconds <= 0) return 0;
  std::mt19937_64 rng(seed);
  const auto start = std::chrono::steady_clock::now();
  long runs = 0;
  double next_report = 20;
  for (;;) {
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (t >= seconds) break;
    if (t >= next_report) {
      std::printf("gpufftw_fuzz_replay: %ld new inputs in %.0f s, rss %ld kB\n", runs, t, rss_kb());
      std::fflush(stdout);
      next_report += 20;
    }
    std::vector<uint8_t> x;
    if (corpus.empty() || rng() % 8 == 0) {
      x.resize(rng() % 64);
      for (uint8_t &b : x) b = static_cast<uint8_t>(rng());
    } else {
      x = corpus[rng() % corpus.size()];
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits; ++e) {
        const int what = static_cast<int>(rng() % 4);
        if (x.empty() || what == 0) {
          x.insert(x.begin() + (x.empty() ? 0 : rng() % (x.size() + 1)), static_cast<uint8_t>(rng()));
        } else if (what == 1) {
          x[rng() % x.size()] = static_cast<uint8_t>(rng());
        } else if (what == 2) {
          x[rng() % x.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
        } else {
          x.erase(x.begin() + rng() % x.size());
        }
      }
    }
    run(x);
    ++runs;
  }
  std::printf("gpufftw_fuzz_replay: %ld new inputs in %.0f s, seed %llu: all passed (rss %ld kB)\n", runs, seconds,
              static_cast<unsigned long long>(seed), rss_kb());
  return 0;
}
