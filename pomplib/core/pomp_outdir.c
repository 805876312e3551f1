#include "pomp_outdir.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pomp_control.h"

/* The output directory: $POMP_OUTPUT_DIR, or pomp-<program>-<date>-<pid> here.
 * Made once, by the first thread that needs it (a trace flush, or the finalizer). */
static char output_dir[4096];
static int output_dir_errno;
static pthread_once_t output_dir_once = PTHREAD_ONCE_INIT;

/* POMP_OUTPUT_DIR names a directory that holds a run's output already (an
 * earlier run, or one running beside this one): said once, as this run's
 * files take the place of those of the same names. */
static void note_earlier_output(void)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/profile.json", output_dir);
    int profile = stat(path, &st) == 0;
    snprintf(path, sizeof path, "%s/trace-raw", output_dir);
    if (profile || stat(path, &st) == 0)
        fprintf(stderr, "pomp: note: the output directory '%s' holds another run's output: this "
                        "run's files replace those of the same names\n",
                output_dir);
}

/* A relative name is in the directory the program started in: as given
 * while it is still the working directory, else the full path (a program
 * that changed its directory: its output where the user looks, and said so). */
static void place_output_dir(const struct pomp_config *cfg, const char *name)
{
    char cwd[4096];
    int moved = name[0] != '/' && cfg->start_dir[0] &&
                (!getcwd(cwd, sizeof cwd) || strcmp(cwd, cfg->start_dir) != 0);
    int n = moved ? snprintf(output_dir, sizeof output_dir, "%s/%s", cfg->start_dir, name) : -1;
    if (n < 0 || (size_t)n >= sizeof output_dir) /* not moved, or no room: as given */
        snprintf(output_dir, sizeof output_dir, "%s", name);
    /* "out/" is out (the summary's "output in out//", the files' out//profile.json) */
    for (size_t len = strlen(output_dir); len > 1 && output_dir[len - 1] == '/'; len--)
        output_dir[len - 1] = '\0';
}

static void make_output_dir(void)
{
    const struct pomp_config *cfg = pomp_config();
    if (cfg->output_dir) {
        place_output_dir(cfg, cfg->output_dir);
    } else {
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        char stamp[32], name[512];
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        snprintf(name, sizeof name, "pomp-%s-%s-%d", program_invocation_short_name, stamp,
                 (int)getpid());
        place_output_dir(cfg, name);
    }
    struct stat st;
    if (mkdir(output_dir, 0777) != 0) {
        if (errno != EEXIST)
            output_dir_errno = errno;
        else if (stat(output_dir, &st) != 0) /* a dangling link, for one */
            output_dir_errno = errno;
        else if (!S_ISDIR(st.st_mode)) /* a file of that name: nothing can be written there */
            output_dir_errno = ENOTDIR;
        else
            note_earlier_output();
    }
}

const char *pomp_output_dir(int *err)
{
    pthread_once(&output_dir_once, make_output_dir);
    *err = output_dir_errno;
    return output_dir;
}
