# tcptune drift against a lab, with the inventory and the webhook on a
# loopback HTTP server of the test's own (needs root for the lab).
add_test(NAME e2e/drift-lab
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/drift-lab.sh
          $<TARGET_FILE:tcptune> $<TARGET_FILE:http-server>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/drift-lab PROPERTIES
  LABELS e2e SKIP_RETURN_CODE 77 TIMEOUT 180)
