/* The environment's POMP_* names that no part of pomp reads: a misspelled
 * variable (POMP_LOOPS=none) is said, with the name it likely meant, instead
 * of being ignored silently. */
#ifndef POMP_ENV_NAMES_H
#define POMP_ENV_NAMES_H

#include <stddef.h>

/* Whether name (the part before '=') is a variable pomp reads. */
int pomp_env_name_known(const char *name, size_t len);

/* The known name closest to name (at most two edits away; in buf where it is
 * made there), or NULL. */
const char *pomp_env_name_closest(const char *name, size_t len, char *buf, size_t size);

/* Says each unknown POMP_* variable of envp on stderr. */
void pomp_env_names_check(char *const *envp);

#endif
