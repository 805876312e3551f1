/* The text tables of pomp-report (docs/output.md). Columns are as wide as
 * their longest entry (within limits; longer locations keep their end). */
#include "report_text.h"

#include "report_devices.h"
#include "report_sampling.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { MIN_NAME = 20, MAX_NAME = 48, MIN_LOC = 12, MAX_LOC = 48 };

/* A call-path row's indentation: two columns a level, no wider than the name
 * column shows (a 40,000-level recursion formatted 80,000 spaces a row, most
 * of pomp-report's 6 s on its profile). */
static int indent_of(int depth, int extra)
{
    int n = depth * 2 + extra;
    return n < 0 ? 0 : n > MAX_NAME ? MAX_NAME : n;
}

struct widths {
    int name, loc;
};

static void fit(int *w, size_t len, int max)
{
    if ((int)len > *w)
        *w = (int)len > max ? max : (int)len;
}

/* s, shortened to width characters by its middle: its first head characters,
 * "...", its end. */
static const char *clip_middle(const char *s, size_t head, int width, char *buf, size_t size)
{
    size_t len = strlen(s), tail = (size_t)width - 3 - head;
    snprintf(buf, size, "%.*s...%s", (int)head, s, s + len - tail);
    return buf;
}

/* A name shortened to width characters: its start, what the row is
 * ("implicit_barrier parallel in ..."), and its end, the location of a
 * runtime region's construct. Cut from the left, the kind was lost, and a
 * barrier's row read as its construct's (a probe). */
static const char *clip_name(const char *s, int width, char *buf, size_t size)
{
    if ((int)strlen(s) <= width || width < 8)
        return s;
    return clip_middle(s, (size_t)(width - 3) / 2, width, buf, size);
}

/* The position of the '>', ')' or '}' that closes the '<', '(' or '{' at
 * s[i], or 0. */
static size_t closing(const char *s, size_t i)
{
    char open = s[i], close = open == '<' ? '>' : open == '{' ? '}' : ')';
    int depth = 0;
    for (size_t k = i; s[k]; k++)
        if (s[k] == open)
            depth++;
        else if (s[k] == close && --depth == 0)
            return k;
    return 0;
}

/* The length of the parentheses at s[i] that are part of a name, not a
 * parameter list: "(anonymous namespace)" and a call operator's "()"; else 0. */
static size_t name_parens(const char *s, size_t i)
{
    static const char anon[] = "(anonymous namespace)";
    if (strncmp(s + i, anon, sizeof anon - 1) == 0)
        return sizeof anon - 1;
    int word = i > 8 && ((s[i - 9] >= 'a' && s[i - 9] <= 'z') || (s[i - 9] >= 'A' && s[i - 9] <= 'Z') ||
                         (s[i - 9] >= '0' && s[i - 9] <= '9') || s[i - 9] == '_');
    if (i >= 8 && !word && strncmp(s + i - 8, "operator()", 10) == 0)
        return 2;
    return 0;
}

/* s past the qualifiers a parameter list may have (" const", " &"). */
static const char *past_qualifiers(const char *s)
{
    static const char *const quals[] = {" const", " volatile", " &&", " &"};
    for (size_t q = 0; q < sizeof quals / sizeof *quals; q++)
        if (strncmp(s, quals[q], strlen(quals[q])) == 0)
            return past_qualifiers(s + strlen(quals[q]));
    return s;
}

/* Appends what to buf (size bytes, *n used), as much as fits. */
static void put(char *buf, size_t size, size_t *n, const char *what, size_t len)
{
    size_t room = size - 1 - *n;
    memcpy(buf + *n, what, len < room ? len : room);
    *n += len < room ? len : room;
    buf[*n] = '\0';
}

/* A C++ function's signature (a runtime region's place without debug
 * information: "void ns::sort<false, It>(It, It) [0x40]") as its qualified
 * name, template arguments and parameters elided ("ns::sort<...>(...) [0x40]"),
 * in buf (size bytes); NULL where s is none. Cut from the left, the name went
 * and rows of one function read alike ("...ess<long long> >(__gnu_cxx::__n";
 * a probe). The parentheses of "(anonymous namespace)" and of a call operator
 * are the name's, and so are the parameters of a function a lambda or a local
 * class is in ("f(int)::{lambda()#1}::operator()()" is "f(...)::{lambda()#1}::
 * operator()()"): taken for the parameters, "(anonymous namespace)::f(int)"
 * was "namespace)::f(...)", and "void (anonymous namespace)::f<int>(int)"
 * "(...)" (a probe). Template arguments go only as far as the row needs:
 * keep says which stay (enum keep_templates); with all of them gone, the
 * instantiations of a class template read alike ("Field<...>::transform<...>
 * (...)" for Field<double>'s and Field<float>'s, a probe). */
