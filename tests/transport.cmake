# The SSH transport against a real sshd on loopback (tests/e2e/
# transport-sshd.sh starts it, tests/e2e/transport-driver.c asserts).
add_executable(transport-driver
  ${PROJECT_SOURCE_DIR}/tests/e2e/transport-driver.c)
target_link_libraries(transport-driver PRIVATE tcptune_core)
add_test(NAME e2e/transport-sshd
  COMMAND sh ${PROJECT_SOURCE_DIR}/tests/e2e/transport-sshd.sh
          $<TARGET_FILE:transport-driver>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/transport-sshd PROPERTIES
  LABELS e2e SKIP_RETURN_CODE 77 TIMEOUT 180)
# An sshd that cannot start commands (a file-descriptor limit makes its
# pipe() fail): tcptune asks four times, spaced out, then says so.
add_test(NAME e2e/transport-refused
  COMMAND sh ${PROJECT_SOURCE_DIR}/tests/e2e/transport-refused.sh
          $<TARGET_FILE:tcptune> $<TARGET_FILE:transport-driver>)
set_tests_properties(e2e/transport-refused PROPERTIES
  LABELS e2e SKIP_RETURN_CODE 77 TIMEOUT 120)
