/* spectrogram: a plain FFTW3 program, the kind gpufftw exists for.
 *
 * It synthesises a linear chirp in noise, cuts it into overlapping
 * Hann-windowed frames, transforms blocks of frames with one batched r2c
 * plan (fftwf_plan_many_dft_r2c, FFTW_MEASURE, reused on every block through
 * the new-array execute), and tracks the loudest bin of each frame. The
 * chirp's frequency is known, so the program checks its own answer: it
 * exits 1 if any frame's peak is off by more than one bin, and prints the
 * time spent in fftwf_execute_dft_r2c.
 *
 *   spectrogram [seconds=16] [frame=4096]   (sample rate 1 MHz)
 */
#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RATE 1.0e6
#define PI 3.14159265358979323846

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Chirp from f0 to f1 over the whole signal, plus uniform noise. */
static float *make_signal(long n, double f0, double f1) {
  float *x = fftwf_alloc_real((size_t)n);
  unsigned s = 12345u;
  double k = (f1 - f0) / (n / RATE);
  for (long i = 0; i < n; ++i) {
    double t = i / RATE;
    s = s * 1664525u + 1013904223u;
    x[i] = (float)(sin(2 * PI * (f0 * t + 0.5 * k * t * t)) + 0.5 * ((s >> 8) / 16777216.0 - 0.5));
  }
  return x;
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 16.0;
  int frame = argc > 2 ? atoi(argv[2]) : 4096;
  if (seconds <= 0 || frame < 16) {
    fprintf(stderr, "usage: spectrogram [seconds>0] [frame>=16]\n");
    return 2;
  }
  const int hop = frame / 4, bins = frame / 2 + 1, block = 1024; /* frames per execute */
  const long n = (long)(seconds * RATE);
  const long frames = (n - frame) / hop + 1;
  const double f0 = 20e3, f1 = 400e3;
  float *signal = make_signal(n, f0, f1);
  float *window = fftwf_alloc_real((size_t)frame);
  for (int i = 0; i < frame; ++i) window[i] = (float)(0.5 - 0.5 * cos(2 * PI * i / frame));

  /* Two buffers of `block` frames: one plan, executed on either. */
  float *in[2];
  fftwf_complex *out[2];
  for (int b = 0; b < 2; ++b) {
    in[b] = fftwf_alloc_real((size_t)block * frame);
    out[b] = fftwf_alloc_complex((size_t)block * bins);
  }
  double t0 = now();
  fftwf_plan plan = fftwf_plan_many_dft_r2c(1, &frame, block, in[0], NULL, 1, frame, out[0], NULL, 1, bins,
                                            FFTW_MEASURE);
  double plan_time = now() - t0;
  if (!plan) {
    fprintf(stderr, "spectrogram: no plan\n");
    return 1;
  }

  long bad = 0, done = 0;
  double exec_time = 0, worst = 0;
  for (long first = 0; first < frames; first += block, ++done) {
    float *x = in[done & 1];
    fftwf_complex *y = out[done & 1];
    long count = frames - first < block ? frames - first : block;
    for (long f = 0; f < block; ++f)
      for (int i = 0; i < frame; ++i)
        x[f * frame + i] = f < count ? signal[(first + f) * hop + i] * window[i] : 0.0f;
    t0 = now();
    fftwf_execute_dft_r2c(plan, x, y);
    exec_time += now() - t0;
    for (long f = 0; f < count; ++f) {
      int peak = 0;
      float best = -1;
      for (int k = 0; k < bins; ++k) {
        float p = y[f * bins + k][0] * y[f * bins + k][0] + y[f * bins + k][1] * y[f * bins + k][1];
        if (p > best) best = p, peak = k;
      }
      double t = ((first + f) * hop + frame / 2) / RATE;
      double expect = (f0 + (f1 - f0) * t / (n / RATE)) * frame / RATE;
      double off = fabs(peak - expect);
      if (off > worst) worst = off;
      if (off > 1.0) ++bad;
    }
  }
  printf("spectrogram: %ld frames of %d samples, %ld executes of %d frames\n", frames, frame, done, block);
  printf("spectrogram: plan %.1f ms, execute total %.1f ms (%.3f ms each)\n", 1e3 * plan_time, 1e3 * exec_time,
         1e3 * exec_time / done);
  printf("spectrogram: chirp tracked within %.2f bins; %ld frames off by more than one bin\n", worst, bad);

  fftwf_destroy_plan(plan);
  for (int b = 0; b < 2; ++b) {
    fftwf_free(in[b]);
    fftwf_free(out[b]);
  }
  fftwf_free(window);
  fftwf_free(signal);
  return bad ? 1 : 0;
}
