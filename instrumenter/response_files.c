#include "response_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Deeper nesting than this is a loop of files naming each other. */
enum { MAX_DEPTH = 16 };

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

void response_files_split(struct argv_list *out, const char *text)
{
    struct strbuf word = {0};
    const char *p = text;
    for (;;) {
        while (is_space(*p))
            p++;
        if (!*p)
            break;
        char quote = 0;
        for (; *p && (quote || !is_space(*p)); p++) {
            if (*p == '\\') { /* (one last in the file is dropped, as gcc's libiberty does) */
                if (p[1])
                    sb_addn(&word, ++p, 1);
            } else if (quote && *p == quote) {
                quote = 0;
            } else if (!quote && (*p == '\'' || *p == '"')) {
                quote = *p;
            } else {
                sb_addn(&word, p, 1);
            }
        }
        argv_add(out, word.s ? word.s : ""); /* an empty word ('' or "") is a word too */
        word.len = 0;
        if (word.s)
            word.s[0] = '\0';
    }
    free(word.s);
}

static void expand(struct argv_list *out, int argc, char *const *argv, int depth)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        FILE *f = a[0] == '@' && a[1] && depth < MAX_DEPTH ? fopen(a + 1, "r") : NULL;
        if (!f) {
            argv_add(out, a);
            continue;
        }
        struct strbuf text = {0};
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            sb_addn(&text, buf, n);
        int unread = ferror(f); /* a directory opens, and fails to read: gcc says so */
        fclose(f);
        if (unread) {
            free(text.s);
            argv_add(out, a);
            continue;
        }
        struct argv_list words = {0};
        response_files_split(&words, text.s ? text.s : "");
        expand(out, (int)words.n, words.v, depth + 1);
        argv_free(&words);
        free(text.s);
    }
}

void response_files_expand(struct argv_list *out, int argc, char *const *argv)
{
    expand(out, argc, argv, 0);
}
