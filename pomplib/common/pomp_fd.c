#include "pomp_fd.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int pomp_fd_above_std(int fd)
{
    if (fd < 0 || fd > 2)
        return fd;
    int high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    int saved = errno;
    close(fd);
    errno = saved;
    return high;
}

int pomp_fd_lowest_free(void)
{
    for (int fd = 0; fd < 3; fd++) {
        int got = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        if (got >= 0) {
            close(got);
            return got;
        }
    }
    return -1;
}

unsigned pomp_fd_std_closed(void)
{
    unsigned closed = 0;
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
            closed |= 1u << fd;
    return closed;
}

unsigned pomp_fd_std_fill(void)
{
    unsigned filled = 0, closed = pomp_fd_std_closed();
    for (int fd = 0; fd < 3; fd++) {
        if (!(closed & (1u << fd)))
            continue;
        int got = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (got == fd)
            filled |= 1u << fd;
        else if (got >= 0) /* (another thread took the number meanwhile) */
            close(got);
    }
    return filled;
}

void pomp_fd_std_release(unsigned filled)
{
    for (int fd = 0; fd < 3; fd++)
        if (filled & (1u << fd))
            close(fd);
}
