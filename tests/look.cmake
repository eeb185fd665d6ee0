# Looking before running (--list-hosts, --list-tasks, --start-at-task on
# play, plan and drift; docs/playbooks.md). The listings need no host:
# look/ansible-compare compares them with ansible-playbook 2.14 (skipped,
# 77, without it), look/cli checks the JSON, that nothing is contacted and
# the no-match error. e2e/look-start-at runs a play with --start-at-task on
# a lab of its own (root; lab prefix lk1, 198.18.137.0/24).
add_test(NAME look/ansible-compare
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/look-ansible.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(look/ansible-compare PROPERTIES
  LABELS shell SKIP_RETURN_CODE 77 TIMEOUT 120)
add_test(NAME look/cli
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/look-cli.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(look/cli PROPERTIES LABELS shell TIMEOUT 120)
add_test(NAME e2e/look-start-at
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/look-start-at.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/look-start-at PROPERTIES
  LABELS e2e SKIP_RETURN_CODE 77 TIMEOUT 120)

# --version/-V and "did you mean" for commands, options and modules.
add_test(NAME cli/suggest
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/cli-suggest.sh
          $<TARGET_FILE:tcptune>)
set_tests_properties(cli/suggest PROPERTIES LABELS shell TIMEOUT 60)
