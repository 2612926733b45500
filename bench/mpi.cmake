# The distributed benchmark (bench/mpi_run.sh), included by mpi/CMakeLists.txt
# where gpufftw's MPI layer is built and the real FFTW MPI found: linked to
# the real FFTW MPI, so it runs on it alone and on gpufftw's through
# gpufftw-run.
if(FFTW_MPI_DOUBLE_LIB AND FFTW_MPI_FLOAT_LIB)
  add_executable(mpi_fft_bench ${CMAKE_CURRENT_LIST_DIR}/mpi_fft_bench.c)
  target_include_directories(mpi_fft_bench PRIVATE ${FFTW_MPI_INCLUDE_DIR} ${FFTW_INCLUDE_DIR})
  target_compile_definitions(mpi_fft_bench PRIVATE ${GPUFFTW_MPI_DEFS})
  target_link_libraries(mpi_fft_bench PRIVATE ${FFTW_MPI_FLOAT_LIB} ${FFTW_MPI_DOUBLE_LIB} ${FFTW_FLOAT_THREADS_LIB}
    ${FFTW_DOUBLE_THREADS_LIB} ${FFTW_FLOAT_LIB} ${FFTW_DOUBLE_LIB} MPI::MPI_C ${CMAKE_DL_LIBS})
  target_compile_options(mpi_fft_bench PRIVATE -Wall -Wextra $<$<BOOL:${GPUFFTW_WERROR}>:-Werror>)
  set_target_properties(mpi_fft_bench PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
endif()
