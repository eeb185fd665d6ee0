# What `cmake --install` puts where (GNU layout, under CMAKE_INSTALL_PREFIX)
# and the Debian package CPack makes of it (`cpack -G DEB` in the build
# directory; scripts/package-test.sh installs and removes it):
#   bin/tcptune
#   share/man/man1/tcptune.1, man7/tcptune-modules.7   generated at build
#       time by the built binary from its tables (tcptune __doc)
#   share/bash-completion/completions/tcptune, share/zsh/vendor-completions/
#       _tcptune                                        contrib/completion
#   lib/systemd/system/tcptune-drift.{service,timer}   contrib/systemd
#   share/doc/tcptune/examples/cron/                    contrib/cron
#   share/tcptune/playbooks/*.yml                       playbooks/
# The units and the cron example name the installed binary: where contrib/
# says /usr/local/bin/tcptune, the installed copy says <prefix>/bin/tcptune.
include(GNUInstallDirs)

install(TARGETS tcptune RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(TCPTUNE_MAN_DIR ${CMAKE_BINARY_DIR}/man)
set(TCPTUNE_MAN_PAGES)
foreach(page tcptune.1 tcptune-modules.7)
  add_custom_command(OUTPUT ${TCPTUNE_MAN_DIR}/${page}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${TCPTUNE_MAN_DIR}
    COMMAND ${CMAKE_COMMAND} -DTCPTUNE=$<TARGET_FILE:tcptune> -DWHAT=${page}
            -DOUT=${TCPTUNE_MAN_DIR}/${page}
            -P ${PROJECT_SOURCE_DIR}/cmake/doc-out.cmake
    DEPENDS tcptune ${PROJECT_SOURCE_DIR}/cmake/doc-out.cmake
    COMMENT "Generating man page ${page}")
  string(REGEX MATCH "[0-9]$" section ${page})
  install(FILES ${TCPTUNE_MAN_DIR}/${page}
          DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
  list(APPEND TCPTUNE_MAN_PAGES ${TCPTUNE_MAN_DIR}/${page})
endforeach()
# Not in a fuzzing build's default target: nothing installs from it.
if(TCPTUNE_FUZZ)
  add_custom_target(man DEPENDS ${TCPTUNE_MAN_PAGES})
else()
  add_custom_target(man ALL DEPENDS ${TCPTUNE_MAN_PAGES})
endif()

install(FILES ${PROJECT_SOURCE_DIR}/contrib/completion/tcptune.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME tcptune)
install(FILES ${PROJECT_SOURCE_DIR}/contrib/completion/_tcptune
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)

set(TCPTUNE_SYSTEMD_UNITDIR lib/systemd/system CACHE STRING
    "Where the drift units go (relative to the prefix, or absolute)")
# Evaluated at install time, so `cmake --install --prefix P` and CPack's
# /usr both name the binary where it really is.
function(tcptune_install_example src dest program)
  install(CODE "
    set(SRC \"${PROJECT_SOURCE_DIR}/contrib/${src}\")
    set(DEST \"${dest}\")
    set(PROGRAM ${program})
    set(STAGE \"${CMAKE_BINARY_DIR}/installed-examples\")
    set(BINDIR \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
    include(\"${PROJECT_SOURCE_DIR}/cmake/install-example.cmake\")")
endfunction()
tcptune_install_example(systemd/tcptune-drift.service
                        ${TCPTUNE_SYSTEMD_UNITDIR} OFF)
tcptune_install_example(systemd/tcptune-drift.timer
                        ${TCPTUNE_SYSTEMD_UNITDIR} OFF)
tcptune_install_example(cron/tcptune-drift
                        ${CMAKE_INSTALL_DOCDIR}/examples/cron OFF)
tcptune_install_example(cron/tcptune-drift-cron
                        ${CMAKE_INSTALL_DOCDIR}/examples/cron ON)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/playbooks/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/tcptune/playbooks
        FILES_MATCHING PATTERN "*.yml")

# The Debian package: tcptune_<version>_<arch>.deb in the build directory.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tcptune)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "tcptune developers <tcptune@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "agentless TCP tuning for a fleet, Ansible-style")
set(CPACK_PACKAGE_DESCRIPTION
    "tcptune reads Ansible inventories and playbooks, probes each host over SSH,
sizes TCP buffers from the measured bandwidth-delay product and RAM, applies
one sysctl drop-in atomically with read-back and a backup, measures the
effect with iperf3 on the hosts, and reports drift.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Depends: from the binary's shared libraries (dpkg-shlibdeps, dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# iperf3 runs on the tuned hosts, not here; ssh-keygen/ssh-keyscan set up
# the drift user's key (docs/drift.md).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "openssh-client, bash-completion")
set(CPACK_STRIP_FILES ON)
# Install under /usr with DESTDIR, so CMAKE_INSTALL_PREFIX is /usr while
# the install code runs and the units name /usr/bin/tcptune.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_OUTPUT_FILE_PREFIX ${CMAKE_BINARY_DIR})
include(CPack)
