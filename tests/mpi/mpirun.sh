#!/bin/sh
# mpirun.sh NP CMD ARGS...: mpirun as the tests need it here: as root where
# we are root, more ranks than cores, and shared memory without the
# single-copy mechanism (containers forbid ptrace between ranks). Used by
# tests/mpi/*.sh and compat/run-check.sh.
np=$1; shift
set -- -np "$np" --oversubscribe --mca btl self,vader "$@"
[ "$(id -u)" = 0 ] && set -- --allow-run-as-root "$@"
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
# OpenMPI's launcher wants an rsh agent even for ranks on this machine only;
# a CI container may have neither ssh nor rsh.
if ! command -v ssh >/dev/null 2>&1 && ! command -v rsh >/dev/null 2>&1; then
  export OMPI_MCA_plm_rsh_agent=false
fi
exec "${MPIRUN:-mpirun}" "$@"
