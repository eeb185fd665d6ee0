# Turn the text file IN into a C source OUT defining `const char IDENT[]`.
# With STRIP=1, the comment lines (first non-blank '#') and blank lines are
# left out: for the scripts sent whole to every host on every run (the
# probe and the prelude), whose comments are most of their bytes, each of
# which is encrypted, sent and parsed by a shell per host. Only for files
# with no '#' line and no blank line that means something (none inside a
# here-document or a quoted string as data): see STRIPPED in CMakeLists.txt.
if(STRIP)
  file(READ ${IN} text)
  string(PREPEND text "\n")
  string(REGEX REPLACE "\n[ \t]*#[^\n]*" "" text "${text}")
  string(REGEX REPLACE "\n([ \t]*\n)+" "\n" text "${text}")
  string(REGEX REPLACE "^\n" "" text "${text}")
  file(WRITE ${OUT}.txt "${text}")
  file(READ ${OUT}.txt hex HEX)
else()
  file(READ ${IN} hex HEX)
endif()
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUT} "/* Generated from ${IN}; do not edit. */\n"
                  "extern const char ${IDENT}[];\n"
                  "const char ${IDENT}[] = {${bytes} 0x00};\n")
