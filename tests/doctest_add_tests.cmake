# doctest's doctestAddTests.cmake (doctest 2.4.9, BSD 3-Clause, Copyright.txt of CMake), changed
# in one place: the labels. doctest's script ran the test binary once per test case to ask for
# its suite; about 650 runs per build, 0.25 s each for a binary under AddressSanitizer, serially
# in the link steps. This one asks once: the XML listing gives every case's suite, in the order
# of the plain listing. tests/CMakeLists.txt points doctest_discover_tests here.
# Distributed under the OSI-approved BSD 3-Clause License.  See accompanying
# file Copyright.txt or https://cmake.org/licensing for details.

set(prefix "${TEST_PREFIX}")
set(suffix "${TEST_SUFFIX}")
set(spec ${TEST_SPEC})
set(extra_args ${TEST_EXTRA_ARGS})
set(properties ${TEST_PROPERTIES})
set(add_labels ${TEST_ADD_LABELS})
set(junit_output_dir "${TEST_JUNIT_OUTPUT_DIR}")
set(script)
set(suite)
set(tests)

function(add_command NAME)
  set(_args "")
  foreach(_arg ${ARGN})
    if(_arg MATCHES "[^-./:a-zA-Z0-9_]")
      set(_args "${_args} [==[${_arg}]==]") # form a bracket_argument
    else()
      set(_args "${_args} ${_arg}")
    endif()
  endforeach()
  set(script "${script}${NAME}(${_args})\n" PARENT_SCOPE)
endfunction()

# Run test executable to get list of available tests
if(NOT EXISTS "${TEST_EXECUTABLE}")
  message(FATAL_ERROR
    "Specified test executable '${TEST_EXECUTABLE}' does not exist"
  )
endif()

if("${spec}" MATCHES .)
  set(spec "--test-case=${spec}")
endif()

execute_process(
  COMMAND ${TEST_EXECUTOR} "${TEST_EXECUTABLE}" ${spec} --list-test-cases
  OUTPUT_VARIABLE output
  RESULT_VARIABLE result
  WORKING_DIRECTORY "${TEST_WORKING_DIR}"
)
if(NOT ${result} EQUAL 0)
  message(FATAL_ERROR
    "Error running test executable '${TEST_EXECUTABLE}':\n"
    "  Result: ${result}\n"
    "  Output: ${output}\n"
  )
endif()

string(REPLACE "\n" ";" output "${output}")

# Every listed case's suite, in listing order ("" for none). XML escapes quotes inside names, so
# only real attributes match.
set(suites "")
set(case_index 0)
if(${add_labels})
  execute_process(
    COMMAND ${TEST_EXECUTOR} "${TEST_EXECUTABLE}" ${spec} --list-test-cases --reporters=xml
    OUTPUT_VARIABLE xml
    RESULT_VARIABLE xml_result
    WORKING_DIRECTORY "${TEST_WORKING_DIR}"
  )
  if(NOT ${xml_result} EQUAL 0)
    message(FATAL_ERROR
      "Error running test executable '${TEST_EXECUTABLE}':\n"
      "  Result: ${xml_result}\n"
      "  Output: ${xml}\n"
    )
  endif()
  # Each case as `<TestCase name="..." testsuite="..." filename=`, the suite only when it has
  # one. Quotes inside names are escaped, and semicolons would split the list.
  string(REPLACE ";" "," xml "${xml}")
  string(REGEX MATCHALL "<TestCase name=\"[^\"]*\"( testsuite=\"[^\"]*\")? filename=" cases
         "${xml}")
  foreach(c IN LISTS cases)
    set(s "")
    if(c MATCHES " testsuite=\"([^\"]*)\" filename=$")
      set(s "${CMAKE_MATCH_1}")
    endif()
    string(REPLACE "&quot;" "\"" s "${s}")
    string(REPLACE "&apos;" "'" s "${s}")
    string(REPLACE "&lt;" "<" s "${s}")
    string(REPLACE "&gt;" ">" s "${s}")
    string(REPLACE "&amp;" "&" s "${s}")
    # With a prefix: CMake's lists cannot hold an empty element alone.
    list(APPEND suites "suite:${s}")
  endforeach()
  list(LENGTH suites listed)
endif()

# Parse output
foreach(line ${output})
  if("${line}" STREQUAL "===============================================================================" OR "${line}" MATCHES [==[^\[doctest\] ]==])
    continue()
  endif()
  set(test ${line})
  set(labels "")
  if(${add_labels})
    if(case_index LESS listed)
      list(GET suites ${case_index} labels)
      string(REGEX REPLACE "^suite:" "" labels "${labels}")
    endif()
  endif()
  math(EXPR case_index "${case_index} + 1")

  if(NOT "${junit_output_dir}" STREQUAL "")
    # turn testname into a valid filename by replacing all special characters with "-"
    string(REGEX REPLACE "[/\\:\"|<>]" "-" test_filename "${test}")
    set(TEST_JUNIT_OUTPUT_PARAM "--reporters=junit" "--out=${junit_output_dir}/${prefix}${test_filename}${suffix}.xml")
  else()
    unset(TEST_JUNIT_OUTPUT_PARAM)
  endif()
  # use escape commas to handle properly test cases with commas inside the name
  string(REPLACE "," "\\," test_name ${test})
  # ...and add to script
  add_command(add_test
    "${prefix}${test}${suffix}"
    ${TEST_EXECUTOR}
    "${TEST_EXECUTABLE}"
    "--test-case=${test_name}"
    "${TEST_JUNIT_OUTPUT_PARAM}"
    ${extra_args}
  )
  add_command(set_tests_properties
    "${prefix}${test}${suffix}"
    PROPERTIES
    WORKING_DIRECTORY "${TEST_WORKING_DIR}"
    ${properties}
    LABELS ${labels}
  )
  unset(labels)
  list(APPEND tests "${prefix}${test}${suffix}")
endforeach()

if(${add_labels})
  if(NOT listed EQUAL case_index)
    message(FATAL_ERROR "'${TEST_EXECUTABLE}' listed ${case_index} test cases, and ${listed} in XML")
  endif()
endif()

# Create a list of all discovered tests, which users may use to e.g. set
# properties on the tests
add_command(set ${TEST_LIST} ${tests})

# Write CTest script
file(WRITE "${CTEST_FILE}" "${script}")
