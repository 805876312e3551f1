/* The compiler pompcc runs, never pompcc itself: where `cc` on PATH is a link
 * to pompcc (a directory of compiler links first in PATH, as ccache's), pompcc
 * ran itself, which ran itself again, without end (a probe: 700 processes in
 * 3 s, then a wrong error). */
#ifndef POMP_COMPILER_PATH_H
#define POMP_COMPILER_PATH_H

/* The command `words` (a compiler and its wrapper's words: "ccache gcc") with
 * its first word, where that is found on PATH as pompcc's own executable
 * (self, a real path), replaced by the next one on PATH that is not (to
 * free). NULL where the words stay as they are: the first is not pompcc, or
 * it is and no other is found (or it names pompcc by its path), and then
 * *self_at holds where it was found (to free; else NULL). */
char *compiler_not_self(const char *words, const char *self, char **self_at);

#endif
