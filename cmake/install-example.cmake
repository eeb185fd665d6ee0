# Run at install time (install(CODE) in cmake/install.cmake): copy one of
# contrib/'s examples to DEST, naming the installed binary where the source
# says /usr/local/bin/tcptune (the default prefix's), so a unit or cron
# file copied from the installed tree runs the installed tcptune.
# Variables: SRC, DEST (relative to the install prefix, or absolute),
# BINDIR (the binary's absolute directory), STAGE (a scratch directory),
# PROGRAM (ON for an executable).
set(text "")
file(READ ${SRC} text)
string(REPLACE "/usr/local/bin/tcptune" "${BINDIR}/tcptune" text "${text}")
get_filename_component(name ${SRC} NAME)
set(staged ${STAGE}/${name})
file(WRITE ${staged} "${text}")
if(PROGRAM)
  set(perms OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
      WORLD_READ WORLD_EXECUTE)
else()
  set(perms OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endif()
if(NOT IS_ABSOLUTE "${DEST}")
  set(DEST "${CMAKE_INSTALL_PREFIX}/${DEST}")
endif()
file(INSTALL ${staged} DESTINATION ${DEST} PERMISSIONS ${perms})
