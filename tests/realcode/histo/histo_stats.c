/* No pragma of its own: its OpenMP comes from histo.h. */
#include "histo.h"

double histo_stats(const int *data, int n)
{
    long bins[HISTO_BINS];
    histo_fill(data, n, bins);
    return histo_mean(bins);
}
