/* The JSON writers' numbers (pomp_json_u64, pomp_json_ns): the text printf
 * gives ("%llu", "%.0f"), digit for digit, for the values profile.json holds
 * (times in ns, converted from ticks: fractions, ties, a wrapped difference
 * near 2^64) and those printf keeps (negative, not finite, 2^63 and more). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_json.h"

/* What fn wrote to a memory stream, in buf. */
static void written_ns(double v, char *buf, size_t size)
{
    FILE *f = fmemopen(buf, size, "w");
    cr_assert_not_null(f);
    pomp_json_ns(f, v);
    fclose(f);
}

static void same_as_printf(double v)
{
    char got[64] = {0}, want[64];
    written_ns(v, got, sizeof got);
    snprintf(want, sizeof want, "%.0f", v);
    cr_assert_str_eq(got, want, "%.17g", v);
}

Test(json, ns_as_printf_rounds)
{
    const double values[] = {0.0,  -0.0, 0.4,  0.5,  1.5,  2.5,  2.4999999999999996,
                             3.5000000000000004, 123456789.5, 123456790.5, 4503599627370495.5,
                             9007199254740993.0, 1e15 + 0.25, 8.800786289090419e18,
                             9223372036854775807.0, 9223372036854775808.0, 1.8446744073709552e19,
                             -0.3, -1.5, -123.0, INFINITY, -INFINITY, NAN, 1e300};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        same_as_printf(values[i]);
    srand(7);
    for (int i = 0; i < 200000; i++) { /* ticks over a clock's rate, as pomp_ticks_to_ns makes them */
        uint64_t ticks = ((uint64_t)rand() << 31 ^ (uint64_t)rand()) >> (rand() % 40);
        same_as_printf((double)ticks / 2.893417);
        same_as_printf((double)ticks / 1.0);
        same_as_printf((double)ticks + 0.5);
    }
}

Test(json, u64_as_printf)
{
    const uint64_t values[] = {0, 1, 9, 10, 99, 100, 4294967295u, 4294967296u, UINT64_MAX,
                               10000000000000000000u};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char got[32] = {0}, want[32];
        FILE *f = fmemopen(got, sizeof got, "w");
        pomp_json_u64(f, values[i]);
        fclose(f);
        snprintf(want, sizeof want, "%llu", (unsigned long long)values[i]);
        cr_assert_str_eq(got, want);
    }
}
