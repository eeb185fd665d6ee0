# End-to-end tests of "reach the fleet": tcptune ping/probe against a lab of
# real hosts (network namespaces with their own sshd). Each script brings up
# a lab of its own (its own DIR, namespace prefix and address block), so they
# may run in any order or in parallel. They need root and skip (77) otherwise;
# fleet-errors and fleet-nofile (1,000 connections held open under a soft
# RLIMIT_NOFILE of 1024 and 256, to one local listener; ~10 s) need no lab
# and run as any user.
foreach(t ping probe hostkey stopped silent become become-pass errors
    interrupt nofile)
  add_test(NAME e2e/fleet-${t}
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/e2e/fleet-${t}.sh
            $<TARGET_FILE:tcptune>
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e/fleet-${t} PROPERTIES
    LABELS e2e SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()
