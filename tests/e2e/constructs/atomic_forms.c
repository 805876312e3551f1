/* Atomic forms whose x is wider than 8 bytes (the compilers take a lock:
 * // @locked, enter/exit around them) or not (// @event, an event after):
 * OpenMP's x is the target, the operand of ++/--, a read's right side, the
 * inner update of a capture, the updated side of a capture or compare block. */
typedef long double wide;
struct particle {
    double x;
    long double e;
};
long double ld;
double d;
int n;
__int128 big;
wide w;

void forms(struct particle *p, long double *arr, int i)
{
    long double lv = 0;
    double dv = 0;
    #pragma omp atomic // @locked
    ld += 1.0L;
    #pragma omp atomic update // @event
    d += lv;
    #pragma omp atomic // @event
    n++;
    #pragma omp atomic // @locked
    big += 1;
    #pragma omp atomic // @locked
    w *= 2;
    #pragma omp atomic // @locked
    p->e -= 1;
    #pragma omp atomic // @event
    p->x -= 1;
    #pragma omp atomic // @locked
    arr[i] += 1;
    #pragma omp atomic // @locked
    --ld;
    #pragma omp atomic read // @locked
    lv = ld;
    #pragma omp atomic read // @event
    lv = d;
    #pragma omp atomic write // @event
    d = lv;
    #pragma omp atomic write // @locked
    ld = dv;
    #pragma omp atomic capture // @locked
    lv = ld++;
    #pragma omp atomic capture // @event
    dv = d += 2;
    #pragma omp atomic capture // @locked
    { lv = ld; ld += 2; }
    #pragma omp atomic capture // @event
    { d = d * 2; lv = d; }
    #pragma omp atomic capture // @locked
    { ld = ld * 2; dv = ld; }
    #pragma omp atomic capture // @event
    { lv = d; d = 3; }
    #pragma omp atomic compare // @event
    if (d < dv) { d = dv; }
    (void)lv;
    (void)dv;
}
