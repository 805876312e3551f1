/* Runs a command and reports what it cost: wall time, CPU time (user + system,
 * its children included) and peak resident memory, from wait4's rusage.
 *
 *   runstat COMMAND [ARGS...]
 *
 * Prints one line on stdout, "wall_ms cpu_ms maxrss_kb", and exits with the
 * command's status (128 + signal if it was killed). The command's own stdout
 * goes to /dev/null, so only the figures are printed. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double ms_of(struct timeval tv) { return (double)tv.tv_sec * 1e3 + (double)tv.tv_usec / 1e3; }

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s COMMAND [ARGS...]\n", argv[0]);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        perror("runstat: fork");
        return 1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, STDOUT_FILENO);
        execvp(argv[1], argv + 1);
        fprintf(stderr, "runstat: cannot run %s\n", argv[1]);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("runstat: wait4");
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* the command's own children (a compiler driver's cc1, as, ld) */
    struct rusage grand;
    getrusage(RUSAGE_CHILDREN, &grand);
    double wall = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    double cpu = ms_of(grand.ru_utime) + ms_of(grand.ru_stime);
    printf("%.3f %.3f %ld\n", wall, cpu, ru.ru_maxrss);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
