/* Summarizes the samples of `make bench`: medians, spread and ratios to a
 * baseline, as a table on stdout and as JSON.
 *
 *   summarize SAMPLES.tsv OUT.json
 *
 * SAMPLES.tsv has one record per line, fields separated by tabs:
 *
 *   SECTION ROW COLUMN REP VALUE         one sample (REP: the repetition number)
 *   #section SECTION UNIT TITLE          a section's unit and heading, before its samples
 *   #baseline SECTION COLUMN             ratios of the section's columns to COLUMN (any number)
 *   #na SECTION ROW COLUMN REASON        a figure that could not be measured, and why
 *   #note SECTION TEXT                   a line printed under the section's tables
 *   #machine KEY VALUE                   where the run happened
 *
 * A ratio is taken per repetition (a sample over the baseline's sample of the
 * same row and repetition, which ran next to it) and then summarized like the
 * samples, so the spread of a ratio is the spread of interleaved pairs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FIELDS = 6, MAX_NAME = 96, MAX_TEXT = 400 };

struct sample {
    int rep;
    double value;
};

struct cell {
    char row[MAX_NAME], column[MAX_NAME];
    char na[MAX_TEXT]; /* non-empty: not measured, and why */
    struct sample *samples;
    size_t n, cap;
};

struct section {
    char name[MAX_NAME], unit[MAX_NAME], title[MAX_TEXT];
    char baselines[4][MAX_NAME];
    int nbaselines;
    char notes[16][MAX_TEXT];
    int nnotes;
    char rows[64][MAX_NAME], columns[32][MAX_NAME];
    int nrows, ncolumns;
    struct cell *cells;
    size_t ncells, cells_cap;
};

static struct section sections[16];
static int nsections;
static char machine[16][2][MAX_TEXT];
static int nmachine;

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap * 2 : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * elem);
    if (!q) {
        fprintf(stderr, "summarize: out of memory\n");
        exit(1);
    }
    *cap = c;
    return q;
}

static void copy(char *dst, size_t size, const char *src) { snprintf(dst, size, "%s", src); }

static struct section *section_get(const char *name, int create)
{
    for (int i = 0; i < nsections; i++)
        if (strcmp(sections[i].name, name) == 0)
            return &sections[i];
    if (!create || nsections == (int)(sizeof sections / sizeof *sections))
        return NULL;
    struct section *s = &sections[nsections++];
    copy(s->name, sizeof s->name, name);
    copy(s->title, sizeof s->title, name);
    return s;
}

/* Index of name in list (appending it if new); -1 when the list is full. */
static int intern(char (*list)[MAX_NAME], int *n, int max, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(list[i], name) == 0)
            return i;
    if (*n == max)
        return -1;
    copy(list[*n], MAX_NAME, name);
    return (*n)++;
}

static struct cell *cell_get(struct section *s, const char *row, const char *column)
{
    if (intern(s->rows, &s->nrows, 64, row) < 0 ||
        intern(s->columns, &s->ncolumns, 32, column) < 0)
        return NULL;
    for (size_t i = 0; i < s->ncells; i++)
        if (strcmp(s->cells[i].row, row) == 0 && strcmp(s->cells[i].column, column) == 0)
            return &s->cells[i];
    s->cells = grow(s->cells, &s->cells_cap, s->ncells + 1, sizeof *s->cells);
    struct cell *c = &s->cells[s->ncells++];
    memset(c, 0, sizeof *c);
    copy(c->row, sizeof c->row, row);
    copy(c->column, sizeof c->column, column);
    return c;
}

static struct cell *cell_find(struct section *s, const char *row, const char *column)
{
    for (size_t i = 0; i < s->ncells; i++)
        if (strcmp(s->cells[i].row, row) == 0 && strcmp(s->cells[i].column, column) == 0)
            return &s->cells[i];
    return NULL;
}

static int split(char *line, char **fields)
{
    int n = 0;
    fields[n++] = line;
    for (char *p = line; *p; p++)
        if (*p == '\t') {
            *p = '\0';
            if (n == MAX_FIELDS)
                return -1;
            fields[n++] = p + 1;
        }
    return n;
}

