# Lab smoke test: a 3-host network-namespace lab of its own (prefix "tts",
# 198.18.254.0/24, /tmp/tcptune-lab-smoke) beside any running main lab.
# Needs root; exits 77 (skipped) otherwise.
add_test(NAME lab/smoke
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/lab/smoke.sh
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(lab/smoke PROPERTIES
  LABELS e2e
  RUN_SERIAL TRUE
  SKIP_RETURN_CODE 77
  TIMEOUT 300)

# close_inherited_fds (tests/lab/close-fds.sh) closes what lab.sh and
# regions.sh inherit and keeps their stderr: no lab, a second.
add_test(NAME lab/close-fds
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/lab/close-fds-test.sh)
set_tests_properties(lab/close-fds PROPERTIES LABELS lab)
