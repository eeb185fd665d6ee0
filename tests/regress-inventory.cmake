# The INI, dynamic-JSON and host-range reproducers found by fuzzing, through
# the built tcptune, each bounded in time and memory (tests/fuzz/README.md).
add_test(NAME regress/inventory
         COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/regress-inventory.sh
                 $<TARGET_FILE:tcptune> ${PROJECT_SOURCE_DIR})
set_tests_properties(regress/inventory PROPERTIES LABELS "regress;inventory"
  TIMEOUT 600)
