/* pomp-report DIR: the profile of a run as text tables (docs/output.md). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report_sampling.h"

#define SUPPORTED_VERSION 1

struct options {
    const char *dir;
    int per_thread;
};

static void usage(FILE *f)
{
    fputs("usage: pomp-report [--threads] DIR|DIR/profile.json\n"
          "  --threads   one line per thread under each region\n",
          f);
}

static const char *str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static double num(json_t *o, const char *key) { return json_number_value(json_object_get(o, key)); }

static json_t *region_by_id(json_t *regions, json_int_t id)
{
    size_t i;
    json_t *r;
    json_array_foreach(regions, i, r) if (json_integer_value(json_object_get(r, "id")) == id) return r;
    return NULL;
}

static void region_label(json_t *r, char *buf, size_t size, int indent)
{
    const char *type = r ? str(r, "type") : "<overflow>";
    const char *name = r ? str(r, "name") : "";
    snprintf(buf, size, "%*s%s%s%s", indent * 2, "", type, *name ? " " : "", name);
}

/* User values of a node (profile minor version 1), summed over its threads:
 * one line per value, "begin n: count 8  mean 12.5  min 10  max 15". */
static void print_values(json_t *per, json_t *region, int depth)
{
    static const char *const kinds[] = {"begin", "end", "event"};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        json_t *names = json_object_get(json_object_get(region, "values"), kinds[k]);
        for (size_t pos = 0;; pos++) {
            double count = 0, sum = 0, mn = 0, mx = 0;
            int seen = 0, saturated = 0;
            size_t i;
            json_t *t;
            json_array_foreach(per, i, t) {
                json_t *s = json_array_get(json_object_get(json_object_get(t, "values"), kinds[k]), pos);
                if (!s || num(s, "count") <= 0)
                    continue;
                double c = num(s, "count"), lo = num(s, "min"), hi = num(s, "max");
                mn = !seen || lo < mn ? lo : mn;
                mx = !seen || hi > mx ? hi : mx;
                count += c;
                sum += num(s, "sum");
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
            printf("%*s%-30s count %-10.0f mean %-14.6g min %-14.0f max %.0f%s\n", depth * 2 + 2, "",
                   label, count, sum / count, mn, mx, saturated ? "  (sum saturated)" : "");
        }
    }
}

static void print_node(json_t *node, json_t *regions, int depth, const struct options *o)
{
    json_t *r = region_by_id(regions, json_integer_value(json_object_get(node, "region")));
    json_t *per = json_object_get(node, "per_thread");
    double visits = 0, begins = 0, excl = 0, sum = 0, mn = 0, mx = 0;
    size_t threads = 0, i;
    json_t *t;
    json_array_foreach(per, i, t) {
        double incl = num(t, "incl_ns");
        visits += num(t, "visits");
        begins += num(t, "begins");
        excl += num(t, "excl_ns");
        sum += incl;
        mn = threads == 0 || incl < mn ? incl : mn;
        mx = incl > mx ? incl : mx;
        threads++;
    }
    char label[160], loc[200];
    region_label(r, label, sizeof label, depth);
    long long first = r ? (long long)json_integer_value(json_object_get(r, "first_line")) : 0;
    if (r && first > 0)
        snprintf(loc, sizeof loc, "%s:%lld-%lld", str(r, "file"), first,
                 (long long)json_integer_value(json_object_get(r, "last_line")));
    else if (r && *str(r, "file")) /* a runtime region without debug information */
        snprintf(loc, sizeof loc, "%s", str(r, "file"));
    else /* the overflow node, or a runtime region its parent places (implicit barrier) */
        snprintf(loc, sizeof loc, "-");
    /* load imbalance: how much of the slowest thread's time the average thread
     * did not need, (max - mean) / max */
    double mean = threads ? sum / threads : 0.0;
    /* regions with begin/end events only (functions, user regions, master) are
     * never "entered": their executions are their begins */
    if (visits == 0)
        visits = begins;
    double imbalance = mx > 0 && threads > 1 ? 100.0 * (mx - mean) / mx : 0.0;
    printf("%-28s %-26s %8.0f %7zu  %10.3f %10.3f %10.3f %6.1f  %10.3f\n", label, loc, visits,
           threads, mn / 1e6, mean / 1e6, mx / 1e6, imbalance, excl / 1e6);
    print_values(per, r, depth);
    if (o->per_thread)
        json_array_foreach(per, i, t)
            printf("%*sthread %-4lld %26s %8.0f %7s  %10.3f %10s %10s %6s  %10.3f\n", depth * 2 + 2, "",
                   (long long)json_integer_value(json_object_get(t, "thread")), "",
                   num(t, "visits"), "", num(t, "incl_ns") / 1e6, "", "", "", num(t, "excl_ns") / 1e6);
}

