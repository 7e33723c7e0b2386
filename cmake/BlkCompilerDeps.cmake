# LLVM/MLIR 19 from Debian, ANTLR4 (tool 4.7.2, runtime 4.9), CLI11, spdlog, fmt, json.
# See docs/architecture.md for the pitfalls of the Debian packages handled here.
find_package(MLIR REQUIRED CONFIG PATHS /usr/lib/llvm-19/lib/cmake/mlir NO_DEFAULT_PATH)
find_package(LLVM 19.1 REQUIRED CONFIG PATHS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
message(STATUS "blk: LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR}, MLIR at ${MLIR_DIR}")

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
set(LLVM_RUNTIME_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/bin)
set(LLVM_LIBRARY_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/lib)
# LLVM's TableGen.cmake writes its depfiles with paths relative to the top
# of the build tree, as CMP0116's OLD behaviour reads them (LLVM, and MLIR's
# standalone example, set it so); under NEW, Ninja never finds the outputs
# they name and reruns every tablegen step, and all that depends on it, on
# each build. A function keeps the policies in force where it is defined,
# so OLD here reaches the tablegen functions only: this file's policy scope
# ends with it, and blk_add_module (whose depfiles name absolute paths,
# which NEW reads right) is defined under NEW.
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 OLD)
endif()
include(TableGen)
include(AddLLVM)
include(AddMLIR)

# MLIR_INCLUDE_DIR points nowhere in Debian's build: MLIR_INCLUDE_DIRS is right.
set(BLK_LLVM_INCLUDE_DIRS ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
separate_arguments(BLK_LLVM_DEFINITIONS NATIVE_COMMAND ${LLVM_DEFINITIONS})

# Link the shared libMLIR/libLLVM only (never mixed with the static archives).
set(BLK_MLIR_LIBS MLIR LLVM)

find_package(Python3 REQUIRED COMPONENTS Interpreter)
find_package(nlohmann_json REQUIRED)
find_package(spdlog REQUIRED)
find_package(fmt REQUIRED)
find_package(CLI11 CONFIG QUIET)
find_program(ANTLR4_TOOL antlr4 REQUIRED)
find_path(ANTLR4_INCLUDE_DIR antlr4-runtime.h PATH_SUFFIXES antlr4-runtime REQUIRED)
find_library(ANTLR4_RUNTIME_LIB antlr4-runtime REQUIRED)
find_library(UUID_LIB uuid REQUIRED)

find_program(BLK_FILECHECK FileCheck-19 FileCheck PATHS /usr/lib/llvm-19/bin)
set(BLK_LIT ${Python3_EXECUTABLE} /usr/lib/llvm-19/build/utils/lit/lit.py)

# Adds a compiler component library that uses LLVM/MLIR headers.
function(blk_mlir_library name)
  add_library(${name} ${ARGN})
  # SYSTEM: TableGen's .inc output (in the build tree) is not ours to warn on.
  target_include_directories(${name} SYSTEM PUBLIC ${BLK_LLVM_INCLUDE_DIRS}
    ${CMAKE_BINARY_DIR}/compiler/include)
  target_include_directories(${name} PUBLIC ${CMAKE_SOURCE_DIR}/compiler/include)
  target_compile_definitions(${name} PUBLIC ${BLK_LLVM_DEFINITIONS})
  target_link_libraries(${name} PUBLIC ${BLK_MLIR_LIBS})
endfunction()
