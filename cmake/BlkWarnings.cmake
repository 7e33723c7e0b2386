# Warnings for the project's own code: -Wall -Wextra on every target defined
# below the top-level CMakeLists.txt (compiler, cli, runtime, samples, tests,
# bench), and -Werror with BLK_WERROR=ON (CI, .ci/run). A directory property,
# so nothing reaches the exported blk::runtime target or a user's build.
# Third-party and generated code stays out: LLVM/MLIR, ANTLR, CUDA and
# GoogleTest headers and TableGen's .inc output are included as SYSTEM, and
# the ANTLR-generated parser (blkParseGen) is compiled with -w.
option(BLK_WERROR "Treat compiler warnings in blk's own code as errors" OFF)

add_compile_options(-Wall -Wextra)
# GCC 12's -Wrestrict misfires inside libstdc++'s std::string (`"lit" + s`
# and `s = "lit"` inlined at -O2; GCC bug 105651): the report points into
# <bits/char_traits.h>, not at our code. GCC 12 only.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND
   CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12 AND
   CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  add_compile_options(-Wno-restrict)
endif()
if(BLK_WERROR)
  add_compile_options(-Werror)
endif()