static void print_tree(json_t *callpath, json_t *regions, json_int_t parent, int depth,
                       const struct options *o)
{
    size_t i;
    json_t *n;
    json_array_foreach(callpath, i, n) {
        if (json_integer_value(json_object_get(n, "parent")) != parent)
            continue;
        print_node(n, regions, depth, o);
        print_tree(callpath, regions, json_integer_value(json_object_get(n, "id")), depth + 1, o);
    }
}

static int report(const char *path, const struct options *o)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!root) {
        fprintf(stderr, "pomp-report: %s: line %d, column %d (byte offset %d): %s\n", path,
                err.line, err.column, err.position, err.text);
        return 1;
    }
    int rc = 1;
    if (strcmp(str(root, "format"), "pomp-profile") != 0) {
        fprintf(stderr, "pomp-report: %s: not a pomp profile (\"format\" is not \"pomp-profile\")\n",
                path);
        goto out;
    }
    json_int_t version = json_integer_value(json_object_get(root, "version"));
    if (version < 1 || version > SUPPORTED_VERSION) {
        fprintf(stderr, "pomp-report: %s: profile version %lld is not supported (this is version %d)\n",
                path, (long long)version, SUPPORTED_VERSION);
        goto out;
    }
    json_t *regions = json_object_get(root, "regions");
    json_t *callpath = json_object_get(root, "callpath");
    json_t *threads = json_object_get(root, "threads");
    if (!json_is_array(regions) || !json_is_array(callpath) || !json_is_array(threads)) {
        fprintf(stderr, "pomp-report: %s: \"regions\", \"callpath\" or \"threads\" is missing\n", path);
        goto out;
    }
    printf("program %s (pid %lld): %.3f s, %zu threads, %zu regions\n\n", str(root, "program"),
           (long long)json_integer_value(json_object_get(root, "pid")),
           num(root, "duration_ns") / 1e9, json_array_size(threads), json_array_size(regions));
    printf("%-28s %-26s %8s %7s  %32s %6s  %10s\n", "region", "location", "visits", "threads",
           "inclusive time per thread (ms)", "imbal", "excl (ms)");
    printf("%-28s %-26s %8s %7s  %10s %10s %10s %6s  %10s\n", "", "", "", "", "min", "mean", "max",
           "%", "sum");
    print_tree(callpath, regions, 0, 0, o);
    report_sampling(root, 20);
    rc = 0;
out:
    json_decref(root);
    return rc;
}

int main(int argc, char **argv)
{
    struct options o = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--threads") == 0)
            o.per_thread = 1;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "pomp-report: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (!o.dir)
            o.dir = argv[i];
        else {
            usage(stderr);
            return 2;
        }
    }
    if (!o.dir) {
        usage(stderr);
        return 2;
    }
    struct stat st;
    if (stat(o.dir, &st) != 0) {
        fprintf(stderr, "pomp-report: %s: no such file or directory\n", o.dir);
        return 1;
    }
    char path[4200];
    if (S_ISDIR(st.st_mode))
        snprintf(path, sizeof path, "%s/profile.json", o.dir);
    else
        snprintf(path, sizeof path, "%s", o.dir);
    return report(path, &o);
}
