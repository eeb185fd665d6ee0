# cmake -DTCPTUNE=... -DWHAT=... -DOUT=... -P doc-out.cmake: write what
# `tcptune __doc WHAT` prints to OUT, failing the build if it fails (a
# custom command has no portable redirection of its own).
execute_process(COMMAND ${TCPTUNE} __doc ${WHAT}
  OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "tcptune __doc ${WHAT} failed: ${rc}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