enum keep_templates { KEEP_NO_TEMPLATES, KEEP_SCOPE_TEMPLATES, KEEP_ALL_TEMPLATES };
static const char *short_signature(const char *s, enum keep_templates keep, char *buf, size_t size)
{
    size_t open = 0, close = 0;
    if (strchr(s, '/'))
        return NULL;
    for (size_t i = 0; s[i] && !open; i++) { /* the parameters' '(' */
        size_t k;
        if (s[i] == '<' || s[i] == '{') {
            if (!(i = closing(s, i)))
                return NULL;
        } else if (s[i] == '(' && (k = name_parens(s, i)) != 0) {
            i += k - 1;
        } else if (s[i] == '(') {
            if (!(close = closing(s, i)))
                return NULL;
            if (strncmp(past_qualifiers(s + close + 1), "::", 2) != 0)
                open = i;
            else
                i = close; /* a scope: the function a lambda is in */
        }
    }
    if (!open)
        return NULL;
    size_t from = open; /* back over the name: to a blank outside brackets */
    for (int depth = 0; from > 0; from--) {
        char c = s[from - 1];
        if (!depth && c == ' ' && !(from >= 2 && s[from - 2] == ')'))
            break; /* (" const::" after a lambda's function is in it) */
        depth += (c == '>' || c == ')' || c == '}') - (c == '<' || c == '(' || c == '{');
    }
    size_t own = from; /* where the function's own name begins: past its scopes' "::" */
    int depth = 0;
    for (size_t i = from; i + 1 < open; i++) {
        depth += (s[i] == '<' || s[i] == '(' || s[i] == '{') - (s[i] == '>' || s[i] == ')' || s[i] == '}');
        if (!depth && s[i] == ':' && s[i + 1] == ':')
            own = i + 2;
    }
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = from; i < open; i++) {
        size_t k;
        if (s[i] == '<') {
            if (!(k = closing(s, i)))
                return NULL;
            if (keep == KEEP_ALL_TEMPLATES || (keep == KEEP_SCOPE_TEMPLATES && i < own))
                put(buf, size, &n, s + i, k + 1 - i);
            else
                put(buf, size, &n, "<...>", 5);
            i = k;
        } else if (s[i] == '(' && (k = name_parens(s, i)) != 0) {
            put(buf, size, &n, s + i, k);
            i += k - 1;
        } else if (s[i] == '(') {
            size_t c = closing(s, i);
            if (!c)
                return NULL;
            put(buf, size, &n, c == i + 1 ? "()" : "(...)", c == i + 1 ? 2 : 5);
            const char *q = past_qualifiers(s + c + 1);
            i = strncmp(q, "::", 2) == 0 ? (size_t)(q - s) - 1 : c; /* its " const" goes */
        } else {
            put(buf, size, &n, s + i, 1);
        }
    }
    put(buf, size, &n, close == open + 1 ? "()" : "(...)", close == open + 1 ? 2 : 5);
    const char *address = strstr(s + close + 1, " [0x"); /* a twin's " [0x40]" */
    if (address && !strchr(address + 1, ' ') && address[strlen(address) - 1] == ']')
        put(buf, size, &n, address, strlen(address));
    return buf;
}

/* Appends the len bytes at p to out (RP_LOCATION_MAX bytes, *n of them
 * used), a C++ signature made its name where signature says p may be one. */
static void append_part(char *out, size_t *n, const char *p, size_t len, int signature,
                        enum keep_templates keep)
{
    char part[RP_LOCATION_MAX], name[256];
    snprintf(part, sizeof part, "%.*s", (int)len, p);
    const char *use = signature && short_signature(part, keep, name, sizeof name) ? name : part;
    size_t k = strlen(use), room = RP_LOCATION_MAX - 1 - *n;
    memcpy(out + *n, use, k < room ? k : room);
    *n += k < room ? k : room;
    out[*n] = '\0';
}

/* s with its signatures made their names (short_signature) in out
 * (RP_LOCATION_MAX bytes): "SIG", "in parallel @ SIG", "SIG, in parallel @
 * SIG or FILE:LINES". Returns the length of the row's own function in out
 * (the first SIG of the last form), or 0 where there is none. */
static size_t shorten_signatures(const char *s, enum keep_templates keep, char *out)
{
    const char *at = strstr(s, " @ "), *in = strstr(s, ", in ");
    const char *place = at ? at + 3 : s; /* what the " @ " names, or the whole */
    size_t n = 0, own = 0;
    out[0] = '\0';
    if (at && in && in < at) {
        append_part(out, &n, s, (size_t)(in - s), 1, keep);
        own = n;
        append_part(out, &n, in, (size_t)(place - in), 0, keep);
    } else {
        append_part(out, &n, s, (size_t)(place - s), 0, keep);
    }
    append_part(out, &n, place, strlen(place), 1, keep);
    return own;
}

/* Whether a place names a file and lines ("a.c:12-14", "...ts/a.c:3-4"),
 * not a function ("f()", "f() [0x40]"). */
static int file_place(const char *place)
{
    const char *colon = strrchr(place, ':');
    return colon && colon[1] >= '0' && colon[1] <= '9' && !strchr(colon, '(') && !strchr(colon, ']');
}

/* The offset a twin's function label of len bytes ends with ("f() [0x40]":
 * "[0x40]", *address_len bytes; function_label in report_data.c), or NULL. */
static const char *twin_address(const char *label, size_t len, size_t *address_len)
{
    if (len < 6 || label[len - 1] != ']')
        return NULL;
    for (size_t i = len - 1; i-- > 1;) {
        if (label[i] == ' ')
            return NULL;
        if (label[i] == '[' && label[i - 1] == ' ' && strncmp(label + i, "[0x", 3) == 0) {
            *address_len = len - i;
            return label + i;
        }
    }
    return NULL;
}

/* s with its signatures shortened (keep) in whole (RP_LOCATION_MAX bytes),
 * and where that is still wider than width, the row's own function alone
 * (own_alone) or its place alone (clip_location). Returns the length of a
 * twin's address put in front, to be kept where the rest is cut (0: none). */
static size_t shorten_location(const char *s, enum keep_templates keep, int width, int own_alone,
                               char *whole)
{
    size_t own = shorten_signatures(s, keep, whole);
    size_t address_keep = 0;
    if (own && strlen(whole) > (size_t)width) {
        size_t address_len;
        const char *address = twin_address(whole, own, &address_len);
        /* needed where the place is a function too: a place at file:lines
         * tells the twins apart (two singles' barriers of one function), and
         * a wait placed in its twin construct names its offset already */
        char seen[64];
        const char *at = strstr(whole + own, " @ ");
        if (address && (!at || file_place(at + 3) || address_len >= sizeof seen ||
                        strstr(whole + own, (snprintf(seen, sizeof seen, "%.*s", (int)address_len,
                                                      address), seen))))
            address = NULL;
        if (own_alone) {
            whole[own] = '\0';
        } else if (address) { /* "[0x40], in X @ place": twins' rows read alike without it */
            memmove(whole, address, address_len);
            memmove(whole + address_len, whole + own, strlen(whole + own) + 1);
            address_keep = address_len + 2;
        } else { /* ", in X @ place" without its ", " */
            memmove(whole, whole + own + 2, strlen(whole + own + 2) + 1);
        }
    }
    return address_keep;
}