/* Reads one record; returns an error message or NULL. */
static const char *read_record(char *line)
{
    char *f[MAX_FIELDS];
    int n = split(line, f);
    if (n < 0)
        return "too many fields";
    if (strcmp(f[0], "#section") == 0) {
        if (n != 4)
            return "#section needs SECTION UNIT TITLE";
        struct section *s = section_get(f[1], 1);
        if (!s)
            return "too many sections";
        copy(s->unit, sizeof s->unit, f[2]);
        copy(s->title, sizeof s->title, f[3]);
    } else if (strcmp(f[0], "#baseline") == 0) {
        if (n != 3)
            return "#baseline needs SECTION COLUMN";
        struct section *s = section_get(f[1], 1);
        if (!s || s->nbaselines == 4)
            return "too many sections or baselines";
        copy(s->baselines[s->nbaselines++], MAX_NAME, f[2]);
    } else if (strcmp(f[0], "#note") == 0) {
        if (n != 3)
            return "#note needs SECTION TEXT";
        struct section *s = section_get(f[1], 1);
        if (!s || s->nnotes == 16)
            return "too many sections or notes";
        copy(s->notes[s->nnotes++], MAX_TEXT, f[2]);
    } else if (strcmp(f[0], "#na") == 0) {
        if (n != 5)
            return "#na needs SECTION ROW COLUMN REASON";
        struct section *s = section_get(f[1], 1);
        struct cell *c = s ? cell_get(s, f[2], f[3]) : NULL;
        if (!c)
            return "too many sections, rows or columns";
        copy(c->na, sizeof c->na, f[4]);
    } else if (strcmp(f[0], "#machine") == 0) {
        if (n != 3)
            return "#machine needs KEY VALUE";
        if (nmachine == 16)
            return "too many #machine lines";
        copy(machine[nmachine][0], MAX_TEXT, f[1]);
        copy(machine[nmachine++][1], MAX_TEXT, f[2]);
    } else if (f[0][0] == '#') {
        return "unknown directive";
    } else {
        if (n != 5)
            return "a sample needs SECTION ROW COLUMN REP VALUE";
        char *end;
        errno = 0;
        long rep = strtol(f[3], &end, 10);
        if (*end || end == f[3] || errno)
            return "REP is not an integer";
        double v = strtod(f[4], &end);
        if (*end || end == f[4] || errno)
            return "VALUE is not a number";
        struct section *s = section_get(f[0], 1);
        struct cell *c = s ? cell_get(s, f[1], f[2]) : NULL;
        if (!c)
            return "too many sections, rows or columns";
        c->samples = grow(c->samples, &c->cap, c->n + 1, sizeof *c->samples);
        c->samples[c->n++] = (struct sample){(int)rep, v};
    }
    return NULL;
}

