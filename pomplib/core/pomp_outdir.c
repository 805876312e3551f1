#include "pomp_outdir.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
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

static void make_output_dir(void)
{
    const struct pomp_config *cfg = pomp_config();
    if (cfg->output_dir) {
        snprintf(output_dir, sizeof output_dir, "%s", cfg->output_dir);
    } else {
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        snprintf(output_dir, sizeof output_dir, "pomp-%s-%s-%d", program_invocation_short_name,
                 stamp, (int)getpid());
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
