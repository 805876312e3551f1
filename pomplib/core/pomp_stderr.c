#include "pomp_stderr.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* fd 2 at load (its file's identity) and the duplicate kept of it (-1: none):
 * written once by the loading thread, read at exit. */
static struct {
    int known;  /* fd 2 was open at load: dev, ino */
    int closed; /* fd 2 was closed at load (prog 2>&-): any file there at exit is the program's */
    dev_t dev;
    ino_t ino;
    int copy;
} at_load = {.copy = -1};

/* (above the numbers programs open their first files at) */
enum { COPY_FD_FLOOR = 100 };

void pomp_stderr_note_load(void)
{
    struct stat st;
    if (fstat(STDERR_FILENO, &st) != 0) {
        at_load.closed = errno == EBADF;
        return;
    }
    at_load.known = 1;
    at_load.dev = st.st_dev;
    at_load.ino = st.st_ino;
    if (S_ISCHR(st.st_mode) || S_ISREG(st.st_mode))
        at_load.copy = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, COPY_FD_FLOOR);
}

static int is_load_stderr(int fd)
{
    struct stat st;
    return fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == at_load.dev && st.st_ino == at_load.ino;
}

void pomp_stderr_swap_in(struct pomp_stderr_swap *s)
{
    s->saved = -1;
    s->swapped = 0;
    s->cloexec = 0;
    if (at_load.closed ? fcntl(STDERR_FILENO, F_GETFD) < 0 /* (still closed: nothing to keep) */
                       : !at_load.known || is_load_stderr(STDERR_FILENO))
        return;
    /* (a program that closed its files from 3 up closed the copy too, and a
     * file of its own may hold that number now) */
    int target = at_load.known && is_load_stderr(at_load.copy)
                     ? at_load.copy
                     : open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (target < 0)
        return;
    fflush(stderr);
    int flags = fcntl(STDERR_FILENO, F_GETFD);
    s->cloexec = flags >= 0 && (flags & FD_CLOEXEC);
    s->saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, COPY_FD_FLOOR);
    if (dup2(target, STDERR_FILENO) < 0) {
        if (s->saved >= 0)
            close(s->saved);
        s->saved = -1;
    } else {
        s->swapped = 1;
    }
    if (target != at_load.copy)
        close(target);
}

void pomp_stderr_restore(struct pomp_stderr_swap *s)
{
    if (!s->swapped)
        return;
    fflush(stderr);
    if (s->saved >= 0) { /* (the program's fd 2 as it was, close-on-exec included) */
        dup3(s->saved, STDERR_FILENO, s->cloexec ? O_CLOEXEC : 0);
        close(s->saved);
    } else {
        close(STDERR_FILENO); /* (the program had closed it) */
    }
    s->swapped = 0;
}
