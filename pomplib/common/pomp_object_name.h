/* Data objects of this process named from their address, after the run (a
 * critical construct's lock: ".gomp_critical_user_<name>"). */
#ifndef POMP_OBJECT_NAME_H
#define POMP_OBJECT_NAME_H

#include <stddef.h>
#include <stdint.h>

/* The symbol of the data object that starts at addr into buf (size bytes, cut
 * to fit); returns 1, or 0 when none is known (no symbol table, stripped). */
int pomp_object_name(uintptr_t addr, char *buf, size_t size);

#endif
