# Every shipped playbook and inventory lints clean, and every malformed
# playbook makes lint exit 1 with file:line:col.
add_test(NAME lint/examples
  COMMAND $<TARGET_FILE:tcptune> lint
          -i ${PROJECT_SOURCE_DIR}/inventory-examples/fleet.yml
          -i ${PROJECT_SOURCE_DIR}/inventory-examples/fleet.ini
          ${PROJECT_SOURCE_DIR}/playbooks/wan-tuning.yml
          ${PROJECT_SOURCE_DIR}/playbooks/drift-check.yml
          ${PROJECT_SOURCE_DIR}/playbooks/rollback.yml)
set_tests_properties(lint/examples PROPERTIES LABELS lint)
add_test(NAME lint/malformed-playbooks
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/e2e/lint-malformed.sh $<TARGET_FILE:tcptune>
          ${PROJECT_SOURCE_DIR})
set_tests_properties(lint/malformed-playbooks PROPERTIES LABELS lint)
# lib/'s folders are layers: no file includes a layer above its own, no two
# files include each other (scripts/check-layers.sh, docs/architecture.md).
add_test(NAME lint/layers
  COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/check-layers.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(lint/layers PROPERTIES LABELS lint)
# Every host-less command shown in README.md and docs/*.md runs, exits as
# shown, and prints what the documentation shows (tests/docs/doc-commands.py).
add_test(NAME lint/doc-commands
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/docs/doc-commands.py
          $<TARGET_FILE:tcptune> ${PROJECT_SOURCE_DIR})
set_tests_properties(lint/doc-commands PROPERTIES LABELS lint)
# No two labs (tests, demo, benches) share a name prefix or an address net
# (scripts/check-lab-prefixes.sh); and the check fails on a tree where two
# files do.
add_test(NAME lint/lab-prefixes
  COMMAND sh -c "sh scripts/check-lab-prefixes.sh . || exit 1
                 t=$(mktemp -d) && mkdir -p $t/tests/e2e || exit 1
                 echo 'e2e_lab_up 2 xyz 198.18.1' >$t/tests/e2e/a.sh
                 echo 'guests_up 2 xyy 198.18.1' >$t/tests/e2e/b.sh
                 out=$(sh scripts/check-lab-prefixes.sh $t 2>&1); rc=$?
                 rm -rf $t; echo \"$out\"
                 [ $rc = 1 ] && echo \"$out\" | grep -q 'net 198.18.1 is also used by'"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(lint/lab-prefixes PROPERTIES LABELS lint)
