# End-to-end test of streaming output (issue 11): a play's results reach a
# pipe, a jsonl consumer and a terminal as each host finishes. Its own lab
# (DIR /tmp/tcptune-e2e-tst, prefix tst, 198.18.130.0/24); needs root and
# tmux, skips (77) without root.
add_test(NAME e2e/stream
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/stream.sh $<TARGET_FILE:tcptune>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e/stream PROPERTIES
  LABELS e2e SKIP_RETURN_CODE 77 TIMEOUT 180)
