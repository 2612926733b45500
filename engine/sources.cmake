# The sources of the engine's libraries, relative to engine/. Included by
# engine/CMakeLists.txt, and by tests/engine/new_solver_test.sh on a copy
# of the tree (cmake -P), so that the test sees what the build builds.

# The libraries below the engine's own, each of its own files: our
# single-pass kernels, float <-> half on the host, and the FP16
# tensor-core FFT (engine/CMakeLists.txt says why each stands apart).
set(GPUFFTW_KERNELS_SOURCES kernels/stockham.cc kernels/transform_plan.cc kernels/launch_f32.cu kernels/launch_f64.cu)
set(GPUFFTW_HOST_HALF_SOURCES staging/host_half.cc staging/host_half_f16c.cc)
set(GPUFFTW_FP16_SOURCES fp16/fp16_fft.cc fp16/dft_fragments.cc fp16/fp16_kernels.cu)

# gpufftw_engine_sources(VAR DIR): every .cc and .cu under DIR (the engine
# folder) but those of the libraries above, relative to DIR, in VAR. Found
# again at each build, so that a folder added is built without a word here.
# (A script, cmake -P, has no build to find them again for.)
function(gpufftw_engine_sources var dir)
  set(again CONFIGURE_DEPENDS)
  if(CMAKE_SCRIPT_MODE_FILE)
    set(again)
  endif()
  file(GLOB_RECURSE found ${again} RELATIVE ${dir} ${dir}/*.cc ${dir}/*.cu)
  list(REMOVE_ITEM found ${GPUFFTW_KERNELS_SOURCES} ${GPUFFTW_HOST_HALF_SOURCES} ${GPUFFTW_FP16_SOURCES})
  list(SORT found)
  set(${var} ${found} PARENT_SCOPE)
endfunction()
