/* Function regions (--pomp-functions): returns in nested blocks, in a switch,
 * returns of values computed by other functions, of structs, strings and
 * function pointers, a void function left early and at its end, and a
 * function excluded by "#pragma pomp inst user none", and one where that
 * directive covers a return only (the return still ends the function). */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "fhelp.h"

typedef int (*binop)(int, int);
struct pair { int a, b; };

static int add(int x, int y) { return x + y; }
static int twice_add(int x) { return add(x, x); }
static binop pick(int k) { return k ? add : NULL; }
static int (*pick_raw(void))(int, int) { return add; }
static struct pair mk(int a) { struct pair p = {a, a + 1}; return p; }
static const char *name(int k) { if (k) return "one"; return "zero"; }

static int classify(int x)
{
    if (x < 0) {
        if (x < -10)
            return -2;
        return -1;
    }
    for (int i = 0; i < 3; i++)
        if (i == x)
            return i * 10;
    switch (x) {
    case 5: return 50;
    default: break;
    }
    return omp_get_max_threads() > 0 ? 100 : 0;
}

static void fill(int *v, int n)
{
    if (n <= 0)
        return;
    #pragma omp parallel for
    for (int i = 0; i < n; i++)
        v[i] = classify(i - 12);
}

static int guarded(int x)
{
    #pragma pomp inst user none
    if (x > 0)
        return 1;
    return 0;
}

#pragma pomp inst user none
static int util_sum(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

int main(void)
{
    int v[16];
    fill(v, 16);
    fill(v, 0);
    printf("%d %d %d %d %s %s %d %d %d\n", util_sum(v, 16), pick(1)(2, 3), pick_raw()(1, 1), mk(4).b,
           name(1), name(0), twice_add(5), from_header(1), guarded(1) + guarded(-1));
    return 0;
}