/* A location shortened to width characters ("one/...ts/kern.c:4-5"): its
 * "in parallel @ " where there is one, a relative path's first directory
 * where that is short (an absolute one's, /home/, tells nothing), and its
 * end, file and lines. Two files of one name in two directories read alike
 * when cut from the left (a probe). Its C++ signatures are first made their
 * names; where that is still too long, a row's own function goes alone where
 * its place around it is the row above (own_alone: the call-path table),
 * else its place goes without the function ("in single @ a.c:23-30"): in the
 * flat and wait tables the row above is another region, and a barrier placed
 * in a single read "stats_collect()", not which of the function's constructs
 * it ended (a probe, 2026-12-03). */
static const char *clip_location(const char *s, int width, int own_alone, char *buf,
                                 size_t size)
{
    if ((int)strlen(s) <= width || width < 8)
        return s;
    char whole[RP_LOCATION_MAX];
    size_t address_keep = 0; /* a twin's address, kept where the rest is cut */
    /* as many template arguments as fit, the scopes' before the function's
     * own: which class's member a row is */
    for (int keep = KEEP_ALL_TEMPLATES; keep >= KEEP_NO_TEMPLATES; keep--) {
        address_keep = shorten_location(s, (enum keep_templates)keep, width, own_alone, whole);
        if ((int)strlen(whole) <= width)
            break;
    }
    if (strcmp(whole, s) != 0) {
        s = whole;
        if ((int)strlen(s) <= width) {
            snprintf(buf, size, "%s", s);
            return buf;
        }
    }
    /* a task root's "a.c:10-11, run in parallel @ a.c:24-26": the construct's
     * place first, whole, and the end of its team's (cut from the left, it
     * lost the file that says which construct: "...s.c:10-11, run in ...") */
    const char *run = strstr(s, ", run in ");
    const char *at = run ? NULL : strstr(s, " @ ");
    size_t keep = at && at + 3 - s <= width / 2 ? (size_t)(at + 3 - s) : 0;
    if (run && run + 2 - s <= width / 2)
        keep = (size_t)(run + 2 - s);
    const char *path = s + keep, *slash = *path == '/' ? NULL : strchr(path, '/');
    if (slash && (int)(slash + 1 - s) <= width / 2)
        keep = (size_t)(slash + 1 - s);
    if (keep < address_keep && (int)address_keep <= width / 2)
        keep = address_keep;
    return clip_middle(s, keep, width, buf, size);
}

const char *report_clip_location(const char *s, int width, char *buf, size_t size)
{
    return clip_location(s, width, 1, buf, size);
}

/* A row's name and location; own_alone: the row's place is the row above
 * (the call-path table), so that a too long location may keep its own
 * function alone (clip_location). */
static void row_start_in(const struct widths *w, const char *name, const char *loc,
                         int own_alone)
{
    char a[256], b[256];
    printf("%-*s %-*s ", w->name, clip_name(name, w->name, a, sizeof a), w->loc,
           clip_location(loc, w->loc, own_alone, b, sizeof b));
}

static void row_start(const struct widths *w, const char *name, const char *loc)
{
    row_start_in(w, name, loc, 0);
}

static void stats_columns(const struct rp_stats *s)
{
    printf("%8.0f %7zu  %10.3f %10.3f %10.3f ", s->visits, s->threads, s->min / 1e6, s->mean / 1e6,
           s->max / 1e6);
    if (s->load_balance >= 0)
        printf("%6.1f", s->load_balance);
    else
        printf("%6s", "-");
    printf("  %10.3f\n", s->self_sum / 1e6);
}

static void header_lines(const struct widths *w, const char *first)
{
    printf("%-*s %-*s %8s %7s  %32s %6s  %10s\n", w->name, first, w->loc, "location", "visits",
           "threads", "inclusive time per thread (ms)", "LB", "self (ms)");
    printf("%-*s %-*s %8s %7s  %10s %10s %10s %6s  %10s\n", w->name, "", w->loc, "", "", "", "min",
           "mean", "max", "%", "sum");
}

/* A user values' mean in plain digits, as min and max are printed: %g gave 6
 * significant digits and an exponent, so that values 1234567 and 1234568 read
 * "mean 1.23457e+06" beside "min 1234567". Three decimals at most, trailing
 * zeros dropped (15, 1234567.5, 0.333); a mean below 0.001 keeps 3 significant
 * digits. */
static void format_mean(double v, char *out, size_t size)
{
    if (v != 0 && fabs(v) < 1e-3) {
        snprintf(out, size, "%.3g", v);
        return;
    }
    snprintf(out, size, "%.3f", v);
    char *dot = strchr(out, '.');
    if (!dot)
        return;
    char *end = out + strlen(out);
    while (end > dot + 1 && end[-1] == '0')
        *--end = '\0';
    if (end == dot + 1)
        *dot = '\0';
    if (strcmp(out, "-0") == 0)
        strcpy(out, "0");
}

/* User values of a node (profile minor version 1), summed over its threads:
 * one line per value, "begin n: count 8  mean 12.5  min 10  max 15". */
