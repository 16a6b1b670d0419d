# sk_embed_files(OUT SYMBOL FILES): generates a C file defining a NULL-terminated table
#   const SKEmbeddedFile SYMBOL[] (src/io/ioimpl.h)
# with the basename and contents of each file, regenerated when a file changes.
function(sk_embed_files out symbol files)
  # A ';' list would split into separate arguments of the command; pass it '|'-separated.
  string(REPLACE ";" "|" joined "${files}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DSYMBOL=${symbol} "-DFILES=${joined}" -P ${CMAKE_SOURCE_DIR}/cmake/EmbedFilesScript.cmake
    DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/EmbedFilesScript.cmake
    COMMENT "Embedding ${symbol}"
    VERBATIM)
endfunction()
