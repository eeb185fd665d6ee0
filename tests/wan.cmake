# The lab's WAN emulator end to end: two throwaway namespaces, a 52 ms each
# way / 100 Mbit/s link through wanem, RTT by ping and a stock vs tuned BBR
# flow by iperf3. Needs root; exits 77 (skipped) otherwise.
if(TARGET wanem)
  add_test(NAME lab/wanem
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/lab/wan-test.sh
                   $<TARGET_FILE:wanem>
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(lab/wanem PROPERTIES
    LABELS e2e RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 90)
endif()

# The emulator's configuration parser: derived values (queue=bdp) and
# file:line errors. No root needed.
if(TARGET wanem)
  add_test(NAME lab/wanem-config
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/lab/wan-test.sh --config
                   $<TARGET_FILE:wanem>)
  set_tests_properties(lab/wanem-config PROPERTIES LABELS lab TIMEOUT 30)
endif()
