#include "pomp_outdir.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pomp_control.h"
#include "pomp_owned.h"

/* The output directory: $POMP_OUTPUT_DIR, or pomp-<program>-<date>-<pid> here.
 * Made once, by the first thread that needs it (a trace flush, or the finalizer). */
static char output_dir[4096];
static int output_dir_errno;
static pthread_once_t output_dir_once = PTHREAD_ONCE_INIT;

/* POMP_OUTPUT_DIR names a directory that holds a run's output already (an
 * earlier run, or one running beside this one): said once, as this run's
 * files take the place of those of the same names. */
static void note_earlier_output(const char *given)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/profile.json", output_dir);
    int profile = stat(path, &st) == 0;
    snprintf(path, sizeof path, "%s/trace-raw", output_dir);
    if (!profile && stat(path, &st) != 0)
        return;
    /* a POMP_OUTPUT_DIR without %p: the way out is named */
    int suggest = given && !strstr(given, "%p");
    fprintf(stderr, "pomp: note: the output directory '%s' holds another run's output: this "
                    "run's files replace those of the same names%s%s%s\n",
            output_dir, suggest ? " (POMP_OUTPUT_DIR=" : "", suggest ? given : "",
            suggest ? "-%p gives each process a directory of its own)" : "");
}

/* POMP_OUTPUT_DIR's placeholders: %p the process id, %h the host name, %% a
 * percent sign, so that each process of a job gets a directory of its own
 * (a script's programs under pomprun, the processes of a launcher: each
 * replaced the files of the one before). Any other % stays as it is, said. */
static void expand_placeholders(const char *given, char *out, size_t size)
{
    size_t n = 0;
    int said = 0;
    for (const char *c = given; *c && n + 1 < size; c++) {
        char piece[300];
        const char *add = NULL;
        if (c[0] == '%' && (c[1] == 'p' || c[1] == 'h' || c[1] == '%')) {
            if (c[1] == 'p')
                snprintf(piece, sizeof piece, "%d", (int)getpid());
            else if (c[1] == 'h' && gethostname(piece, sizeof piece) != 0)
                snprintf(piece, sizeof piece, "host");
            else if (c[1] == '%')
                snprintf(piece, sizeof piece, "%%");
            piece[sizeof piece - 1] = '\0';
            add = piece;
            c++;
        } else if (c[0] == '%' && !said) {
            said = 1;
            char shown[POMP_CONFIG_SHOWN];
            fprintf(stderr, "pomp: warning: POMP_OUTPUT_DIR='%s': '%%%s' is no placeholder (%%p: "
                            "the process id, %%h: the host name, %%%%: a percent sign): taken as "
                            "it is\n",
                    pomp_config_shown(given, shown, sizeof shown), c[1] ? (char[]){c[1], '\0'} : "");
        }
        if (!add) {
            out[n++] = *c;
            continue;
        }
        size_t len = strlen(add);
        if (n + len >= size)
            break;
        memcpy(out + n, add, len);
        n += len;
    }
    out[n] = '\0';
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
    int made = 0;
    if (cfg->output_dir) {
        char expanded[sizeof output_dir];
        expand_placeholders(cfg->output_dir, expanded, sizeof expanded);
        place_output_dir(cfg, expanded);
    } else {
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        char stamp[32], name[512];
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        snprintf(name, sizeof name, "pomp-%s-%s-%d", program_invocation_short_name, stamp,
                 (int)getpid());
        place_output_dir(cfg, name);
        /* the name holds this process's id: taken already, another copy of
         * libpomp in this process wrote there (a plugin opened by dlmopen in a
         * namespace of its own), whose files this one's would replace: a
         * name beside it */
        size_t len = strlen(output_dir);
        for (int k = 2; k < 100 && !made; k++) {
            made = pomp_mkdir_owned(output_dir) == 0;
            if (!made && errno != EEXIST)
                break;
            if (!made)
                snprintf(output_dir + len, sizeof output_dir - len, "-%d", k);
        }
    }
    struct stat st;
    if (!made && pomp_mkdir_owned(output_dir) != 0) {
        if (errno != EEXIST)
            output_dir_errno = errno;
        else if (stat(output_dir, &st) != 0) /* a dangling link, for one */
            output_dir_errno = errno;
        else if (!S_ISDIR(st.st_mode)) /* a file of that name: nothing can be written there */
            output_dir_errno = ENOTDIR;
        else
            note_earlier_output(cfg->output_dir);
    }
}

const char *pomp_output_dir(int *err)
{
    pthread_once(&output_dir_once, make_output_dir);
    *err = output_dir_errno;
    return output_dir;
}
