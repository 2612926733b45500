// Prints the list of switches (core/switches.h), one a line: name, values,
// default, what it does, tab-separated, for tests/switches_test.sh.
#include <cstdio>

#include "core/switches.h"

int main() {
  size_t count = 0;
  const gpufftw::Switch *all = gpufftw::switches(&count);
  for (size_t i = 0; i < count; ++i)
    std::printf("%s\t%s\t%s\t%s\n", all[i].name, all[i].values, all[i].fallback, all[i].does);
  return 0;
}
