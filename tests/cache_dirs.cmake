# Every test runs with a cache folder of its own (GPUFFTW_CACHE_DIR) under
# the build tree, emptied before the first test of a ctest run (the fixture
# gpufftw_test_cache, which every test requires): a test never reads
# or writes the user's own cache (~/.cache/gpufftw), whose remembered choices
# a later real run would recall, and no test finds another's choices.
# tests/cache_dirs_test.sh checks that every test has one.
include_guard(GLOBAL)

add_test(NAME test_cache_emptied COMMAND ${CMAKE_COMMAND} -E rm -rf ${CMAKE_BINARY_DIR}/test-cache)
set_tests_properties(test_cache_emptied PROPERTIES FIXTURES_SETUP gpufftw_test_cache)

# Folder of the test named `test` in `out`.
function(gpufftw_test_cache_dir test out)
  string(MAKE_C_IDENTIFIER "${test}" d)
  set(${out} "${CMAKE_BINARY_DIR}/test-cache/${d}" PARENT_SCOPE)
endfunction()

# At the end of a folder's CMakeLists.txt: each test it added with add_test
# gets its folder.
function(gpufftw_test_cache_dirs)
  get_property(tests DIRECTORY PROPERTY TESTS)
  list(REMOVE_ITEM tests test_cache_emptied)
  foreach(t IN LISTS tests)
    gpufftw_test_cache_dir("${t}" dir)
    set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT_MODIFICATION "GPUFFTW_CACHE_DIR=set:${dir}")
    set_property(TEST ${t} APPEND PROPERTY FIXTURES_REQUIRED gpufftw_test_cache)
  endforeach()
endfunction()

# Right after gtest_discover_tests(target ... TEST_LIST target_TESTS): each
# test discovered gets its folder when ctest reads it, beside the
# ENVIRONMENT_MODIFICATION entries given (a list: gtest_discover_tests's
# PROPERTIES cannot carry one, so the test's own go here instead).
function(gpufftw_discovered_cache_dirs target)
  set(file ${CMAKE_CURRENT_BINARY_DIR}/${target}_cache_dirs.cmake)
  set(more "")
  foreach(m IN LISTS ARGN)
    string(APPEND more ";${m}")
  endforeach()
  file(WRITE ${file}
    "foreach(t IN LISTS ${target}_TESTS)\n"
    "  string(MAKE_C_IDENTIFIER \"\${t}\" d)\n"
    "  set_tests_properties(\"\${t}\" PROPERTIES ENVIRONMENT_MODIFICATION\n"
    "    \"GPUFFTW_CACHE_DIR=set:${CMAKE_BINARY_DIR}/test-cache/\${d}${more}\"\n"
    "    FIXTURES_REQUIRED gpufftw_test_cache)\n"
    "endforeach()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${file})
endfunction()
