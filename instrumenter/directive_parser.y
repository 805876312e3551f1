/* Grammar of a pragma's text: a sentinel, then words and clauses, each an
 * identifier with an optional parenthesized argument, optionally separated by
 * commas. Which leading words form the directive name is decided afterwards
 * (directive.c), from the table of OpenMP 5.2 directive names. */
%define api.pure full
%define api.prefix {directive_yy}
%define parse.error verbose
%locations
%param {void *scanner}
%parse-param {struct directive *out}

%code requires {
#include "directive.h"
}

%union {
    char *text;
}

%code {
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int directive_yylex(DIRECTIVE_YYSTYPE *lval, DIRECTIVE_YYLTYPE *lloc, void *scanner);
static void directive_yyerror(DIRECTIVE_YYLTYPE *loc, void *scanner, struct directive *out,
                              const char *msg);
}

%token <text> IDENT ARG
%token COMMA STRAY UNBALANCED
%destructor { free($$); } <text>

%%

pragma
    : IDENT items            { out->sentinel = $1; }
    ;

items
    : %empty
    | items item
    | items COMMA item
    ;

item
    : IDENT                  { if (directive_add_item(out, $1, NULL, @1.first_column)) YYABORT; }
    | IDENT ARG              { if (directive_add_item(out, $1, $2, @1.first_column)) YYABORT; }
    | UNBALANCED             { directive_yyerror(&@1, scanner, out, "unbalanced '(' in clause argument"); YYABORT; }
    ;

%%

static void directive_yyerror(DIRECTIVE_YYLTYPE *loc, void *scanner, struct directive *out,
                              const char *msg)
{
    (void)scanner;
    if (out->error_column >= 0)
        return; /* keep the first message */
    out->error_column = loc->first_column;
    /* bison's generic "syntax error, ..." is replaced by directive.c with one that
     * names the offending character; our own messages are kept */
    if (strncmp(msg, "syntax error", 12) != 0)
        snprintf(out->error, sizeof out->error, "%s", msg);
}
