# Turn the text file IN into a C source OUT defining `const char IDENT[]`.
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUT} "/* Generated from ${IN}; do not edit. */\n"
                  "extern const char ${IDENT}[];\n"
                  "const char ${IDENT}[] = {${bytes} 0x00};\n")
