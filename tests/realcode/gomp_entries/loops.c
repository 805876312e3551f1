/* Loops on libgomp's rarer loop entry points: schedule(runtime), nonmonotonic
 * dynamic, monotonic guided, unsigned long long and long long iterations,
 * collapse(2), an ordered loop and doacross loops of one and two dimensions;
 * prints what each computed (test_realcode_gomp_entries.sh). */
#include <stdio.h>
#include <omp.h>
#define N 1000
static int a[N], seen[N];
static double b[64][64];
int main(void){
  long cnt_rt=0, cnt_nm=0, cnt_g=0, cnt_ull=0, cnt_ll=0, cnt_c2=0;
  long ord_sum=0; int ord_last=-1, ord_bad=0;
  unsigned long long ubase = 1ULL<<63;
  #pragma omp parallel
  {
    #pragma omp for schedule(runtime) reduction(+:cnt_rt)
    for (int i=0;i<N;i++) { a[i]=i; cnt_rt++; }
    #pragma omp for schedule(nonmonotonic:dynamic,7) reduction(+:cnt_nm)
    for (int i=0;i<N;i++) { a[i]+=1; cnt_nm++; }
    #pragma omp for schedule(monotonic:guided,3) reduction(+:cnt_g)
    for (int i=0;i<N;i++) { a[i]+=1; cnt_g++; }
    #pragma omp for schedule(dynamic,10) reduction(+:cnt_ull)
    for (unsigned long long u=ubase; u<ubase+N; u++) { seen[u-ubase]++; cnt_ull++; }
    #pragma omp for schedule(guided) reduction(+:cnt_ll)
    for (long long k=-500; k<500; k++) { cnt_ll++; }
    #pragma omp for collapse(2) schedule(dynamic,16) reduction(+:cnt_c2)
    for (int i=0;i<64;i++) for (int j=0;j<64;j++) { b[i][j]=i*j; cnt_c2++; }
    #pragma omp for ordered schedule(dynamic,5)
    for (int i=0;i<200;i++) {
      int v = i*2;
      #pragma omp ordered
      { if (i != ord_last+1) ord_bad++; ord_last=i; ord_sum+=v; }
    }
  }
  /* doacross */
  static int d[40][40];
  for(int i=0;i<40;i++) for(int j=0;j<40;j++) d[i][j]=1;
  #pragma omp parallel for ordered(2) schedule(static,1)
  for (int i=1;i<40;i++)
    for (int j=1;j<40;j++) {
      #pragma omp ordered depend(sink: i-1, j) depend(sink: i, j-1)
      d[i][j] = (d[i-1][j] + d[i][j-1]) % 1000;
      #pragma omp ordered depend(source)
    }
  /* ull doacross */
  static unsigned long long e[100];
  e[0]=1;
  #pragma omp parallel for ordered(1) schedule(dynamic,3)
  for (unsigned long long u=ubase+1; u<ubase+100; u++) {
    #pragma omp ordered depend(sink: u-1)
    e[u-ubase] = e[u-ubase-1]*3 % 1000003;
    #pragma omp ordered depend(source)
  }
  long chk=0; for(int i=0;i<N;i++){ chk+=a[i]; if(seen[i]!=1) chk=-1000000; }
  printf("rt=%ld nm=%ld g=%ld ull=%ld ll=%ld c2=%ld chk=%ld\n",cnt_rt,cnt_nm,cnt_g,cnt_ull,cnt_ll,cnt_c2,chk);
  printf("ordered sum=%ld bad=%d last=%d\n",ord_sum,ord_bad,ord_last);
  printf("doacross d[39][39]=%d e[99]=%llu\n",d[39][39],e[99]);
  return 0;
}
