#include "pomp_json.h"

#include <math.h>

/* The length of the well-formed UTF-8 sequence at s (1-4), or 0. */
static size_t utf8_sequence(const unsigned char *s)
{
    size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
                           : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) || (n == 3 && s[0] == 0xed && s[1] >= 0xa0) ||
        (n == 4 && s[0] == 0xf0 && s[1] < 0x90) || (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))
        return 0; /* overlong, a surrogate, beyond U+10FFFF */
    return n;
}

void pomp_json_string(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s, *run = p; /* run: written as it is */
    fputc('"', f);
    while (p && *p) {
        unsigned char c = *p;
        size_t n = utf8_sequence(p);
        if (n && c >= 0x20 && c != '"' && c != '\\' && c != '<') {
            p += n;
            continue;
        }
        /* one write a run, not a byte: CTC strings of thousands of regions
         * took 42 M instructions at a run's exit, a fwrite a byte (2026-12-04) */
        if (p != run)
            fwrite(run, 1, (size_t)(p - run), f);
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '<') /* keeps "</script>" out of a page that embeds the JSON */
            fputs("\\u003c", f);
        else /* a control character; or not UTF-8 (a Latin-1 file name): JSON must be, read as Latin-1 */
            fprintf(f, "\\u%04x", c);
        p++;
        run = p;
    }
    if (p != run)
        fwrite(run, 1, (size_t)(p - run), f);
    fputc('"', f);
}

void pomp_json_u64(FILE *f, uint64_t v)
{
    char digits[20], *end = digits + sizeof digits, *p = end;
    do
        *--p = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    fwrite_unlocked(p, 1, (size_t)(end - p), f); /* (the writers' files are their own) */
}

void pomp_json_ns(FILE *f, double v)
{
    if (signbit(v) || !(v < 9223372036854775808.0)) { /* (-0 printf's "-0"; NaN fails the test) */
        fprintf(f, "%.0f", v);
        return;
    }
    uint64_t whole = (uint64_t)v;
    double frac = v - (double)whole; /* exact: below 2^53 whole has the bits, above it frac is 0 */
    if (frac > 0.5 || (frac == 0.5 && (whole & 1)))
        whole++;
    pomp_json_u64(f, whole);
}
