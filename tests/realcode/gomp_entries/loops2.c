/* Combined parallel loops and the generic loop entry points under
 * OMP_SCHEDULE (runtime, maybe-nonmonotonic, monotonic, nonmonotonic, their
 * _ull twins), ordered and doacross loops; prints what each computed. */
#include <stdio.h>
#include <omp.h>
#define N 1000
static int a[N];
int main(void){
  long c[20]={0}; unsigned long long B = 1ULL<<63;
  #pragma omp parallel for schedule(runtime) reduction(+:c[1])
  for (int i=0;i<N;i++) c[1]++;
  #pragma omp parallel for schedule(monotonic:runtime) reduction(+:c[2])
  for (int i=0;i<N;i++) c[2]++;
  #pragma omp parallel for schedule(nonmonotonic:runtime) reduction(+:c[3])
  for (int i=0;i<N;i++) c[3]++;
  #pragma omp parallel for schedule(guided,5) reduction(+:c[4])
  for (int i=0;i<N;i++) c[4]++;
  int xl=-1, xo=-1; long osum=0;
  #pragma omp parallel
  {
    #pragma omp for schedule(runtime) reduction(+:c[5])
    for (unsigned long long u=B;u<B+N;u++) c[5]++;
    #pragma omp for schedule(monotonic:runtime) reduction(+:c[6])
    for (unsigned long long u=B;u<B+N;u++) c[6]++;
    #pragma omp for ordered schedule(runtime)
    for (int i=0;i<100;i++) {
      #pragma omp ordered
      { c[7]++; osum+=i; }
    }
    #pragma omp for ordered schedule(static)
    for (int i=0;i<100;i++) {
      #pragma omp ordered
      c[8]++;
    }
    #pragma omp for ordered schedule(guided,4)
    for (unsigned long long u=B;u<B+100;u++) {
      #pragma omp ordered
      c[9]++;
    }
    #pragma omp for lastprivate(conditional: xl) schedule(dynamic,8)
    for (int i=0;i<N;i++) { if (i%7==0) xl=i; }
    #pragma omp for ordered lastprivate(conditional: xo) schedule(dynamic,8)
    for (int i=0;i<200;i++) {
      if (i%9==0) xo=i;
      #pragma omp ordered
      c[11]++;
    }
    #pragma omp for ordered(1) schedule(runtime)
    for (int i=1;i<100;i++) {
      #pragma omp ordered depend(sink: i-1)
      a[i]=a[i-1]+1;
      #pragma omp ordered depend(source)
    }
    #pragma omp for ordered(1) schedule(guided)
    for (int i=1;i<100;i++) {
      #pragma omp ordered depend(sink: i-1)
      a[i]+=a[i-1];
      #pragma omp ordered depend(source)
    }
  }
  int s1=0,s2=0,s3=0,lc=-1;
  #pragma omp parallel sections
  {
    #pragma omp section
    s1=1;
    #pragma omp section
    s2=2;
    #pragma omp section
    s3=3;
  }
  #pragma omp parallel
  #pragma omp sections lastprivate(conditional: lc)
  {
    #pragma omp section
    lc = 10;
    #pragma omp section
    { if (s1) lc = 20; }
  }
  long tu=0;
  #pragma omp parallel
  #pragma omp single
  #pragma omp taskloop grainsize(100) reduction(+:tu)
  for (unsigned long long u=B;u<B+N;u++) tu++;
  for (int k=1;k<=6;k++) printf("c%d=%ld ",k,c[k]); printf("\n");
  printf("ord c7=%ld osum=%ld c8=%ld c9=%ld c11=%ld xl=%d xo=%d a99=%d\n",c[7],osum,c[8],c[9],c[11],xl,xo,a[99]);
  printf("sections %d %d %d lc=%d tu=%ld\n",s1,s2,s3,lc,tu);
  return 0;
}
