/* Splitting a pragma into directive name and clauses (see directive.h). */
#include "directive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "directive_scanner.h"
#include "directive_lexer.h"

/* Every directive name of OpenMP 5.2 for C/C++ (combined forms included). */
static const char *const omp_directive_names[] = {
    "allocate", "assume", "assumes", "atomic", "barrier", "begin assumes",
    "begin declare target", "begin declare variant", "cancel", "cancellation point", "critical",
    "declare mapper", "declare reduction", "declare simd", "declare target", "declare variant",
    "depobj", "dispatch", "distribute", "distribute parallel for", "distribute parallel for simd",
    "distribute simd", "end assumes", "end declare target", "end declare variant", "error",
    "flush", "for", "for simd", "interop", "loop", "masked", "masked taskloop",
    "masked taskloop simd", "master", "master taskloop", "master taskloop simd", "metadirective",
    "nothing", "ordered", "parallel", "parallel for", "parallel for simd", "parallel loop",
    "parallel masked", "parallel masked taskloop", "parallel masked taskloop simd",
    "parallel master", "parallel master taskloop", "parallel master taskloop simd",
    "parallel sections", "requires", "scan", "scope", "section", "sections", "simd", "single",
    "target", "target data", "target enter data", "target exit data", "target parallel",
    "target parallel for", "target parallel for simd", "target parallel loop", "target simd",
    "target teams", "target teams distribute", "target teams distribute parallel for",
    "target teams distribute parallel for simd", "target teams distribute simd",
    "target teams loop", "target update", "task", "taskgroup", "taskloop", "taskloop simd",
    "taskwait", "taskyield", "teams", "teams distribute", "teams distribute parallel for",
    "teams distribute parallel for simd", "teams distribute simd", "teams loop",
    "threadprivate", "tile", "unroll", NULL};

static int known_name(const char *name)
{
    for (const char *const *n = omp_directive_names; *n; n++)
        if (strcmp(*n, name) == 0)
            return 1;
    return 0;
}

int directive_add_item(struct directive *d, char *word, char *arg, int column)
{
    if (d->nitems == DIRECTIVE_MAX_ITEMS) {
        free(word);
        free(arg);
        d->error_column = column;
        snprintf(d->error, sizeof d->error, "more than %d clauses", DIRECTIVE_MAX_ITEMS);
        return -1;
    }
    d->items[d->nitems++] = (struct directive_item){.word = word, .arg = arg, .column = column};
    return 0;
}

/* The longest run of leading words that names an OpenMP directive; the last of
 * them may carry an argument (critical(name), flush(list), ...). */
static int split_name(struct directive *d)
{
    char name[256];
    for (size_t k = d->nitems; k >= 1; k--) {
        name[0] = '\0';
        size_t i;
        for (i = 0; i < k; i++) {
            if (i + 1 < k && d->items[i].arg)
                break;
            if (strlen(name) + strlen(d->items[i].word) + 2 > sizeof name)
                break;
            if (i)
                strcat(name, " ");
            strcat(name, d->items[i].word);
        }
        if (i < k || !known_name(name))
            continue;
        d->name = strdup(name);
        d->name_arg = d->items[k - 1].arg;
        d->items[k - 1].arg = NULL;
        if (d->name_arg) { /* critical( cs ) names cs (a directive macros made: critical ( cs )) */
            char *a = d->name_arg;
            size_t from = strspn(a, " \t"), n = strlen(a);
            while (n > from && (a[n - 1] == ' ' || a[n - 1] == '\t'))
                n--;
            memmove(a, a + from, n - from);
            a[n - from] = '\0';
        }
        for (i = k; i < d->nitems; i++)
            d->clauses[d->nclauses++] = d->items[i];
        for (i = 0; i < k; i++)
            free(d->items[i].word);
        d->nitems = 0;
        return 0;
    }
    d->unknown_directive = d->nitems > 0;
    d->error_column = d->nitems ? d->items[0].column : 0;
    snprintf(d->error, sizeof d->error, "unknown OpenMP directive '%s'",
             d->nitems ? d->items[0].word : "");
    return -1;
}

static void describe_failure(const char *text, struct directive *d)
{
    if (d->error[0])
        return;
    int col = d->error_column >= 0 ? d->error_column : 0;
    char c = (size_t)col < strlen(text) ? text[col] : '\0';
    if (c == '\0')
        snprintf(d->error, sizeof d->error, "empty pragma");
    else if (c == ')')
        snprintf(d->error, sizeof d->error, "unbalanced ')'");
    else if (c == ',')
        snprintf(d->error, sizeof d->error, "misplaced ','");
    else
        snprintf(d->error, sizeof d->error, "unexpected character '%c'", c);
}

int directive_parse(const char *text, struct directive *d)
{
    memset(d, 0, sizeof *d);
    d->error_column = -1;
    struct lexer_extra extra = {0};
    yyscan_t scanner;
    if (directive_yylex_init_extra(&extra, &scanner) != 0) {
        snprintf(d->error, sizeof d->error, "out of memory");
        d->error_column = 0;
        return -1;
    }
    YY_BUFFER_STATE buf = directive_yy_scan_string(text, scanner);
    int rc = directive_yyparse(scanner, d);
    directive_yy_delete_buffer(buf, scanner);
    directive_yylex_destroy(scanner);
    free(extra.buf);
    if (rc != 0) {
        if (d->error_column < 0)
            d->error_column = 0;
        describe_failure(text, d);
        return -1;
    }
    if (!d->sentinel) {
        d->error_column = 0;
        snprintf(d->error, sizeof d->error, "empty pragma");
        return -1;
    }
    if (strcmp(d->sentinel, "omp") == 0)
        return split_name(d);
    /* other sentinels (pomp) keep their items; the caller interprets them */
    return 0;
}

void directive_free(struct directive *d)
{
    free(d->sentinel);
    free(d->name);
    free(d->name_arg);
    for (size_t i = 0; i < d->nclauses; i++) {
        free(d->clauses[i].word);
        free(d->clauses[i].arg);
    }
    for (size_t i = 0; i < d->nitems; i++) {
        free(d->items[i].word);
        free(d->items[i].arg);
    }
    memset(d, 0, sizeof *d);
    d->error_column = -1;
}

const struct directive_item *directive_clause(const struct directive *d, const char *name)
{
    for (size_t i = 0; i < d->nclauses; i++)
        if (strcmp(d->clauses[i].word, name) == 0)
            return &d->clauses[i];
    return NULL;
}
