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

/* pomp_json_string against the rule written byte by byte, as it was before
 * it wrote runs: '"' and '\\' escaped, '<' and control characters as \u00XX,
 * a well-formed UTF-8 sequence as it is, any other byte read as Latin-1. */
static void reference_string(FILE *f, const unsigned char *s)
{
    fputc('"', f);
    while (*s) {
        unsigned char c = *s;
        size_t n = c < 0x80                 ? 1
                   : c >= 0xc2 && c <= 0xdf ? 2
                   : c >= 0xe0 && c <= 0xef ? 3
                   : c >= 0xf0 && c <= 0xf4 ? 4
                                            : 0;
        for (size_t i = 1; i < n; i++)
            if ((s[i] & 0xc0) != 0x80)
                n = 0;
        if ((n == 3 && c == 0xe0 && s[1] < 0xa0) || (n == 3 && c == 0xed && s[1] >= 0xa0) ||
            (n == 4 && c == 0xf0 && s[1] < 0x90) || (n == 4 && c == 0xf4 && s[1] >= 0x90))
            n = 0;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == '<' || n == 0)
            fprintf(f, "\\u%04x", c);
        else
            fwrite(s, 1, n, f);
        s += n ? n : 1;
    }
    fputc('"', f);
}

static void same_string(const unsigned char *s)
{
    static char got[8192], want[8192];
    memset(got, 0, sizeof got);
    memset(want, 0, sizeof want);
    FILE *g = fmemopen(got, sizeof got, "w"), *w = fmemopen(want, sizeof want, "w");
    cr_assert(g && w);
    pomp_json_string(g, (const char *)s);
    reference_string(w, s);
    fclose(g);
    fclose(w);
    cr_assert_str_eq(got, want, "for %s", (const char *)s);
}

Test(json, string_escapes_as_byte_by_byte)
{
    const char *fixed[] = {"", "a", "type=parallel*file=/home/u/src/a b.c*lines=3", "\"", "\\", "<",
                           "</script>", "x\"y\\z<w", "tab\there\nnl\x01", "caf\xc3\xa9 \xe2\x82\xac",
                           "\xf0\x9f\x98\x80 emoji", "latin1 caf\xe9", "cut \xe2\x82", "\xe2\x82",
                           "\xc3", "\xed\xa0\x80 surrogate", "\xe0\x80\x80 overlong",
                           "\xf4\x90\x80\x80 beyond", "\xff\xfe", "end\\"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        same_string((const unsigned char *)fixed[i]);
    static const unsigned char alphabet[] = "ab/.*= \"\\<\t\x01\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xe9\xff";
    unsigned char s[200];
    srand(11);
    for (int i = 0; i < 20000; i++) { /* random mixtures of plain runs, escapes and broken UTF-8 */
        size_t len = (size_t)(rand() % 199);
        for (size_t k = 0; k < len; k++)
            s[k] = alphabet[rand() % (int)(sizeof alphabet - 1)];
        s[len] = '\0';
        same_string(s);
    }
    char empty[8] = {0};
    FILE *f = fmemopen(empty, sizeof empty, "w");
    cr_assert_not_null(f);
    pomp_json_string(f, NULL); /* a member without a value */
    fclose(f);
    cr_assert_str_eq(empty, "\"\"");
}
