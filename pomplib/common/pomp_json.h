/* JSON string literals, for every JSON file pomp writes (profile.json, the
 * trace definitions, trace.json) and for pomp-report's output. */
#ifndef POMP_JSON_H
#define POMP_JSON_H

#include <stdint.h>
#include <stdio.h>

/* s as a JSON string literal, NULL as "". '<' is escaped too, so that no
 * "</script>" ends a page that embeds the JSON (pomp-report --html). */
void pomp_json_string(FILE *f, const char *s);

/* v in decimal, as "%llu" prints it. */
void pomp_json_u64(FILE *f, uint64_t v);

/* v rounded to an integer, as "%.0f" prints it (to nearest, ties to even),
 * without printf's floating-point path, ~600 instructions a number: a
 * profile of 4,553 call paths on 2 threads printed 45,000 of them, most of
 * the 188 M instructions its writing took at the program's exit. A value
 * that is negative, not finite or 2^63 or more goes through printf. */
void pomp_json_ns(FILE *f, double v);

#endif
