/* gpufftw's own extension API: everything a program may ask gpufftw that
 * FFTW's API has no word for. The FFTW3 API itself comes from <fftw3.h>. */
#ifndef GPUFFTW_GPUFFTW_H
#define GPUFFTW_GPUFFTW_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "gpufftw X.Y.Z" */
const char *gpufftw_version(void);

/* Where plans made from now on may run; GPUFFTW_MODE sets the start value. */
typedef enum {
  GPUFFTW_MODE_AUTO = 0, /* the planner decides */
  GPUFFTW_MODE_GPU = 1,  /* every problem the GPU can do runs there */
  GPUFFTW_MODE_CPU = 2   /* everything on the real FFTW */
} gpufftw_mode;
void gpufftw_set_mode(gpufftw_mode mode);
gpufftw_mode gpufftw_get_mode(void);

/* The precision single-precision complex (fftwf_ c2c) plans made from now
 * on compute in on the GPU; GPUFFTW_PRECISION=fp32|fp16 sets the start
 * value. Set it around one planner call for a per-plan choice: a plan keeps
 * the precision it was made with.
 *   GPUFFTW_PRECISION_FP16: opt-in half precision (IEEE binary16, 11-bit
 *   significand, largest finite value 65504) for dense batches of rank 1 to
 *   3 (unit stride, transforms back to back). The transform runs on halves
 *   (tensor cores, else cuFFT's FP16 for powers of two, else cuFFT in single
 *   precision between roundings to half); pageable host arrays cross PCIe as
 *   halves, converted on the host, and come back as floats, so fftwf_ arrays
 *   and calls stay as they are. Pinned host arrays (fftw_malloc from 1 MiB)
 *   run in single precision: there the bus already carries floats faster
 *   than the host converts them. Expected relative L2 error about 1e-3 for
 *   n <= 4096 (the comparison mode's bound is 2e-3 there, see
 *   GPUFFTW_COMPARE); results past 65504 in magnitude, in the output or on
 *   the way, become infinite: keep inputs of order 1. Other layouts, plans
 *   on the real FFTW, and double-precision, r2c, c2r and r2r plans are never
 *   changed by it. gpufftw_plan_why says per plan what it got. */
typedef enum {
  GPUFFTW_PRECISION_FP32 = 0, /* as asked: single precision (the default) */
  GPUFFTW_PRECISION_FP16 = 1  /* half precision where the GPU takes the plan */
} gpufftw_precision;
void gpufftw_set_precision(gpufftw_precision precision);
gpufftw_precision gpufftw_get_precision(void);

/* 1 when a CUDA device and cuFFT are usable (this starts CUDA); 0 otherwise,
 * and then every plan runs on the real FFTW. */
int gpufftw_gpu_available(void);

/* The GPUs that plans made from now on may spread over, by CUDA device
 * number; the first also runs every plan that does not spread (a batch or
 * transform too small to gain from several, device arrays, layouts the
 * split paths do not take). GPUFFTW_DEVICES ("all" or a comma list) sets
 * the start value, else GPUFFTW_DEVICE (one device), else every GPU of
 * device 0's model. gpufftw_set_devices returns 1, or 0 (the set
 * unchanged) where there is no GPU, a number is not a device or is named
 * twice. gpufftw_get_devices writes up to `max` numbers and returns the
 * set's size (0 without a GPU). */
int gpufftw_set_devices(const int *devices, int count);
int gpufftw_get_devices(int *devices, int max);

/* Memory gpufftw holds, for leak checks (tools/soak.sh): pinned host
 * memory that fftw_malloc handed out and is not yet freed, pinned memory
 * freed and kept for the next fftw_malloc of its size, and the device
 * memory in use on the first GPU of the set as CUDA counts it (every
 * process's; gpufftw keeps what its jobs free for the next execute). The
 * device figure is 0 where CUDA has not started or the GPU was lost: this
 * never starts CUDA. */
typedef struct {
  size_t pinned_live, pinned_kept, device_used;
} gpufftw_memory_stats;
void gpufftw_memory(gpufftw_memory_stats *stats);

/* 1 when the real FFTW library of that precision ('f' or 'd') was found. */
int gpufftw_real_fftw_available(char precision);

/* Where a plan made by fftw_plan_* / fftwf_plan_* runs: "cpu" or "gpu".
 * The plan is passed as void* so one function serves both precisions. */
const char *gpufftw_plan_where(const void *plan);

/* Why the plan runs where it does: the mode, the arrays' memory, the cost
 * model's two predictions, or the two measured times. "" for NULL. */
const char *gpufftw_plan_why(const void *plan);

/* Public FFTW calls that were entered while another public call of this
 * library was still running on the same thread (a call wrapped twice).
 * gpufftw is built so that this stays 0; tests hold it to that. */
unsigned long gpufftw_reentry_count(void);

/* The table GPUFFTW_REPORT=1 prints at exit, written to `out` now. Executes
 * are counted and timed only under GPUFFTW_REPORT=1 (they would cost more
 * than a small transform); otherwise those columns read 0. */
void gpufftw_report(FILE *out);

/* The comparison mode's table (GPUFFTW_COMPARE=1 prints it at exit),
 * written to `out` now: per plan, the worst relative L2 and max errors of
 * gpufftw's results against the real FFTW in higher precision, the real
 * FFTW's own in the plan's precision, the tolerance, and OVER where above it. */
void gpufftw_compare_table(FILE *out);

#ifdef __cplusplus
}
#endif

#endif
