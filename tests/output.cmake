# The output discipline of issue 11 (docs/output.md): warnings once,
# "schema" in each command's JSON, colour, -v levels and the run log, on a
# lab of its own (DIR /tmp/tcptune-e2e-out, prefix out, 198.18.171.0/24).
# Needs root, ansible-vault and script(1); skips (77) without them.
add_test(NAME e2e/output
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/output.sh $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/output PROPERTIES
  LABELS e2e SKIP_RETURN_CODE 77 TIMEOUT 300)

# The same where no host is needed: JSON schema of lint, modules, size and
# config, the message forms, --color on a pipe, the log of a local command.
add_test(NAME cli/output
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/output-cli.sh $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(cli/output PROPERTIES LABELS unit)

# --format json streamed: a serial play's first batches are on stdout while
# the run still waits for a silent host (lab of its own: DIR
# /tmp/tcptune-e2e-ejs, prefix ejs, 198.18.243.0/24). Needs root and socat.
add_test(NAME e2e/output-stream
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/output-stream.sh $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/output-stream PROPERTIES
  LABELS e2e SKIP_RETURN_CODE 77 TIMEOUT 120)
