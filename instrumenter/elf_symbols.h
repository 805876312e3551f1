/* The symbols of the link's inputs, read from their ELF symbol tables as `nm -P`
 * prints them, without running nm: GNU nm loads every plugin of its
 * bfd-plugins directory (LLVMgold, hence all of libLLVM) at each start, about
 * 30 ms a run, and pompcc's link asked it once per input (runtime choice) and
 * once for all (pomp-prelink). Inputs this reader leaves alone (LTO objects
 * and LLVM bitcode, whose symbols only nm's plugins know; thin archives; ELF
 * of another class or byte order; anything else) are nm's, as before. */
#ifndef POMP_ELF_SYMBOLS_H
#define POMP_ELF_SYMBOLS_H

#include "util.h"

enum elf_nm_mode {
    ELF_NM_DEFINED_EXTERNAL, /* nm -P -g --defined-only: "name T" (W weak, D data, C common) */
    ELF_NM_UNDEFINED,        /* nm -P -u (-D for a shared object): "name U" (w weak) */
    ELF_NM_DEFINED,          /* nm -P --defined-only: local symbols too, in lower case ("name t") */
};

/* Appends to out the lines nm would print for path in this mode (symbol name
 * and type letter; no archive member headers, no values). An object or
 * archive member is read from its .symtab; a shared object from its .symtab
 * (DEFINED_EXTERNAL) or its .dynsym (UNDEFINED, as nm -D). Returns 0, or -1
 * if the file is not one this reader handles: the caller runs nm on it. */
int elf_nm(const char *path, enum elf_nm_mode mode, struct strbuf *out);

/* The same for a file already in memory (what elf_nm maps). */
int elf_nm_buffer(const unsigned char *data, size_t size, enum elf_nm_mode mode,
                  struct strbuf *out);

/* Appends the contents of the sections named section of an object, or of the
 * objects of an archive (pomp's construct counts, instrument.h). Returns 0,
 * or -1 if the file is not one this reader handles. */
int elf_section(const char *path, const char *section, struct strbuf *out);

#endif
