# ctest driver for tests/package (see CMakeLists.txt). Prints "SKIP: reason"
# (ctest's SKIP_REGULAR_EXPRESSION) when the installed blkc cannot build.
# -D: MODE BUILD_DIR PROJECT_DIR WORK_DIR GENERATOR CXX_COMPILER FIXTURE
cmake_minimum_required(VERSION 3.20)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(run_output "${out}${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f lib/cmake/blk/blkConfig.cmake lib/cmake/blk/BlkAddModule.cmake
          include/blk/runtime.h)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "install did not produce ${f}")
  endif()
endforeach()

set(app_args)
if(MODE STREQUAL "module")
  set(blkc ${prefix}/bin/blkc)
  if(NOT EXISTS ${blkc})
    message("SKIP: the install has no blkc (compiler not built)")
    return()
  endif()
  file(MAKE_DIRECTORY ${WORK_DIR}/probe)
  execute_process(
    COMMAND ${blkc} build ${PROJECT_DIR}/kernels/double.blk
            -o ${WORK_DIR}/probe/probe.fatbin
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK_DIR}/probe/probe.fatbin)
    string(SUBSTRING "${out}${err}" 0 400 why)
    message("SKIP: the installed blkc cannot build a fatbin yet (exit ${rc}): ${why}")
    return()
  endif()
  # Imported modules are copied so the depfile check can edit one.
  file(COPY ${PROJECT_DIR}/ DESTINATION ${WORK_DIR}/src)
  set(PROJECT_DIR ${WORK_DIR}/src)
else()
  if(NOT EXISTS ${FIXTURE})
    message("SKIP: no test artifact ${FIXTURE} (built with nvcc, missing here)")
    return()
  endif()
  set(app_args ${FIXTURE})
endif()

run("configure ${PROJECT_DIR}" ${CMAKE_COMMAND} -S ${PROJECT_DIR}
  -B ${WORK_DIR}/build -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${prefix})
run("build" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run("app" ${WORK_DIR}/build/app ${app_args})
message("${run_output}")
if(NOT run_output MATCHES "package ok")
  message(FATAL_ERROR "the app did not report `package ok`")
endif()

if(MODE STREQUAL "module")
  # Reproducible (blk_add_module's --prefix-map): the same project in another
  # checkout gives the same fatbins and headers, byte for byte.
  set(checkout2 ${WORK_DIR}/checkout2)
  file(COPY ${PROJECT_DIR}/ DESTINATION ${checkout2}/src)
  run("configure ${checkout2}/src" ${CMAKE_COMMAND} -S ${checkout2}/src
    -B ${checkout2}/build -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${prefix})
  run("build ${checkout2}" ${CMAKE_COMMAND} --build ${checkout2}/build)
  foreach(artifact double_kernels/double.fatbin double_kernels/include/double.hpp
                   double_embedded/double.fatbin double_embedded/include/double.hpp
                   double_tuned/double.fatbin)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files
      ${WORK_DIR}/build/blk/${artifact} ${checkout2}/build/blk/${artifact}
      RESULT_VARIABLE differ)
    if(differ)
      message(FATAL_ERROR "blk/${artifact} differs between two checkouts")
    endif()
  endforeach()
  message("reproducible: the artifacts of two checkouts are identical")

  # TUNING: the table is in the manifest; editing it rebuilds the fatbin.
  set(tuned ${WORK_DIR}/build/blk/double_tuned/double.fatbin)
  run("inspect ${tuned}" ${blkc} inspect --manifest ${tuned})
  if(NOT run_output MATCHES "\"tuning\":\\[{\"format\":\"blk-tuning\",\"version\":1,\"device\":{\"name\":\"NVIDIA H200\",\"sm\":90},\"entries\":\\[{\"kernel\":\"double_grid\",\"key\":{\"n\":1024},\"config\":\"BLOCK=256 num_warps=4 num_stages=3\"}]}]")
    message(FATAL_ERROR "the manifest has no embedded tuning table:\n${run_output}")
  endif()
  file(SHA256 ${tuned} before)
  file(READ ${PROJECT_DIR}/tuning/double.json table)
  string(REPLACE "1024" "4096" table "${table}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
  file(WRITE ${PROJECT_DIR}/tuning/double.json "${table}")
  run("rebuild after the table" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
  file(SHA256 ${tuned} after)
  if(before STREQUAL after)
    message(FATAL_ERROR "editing tuning/double.json did not rebuild ${tuned}")
  endif()
  message("tuning: the table is embedded, and an edit of it rebuilds the fatbin")

  # Editing an imported file reruns blkc (its --depfile) and changes the
  # fatbin; the header stays as it was (blkc leaves an unchanged header
  # alone), so main.cpp, which includes it, is not recompiled.
  set(fatbin ${WORK_DIR}/build/blk/double_kernels/double.fatbin)
  file(SHA256 ${fatbin} before)
  file(READ ${PROJECT_DIR}/kernels/helpers.blk helpers)
  # The same values (x * 4 * 0.5 is exact), other code: two multiplies.
  string(REPLACE "x * 2.0" "x * 4.0 * 0.5" edited "${helpers}")
  if(edited STREQUAL helpers)
    message(FATAL_ERROR "kernels/helpers.blk has no `x * 2.0` to edit")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
  file(WRITE ${PROJECT_DIR}/kernels/helpers.blk "${edited}")
  run("rebuild" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
  set(rebuild_output "${run_output}")
  file(SHA256 ${fatbin} after)
  if(before STREQUAL after)
    message(FATAL_ERROR "editing kernels/helpers.blk did not rebuild ${fatbin}")
  endif()
  if(rebuild_output MATCHES "app\\.dir/main\\.cpp")
    message(FATAL_ERROR "main.cpp was recompiled though double.hpp did not change:\n"
      "${rebuild_output}")
  endif()
  message("depfile: editing an import rebuilt the fatbin, not main.cpp")

  # EMBED: the program carries its kernels; it runs without the .fatbin.
  file(REMOVE ${WORK_DIR}/build/blk/double_embedded/double.fatbin)
  run("app_embedded" ${WORK_DIR}/build/app_embedded)
  message("${run_output}")
  if(NOT run_output MATCHES "package ok \\(embedded\\)")
    message(FATAL_ERROR "app_embedded did not report `package ok (embedded)`")
  endif()

  # README.md's example (its files shown verbatim, test readme-files), as a
  # reader would build it. Without a GPU the program must say so and fail.
  set(readme ${WORK_DIR}/readme)
  run("configure readme-project" ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/readme-project
    -B ${readme} -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${prefix})
  run("build readme-project" ${CMAKE_COMMAND} --build ${readme})
  execute_process(COMMAND ${readme}/app RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("readme-project: app exited ${rc}: ${out}${err}")
  if(NOT (rc EQUAL 0 AND out STREQUAL "out[999] = 3\n") AND
     NOT (rc EQUAL 1 AND out MATCHES "^blk: no (usable )?CUDA (driver|device)"))
    message(FATAL_ERROR "README.md's example did not print `out[999] = 3` (nor say that "
      "there is no GPU)")
  endif()
endif()
