# tcptune inventory --list/--graph against ansible-inventory, inventory by
# inventory (skipped, code 77, when ansible-inventory or jq is absent).
add_test(NAME e2e/ansible-inventory-compare
         COMMAND sh ${PROJECT_SOURCE_DIR}/tests/e2e/ansible-compare.sh
                 $<TARGET_FILE:tcptune> ${PROJECT_SOURCE_DIR}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/ansible-inventory-compare PROPERTIES
  SKIP_RETURN_CODE 77 LABELS "e2e;inventory"
  ENVIRONMENT "TCPTUNE_SRC=${PROJECT_SOURCE_DIR}")

# Ansible Vault end to end: inventories vaulted by ansible-vault against
# ansible-inventory, and a play on a lab host that uses the secrets
# (tests/e2e/vault.sh; needs root for the lab, skipped without ansible).
add_test(NAME e2e/vault
         COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/vault.sh
                 $<TARGET_FILE:tcptune>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/vault PROPERTIES
  SKIP_RETURN_CODE 77 LABELS "e2e;inventory" TIMEOUT 300)
