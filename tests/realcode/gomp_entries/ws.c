/* Sections with lastprivate, parallel sections, single copyprivate, scope
 * and masked filter(1); prints what each computed. */
#include <stdio.h>
#include <omp.h>
int main(void){
  int last=-1, s1=0,s2=0,s3=0; int cp=0; long scope_sum=0; int masked_thr=-1, masked_cnt=0;
  int single_cnt=0; int x=0;
  #pragma omp parallel
  {
    for (int r=0;r<3;r++){
      #pragma omp sections lastprivate(x)
      {
        #pragma omp section
        { x=1; __atomic_add_fetch(&s1,1,0); }
        #pragma omp section
        { x=2; __atomic_add_fetch(&s2,1,0); }
        #pragma omp section
        { x=3+r; __atomic_add_fetch(&s3,1,0); }
      }
      #pragma omp single
      last += x;
    }
    int v;
    for (int r=0;r<4;r++){
      #pragma omp single copyprivate(v)
      { v = 42+r; single_cnt++; }
      #pragma omp atomic
      cp += v;
    }
    #pragma omp scope reduction(+:scope_sum)
    { scope_sum += omp_get_thread_num()+1; }
    #pragma omp masked filter(1)
    { masked_thr = omp_get_thread_num(); masked_cnt++; }
  }
  int nt; 
  #pragma omp parallel
  #pragma omp single
  nt = omp_get_num_threads();
  printf("sections s=%d,%d,%d last=%d\n",s1,s2,s3,last);
  printf("copyprivate cp=%d singles=%d (threads %d)\n",cp,single_cnt,nt);
  printf("scope sum=%ld masked thr=%d cnt=%d\n",scope_sum,masked_thr,masked_cnt);
  return 0;
}
