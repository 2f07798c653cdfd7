# The layer rule, proven by the compiler: each probe is one source of a layer's target that
# includes a header of another layer. A probe of a layer the target may not use must fail to
# build on that include; the allowed probe must build.
#
#   cmake -DBUILD=build -DGENERATOR=Ninja -DDENIED="t1;t2" -DALLOWED="t3" -DOBJECTS=build/tests/CMakeFiles -P tests/layers/check_probes.cmake
#
# Every probe is built in one call, on past failures; its object files are removed first,
# so an object left from an earlier build proves nothing.
cmake_minimum_required(VERSION 3.22)

foreach(t IN LISTS ALLOWED DENIED)
  file(GLOB_RECURSE old "${OBJECTS}/${t}.dir/*${t}.cpp.o")
  if(old)
    file(REMOVE ${old})
  endif()
endforeach()
set(keepGoing -k)  # on past failures
if(GENERATOR MATCHES "Ninja")
  set(keepGoing -k 0)
endif()
# the compiler's messages in English whatever the locale the suite runs under (test-locale.sh)
execute_process(COMMAND "${CMAKE_COMMAND}" -E env LC_ALL=C "${CMAKE_COMMAND}" --build "${BUILD}" --target ${ALLOWED} ${DENIED} -- ${keepGoing}
                OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
set(problems "")
foreach(t IN LISTS ALLOWED)
  file(GLOB_RECURSE objects "${OBJECTS}/${t}.dir/*${t}.cpp.o")
  if(NOT objects)
    list(APPEND problems "${t} should build (its includes are allowed) and did not")
  endif()
endforeach()
foreach(t IN LISTS DENIED)
  file(GLOB_RECURSE objects "${OBJECTS}/${t}.dir/*${t}.cpp.o")
  if(objects)
    list(APPEND problems "${t} built: its layer reaches a header it may not use")
  elseif(NOT out MATCHES "${t}\\.cpp[^\n]*(No such file or directory|file not found)")
    list(APPEND problems "${t} did not build, but not for want of the header")
  endif()
endforeach()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "${text}\n\nbuild output:\n${out}")
endif()
list(LENGTH DENIED n)
message(STATUS "${n} includes of layers a target may not use fail to compile; the allowed probe compiles")
