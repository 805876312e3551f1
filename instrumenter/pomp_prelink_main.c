/* pomp-prelink [-o pomp_init.c] objects... archives...
 * Scans the inputs with nm ($NM, default nm) for POMP_Init_* functions and
 * writes POMP_Init_Handles, which calls them all (seed 002, Appendix B). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prelink.h"
#include "process.h"
#include "util.h"

static int is_link_input(const char *a)
{
    size_t n = strlen(a);
    return (n > 2 && strcmp(a + n - 2, ".o") == 0) || (n > 2 && strcmp(a + n - 2, ".a") == 0) ||
           (n > 3 && strcmp(a + n - 3, ".so") == 0) || strstr(a, ".so.") != NULL;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    const char *nm = getenv("NM") && *getenv("NM") ? getenv("NM") : "nm";
    struct prelink_names names = {0};
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--help") == 0) {
            puts("usage: pomp-prelink [-o pomp_init.c] objects... archives...");
            return 0;
        }
        if (argv[i][0] == '-' || !is_link_input(argv[i]))
            continue; /* linker options and other inputs have no POMP_Init_ functions */
        char *nm_argv[] = {(char *)nm, "-P", "-g", "--defined-only", argv[i], NULL};
        char *text = NULL;
        int st = run_capture(nm_argv, &text);
        if (st != 0) {
            fprintf(stderr, "pomp-prelink: error: '%s -P %s' failed (status %d)\n", nm, argv[i], st);
            rc = 1;
        } else {
            prelink_collect(&names, text);
        }
        free(text);
    }
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        perror(out);
        prelink_free(&names);
        return 1;
    }
    if (prelink_write(&names, f) != 0)
        rc = 1;
    if (out && fclose(f) != 0)
        rc = 1;
    prelink_free(&names);
    return rc;
}
