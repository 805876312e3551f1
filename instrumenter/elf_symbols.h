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
    ELF_NM_DYNAMIC_UNDEFINED, /* nm -D -P -u of any ELF file, a program too: its imports */
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

/* elf_section for a file already in memory. */
int elf_section_buffer(const unsigned char *data, size_t size, const char *section,
                       struct strbuf *out);

/* Calls fn(data, size, name, arg) for the file at path, or for each member of
 * its archive (a thin archive's: each member's file), in order, until one
 * returns non-zero. name is path for a file, "path(member)" for a member.
 * Returns 0, fn's non-zero value, or -1 if path cannot be read or is a
 * malformed archive. So a library whose members were built apart (some by
 * pompcc, some not) is looked at member by member: read as one file, the
 * construct counts of one member hid the runtime calls of another. */
typedef int (*elf_object_fn)(const unsigned char *data, size_t size, const char *name, void *arg);
int elf_each_object(const char *path, elf_object_fn fn, void *arg);

/* The nm that reads path's symbols when elf_nm does not: LLVM's llvm-nm for
 * LLVM bitcode (clang's -flto objects, alone or in an archive), else nm.
 * GNU nm reads bitcode only through an LLVMgold plugin of the same LLVM; with
 * an older one in its plugin directory (Debian's LLVMgold-14 beside clang
 * 19) it prints "no symbols" and exits 0, and every POMP_Init_ function of
 * the file was lost without a word. */
const char *elf_nm_program(const char *path, const char *nm);

/* Whether path begins as a linker's input: an ELF file, an archive (thin
 * too) or LLVM bitcode (by its first bytes, whatever its name). */
int elf_is_link_input(const char *path);

/* Whether path is LLVM bitcode, or an archive with a member that is. */
int elf_has_llvm_bitcode(const char *path);

/* Whether path (or a member of the archive) is compiled for link-time
 * optimization: LLVM bitcode, or an ELF object with GCC's LTO sections. What
 * its instrumentation wrote into sections of its own (construct counts, what
 * it needs of the runtime) is in the IR then, and only the linked program
 * shows it (unless the object is fat: -ffat-lto-objects). */
int elf_has_lto_ir(const char *path);

/* What an ELF file is to the program loader (read from its program headers;
 * pomprun decides by it what it can preload into). */
enum elf_program_kind {
    ELF_PROGRAM_DYNAMIC, /* a program with an interpreter (the dynamic loader); also
                          * an ELF file this reader does not read (the loader decides) */
    ELF_PROGRAM_STATIC,  /* -static, -static-pie: no interpreter, nothing preloaded */
    ELF_PROGRAM_LIBRARY, /* a shared library (ET_DYN without DF_1_PIE): no program */
};

/* The kind of the ELF file at path; -1 if it cannot be read or is no ELF file. */
int elf_program_kind(const char *path);

#endif
