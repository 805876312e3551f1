#include "pomp_owned.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

/* Adds the owner's bits want to what the umask left of st's mode. */
static void add_owner_bits(int fd, const char *path, mode_t want)
{
    struct stat st;
    int saved = errno;
    if ((fd >= 0 ? fstat(fd, &st) : stat(path, &st)) == 0 && (st.st_mode & want) != want) {
        mode_t mode = (st.st_mode & 07777) | want;
        (void)(fd >= 0 ? fchmod(fd, mode) : chmod(path, mode));
    }
    errno = saved;
}

int pomp_mkdir_owned(const char *path)
{
    if (mkdir(path, 0777) != 0)
        return -1;
    add_owner_bits(-1, path, S_IRWXU);
    return 0;
}

int pomp_open_owned(const char *path, int flags, mode_t mode)
{
    int fd = open(path, flags, mode);
    if (fd >= 0)
        add_owner_bits(fd, path, S_IRUSR | S_IWUSR);
    return fd;
}

FILE *pomp_fopen_owned(const char *path)
{
    int fd = pomp_open_owned(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int saved = errno;
        close(fd);
        errno = saved;
    }
    return f;
}

static int own_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    int dir = type == FTW_D || type == FTW_DP || type == FTW_DNR;
    mode_t want = dir ? S_IRWXU : S_IRUSR | S_IWUSR;
    int changed = (dir || type == FTW_F) && (st->st_mode & want) != want &&
                  chmod(path, (st->st_mode & 07777) | want) == 0;
    /* one it could not read: its entries, now that it can (only then: a
     * directory still unreadable would come back here without end) */
    if (type == FTW_DNR && changed)
        nftw(path, own_entry, 16, FTW_PHYS);
    return 0;
}

void pomp_own_tree(const char *path)
{
    int saved = errno;
    /* FTW_PHYS: links are not followed out of the tree */
    nftw(path, own_entry, 16, FTW_PHYS);
    errno = saved;
}
