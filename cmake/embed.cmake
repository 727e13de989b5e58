# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cmake -DINPUT=file -DOUTPUT=file.c -DSYMBOL=name -P embed.cmake
# Writes `const unsigned char SYMBOL[]` holding INPUT's bytes (the k-means
# update fatbin), aligned as cuModuleLoadData wants a fatbin.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" n)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){16})" "\\1\n  " bytes "${bytes}")
file(WRITE "${OUTPUT}" "/* Generated from ${INPUT} by runtime/embed.cmake. */\n"
  "_Alignas(16) const unsigned char ${SYMBOL}[] = {\n  ${bytes}\n};\n")