static void print_values(json_t *per, const struct rp_region *region, int depth)
{
    static const char *const kinds[] = {"begin", "end", "event"};
    for (size_t k = 0; region && k < sizeof kinds / sizeof *kinds; k++) {
        json_t *names = json_object_get(json_object_get(region->json, "values"), kinds[k]);
        for (size_t pos = 0;; pos++) {
            double count = 0, sum = 0, mn = 0, mx = 0;
            int seen = 0, saturated = 0;
            size_t i;
            json_t *t;
            json_array_foreach(per, i, t) {
                json_t *s = json_array_get(json_object_get(json_object_get(t, "values"), kinds[k]), pos);
                double c = json_number_value(json_object_get(s, "count"));
                if (!s || c <= 0)
                    continue;
                double lo = json_number_value(json_object_get(s, "min"));
                double hi = json_number_value(json_object_get(s, "max"));
                mn = !seen || lo < mn ? lo : mn;
                mx = !seen || hi > mx ? hi : mx;
                count += c;
                sum += json_number_value(json_object_get(s, "sum"));
                saturated |= json_is_true(json_object_get(s, "sum_saturated"));
                seen = 1;
            }
            if (!seen && pos >= json_array_size(names))
                break;
            if (!seen)
                continue;
            const char *name = json_string_value(json_array_get(names, pos));
            char label[96];
            if (name)
                snprintf(label, sizeof label, "%s %s", kinds[k], name);
            else
                snprintf(label, sizeof label, "%s value %zu", kinds[k], pos + 1);
            char mean[64];
            format_mean(sum / count, mean, sizeof mean);
            printf("%*s%-30s count %-10.0f mean %-14s min %-14.0f max %.0f%s\n",
                   indent_of(depth, 2), "", label, count, mean, mn, mx,
                   saturated ? "  (sum saturated)" : "");
        }
    }
}

/* A thread's name in --threads lines: pomp's thread index (profile.json
 * threads[].index, the order threads first recorded), and the OpenMP thread
 * number of its first event where that differs: thread 3 of a team may be
 * pomp's thread 2, and its figures were read as omp_get_thread_num() 2's. */
static void thread_name(const struct rp_profile *p, json_int_t index, char *buf, size_t size)
{
    json_t *threads = json_object_get(p->root, "threads");
    /* (pomp writes thread i at position i: looked there first; a scan for
     * each line made --threads quadratic in the threads) */
    json_t *t = index >= 0 ? json_array_get(threads, (size_t)index) : NULL;
    if (!t || json_integer_value(json_object_get(t, "index")) != index) {
        size_t k;
        json_t *u;
        t = NULL;
        json_array_foreach(threads, k, u)
            if (json_integer_value(json_object_get(u, "index")) == index) {
                t = u;
                break;
            }
    }
    json_t *omp = t ? json_object_get(t, "omp_thread_num") : NULL;
    if (json_is_integer(omp) && json_integer_value(omp) >= 0 && json_integer_value(omp) != index)
        snprintf(buf, size, "thread %lld (OpenMP %lld)", (long long)index,
                 (long long)json_integer_value(omp));
    else
        snprintf(buf, size, "thread %lld", (long long)index);
}

static void callpath_table(const struct rp_profile *p, const struct widths *w, int per_thread)
{
    printf("Call paths\n");
    header_lines(w, "region");
    for (size_t i = 0; i < p->nnodes; i++) {
        const struct rp_node *n = &p->nodes[i];
        char label[200], indented[240], loc[RP_LOCATION_MAX];
        rp_node_label(n, label, sizeof label);
        snprintf(indented, sizeof indented, "%*s%s", indent_of(n->depth, 0), "", label);
        rp_node_location(p, i, loc, sizeof loc);
        row_start_in(w, indented, loc, 1);
        stats_columns(&n->s);
        print_values(n->per_thread, n->region, n->depth);
        if (!per_thread)
            continue;
        size_t k;
        json_t *t;
        json_array_foreach(n->per_thread, k, t) {
            char who[240], name[64];
            thread_name(p, json_integer_value(json_object_get(t, "thread")), name, sizeof name);
            /* the name whole, its indent what room is left: cut by its middle
             * deep in the tree, "thr...1 (OpenMP 3)", the digits that say which
             * thread could go (a probe) */
            int indent = indent_of(n->depth, 2), room = w->name - (int)strlen(name);
            if (indent > room)
                indent = room > 0 ? room : 0;
            snprintf(who, sizeof who, "%*s%s", indent, "", name);
            row_start(w, who, "");
            /* the row's rule, per thread: a masked block or a task's
             * execution is begun, not entered */
            printf("%8.0f %7s  %10.3f %10s %10s %6s  %10.3f\n",
                   rp_executions(json_number_value(json_object_get(t, "visits")),
                                 json_number_value(json_object_get(t, "begins"))),
                   "",
                   json_number_value(json_object_get(t, "incl_ns")) / 1e6, "", "", "",
                   json_number_value(json_object_get(t, "excl_ns")) / 1e6);
        }
    }
}

static void flat_table(const struct rp_profile *p, const struct widths *w)
{
    printf("\nRegions by self time (all call paths of a region together)\n");
    header_lines(w, "region");
    for (size_t i = 0; i < p->nflat; i++) {
        char label[200], loc[RP_LOCATION_MAX];
        rp_flat_label(p, &p->flat[i], label, sizeof label);
        rp_flat_location(&p->flat[i], loc, sizeof loc);
        row_start(w, label, loc);
        stats_columns(&p->flat[i].s);
    }
}

static void wait_table(const struct rp_profile *p, const struct widths *w)
{
    printf("\nWaits per parallel region and task (ms summed over threads; %s)\n",
           p->wait_source[0] == 'p' ? "from the runtime"
                                    : "from barrier, critical, ordered, lock and taskwait regions");
    if (!p->nwaits) {
        printf("  no waits recorded\n");
        return;
    }
    printf("%-*s %-*s", w->name, "region", w->loc, "location");
    for (int k = 0; k < WAIT_COUNT; k++)
        printf(" %9s", wait_names[k]);
    printf(" %9s %7s\n", "total", "% time");
    for (size_t i = 0; i < p->nwaits; i++) {
        const struct rp_wait_row *r = &p->waits[i];
        char label[200], loc[RP_LOCATION_MAX];
        rp_wait_label(r, label, sizeof label);
        if (r->node)
            rp_node_location(p, (size_t)(r->node - p->nodes), loc, sizeof loc);
        else
            snprintf(loc, sizeof loc, "-");
        row_start(w, label, loc);
        for (int k = 0; k < WAIT_COUNT; k++)
            printf("%9.3f ", r->waits[k] / 1e6);
        printf("%9.3f", r->total / 1e6);
        if (r->thread_time > 0)
            printf(" %6.1f%%\n", 100.0 * r->total / r->thread_time);
        else
            printf(" %7s\n", "-");
    }
}

