/* GCC's response files: an argument @FILE stands for the options written in
 * FILE, separated by white space, with '...' and "..." quoting and backslash
 * escapes, and @FILE inside it read in turn. pompcc reads them as gcc would,
 * so that the options they hold (-fopenmp, -c, -o) count. */
#ifndef POMP_RESPONSE_FILES_H
#define POMP_RESPONSE_FILES_H

#include "process.h"

/* Appends argv[0..argc) to out with every @FILE that names a readable file
 * replaced by its options; an @FILE that does not is kept as it is (as gcc
 * does: the compiler then says what it makes of it). */
void response_files_expand(struct argv_list *out, int argc, char *const *argv);

/* Appends the options written in text (the contents of a response file). */
void response_files_split(struct argv_list *out, const char *text);

#endif
