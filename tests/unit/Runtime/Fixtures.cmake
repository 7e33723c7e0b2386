# Test artifacts for the runtime, built with nvcc/ptxas/fatbinary by
# fixtures/make_fixture.py (no blkc needed). Defines:
#   BLK_RT_FIXTURE_DIR       where they go
#   BLK_RT_HAVE_FIXTURES     ON when the CUDA tools were found
#   target blkrt_fixtures    builds them
# Included by tests/unit/Runtime and tests/gpu: the variables are set in
# each directory, the rules and the target only once.

set(BLK_RT_FIXTURE_DIR ${CMAKE_BINARY_DIR}/fixtures/runtime)
set(_fixture_src ${CMAKE_CURRENT_LIST_DIR}/fixtures)
find_package(Python3 COMPONENTS Interpreter QUIET)
set(_cuda_bin ${BLK_CUDA_HOME}/bin)
set(BLK_RT_HAVE_FIXTURES OFF)
if(Python3_Interpreter_FOUND AND EXISTS ${_cuda_bin}/nvcc
   AND EXISTS ${_cuda_bin}/ptxas AND EXISTS ${_cuda_bin}/fatbinary)
  set(BLK_RT_HAVE_FIXTURES ON)
else()
  message(STATUS "blk runtime tests: no nvcc/ptxas/fatbinary in ${_cuda_bin}; "
    "fixture-based tests will be skipped")
endif()

# name|make_fixture.py options, comma-separated
set(_fixtures
  "kernels|--arch,90,--ptx,90"
  "kernels_multi|--arch,80,--arch,90,--ptx,90"
  "kernels_sm80|--arch,80"
  "kernels_sm90a|--arch,90a,--ptx,90a"
  "kernels_future|--arch,100,--ptx,100"
  "kernels_ptx|--ptx,90,--placement,global"
  "kernels_const|--arch,90,--placement,const"
  "kernels_compressed|--arch,90,--ptx,90,--compress"
  "kernels_nomanifest|--arch,90,--placement,none"
  "kernels_missing_entry|--arch,90,--manifest,missing_entry.json"
  "kernels_variants|--arch,90,--cu,variants.cu,--manifest,variants.json"
  "kernels_tune|--arch,90,--cu,tune.cu,--manifest,tune.json"
  "kernels_tma|--arch,90,--ptx,90,--cu,tma.cu,--manifest,tma.json")

if(TARGET blkrt_fixtures)
  return()
endif()
set(_outputs)
if(BLK_RT_HAVE_FIXTURES)
  foreach(entry IN LISTS _fixtures)
    string(REPLACE "|" ";" parts "${entry}")
    string(REPLACE "," ";" parts "${parts}")
    list(GET parts 0 name)
    list(REMOVE_AT parts 0)
    set(out ${BLK_RT_FIXTURE_DIR}/${name}.fatbin)
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${BLK_RT_FIXTURE_DIR}
      COMMAND ${Python3_EXECUTABLE} ${_fixture_src}/make_fixture.py
              --cu ${_fixture_src}/kernels.cu
              --manifest ${_fixture_src}/kernels.json
              --cuda-bin ${_cuda_bin} ${parts} -o ${out}
      WORKING_DIRECTORY ${_fixture_src}
      DEPENDS ${_fixture_src}/make_fixture.py ${_fixture_src}/kernels.cu
              ${_fixture_src}/kernels.json ${_fixture_src}/missing_entry.json
              ${_fixture_src}/variants.cu ${_fixture_src}/variants.json
              ${_fixture_src}/tune.cu ${_fixture_src}/tune.json
              ${_fixture_src}/tma.cu ${_fixture_src}/tma.json
      COMMENT "runtime test artifact ${name}.fatbin"
      VERBATIM)
    list(APPEND _outputs ${out})
  endforeach()
endif()
add_custom_target(blkrt_fixtures DEPENDS ${_outputs})
