#include "pomp_json.h"

void pomp_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else if (c == '<') /* keeps "</script>" out of a page that embeds the JSON */
            fputs("\\u003c", f);
        else
            fputc(c, f);
    }
    fputc('"', f);
}