static struct widths column_widths(const struct rp_profile *p, int per_thread)
{
    struct widths w = {MIN_NAME, MIN_LOC};
    char label[200], loc[RP_LOCATION_MAX];
    size_t longest_thread = 0; /* --threads: the longest thread name, below the deepest row */
    int deepest = 0;
    json_t *t;
    size_t k;
    json_array_foreach(per_thread ? json_object_get(p->root, "threads") : NULL, k, t) {
        thread_name(p, json_integer_value(json_object_get(t, "index")), label, sizeof label);
        if (strlen(label) > longest_thread)
            longest_thread = strlen(label);
    }
    for (size_t i = 0; i < p->nnodes; i++) {
        rp_node_label(&p->nodes[i], label, sizeof label);
        rp_node_location(p, i, loc, sizeof loc);
        fit(&w.name, strlen(label) + 2 * (size_t)p->nodes[i].depth, MAX_NAME);
        fit(&w.loc, strlen(loc), MAX_LOC);
        if (p->nodes[i].depth > deepest)
            deepest = p->nodes[i].depth;
    }
    if (longest_thread)
        fit(&w.name, longest_thread + (size_t)indent_of(deepest, 2), MAX_NAME);
    for (size_t i = 0; i < p->nwaits; i++) { /* the waits table's: "task (executions)" */
        rp_wait_label(&p->waits[i], label, sizeof label);
        fit(&w.name, strlen(label), MAX_NAME);
    }
    fit(&w.name, strlen("(outside parallel regions)"), MAX_NAME);
    return w;
}

static void pop_row(const struct widths *w, const char *label, const char *loc, const struct rp_pop *m)
{
    row_start(w, label, loc);
    printf("%7zu %10.3f %9.1f %8.1f %8.1f %9.1f\n", m->threads, m->elapsed_ns / 1e6,
           100 * m->parallel_eff, 100 * m->load_balance, 100 * m->sync_eff, 100 * m->fork_join_eff);
}

