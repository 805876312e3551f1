/* State the directive scanner keeps between tokens (flex "extra" data), shared
 * by the scanner and its caller in directive.c. */
#ifndef POMP_DIRECTIVE_SCANNER_H
#define POMP_DIRECTIVE_SCANNER_H

#include <stddef.h>

#include "directive_parser.h"

#define YYSTYPE DIRECTIVE_YYSTYPE
#define YYLTYPE DIRECTIVE_YYLTYPE

struct lexer_extra {
    int depth;          /* parenthesis depth inside an ARG */
    int arg_start;      /* column of the '(' */
    char *buf;          /* the ARG text collected so far */
    size_t len, cap;
    int column;         /* column of the next character */
};

#endif
