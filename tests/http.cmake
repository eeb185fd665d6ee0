# HTTP pieces of drift and dynamic inventories, against a loopback HTTP
# server of our own (tests/e2e/http-server.c): inventory over http:// and
# from executable scripts, webhook POSTs with retries, TLS verification
# against openssl s_server. No root needed.
add_executable(http-server ${PROJECT_SOURCE_DIR}/tests/e2e/http-server.c)
add_executable(webhook-driver ${PROJECT_SOURCE_DIR}/tests/e2e/webhook-driver.c)
target_link_libraries(webhook-driver PRIVATE tcptune_core)

add_test(NAME e2e/http-inventory
  COMMAND sh ${PROJECT_SOURCE_DIR}/tests/e2e/http-inventory.sh
          $<TARGET_FILE:tcptune> $<TARGET_FILE:http-server>
          $<TARGET_FILE:webhook-driver>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME e2e/http-webhook
  COMMAND sh ${PROJECT_SOURCE_DIR}/tests/e2e/http-webhook.sh
          $<TARGET_FILE:http-server> $<TARGET_FILE:webhook-driver>
          $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME e2e/http-tls
  COMMAND sh ${PROJECT_SOURCE_DIR}/tests/e2e/http-tls.sh
          $<TARGET_FILE:tcptune> $<TARGET_FILE:webhook-driver>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/http-inventory e2e/http-webhook e2e/http-tls
  PROPERTIES LABELS "e2e;http" SKIP_RETURN_CODE 77 TIMEOUT 120
  ENVIRONMENT "TCPTUNE_SRC=${PROJECT_SOURCE_DIR}")
add_test(NAME e2e/http-units-verify
  COMMAND sh ${PROJECT_SOURCE_DIR}/tests/e2e/http-units-verify.sh
          ${PROJECT_SOURCE_DIR}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/http-units-verify PROPERTIES
  LABELS "e2e;http" SKIP_RETURN_CODE 77 TIMEOUT 60)
add_test(NAME e2e/http-drift-cron
  COMMAND sh ${PROJECT_SOURCE_DIR}/tests/e2e/http-drift-cron.sh
          ${PROJECT_SOURCE_DIR}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/http-drift-cron PROPERTIES
  LABELS "e2e;http" SKIP_RETURN_CODE 77 TIMEOUT 60)
