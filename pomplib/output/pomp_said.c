/* pomp's end-of-run messages, written at once (pomp_said.h). */
#include "pomp_said.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *pomp_said_open(struct pomp_said *s)
{
    s->text = NULL;
    s->len = 0;
    s->f = open_memstream(&s->text, &s->len);
    if (!s->f) /* out of memory: said as it comes, rather than not */
        s->f = stderr;
    return s->f;
}

/* Whether the standard output and the standard error are one file. */
static int same_file(int a, int b)
{
    struct stat sa, sb;
    return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

void pomp_said_close(struct pomp_said *s)
{
    if (s->f == stderr)
        return;
    int bad = fclose(s->f) != 0;
    if (!bad && s->len) {
        /* the program's pending output first, as its exit would write it;
         * not where another thread holds the stream (a write blocked on a
         * full pipe would hold the summary, and the exit, with it) */
        if (same_file(STDOUT_FILENO, STDERR_FILENO) && ftrylockfile(stdout) == 0) {
            fflush_unlocked(stdout);
            funlockfile(stdout);
        }
        fwrite(s->text, 1, s->len, stderr);
        fflush(stderr);
    }
    free(s->text);
    s->text = NULL;
}
