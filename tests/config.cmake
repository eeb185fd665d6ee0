# ansible.cfg and ANSIBLE_* (docs/ansible-cfg.md). ansible-cfg-compare runs
# `tcptune config` and `ansible-config dump` on the same files (no lab, any
# user; 77 without ansible-config or jq). ansible-cfg runs `tcptune ping`
# from a project directory whose ansible.cfg gives the inventory, user, key,
# forks and host key file (a lab of its own; root, else 77).
add_test(NAME regress/ansible-cfg-compare
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/ansible-cfg-compare.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(regress/ansible-cfg-compare PROPERTIES
  LABELS "regress;config" SKIP_RETURN_CODE 77 TIMEOUT 120)
add_test(NAME e2e/ansible-cfg
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/ansible-cfg.sh
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/ansible-cfg PROPERTIES
  LABELS "e2e;config" SKIP_RETURN_CODE 77 TIMEOUT 180)
