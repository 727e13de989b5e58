# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# `cmake --install build --prefix P`: Cake as a dependency.
#
#   P/bin/          cake-opt, cake-translate, cake-evolve, cake-mcp, cake-run,
#                   cake-kmeans
#   P/lib/          the shared libraries (SONAME MAJOR.MINOR), CakePlugin.so
#                   (mlir-opt --load-dialect-plugin / --load-pass-plugin)
#   P/lib/cmake/Cake/   find_package(Cake): Cake::Dialect ... Cake::CAPI
#                   (need MLIR 22), Cake::Runtime, Cake::Kmeans (C only)
#   P/lib/pkgconfig/    cake-runtime.pc, cake-kmeans.pc
#   P/include/      cake/ (C++, ODS and generated .inc), cake-c/, cake-rt/,
#                   cake-kmeans/
#   P/share/cake/   calibration/, kmeans/ (the dispatch table and its
#                   bundles), knn/ (the KNN bundles), python/ (the Python
#                   package), bench/ (stage 3's measure.py and what it imports)
#   P/share/doc/cake/   README, LICENSE, CHANGELOG, docs/
#
# Installed binaries find their data relative to themselves (../share/cake):
# the cost model's calibration (passes/Analysis/Calibration.cpp),
# cake-evolve's measure.py (tools/cake-evolve/Stage3.c) and cake-kmeans's
# table (libs/kmeans/tools/cake-kmeans.c). test/Install/ installs into a
# temporary prefix and builds a consumer project against it.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(CAKE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Cake)
set(CAKE_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/cake)

# The C++ libraries and the C API: exported as Cake::<name>, their headers
# under P/include (MLIR's own come from find_package(MLIR), which
# CakeConfig.cmake runs).
set(cake_mlir_targets
  CakeDialect Dialect
  CakeAnalysis Analysis
  CakeVerify Verify
  CakeTransforms Transforms
  CakeConversion Conversion
  CakePipeline Pipeline
  CakeTranslate Translate
  CakeC CAPI)
set(cake_mlir_exported)
while(cake_mlir_targets)
  list(POP_FRONT cake_mlir_targets target name)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(${target} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  list(APPEND cake_mlir_exported ${target})
endwhile()
install(TARGETS ${cake_mlir_exported} EXPORT CakeTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS CakePlugin LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS cake-opt cake-translate cake-evolve cake-mcp
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/cake
  ${PROJECT_SOURCE_DIR}/include/cake-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/cake
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.inc"
  PATTERN CMakeFiles EXCLUDE)
install(EXPORT CakeTargets NAMESPACE Cake::
  DESTINATION ${CAKE_INSTALL_CMAKEDIR})

# The runtime and the k-means library: C, no MLIR (built with the CUDA
# toolkit's cuda.h); a separate export so C users need no MLIR.
set(CAKE_HAVE_RUNTIME OFF)
if(TARGET cake_runtime)
  set(CAKE_HAVE_RUNTIME ON)
  set_target_properties(cake_runtime PROPERTIES EXPORT_NAME Runtime)
  set_target_properties(cake_kmeans PROPERTIES EXPORT_NAME Kmeans)
  foreach(target cake_runtime cake_kmeans)
    target_include_directories(${target} INTERFACE
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  endforeach()
  install(TARGETS cake_runtime cake_kmeans EXPORT CakeRuntimeTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(TARGETS cake-run cake-kmeans
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/cake-rt
    ${PROJECT_SOURCE_DIR}/libs/kmeans/include/cake-kmeans
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT CakeRuntimeTargets NAMESPACE Cake::
    DESTINATION ${CAKE_INSTALL_CMAKEDIR})
  foreach(pc cake-runtime cake-kmeans)
    configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in
      ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc @ONLY)
    install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc
      DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  endforeach()
endif()

# Under CMakeFiles/, where no find_package of another project looks: these
# describe the installed prefix, not the build tree.
set(CAKE_PACKAGE_DIR ${PROJECT_BINARY_DIR}/CMakeFiles/cake-package)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/CakeConfig.cmake.in
  ${CAKE_PACKAGE_DIR}/CakeConfig.cmake
  INSTALL_DESTINATION ${CAKE_INSTALL_CMAKEDIR}
  PATH_VARS CAKE_INSTALL_DATADIR CMAKE_INSTALL_LIBDIR)
# 0.x: a minor release may break the ABI, so only the same minor matches.
write_basic_package_version_file(
  ${CAKE_PACKAGE_DIR}/CakeConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CAKE_PACKAGE_DIR}/CakeConfig.cmake
  ${CAKE_PACKAGE_DIR}/CakeConfigVersion.cmake
  DESTINATION ${CAKE_INSTALL_CMAKEDIR})

# Data the tools find relative to themselves.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/calibration/
  DESTINATION ${CAKE_INSTALL_DATADIR}/calibration
  FILES_MATCHING PATTERN "*.json")
if(TARGET cake-kmeans-kernels)
  install(DIRECTORY ${PROJECT_BINARY_DIR}/libs/kmeans/kernels/
    DESTINATION ${CAKE_INSTALL_DATADIR}/kmeans)
endif()
if(TARGET cake-knn-kernels)
  install(DIRECTORY ${PROJECT_BINARY_DIR}/libs/knn/kernels/
    DESTINATION ${CAKE_INSTALL_DATADIR}/knn)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/bench/cake_rt.py
  DESTINATION ${CAKE_INSTALL_DATADIR}/bench)
# The Python package, which bench/cake_rt.py imports from ../python; with
# its pyproject.toml, `pip install P/share/cake/python` installs it into an
# environment (python/README.md).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/cake
  DESTINATION ${CAKE_INSTALL_DATADIR}/python FILES_MATCHING PATTERN "*.py")
install(FILES ${PROJECT_SOURCE_DIR}/python/pyproject.toml
  ${PROJECT_SOURCE_DIR}/python/README.md
  DESTINATION ${CAKE_INSTALL_DATADIR}/python)
install(FILES ${PROJECT_SOURCE_DIR}/bench/cost/measure.py
  DESTINATION ${CAKE_INSTALL_DATADIR}/bench/cost)
install(FILES ${PROJECT_SOURCE_DIR}/bench/kmeans/bench.py
  DESTINATION ${CAKE_INSTALL_DATADIR}/bench/kmeans)

install(FILES ${PROJECT_SOURCE_DIR}/README.md
  ${PROJECT_SOURCE_DIR}/LICENSE.TXT ${PROJECT_SOURCE_DIR}/CHANGELOG.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
  FILES_MATCHING PATTERN "*.md" PATTERN "*.svg")
if(TARGET cake-capi-docs)
  install(DIRECTORY ${PROJECT_BINARY_DIR}/docs/capi/html/
    DESTINATION ${CMAKE_INSTALL_DOCDIR}/capi)
endif()
