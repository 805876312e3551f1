/* GCC's long option spellings in their short forms (long_options.h). The
 * table follows the option map of GCC's driver (gcc.cc), which translates
 * them the same way before anything else reads the command. */
#include "long_options.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

enum value_kind {
    NO_VALUE,       /* --compile: -c */
    SEPARATE_VALUE, /* --output=F, --output F: -o F */
    JOINED_VALUE,   /* --std=c99, --std c99: -std=c99 */
    OPTIONAL_VALUE, /* --optimize: -O; --optimize=2: -O2 (only joined) */
};

struct long_option {
    const char *name;
    const char *short_form;
    enum value_kind value;
};

static const struct long_option long_options[] = {
    {"--all-warnings", "-Wall", NO_VALUE},
    {"--ansi", "-ansi", NO_VALUE},
    {"--assemble", "-S", NO_VALUE},
    {"--assert", "-A", SEPARATE_VALUE},
    {"--comments", "-C", NO_VALUE},
    {"--comments-in-macros", "-CC", NO_VALUE},
    {"--compile", "-c", NO_VALUE},
    {"--debug", "-g", OPTIONAL_VALUE},
    {"--define-macro", "-D", SEPARATE_VALUE},
    {"--dependencies", "-M", NO_VALUE},
    {"--dumpbase", "-dumpbase", SEPARATE_VALUE},
    {"--dumpdir", "-dumpdir", SEPARATE_VALUE},
    {"--entry", "-e", SEPARATE_VALUE},
    {"--extra-warnings", "-W", NO_VALUE},
    {"--for-linker", "-Xlinker", SEPARATE_VALUE},
    {"--force-link", "-u", SEPARATE_VALUE},
    {"--imacros", "-imacros", SEPARATE_VALUE},
    {"--include", "-include", SEPARATE_VALUE},
    {"--include-directory", "-I", SEPARATE_VALUE},
    {"--include-directory-after", "-idirafter", SEPARATE_VALUE},
    {"--include-prefix", "-iprefix", SEPARATE_VALUE},
    {"--include-with-prefix", "-iwithprefix", SEPARATE_VALUE},
    {"--include-with-prefix-after", "-iwithprefix", SEPARATE_VALUE},
    {"--include-with-prefix-before", "-iwithprefixbefore", SEPARATE_VALUE},
    {"--language", "-x", SEPARATE_VALUE},
    {"--library-directory", "-L", SEPARATE_VALUE},
    {"--machine", "-m", JOINED_VALUE},
    {"--no-canonical-prefixes", "-no-canonical-prefixes", NO_VALUE},
    {"--no-integrated-cpp", "-no-integrated-cpp", NO_VALUE},
    {"--no-line-commands", "-P", NO_VALUE},
    {"--no-standard-includes", "-nostdinc", NO_VALUE},
    {"--no-standard-libraries", "-nostdlib", NO_VALUE},
    {"--no-warnings", "-w", NO_VALUE},
    {"--optimize", "-O", OPTIONAL_VALUE},
    {"--output", "-o", SEPARATE_VALUE},
    {"--pass-exit-codes", "-pass-exit-codes", NO_VALUE},
    {"--pedantic", "-pedantic", NO_VALUE},
    {"--pedantic-errors", "-pedantic-errors", NO_VALUE},
    {"--pie", "-pie", NO_VALUE},
    {"--pipe", "-pipe", NO_VALUE},
    {"--prefix", "-B", SEPARATE_VALUE},
    {"--preprocess", "-E", NO_VALUE},
    {"--print-missing-file-dependencies", "-MG", NO_VALUE},
    {"--profile", "-p", NO_VALUE},
    {"--save-temps", "-save-temps", NO_VALUE},
    {"--shared", "-shared", NO_VALUE},
    {"--std", "-std=", JOINED_VALUE},
    {"--symbolic", "-symbolic", NO_VALUE},
    {"--time", "-time", NO_VALUE},
    {"--trace-includes", "-H", NO_VALUE},
    {"--traditional-cpp", "-traditional-cpp", NO_VALUE},
    {"--trigraphs", "-trigraphs", NO_VALUE},
    {"--undefine-macro", "-U", SEPARATE_VALUE},
    {"--user-dependencies", "-MM", NO_VALUE},
    {"--verbose", "-v", NO_VALUE},
    {"--write-dependencies", "-MD", NO_VALUE},
    {"--write-user-dependencies", "-MMD", NO_VALUE},
};

/* The entry whose name a is, alone or before `=` (*joined: what follows it,
 * NULL where nothing is joined); NULL for any other word. */
static const struct long_option *long_option_of(const char *a, const char **joined)
{
    size_t n = strcspn(a, "=");
    for (size_t i = 0; i < sizeof long_options / sizeof *long_options; i++) {
        const struct long_option *o = &long_options[i];
        if (strlen(o->name) != n || strncmp(a, o->name, n) != 0)
            continue;
        *joined = a[n] == '=' ? a + n + 1 : NULL;
        if (*joined && o->value == NO_VALUE)
            return NULL; /* --compile=x: not gcc's; the compiler says so */
        return o;
    }
    return NULL;
}

void long_options_expand(struct argv_list *out, int argc, char *const *argv)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *joined;
        /* the prefix forms: --warn-X is -WX, --machine-X is -mX */
        const char *prefix = i == 0                              ? NULL
                             : strncmp(a, "--warn-", 7) == 0      ? "-W"
                             : strncmp(a, "--machine-", 10) == 0 ? "-m"
                                                                  : NULL;
        const struct long_option *o = i > 0 && !prefix ? long_option_of(a, &joined) : NULL;
        if (prefix) {
            char *s = xasprintf("%s%s", prefix, strchr(a + 2, '-') + 1);
            argv_add(out, s);
            free(s);
            continue;
        }
        if (!o) {
            argv_add(out, a);
            continue;
        }
        const char *value = joined;
        if (!value && (o->value == SEPARATE_VALUE || o->value == JOINED_VALUE) && i + 1 < argc)
            value = argv[++i];
        if (o->value == NO_VALUE || (o->value == SEPARATE_VALUE && !value)) {
            argv_add(out, o->short_form); /* (without its value: the compiler says so) */
        } else if (o->value == SEPARATE_VALUE) {
            argv_add(out, o->short_form);
            argv_add(out, value);
        } else {
            char *s = xasprintf("%s%s", o->short_form, value ? value : "");
            argv_add(out, s);
            free(s);
        }
    }
}
