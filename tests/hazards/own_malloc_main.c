/* own_malloc: a program that defines fftw_malloc and fftw_free itself (a
 * counting allocator that puts a header before each block) and takes its
 * arrays from fftw_alloc_complex, which FFTW serves through the exported
 * fftw_malloc, so from the program's. Its fftw_free then frees blocks
 * of its own. The blocks are counted: none may be left, nor freed that
 * the program did not hand out. */
#include <fftw3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "impulse.h"

enum { kHeader = 64, kMagic = 0x6f776e };
static long live, foreign;

void *fftw_malloc(size_t n) {
  char *block = aligned_alloc(kHeader, kHeader + (n + kHeader - 1) / kHeader * kHeader);
  if (!block) return NULL;
  *(int *)block = kMagic;
  ++live;
  return block + kHeader;
}

void fftw_free(void *p) {
  if (!p) return;
  char *block = (char *)p - kHeader;
  if (*(int *)block != kMagic) {
    ++foreign; /* not one of ours: left alone, counted */
    return;
  }
  --live;
  free(block);
}

int main(void) {
  const int n = 4096;
  fftw_complex *a = fftw_alloc_complex(n);
  double *r = fftw_alloc_real(n);
  if (!a || !r) return 3;
  fftw_plan p = fftw_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  const int status = p ? impulse_status(p, a, n) : 4;
  fftw_destroy_plan(p);
  fftw_free(r);
  fftw_free(a);
  if (live != 0 || foreign != 0) {
    fprintf(stderr, "own_malloc: %ld of the program's blocks left, %ld blocks freed that it did not hand out\n", live,
            foreign);
    return 5;
  }
  if (status == 0) printf("own_malloc: right\n");
  return status;
}
