# Sizing for many peers on the multi-region lab (tests/lab/regions.sh: ten
# hosts in four regions joined by wanem): each host's ceiling from its
# widest path, checked against the emulator's configured delays; an
# unreachable peer reported and fallen back from; the probe's bound with 49
# peers. Probes and plans only (no iperf3): ~30 s. Needs root; exit 77
# (skipped) otherwise. The pure parts are in unit/test-sizing.
if(TARGET wanem)
  add_test(NAME e2e/peers-regions
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/peers-regions.sh
            $<TARGET_FILE:tcptune> $<TARGET_FILE:wanem>
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e/peers-regions PROPERTIES
    LABELS e2e RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()
