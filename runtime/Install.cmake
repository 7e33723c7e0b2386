# Install rules of the blk package: libblkrt + headers and the CMake package
# (blkConfig.cmake, blk_add_module). blkc is installed by cli/blkc, the
# stdlib by the top-level CMakeLists.txt (share/blk/stdlib).
include(CMakePackageConfigHelpers)

set(BLK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/blk)

install(TARGETS blkrt EXPORT blkTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(EXPORT blkTargets NAMESPACE blk:: DESTINATION ${BLK_INSTALL_CMAKEDIR})

# blkc (installed by cli/blkc) links libMLIR/libLLVM from /usr/lib/llvm-19/lib,
# which is not on the loader's path: keep the link-time RPATH in the installed
# binary. blkc is defined after this directory, hence the deferred call.
function(blk_keep_blkc_link_rpath)
  if(TARGET blkc)
    set_target_properties(blkc PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  endif()
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR}
  CALL blk_keep_blkc_link_rpath)

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/blkConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/blkConfig.cmake
  INSTALL_DESTINATION ${BLK_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/blkConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/blkConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/blkConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/BlkAddModule.cmake
  DESTINATION ${BLK_INSTALL_CMAKEDIR})
