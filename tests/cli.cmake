# The command line as a user meets it (issue 11): every command's own help
# against what the parser accepts, the option table against main.c's
# parser, README's usage block and the man pages against the binary's
# tables, and the shell completion in bash. No host needed.
add_test(NAME cli/help
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e/cli-help.sh
          $<TARGET_FILE:tcptune> ${PROJECT_SOURCE_DIR})
add_test(NAME cli/complete
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e/cli-complete.sh
          $<TARGET_FILE:tcptune> ${PROJECT_SOURCE_DIR})
set_tests_properties(cli/help cli/complete PROPERTIES LABELS cli)
add_test(NAME lint/option-table
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e/cli-option-table.sh
          $<TARGET_FILE:tcptune> ${PROJECT_SOURCE_DIR})
add_test(NAME lint/readme-usage
  COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/readme-usage.sh --check
          $<TARGET_FILE:tcptune> ${PROJECT_SOURCE_DIR}/README.md)
add_test(NAME lint/man
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e/cli-man.sh
          $<TARGET_FILE:tcptune> ${CMAKE_BINARY_DIR}/man)
set_tests_properties(lint/option-table lint/readme-usage lint/man
  PROPERTIES LABELS lint)
add_test(NAME cli/install
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e/cli-install.sh ${CMAKE_BINARY_DIR})
set_tests_properties(cli/install PROPERTIES LABELS cli)
