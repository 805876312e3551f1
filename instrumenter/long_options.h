/* GCC's long spellings of its driver options (--compile, --output=F,
 * --include-directory D, --write-dependencies, ...), as gcc itself reads
 * them: each becomes its short form before pompcc looks at the command, so
 * that every rule of pompcc that knows -c, -o, -I or -MD knows the long
 * spelling too (a `--output=p.o` compile wrote p.o's object elsewhere and a
 * `--write-dependencies` one named pompcc's temporary copy in the .d; a
 * probe). */
#ifndef POMP_LONG_OPTIONS_H
#define POMP_LONG_OPTIONS_H

#include "process.h"

/* Appends argv[0..argc) to out, each long option that gcc translates written
 * in its short form (its value, joined with `=` or in the next word, kept);
 * everything else as it is. */
void long_options_expand(struct argv_list *out, int argc, char *const *argv);

#endif