struct stats {
    size_t n;
    double median, min, max, q1, q3;
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile q of sorted v[0..n-1], linear between neighbours. */
static double quantile(const double *v, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    if (i + 1 >= n)
        return v[n - 1];
    return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

static struct stats stats_of(double *v, size_t n)
{
    struct stats s = {0};
    if (n == 0)
        return s;
    qsort(v, n, sizeof *v, cmp_double);
    s.n = n;
    s.min = v[0];
    s.max = v[n - 1];
    s.median = quantile(v, n, 0.5);
    s.q1 = quantile(v, n, 0.25);
    s.q3 = quantile(v, n, 0.75);
    return s;
}

static struct stats cell_stats(const struct cell *c)
{
    double *v = malloc((c->n ? c->n : 1) * sizeof *v);
    if (!v)
        exit(1);
    for (size_t i = 0; i < c->n; i++)
        v[i] = c->samples[i].value;
    struct stats s = stats_of(v, c->n);
    free(v);
    return s;
}

/* Ratios of c to base, pair by pair (same repetition). */
static struct stats ratio_stats(const struct cell *c, const struct cell *base)
{
    double *v = malloc((c->n ? c->n : 1) * sizeof *v);
    size_t n = 0;
    if (!v)
        exit(1);
    for (size_t i = 0; i < c->n; i++)
        for (size_t j = 0; j < base->n; j++)
            if (base->samples[j].rep == c->samples[i].rep && base->samples[j].value > 0) {
                v[n++] = c->samples[i].value / base->samples[j].value;
                break;
            }
    struct stats s = stats_of(v, n);
    free(v);
    return s;
}

/* A value with 2 decimals below 10, 1 below 100, none above: enough for noisy timings. */
static void fmt(char *buf, size_t size, double v)
{
    double a = v < 0 ? -v : v;
    if (a >= 1000)
        snprintf(buf, size, "%.0f", v);
    else if (a >= 100)
        snprintf(buf, size, "%.0f", v);
    else if (a >= 10)
        snprintf(buf, size, "%.1f", v);
    else
        snprintf(buf, size, "%.2f", v);
}

static void fmt_stats(char *buf, size_t size, struct stats s, const char *prefix)
{
    char m[32], lo[32], hi[32];
    fmt(m, sizeof m, s.median);
    fmt(lo, sizeof lo, s.min);
    fmt(hi, sizeof hi, s.max);
    snprintf(buf, size, "%s%s [%s..%s]", prefix, m, lo, hi);
}

/* One table: rows x columns, each cell from cell_text. */
typedef void (*cell_text_fn)(const struct section *s, const char *row, const char *col,
                             const char *base, char *buf, size_t size);

static void text_value(const struct section *s, const char *row, const char *col,
                       const char *base, char *buf, size_t size)
{
    (void)base;
    struct cell *c = cell_find((struct section *)s, row, col);
    if (!c)
        snprintf(buf, size, "-");
    else if (c->na[0])
        snprintf(buf, size, "n/a (%s)", c->na);
    else if (c->n == 0)
        snprintf(buf, size, "-");
    else
        fmt_stats(buf, size, cell_stats(c), "");
}

static void text_ratio(const struct section *s, const char *row, const char *col,
                       const char *base, char *buf, size_t size)
{
    struct cell *c = cell_find((struct section *)s, row, col);
    struct cell *b = cell_find((struct section *)s, row, base);
    if (!c || !b || c->na[0] || b->na[0] || c->n == 0 || b->n == 0) {
        snprintf(buf, size, c && c->na[0] ? "n/a" : "-");
        return;
    }
    struct stats r = ratio_stats(c, b);
    if (r.n == 0)
        snprintf(buf, size, "-");
    else
        fmt_stats(buf, size, r, "x");
}

static void print_table(const struct section *s, const char *base, cell_text_fn text,
                        int skip_base)
{
    enum { W = 64 };
    int cols[32], ncols = 0;
    for (int j = 0; j < s->ncolumns; j++)
        if (!(skip_base && strcmp(s->columns[j], base) == 0))
            cols[ncols++] = j;
    size_t width[33] = {0};
    char buf[W + MAX_TEXT];
    for (int i = 0; i < s->nrows; i++) {
        size_t l = strlen(s->rows[i]);
        if (l > width[0])
            width[0] = l;
    }
    for (int k = 0; k < ncols; k++) {
        width[k + 1] = strlen(s->columns[cols[k]]);
        for (int i = 0; i < s->nrows; i++) {
            text(s, s->rows[i], s->columns[cols[k]], base, buf, sizeof buf);
            if (strlen(buf) > width[k + 1])
                width[k + 1] = strlen(buf);
        }
    }
    printf("  %-*s", (int)width[0], "");
    for (int k = 0; k < ncols; k++)
        printf("  %-*s", (int)width[k + 1], s->columns[cols[k]]);
    printf("\n");
    for (int i = 0; i < s->nrows; i++) {
        printf("  %-*s", (int)width[0], s->rows[i]);
        for (int k = 0; k < ncols; k++) {
            text(s, s->rows[i], s->columns[cols[k]], base, buf, sizeof buf);
            printf("  %-*s", (int)width[k + 1], buf);
        }
        printf("\n");
    }
}

static void print_section(const struct section *s)
{
    printf("\n== %s (%s; median [min..max])\n", s->title, s->unit);
    print_table(s, "", text_value, 0);
    for (int b = 0; b < s->nbaselines; b++) {
        printf("  ratio to %s:\n", s->baselines[b]);
        print_table(s, s->baselines[b], text_ratio, 1);
    }
    for (int i = 0; i < s->nnotes; i++)
        printf("  note: %s\n", s->notes[i]);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void json_stats(FILE *f, struct stats s)
{
    fprintf(f, "{\"n\": %zu, \"median\": %.6g, \"min\": %.6g, \"max\": %.6g, \"q1\": %.6g, "
               "\"q3\": %.6g}",
            s.n, s.median, s.min, s.max, s.q1, s.q3);
}

static void json_section(FILE *f, const struct section *s)
{
    fprintf(f, "    {\"name\": ");
    json_string(f, s->name);
    fprintf(f, ", \"title\": ");
    json_string(f, s->title);
    fprintf(f, ", \"unit\": ");
    json_string(f, s->unit);
    fprintf(f, ", \"baselines\": [");
    for (int b = 0; b < s->nbaselines; b++) {
        fprintf(f, b ? ", " : "");
        json_string(f, s->baselines[b]);
    }
    fprintf(f, "], \"notes\": [");
    for (int i = 0; i < s->nnotes; i++) {
        fprintf(f, i ? ", " : "");
        json_string(f, s->notes[i]);
    }
    fprintf(f, "],\n     \"figures\": [");
    int first = 1;
    for (int i = 0; i < s->nrows; i++)
        for (int j = 0; j < s->ncolumns; j++) {
            struct cell *c = cell_find((struct section *)s, s->rows[i], s->columns[j]);
            if (!c)
                continue;
            fprintf(f, "%s\n       {\"row\": ", first ? "" : ",");
            first = 0;
            json_string(f, c->row);
            fprintf(f, ", \"column\": ");
            json_string(f, c->column);
            if (c->na[0]) {
                fprintf(f, ", \"na\": ");
                json_string(f, c->na);
                fprintf(f, "}");
                continue;
            }
            fprintf(f, ", \"value\": ");
            json_stats(f, cell_stats(c));
            fprintf(f, ", \"samples\": [");
            for (size_t k = 0; k < c->n; k++)
                fprintf(f, "%s%.6g", k ? ", " : "", c->samples[k].value);
            fprintf(f, "], \"ratios\": {");
            int rfirst = 1;
            for (int b = 0; b < s->nbaselines; b++) {
                struct cell *base = cell_find((struct section *)s, c->row, s->baselines[b]);
                if (!base || base == c || base->na[0] || base->n == 0)
                    continue;
                fprintf(f, rfirst ? "" : ", ");
                rfirst = 0;
                json_string(f, s->baselines[b]);
                fprintf(f, ": ");
                json_stats(f, ratio_stats(c, base));
            }
            fprintf(f, "}}");
        }
    fprintf(f, "]}");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s SAMPLES.tsv OUT.json\n", argv[0]);
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) {
        fprintf(stderr, "summarize: cannot read %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    char line[2048];
    for (long lineno = 1; fgets(line, sizeof line, in); lineno++) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0])
            continue;
        const char *err = read_record(line);
        if (err) {
            fprintf(stderr, "summarize: %s:%ld: %s\n", argv[1], lineno, err);
            return 1;
        }
    }
    fclose(in);

    for (int i = 0; i < nsections; i++)
        print_section(&sections[i]);

    FILE *out = fopen(argv[2], "w");
    if (!out) {
        fprintf(stderr, "summarize: cannot write %s: %s\n", argv[2], strerror(errno));
        return 1;
    }
    fprintf(out, "{\"format\": \"pomp-bench\", \"version\": 1,\n  \"machine\": {");
    for (int i = 0; i < nmachine; i++) {
        fprintf(out, i ? ", " : "");
        json_string(out, machine[i][0]);
        fprintf(out, ": ");
        json_string(out, machine[i][1]);
    }
    fprintf(out, "},\n  \"sections\": [\n");
    for (int i = 0; i < nsections; i++) {
        json_section(out, &sections[i]);
        fprintf(out, i + 1 < nsections ? ",\n" : "\n");
    }
    fprintf(out, "  ]}\n");
    if (fclose(out) != 0) {
        fprintf(stderr, "summarize: cannot write %s: %s\n", argv[2], strerror(errno));
        return 1;
    }
    return 0;
}
