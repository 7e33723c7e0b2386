# blk_add_module(<target> SOURCES a.blk... [ARCH sm_90...|native] [DEFINES NAME=VALUE...]
#                [HEADER name.hpp] [INCLUDE_DIRS dir...] [PREFIX_MAP OLD=NEW...]
#                [TUNING table.json...] [EMBED])
#
# Compiles each source with `blkc build` at build time into
# ${CMAKE_CURRENT_BINARY_DIR}/blk/<target>/<stem>.fatbin and a typed launcher
# header (include/<stem>.hpp, or HEADER's name for a single source). blkc's
# --depfile lists every imported file, so editing an import rebuilds; blkc
# rewrites a header only when its text changes, so host code is recompiled
# only when a kernel's signature or configs change.
# ARCH: the --arch list (default sm_90); `ARCH native` builds for the GPUs of
# the machine that builds (sm_80 and sm_90 without one, blkc says so).
# <target> is an INTERFACE library, so name it unlike the program: linking it
# adds the header directory and blk::runtime and orders the build after the
# kernels. The fatbin paths are in its BLK_FATBINS property.
#
# Reproducible: blkc gets `--prefix-map ${PROJECT_SOURCE_DIR}=.` and
# `--prefix-map <outdir>=.` (then PREFIX_MAP's rules; the longest OLD wins), so
# the same project built in two checkouts gives the same fatbins and headers.
# The headers' default fatbin path is thus relative; linking <target> defines
# each header's <STEM>_BLK_FATBIN_PATH to the fatbin's absolute path.
# EMBED: the headers hold the fatbins' bytes (blkc --embed), so the program
# carries its kernels and an installed application needs no .fatbin file.
# TUNING: tuning tables (docs/manifest.md, "Tuning tables") embedded in every
# fatbin of the target (blkc --tuning); editing one rebuilds the fatbins. A
# table whose entries do not fit a source's kernels fails that build.
#
# blkc is BLK_BLKC_EXECUTABLE (set by blkConfig.cmake), else the in-tree
# `blkc` target, else the first blkc on PATH.
include_guard(GLOBAL)

function(blk_add_module target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "EMBED" "HEADER"
    "SOURCES;ARCH;DEFINES;INCLUDE_DIRS;PREFIX_MAP;TUNING")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "blk_add_module: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "blk_add_module(${target}): SOURCES is required")
  endif()
  list(LENGTH ARG_SOURCES source_count)
  if(ARG_HEADER AND source_count GREATER 1)
    message(FATAL_ERROR "blk_add_module(${target}): HEADER names the header "
      "of a single source; with several, each source gets <stem>.hpp")
  endif()

  set(blkc_depends)
  if(BLK_BLKC_EXECUTABLE)
    set(blkc ${BLK_BLKC_EXECUTABLE})
  elseif(TARGET blkc)
    set(blkc $<TARGET_FILE:blkc>)
    set(blkc_depends blkc)
  else()
    find_program(BLK_BLKC_EXECUTABLE blkc)
    if(NOT BLK_BLKC_EXECUTABLE)
      message(FATAL_ERROR "blk_add_module(${target}): blkc not found "
        "(set BLK_BLKC_EXECUTABLE)")
    endif()
    set(blkc ${BLK_BLKC_EXECUTABLE})
  endif()

  set(options)
  if(ARG_ARCH)
    list(JOIN ARG_ARCH "," archs)
    list(APPEND options --arch ${archs})
  endif()
  foreach(define IN LISTS ARG_DEFINES)
    list(APPEND options -D ${define})
  endforeach()
  # blkc finds the stdlib itself (<bindir>/../share/blk/stdlib).
  foreach(dir IN LISTS ARG_INCLUDE_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE)
    list(APPEND options -I ${dir})
  endforeach()

  set(outdir ${CMAKE_CURRENT_BINARY_DIR}/blk/${target})
  list(APPEND options --prefix-map "${PROJECT_SOURCE_DIR}=." --prefix-map "${outdir}=.")
  foreach(rule IN LISTS ARG_PREFIX_MAP)
    list(APPEND options --prefix-map "${rule}")
  endforeach()
  if(ARG_EMBED)
    list(APPEND options --embed)
  endif()
  set(tuning_tables)
  foreach(table IN LISTS ARG_TUNING)
    get_filename_component(table "${table}" ABSOLUTE)
    list(APPEND options --tuning ${table})
    list(APPEND tuning_tables ${table})
  endforeach()
  set(fatbins)
  set(outputs)
  set(path_macros)
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(source_path "${source}" ABSOLUTE)
    get_filename_component(stem "${source}" NAME_WE)
    set(fatbin ${outdir}/${stem}.fatbin)
    if(ARG_HEADER)
      set(header ${outdir}/include/${ARG_HEADER})
    else()
      set(header ${outdir}/include/${stem}.hpp)
    endif()
    set(depfile ${outdir}/${stem}.d)
    add_custom_command(
      OUTPUT ${fatbin} ${header}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${outdir}/include
      COMMAND ${blkc} build ${source_path} -o ${fatbin} ${options}
              --emit-header ${header} --depfile ${depfile}
      DEPENDS ${source_path} ${tuning_tables} ${blkc_depends}
      DEPFILE ${depfile}
      COMMENT "blkc build ${source}"
      VERBATIM)
    list(APPEND fatbins ${fatbin})
    list(APPEND outputs ${fatbin} ${header})
    # The header's macro (blk/runtime/HeaderGen.h, fatbinPathMacro): blkc
    # names the namespace cppIdentifier(stem + "_blk"), as MAKE_C_IDENTIFIER.
    string(MAKE_C_IDENTIFIER "${stem}_blk" namespace)
    string(TOUPPER "${namespace}_FATBIN_PATH" macro)
    list(APPEND path_macros "${macro}=\"${fatbin}\"")
  endforeach()

  add_custom_target(${target}_kernels ALL DEPENDS ${outputs})
  add_library(${target} INTERFACE)
  target_include_directories(${target} INTERFACE ${outdir}/include)
  target_link_libraries(${target} INTERFACE blk::runtime)
  if(NOT ARG_EMBED)
    target_compile_definitions(${target} INTERFACE ${path_macros})
  endif()
  # Dependencies of an interface library are followed by whoever links it.
  add_dependencies(${target} ${target}_kernels)
  set_target_properties(${target} PROPERTIES BLK_FATBINS "${fatbins}")
endfunction()
