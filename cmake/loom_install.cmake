# How loom is installed (docs/PACKAGING.md):
# - loom_install_cxx_package(): `cmake --install` puts the C++ library, its headers and a
#   CMake package (loomConfig.cmake, its version file, the exported target loom::loom) under
#   the prefix, so that a project outside the tree says find_package(loom).
# - loom_set_wheel_rpath(target): the run-time search path of the Python extension in a
#   wheel, where the build's own library folders are gone.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LOOM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/loom CACHE STRING "where loomConfig.cmake is installed")

function(loom_install_cxx_package)
  set_target_properties(loom_core PROPERTIES EXPORT_NAME loom)
  install(TARGETS loom_core EXPORT loomTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  # Every header, with the tree's layout (the public ones include lower layers' by path);
  # the .cuh files of common/ are included by bare name, so their folder is an include
  # directory of loom::loom too. Tests' helpers stay behind.
  install(DIRECTORY loom/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/loom
          FILES_MATCHING PATTERN "*.h" PATTERN "*.cuh" PATTERN "test_*.h" EXCLUDE PATTERN "*test_util*" EXCLUDE)
  install(EXPORT loomTargets NAMESPACE loom:: DESTINATION ${LOOM_INSTALL_CMAKEDIR})
  # What loomConfig.cmake must find again for the targets loom::loom names (Threads::Threads,
  # CUDA::cublas, Boost::context); libraries found by path (BLAS, FFTW, Gloo) are named
  # by their absolute paths in the exported target.
  set(LOOM_CONFIG_CUDA ${LOOM_CUDA})
  set(LOOM_CONFIG_BOOST_CONTEXT OFF)
  if(Boost_CONTEXT_FOUND)
    set(LOOM_CONFIG_BOOST_CONTEXT ON)
  endif()
  configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/loomConfig.cmake.in
                                ${CMAKE_CURRENT_BINARY_DIR}/loomConfig.cmake INSTALL_DESTINATION ${LOOM_INSTALL_CMAKEDIR})
  # 0.x: a minor version may break the API, so a request for 0.1 accepts 0.1.* only.
  write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/loomConfigVersion.cmake
                                   VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/loomConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/loomConfigVersion.cmake
          DESTINATION ${LOOM_INSTALL_CMAKEDIR})
endfunction()

# The wheel's extension finds scipy-openblas32's library in the site-packages it is
# installed into (a dependency of the wheel, as NumPy's wheels depend on theirs), by a path
# relative to itself; libraries from outside the build's Python (the CUDA toolkit's, FFTW,
# Gloo) where the build found them, unless the linker finds them there by itself.
function(loom_set_wheel_rpath target)
  set(rpath)
  if(LOOM_BLAS_PREFIX STREQUAL "scipy_")
    list(APPEND rpath "$ORIGIN/../scipy_openblas32/lib")
  endif()
  set(dirs)
  if(LOOM_CUDA)
    list(APPEND dirs ${CUDAToolkit_LIBRARY_DIR})
  endif()
  foreach(lib LOOM_FFTW_LIBRARY LOOM_FFTWF_LIBRARY LOOM_GLOO_LIBRARY)
    if(${lib} AND TARGET loom_core)
      get_target_property(linked loom_core INTERFACE_LINK_LIBRARIES)
      if("${${lib}}" IN_LIST linked)
        get_filename_component(dir ${${lib}} DIRECTORY)
        list(APPEND dirs ${dir})
      endif()
    endif()
  endforeach()
  foreach(dir ${dirs})
    get_filename_component(dir ${dir} REALPATH)
    set(system FALSE)
    foreach(implicit ${CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES} /lib /usr/lib /lib64 /usr/lib64)
      get_filename_component(implicit ${implicit} REALPATH)
      if(dir STREQUAL implicit)
        set(system TRUE)
      endif()
    endforeach()
    if(NOT system AND NOT dir IN_LIST rpath)
      list(APPEND rpath ${dir})
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES INSTALL_RPATH "${rpath}")
  message(STATUS "Wheel extension's run-time path: ${rpath}")
endfunction()
