# Helpers that give every folder the same shape: one library, its tests beside it.

# sqe_library(<name> SOURCES <files...> DEPS <targets...>)
function(sqe_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

# sqe_test(<name> SOURCES <files...> DEPS <targets...>): a GTest binary whose cases ctest lists.
function(sqe_test name)
  if(NOT SQE_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main GTest::gmock)
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST
                       PROPERTIES ENVIRONMENT "SQE_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
endfunction()

# sqe_benchmark(<name> SOURCES <files...> DEPS <targets...>): a Google Benchmark binary
# beside the code it measures (not a test: run it by hand or from bench/).
function(sqe_benchmark name)
  if(NOT SQE_BUILD_BENCHMARKS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} benchmark::benchmark)
endfunction()