/* One line of report_losses: its level and its text, formatted. */
static void say(report_line_fn emit, void *ctx, const char *level, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void say(report_line_fn emit, void *ctx, const char *level, const char *fmt, ...)
{
    char text[RP_LOCATION_MAX + 1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    emit(ctx, level, text);
}

/* A duration, ns, in the unit that suits it. */
static const char *duration(char *buf, size_t size, double ns)
{
    if (ns >= 1e9)
        snprintf(buf, size, "%.2f s", ns / 1e9);
    else if (ns >= 1e6)
        snprintf(buf, size, "%.1f ms", ns / 1e6);
    else if (ns >= 1e3)
        snprintf(buf, size, "%.1f us", ns / 1e3);
    else
        snprintf(buf, size, "%.0f ns", ns);
    return buf;
}

/* Adds node n's timed executions (those not counted untimed) and their
 * inclusive time to *runs and *ns: what a timed execution took. */
static void add_timed(const struct rp_node *n, double *ns, double *runs)
{
    size_t k;
    json_t *t;
    json_array_foreach(n->per_thread, k, t) {
        double all = json_number_value(json_object_get(t, "visits"));
        if (all <= 0) /* a region with begin events only ran as often as it began */
            all = json_number_value(json_object_get(t, "begins"));
        *runs += all - json_number_value(json_object_get(t, "untimed"));
        *ns += json_number_value(json_object_get(t, "incl_ns"));
    }
}

/* Each throttled region: how many executions went untimed and how much own
 * time the regions they ran in hold, which holds theirs (rp_node_untimed_in):
 * the note said only "their time since is their enclosing region's own", so
 * a region whose executions grew long after the throttle (a phase change: a
 * critical tiny 50,000 times, then holding 2 ms 200 times) lost 843 ms of
 * time and waits to its loop's own work, unsized (a probe). */
static void report_throttled_time(const struct rp_profile *p, report_line_fn emit, void *ctx)
{
    for (size_t j = 0; j < p->nregions; j++) {
        const struct rp_region *r = &p->regions[j];
        json_t *th = json_object_get(r->json, "throttled");
        if (!th)
            continue;
        double untimed = 0, own = 0, best_own = -1, best_untimed = 0, long_own = 0, long_untimed = 0;
        double outside = 0, outside_untimed = 0, timed_ns = 0, timed_runs = 0;
        size_t best = NO_PARENT, longest = NO_PARENT, seen[16], nseen = 0;
        double seen_own[16];
        for (size_t i = 0; i < p->nnodes; i++) {
            size_t anchor, holder, k;
            double o, u;
            if (p->nodes[i].region != r)
                continue;
            add_timed(&p->nodes[i], &timed_ns, &timed_runs);
            /* at the top of its threads: their time outside every region holds theirs */
            if ((u = rp_node_untimed_outside(p, i, &o)) > 0) {
                untimed += u, outside_untimed += u, outside += o;
                continue;
            }
            if (!rp_node_untimed_in(p, i, &anchor, &holder, &o, &u))
                continue;
            untimed += u;
            for (k = 0; k < nseen && seen[k] != anchor; k++)
                ;
            /* an enclosing path's own time once, the largest of its anchor's
             * (a path below a task root holds the root's and its creators',
             * one directly in a creator that creator's alone: the first one
             * seen set the total, 4.9 ms where the task roots held 317; a
             * probe) */
            if (k == nseen) {
                own += o;
                if (nseen < sizeof seen / sizeof *seen)
                    seen[nseen] = anchor, seen_own[nseen++] = o;
            } else if (o > seen_own[k]) {
                own += o - seen_own[k];
                seen_own[k] = o;
            }
            if (o > best_own)
                best = holder, best_own = o, best_untimed = u;
            /* and the longest a visit: a phase of long executions beside a
             * larger path of tiny ones (pomprun's, whose callbacks' cost is
             * the enclosing loop's own time) */
            if (u > 0 && (longest == NO_PARENT || o / u > long_own / long_untimed))
                longest = holder, long_own = o, long_untimed = u;
        }
        /* said where the time per untimed execution of a path they ran in
         * passes what a throttled execution takes (under 10 us: POMP_THROTTLE's
         * default): there they may have grown long since; under it, what was
         * throttled stayed as short as the rule saw it (a hot critical inside
         * a loop of real work: a note per such region only said the loop's
         * work again) */
        /* (or twenty times what a timed execution took, past 1 us: the
         * phase change that environment.md tells, a critical tiny 60,000
         * times, then holding 5 ms 40 times, is 4 us of the loop's own time
         * an untimed execution, and said nothing; a probe) */
        double timed_mean = timed_runs > 0 ? timed_ns / timed_runs : 0;
        double per_untimed = long_untimed > 0 ? long_own / long_untimed : 0;
        if (outside_untimed > 0 && outside / outside_untimed > per_untimed)
            per_untimed = outside / outside_untimed;
        if (untimed <= 0 || per_untimed <= 0 ||
            (per_untimed <= 10e3 && (per_untimed <= 1e3 || per_untimed <= 20 * timed_mean)))
            continue;
        char loc[RP_LOCATION_MAX], in[200], inloc[RP_LOCATION_MAX], each[32], most[2 * RP_LOCATION_MAX + 800] = "",
                                                                           beach[32];
        rp_region_location(r, loc, sizeof loc);
        if (best != NO_PARENT && best_own > 0) {
            rp_node_label(&p->nodes[best], in, sizeof in);
            rp_region_location(p->nodes[best].region, inloc, sizeof inloc);
            snprintf(most, sizeof most, "; most in %s @ %s: %.1f ms for %.0f of them (up to %s each)",
                     in, inloc, best_own / 1e6, best_untimed,
                     duration(beach, sizeof beach, best_own / best_untimed));
        }
        if (longest != NO_PARENT && longest != best && long_own > 0) {
            size_t len = strlen(most);
            rp_node_label(&p->nodes[longest], in, sizeof in);
            rp_region_location(p->nodes[longest].region, inloc, sizeof inloc);
            snprintf(most + len, sizeof most - len, "; the most an execution in %s @ %s: %.1f ms for %.0f (up to %s each)",
                     in, inloc, long_own / 1e6, long_untimed,
                     duration(beach, sizeof beach, long_own / long_untimed));
        }
        if (outside_untimed > 0) { /* (a path that did not fit the room left says no more) */
            size_t len = strlen(most);
            snprintf(most + len, sizeof most - len,
                     "; %.0f of them outside every region: %.1f ms of their threads' time outside "
                     "regions holds theirs",
                     outside_untimed, outside / 1e6);
        }
        say(emit, ctx, "note",
            "%s%s%s @ %s, throttled at %.3f s: %.0f executions since counted untimed; their time, "
            "waits included, is in the own time of the regions they ran in: %.1f ms on those "
            "threads, with those regions' own work (up to %s an execution)%s; POMP_THROTTLE=off "
            "times them",
            r->type, *r->name ? " " : "", r->name, loc,
            json_number_value(json_object_get(th, "since_ns")) / 1e9, untimed, (own + outside) / 1e6,
            duration(each, sizeof each, (own + outside) / untimed), most);
    }
}

/* What the run lost or left untimed, from profile.json's threads: said here as
 * the summary said it at the end of the run (nothing is lost silently). */
void report_losses(const struct rp_profile *p, report_line_fn emit, void *ctx)
{
    static const struct {
        const char *key, *level, *what;
    } kinds[] = {
        {"nesting_errors", "warning", "unmatched end/exit events"},
        {"open_at_end", "warning",
         "regions still open when measurement ended (exit() or a signal inside them, or a longjmp out of "
         "them), timed to the end"},
        {"dropped_paths", "warning",
         "entries into call paths that did not fit the profile (POMP_PROFILE_NODES; a path counts at "
         "each entry), in <overflow>"},
        {"deep_events", "warning",
         "events nested deeper than the profile records (POMP_PROFILE_DEPTH), not recorded"},
        {"dropped_values", "warning", "value lists that did not fit the value pool"},
        {"interrupted_events", "warning",
         "events of signal handlers that came while their thread was inside another event, not "
         "recorded"},
        {"dropped_events", "warning", "trace events lost"},
        {"untimed_events", "note", "events of throttled regions, counted but not timed (POMP_THROTTLE)"},
    };
    size_t u;
    json_t *what;
    json_array_foreach(json_object_get(p->root, "unmeasured"), u, what)
        say(emit, ctx, "warning", "not measured: %s",
            json_string_value(what) ? json_string_value(what) : "?");
    json_array_foreach(json_object_get(p->root, "kept_together"), u, what)
        say(emit, ctx, "note", "not kept apart: %s",
            json_string_value(what) ? json_string_value(what) : "?");
    json_t *threads = json_object_get(p->root, "threads");
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        double sum = 0;
        size_t i;
        json_t *t;
        json_array_foreach(threads, i, t)
            sum += json_number_value(json_object_get(t, kinds[k].key));
        if (sum > 0)
            say(emit, ctx, kinds[k].level, "%.0f %s", sum, kinds[k].what);
    }
    report_throttled_time(p, emit, ctx);
    for (size_t k = 0; k < p->nunrun; k++) {
        const struct rp_unrun *u = &p->unrun[k];
        char loc[RP_LOCATION_MAX];
        rp_region_location(u->region, loc, sizeof loc);
        const char *why =
            u->cancelled && p->open_at_end
                ? "discarded by cancellation: a cancel construct ran; or still queued when "
                  "measurement ended, as the warning above says"
            : u->cancelled     ? "discarded by cancellation: a cancel construct ran"
            : p->runs_too_deep ? "run nested deeper than the profile records, as the warning above "
                                 "says (POMP_PROFILE_DEPTH), or still queued when measurement "
                                 "ended, or run while it was off"
            : p->runs_overflowed ? "run on a call path that did not fit the profile, counted in "
                                   "<overflow> as the warning above says (POMP_PROFILE_NODES), or "
                                   "still queued when measurement ended, or run while it was off"
                               : "still queued when measurement ended, or run while it was off";
        if (p->runs_unmeasured) /* the warning above: runs that ran unseen */
            say(emit, ctx, "note",
                "task @ %s: %.0f created, %.0f ran measured; %.0f not seen to run (run "
                "unmeasured, as the warning above says, or %s)",
                loc, u->created, u->ran, u->created - u->ran, why);
        else if (p->runs_too_deep) /* both counts stop at the depth recorded (a task chain) */
            say(emit, ctx, "note",
                "task @ %s: %.0f created, %.0f ran within the depth recorded (the deeper "
                "ones are not counted); %.0f not seen to run (%s)",
                loc, u->created, u->ran, u->created - u->ran, why);
        else if (p->runs_overflowed) /* both counts leave out those in <overflow> */
            say(emit, ctx, "note",
                "task @ %s: %.0f created, %.0f ran outside <overflow>; %.0f not seen to "
                "run (%s)",
                loc, u->created, u->ran, u->created - u->ran, why);
        else
            say(emit, ctx, "note", "task @ %s: %.0f created, %.0f ran; %.0f never ran (%s)", loc,
                u->created, u->ran, u->created - u->ran, why);
    }
}

/* report_losses's lines in the text: "warning: ..." */
static void print_line(void *ctx, const char *level, const char *text)
{
    (void)ctx;
    printf("%s: %s\n", level, text);
}

/* What measures the waits a setting left unrecorded: the runtime's reports
 * back on (OMP_TOOL=disabled keeps LLVM libomp from starting any tool). */
static const char *runtime_events_remedy(const char *off_by)
{
    return strncmp(off_by, "OMP_TOOL=", 9) == 0 ? "OMP_TOOL unset (or enabled)"
           : strncmp(off_by, "another OMPT tool", 17) == 0
               ? "the program without its own tool"
           : strncmp(off_by, "LLVM libomp started before libpomp", 34) == 0
               ? "the program run by pomprun (or with LD_PRELOAD=<prefix>/lib/libpomp.so)"
           : strncmp(off_by, "GCC's libgomp", 13) == 0 || strncmp(off_by, "the libgomp bridge", 18) == 0
               ? "the program linked by pompcc, or run by pomprun"
               : "POMP_OMPT=on";
}

/* The POP metrics of the run and of the parallel regions with the most elapsed time. */
static void efficiency_table(const struct rp_profile *p, const struct widths *w)
{
    enum { TOP = 10 };
    printf("Efficiency (POP metrics, %%; parallel = load balance x synchronisation x fork/join)\n");
    printf("%-*s %-*s %7s %10s %9s %8s %8s %9s\n", w->name, "", w->loc, "location", "threads",
           "time (ms)", "parallel", "load bal", "synchro", "fork/join");
    if (p->pop_not_rated[0]) { /* a level that records no wait, no task's execution */
        row_start(w, "(the run)", "-");
        printf("%7zu %10.3f  not rated: %s\n\n", p->pop_run.threads, p->pop_run.elapsed_ns / 1e6,
               p->pop_not_rated);
        return;
    }
    if (p->pop_run_not_rated[0]) { /* its parallel regions rated all the same */
        row_start(w, "(the run)", "-");
        printf("%7zu %10.3f  not rated: %s\n", p->pop_run.threads, p->pop_run.elapsed_ns / 1e6,
               p->pop_run_not_rated);
    } else {
        pop_row(w,
                p->pop_run.untimed_waits + p->pop_run.blockless_waits > 0 ||
                        rp_lock_waits_unrecorded(p) || rp_barrier_waits_unrecorded(p)
                    ? "(the run) !"
                    : "(the run)",
                "-", &p->pop_run);
    }
    int shared = 0;
    for (size_t i = 0; i < p->npop && i < TOP; i++) {
        char label[200], loc[RP_LOCATION_MAX], marked[208];
        rp_region_label(p->pop_regions[i].node->region, label, sizeof label);
        rp_region_location(p->pop_regions[i].node->region, loc, sizeof loc);
        snprintf(marked, sizeof marked, "%s%s%s", label,
                 p->pop_regions[i].shared_task_waits ? " ~" : "",
                 p->pop_regions[i].untimed_waits + p->pop_regions[i].blockless_waits > 0 ||
                         rp_barrier_waits_unrecorded(p)
                     ? " !"
                     : "");
        shared |= p->pop_regions[i].shared_task_waits;
        pop_row(w, marked, loc, &p->pop_regions[i]);
    }
    if (shared)
        printf("  ~ its tasks' waits estimated: a task construct that ran in several parallel regions "
               "has its waits shared among them by task time (docs/output.md)\n");
    if (p->pop_run.untimed_waits > 0)
        printf("  ! waits not measured: %.0f executions of throttled regions that wait (a critical's "
               "or ordered's wait to enter, a lock's set call, an atomic under a lock, marked [throttled] below) were counted "
               "without time, so their waits read as useful time: load balance, synchronisation and "
               "parallel efficiency are overstated; the own time of the regions they ran in, "
               "%.1f ms, holds their time and waits with those regions' own work; "
               "POMP_THROTTLE=off measures them\n",
               p->pop_run.untimed_waits, p->pop_run.untimed_wait_own_ns / 1e6);
    if (p->pop_run.blockless_waits > 0)
        printf("  ! waits not measured: %.0f executions of critical or ordered regions whose blocks "
               "were not recorded (POMP_SYNC=EnterExit, or #pragma pomp inst sync EnterExit at their "
               "site, records their enter and exit only) have no "
               "known wait to enter: their time reads as useful time, so load balance, "
               "synchronisation and parallel efficiency are overstated; POMP_SYNC=BeginEnd "
               "measures them\n",
               p->pop_run.blockless_waits);
    if (rp_lock_waits_unrecorded(p))
        printf("  ! waits not measured: POMP_RUNTIME=%s records no lock call's time, so lock waits "
               "(if the program has any) read as useful time; POMP_RUNTIME=EnterExit measures "
               "them\n",
               rp_lock_waits_unrecorded(p));
    if (rp_barrier_waits_unrecorded(p) && rp_worksharing_barriers_unrecorded(p))
        printf("  ! waits not measured: %s turns the runtime's reports off, so no implicit "
               "barrier is recorded: a parallel region's end reads as fork/join time, and the "
               "end of %zu worksharing construct%s without nowait as work inside the shares, so "
               "load balance, synchronisation and parallel efficiency are overstated and "
               "fork/join understated; %s measures them\n",
               rp_barrier_waits_unrecorded(p), rp_worksharing_barriers_unrecorded(p),
               rp_worksharing_barriers_unrecorded(p) == 1 ? "" : "s",
               runtime_events_remedy(rp_barrier_waits_unrecorded(p)));
    else if (rp_barrier_waits_unrecorded(p))
        printf("  ! waits not measured: %s turns the runtime's reports off, so no implicit "
               "barrier (the end of a parallel region, of a worksharing construct without "
               "nowait) is recorded: their waits are missing from the waits below and read "
               "as fork/join time, so synchronisation is overstated and fork/join understated "
               "(parallel efficiency and load balance are measured: each thread's share is "
               "instrumented, and no worksharing construct ends in a barrier of its own); "
               "%s measures them\n",
               rp_barrier_waits_unrecorded(p),
               runtime_events_remedy(rp_barrier_waits_unrecorded(p)));
    if (rp_cpu_wait_share(p) >= RP_CPU_WAIT_SAID)
        printf("  threads waited %.1f ms for a CPU, %.0f %% of their %.1f ms in the run (runnable, not "
               "running: more threads than free CPUs, from oversubscription, another process or "
               "threads bound to one CPU): that time reads as work or as waits, so these figures "
               "rate the machine's share as well as the program's (docs/output.md)\n",
               p->cpu_wait_ns / 1e6, 100 * rp_cpu_wait_share(p), p->cpu_wait_life_ns / 1e6);
    if (rp_cpu_wait_share(p) >= RP_CPU_WAIT_SAID && p->cpu_wait_unread > 0)
        printf("    (%.0f OS thread%s that ended within 1 ms of %s first event, %.1f ms in all, %s not "
               "read: the share is the others')\n",
               p->cpu_wait_unread, p->cpu_wait_unread == 1 ? "" : "s",
               p->cpu_wait_unread == 1 ? "its" : "their", p->cpu_wait_unread_ns / 1e6,
               p->cpu_wait_unread == 1 ? "was" : "were");
    if (p->npop > TOP)
        printf("  ... %zu more parallel regions in --json\n", p->npop - TOP);
    if (p->pop_without_shares)
        printf("  %zu parallel region%s without the team's shares or the master's block "
               "(POMP_PARALLEL=EnterExit, or inst parallel EnterExit at compile time, records no "
               "block of the thread that forked): not rated\n",
               p->pop_without_shares, p->pop_without_shares == 1 ? "" : "s");
    putchar('\n');
}

/* Task constructs in the body of an untied task that may move (a scheduling
 * point there): their creations have no events (docs/api.md), and their
 * executions read without a creations row. Said under the call paths. */
static void uncounted_creations(const struct rp_profile *p)
{
    size_t n = 0;
    char first[200] = "";
    for (size_t i = 0; i < p->nregions; i++) {
        const char *ctc = json_string_value(json_object_get(p->regions[i].json, "ctc"));
        if (!ctc || !strstr(ctc, "*creations=uncounted*"))
            continue;
        if (!n++)
            rp_region_location(&p->regions[i], first, sizeof first);
    }
    if (n)
        printf("  note: %zu task construct%s in the body of an untied task that may resume on "
               "another thread (%s%s) %s no creation count: %s enter and exit could straddle two "
               "threads, and %s executions are measured alone (docs/api.md)\n",
               n, n == 1 ? "" : "s", first, n > 1 ? ", ..." : "", n == 1 ? "has" : "have",
               n == 1 ? "its" : "their", n == 1 ? "its" : "their");
}

void report_text(const struct rp_profile *p, int per_thread)
{
    struct widths w = column_widths(p, per_thread);
    size_t streams = 0, os_threads = 0, i; /* device streams are columns, not threads */
    json_t *t;
    json_array_foreach(json_object_get(p->root, "threads"), i, t) {
        streams += json_object_get(t, "device") != NULL;
        json_t *os = json_object_get(t, "os_threads"); /* records handed on (docs/output.md) */
        os_threads += json_object_get(t, "device") ? 0 : json_is_integer(os) ? (size_t)json_integer_value(os) : 1;
    }
    size_t threads = p->nthreads - streams;
    printf("program %s (pid %lld): %.3f s, %zu thread%s", p->program, p->pid, p->duration_ns / 1e9,
           threads, threads == 1 ? "" : "s");
    if (os_threads > p->nthreads - streams)
        printf(" (standing for %zu OS threads)", os_threads);
    printf(", ");
    if (streams)
        printf("%zu device stream%s, ", streams, streams == 1 ? "" : "s");
    size_t regions = rp_regions_counted(p);
    printf("%zu region%s\n", regions, regions == 1 ? "" : "s");
    report_losses(p, print_line, NULL);
    putchar('\n');
    efficiency_table(p, &w);
    callpath_table(p, &w, per_thread);
    uncounted_creations(p);
    flat_table(p, &w);
    wait_table(p, &w);
    report_devices(p);
    report_sampling(p->root, 20);
}
