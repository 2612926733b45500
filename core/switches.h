// The GPUFFTW_* environment variables: the one list of them, with the
// values each takes, its default and what it does. docs/how-it-works.md's
// table, man 7 gpufftw and gpufftw-run --help are checked against it
// (tests/switches_test.sh), and a warning about a bad value quotes it.
#pragma once

#include <cstddef>

namespace gpufftw {

struct Switch {
  const char *name;
  // A choice names its values ("auto, gpu, cpu"); the other switches say
  // what they take ("a directory").
  bool choice;
  const char *values;
  const char *fallback;  // the default, as a warning names it
  const char *does;
};

// Every switch, in the order the docs list them.
const Switch *switches(size_t *count);

// The switch named `name`, or nullptr.
const Switch *find_switch(const char *name);

}  // namespace gpufftw
