#!/usr/bin/env bash
# check.pl runs "$program $options $problems" through the shell; run-check.sh
# makes $program "bench-wrapper.sh SECONDS env VAR=... BENCH" so that
#  - only the bench process gets LD_PRELOAD / LD_LIBRARY_PATH / GPUFFTW_LOG
#    (not perl or sh: their gpufftw log lines would fake the in-the-loop proof);
#  - a hung bench is killed after SECONDS instead of hanging the whole suite;
#  - timeouts and signals get a line on stderr, which lands in the failure
#    report (check.pl itself only says "FAILED").
set -uo pipefail
secs=$1; shift
timeout -k 5 "$secs" "$@"
rc=$?
case $rc in
    0) ;;
    124|137) echo "bench-wrapper: TIMEOUT: killed after ${secs}s" >&2 ;;
    1) ;;   # bench's own failure exit (assertion / accuracy), it said why
    *) if [ $rc -gt 128 ]; then echo "bench-wrapper: bench died of signal $((rc - 128))" >&2
       else echo "bench-wrapper: bench exited with status $rc" >&2; fi ;;
esac
exit $rc
