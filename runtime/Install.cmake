# Install rules of the blk package: libblkrt + headers, blkc (when built),
# the CMake package (blkConfig.cmake, blk_add_module). The stdlib is
# installed by the top-level CMakeLists.txt to share/blk/stdlib.
include(CMakePackageConfigHelpers)

set(BLK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/blk)

install(TARGETS blkrt EXPORT blkTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(EXPORT blkTargets NAMESPACE blk:: DESTINATION ${BLK_INSTALL_CMAKEDIR})

# blkc is defined later (cli/): install the built file (OPTIONAL: a failed
# compiler build must not break installing the runtime).
if(BLK_BUILD_COMPILER)
  install(PROGRAMS ${CMAKE_BINARY_DIR}/bin/blkc
    DESTINATION ${CMAKE_INSTALL_BINDIR} OPTIONAL)
endif()

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
