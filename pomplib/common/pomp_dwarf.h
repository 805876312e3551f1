/* A module's code addresses named from its debug information in this
 * process (elfutils' libdw), after the run. */
#ifndef POMP_DWARF_H
#define POMP_DWARF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The n offsets (addresses as the module's debug information counts them)
 * of the ELF file `module`, named as `addr2line -a -f -i -C -e module`
 * names them, in a temporary file open for reading; NULL where libdw cannot
 * be loaded or the file not read (a symbolizer process is the fallback). */
FILE *pomp_dwarf_symbolize(const char *module, const uintptr_t *offsets, size_t n);

#endif
