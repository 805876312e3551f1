#!/bin/sh
# gen_regions.sh N: writes regions.c, N small functions each with its own
# parallel loop (a code with thousands of regions), and regions_all(n), which
# calls each once and returns their sum. Generated where the test runs, not kept.
n=${1:?usage: gen_regions.sh N}
{
    echo '#include <omp.h>'
    echo 'long regions_all(int n);'
    k=0
    while [ $k -lt "$n" ]; do
        printf 'static long r%d(int n)\n{\n    long s = 0;\n#pragma omp parallel for reduction(+:s)\n    for (int i = 0; i < n; i++)\n        s += (i ^ %d) & 7;\n    return s;\n}\n' $k $k
        k=$((k + 1))
    done
    echo 'long regions_all(int n)'
    echo '{'
    echo '    long t = 0;'
    k=0
    while [ $k -lt "$n" ]; do
        echo "    t += r$k(n);"
        k=$((k + 1))
    done
    echo '    return t;'
    echo '}'
} > regions.c
