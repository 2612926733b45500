/* A library that says it was loaded: its constructor creates the file
 * MARKER_FILE names. Built under an FFTW library's name in a folder of its
 * own, it stands for a library a user puts where a setting points. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void mark(void) {
  const char *file = getenv("MARKER_FILE");
  if (!file) return;
  const int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) close(fd);
}
