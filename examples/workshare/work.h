#ifndef WORK_H
#define WORK_H

/* Called from inside a parallel region: orphaned worksharing and sync constructs. */
void work(int n, double *a, double *sum, int *singles);

#endif
