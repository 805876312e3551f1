/* Worksharing constructs that end a parallel region (test_semantics.sh):
 * GCC drops their barrier where no local of the region may be addressable.
 * main runs each and prints what it computed. */
#include <omp.h>
#include <stdio.h>

#define N 1000
static double a[N], s, arr[4];
static int last;

__attribute__((noinline)) static void touch(double *p) { *p += 1; }

void ends_for(void)
{
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] += i;
    }
}

void ends_single(void)
{
#pragma omp parallel
    {
#pragma omp single
        touch(a);
    }
}

void ends_for_reduction(void)
{
#pragma omp parallel
    {
#pragma omp for reduction(+ : s)
        for (int i = 0; i < N; i++)
            s += a[i];
    }
}

void ends_for_lastprivate(void)
{
#pragma omp parallel
    {
#pragma omp for lastprivate(last)
        for (int i = 0; i < N; i++)
            last = i;
    }
}

void ends_dynamic(void)
{
#pragma omp parallel
#pragma omp for schedule(dynamic, 7)
    for (int i = 0; i < N; i++)
        a[i] *= 0.5;
}

void private_address(void)
{
    double x = 0;
#pragma omp parallel
    {
#pragma omp for private(x)
        for (int i = 0; i < N; i++) {
            x = a[i];
            touch(&x);
            a[i] = x;
        }
    }
}

void local_array(void)
{
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < N; i++) {
            double t[2] = {a[i], 0};
            touch(t);
            a[i] = t[0];
        }
    }
}

void array_reduction(void)
{
#pragma omp parallel
    {
#pragma omp for reduction(+ : arr)
        for (int i = 0; i < N; i++)
            arr[i % 4] += a[i];
    }
}

void local_scalar(void)
{
#pragma omp parallel
    {
        int k = omp_get_thread_num() >= 0;
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] += k;
    }
}

void nested_task(void)
{
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < N; i++) {
#pragma omp task
            touch(&a[i]);
        }
    }
}

/* GCC keeps these barriers: a private copy is addressable where its variable
 * is, anywhere in the function (a review and a probe found pomp's build
 * without them; the first gave wrong results) */
struct with_array {
    int arr[64];
};

__attribute__((noinline)) static void spawn(int *p, long *out)
{
#pragma omp task firstprivate(p, out)
    {
        long sum = 0;
        for (int k = 0; k < 64; k++)
            sum += p[k];
        *out = sum;
    }
}

__attribute__((noinline)) static void use_int(int *p) { *p += 0; }

void struct_firstprivate(struct with_array w, long *out)
{
#pragma omp parallel firstprivate(w) num_threads(4)
    {
#pragma omp for
        for (int i = 0; i < 64; i++)
            spawn(w.arr, &out[i]);
    }
}

void reduction_addressed(void)
{
    double t = 0;
    touch(&t);
#pragma omp parallel
    {
#pragma omp for reduction(+ : t)
        for (int i = 0; i < N; i++)
            t += a[i];
    }
    s += t;
}

void outer_loop_variable(void)
{
    int i;
    use_int(&i);
#pragma omp parallel
    {
#pragma omp for
        for (i = 0; i < N; i++)
            a[i] += 1;
    }
}

int main(void)
{
    ends_for();
    ends_single();
    ends_for_reduction();
    ends_for_lastprivate();
    ends_dynamic();
    private_address();
    local_array();
    array_reduction();
    local_scalar();
    nested_task();
    struct with_array w;
    long out[64] = {0};
    for (int k = 0; k < 64; k++)
        w.arr[k] = 1;
    struct_firstprivate(w, out);
    int bad = 0;
    for (int i = 0; i < 64; i++)
        bad += out[i] != 64;
    reduction_addressed();
    outer_loop_variable();
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += a[i];
    printf("%.1f %.1f %d %.1f %.1f %.1f %.1f bad %d\n", sum, s, last, arr[0], arr[1], arr[2], arr[3],
           bad);
    return 0;
}
