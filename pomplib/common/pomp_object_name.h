/* Data objects of this process named from their address, after the run (a
 * critical construct's lock: ".gomp_critical_user_<name>"). */
#ifndef POMP_OBJECT_NAME_H
#define POMP_OBJECT_NAME_H

#include <stddef.h>
#include <stdint.h>

/* The symbol of the data object that starts at addr into buf (size bytes, cut
 * to fit); returns 1, or 0 when none is known (no symbol table, stripped). */
int pomp_object_name(uintptr_t addr, char *buf, size_t size);

/* The data objects of this process's loaded modules whose symbols start
 * with prefix (from each module file's .symtab, else its .dynsym): their
 * addresses and names. Fills *list (malloc'ed: pomp_named_objects_free) and
 * returns their number; 0 on none or on error. */
struct pomp_named_object {
    uintptr_t addr;
    char *name;
};
size_t pomp_objects_named(const char *prefix, struct pomp_named_object **list);
void pomp_named_objects_free(struct pomp_named_object *list, size_t n);

#endif
