# Builds the Debian package from the built tree (cpack reads the install rules; nothing is
# rebuilt) into OUT: skewscope_<version>_<arch>.deb and its -dbgsym .ddeb.
# cmake -DBUILD=<build dir> -DOUT=<folder> -P build_package.cmake
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND cpack -G DEB --config ${BUILD}/CPackConfig.cmake -B ${OUT}
                WORKING_DIRECTORY ${BUILD} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cpack failed: ${rc}")
endif()
file(GLOB debs ${OUT}/*.deb)
file(GLOB ddebs ${OUT}/*-dbgsym*.ddeb)
list(LENGTH debs n)
list(LENGTH ddebs nd)
if(NOT n EQUAL 1 OR NOT nd EQUAL 1)
  message(FATAL_ERROR "expected one .deb and one -dbgsym .ddeb in ${OUT}, found: ${debs} ${ddebs}")
endif()
