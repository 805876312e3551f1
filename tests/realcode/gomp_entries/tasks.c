/* Taskloops (grainsize, num_tasks, reduction, ull), task and taskgroup
 * reductions, mutexinoutset, taskwait depend, a detachable task and task
 * reductions of parallel and for; prints the counts the program made. */
#include <stdio.h>
#include <omp.h>
#define N 1000
static int arr[N];
int main(void){
  long tl1=0, tl2=0, red=0, inred=0, tgred=0, ptask=0; int mutex_v=0; int tw_ok=0; int det_done=0;
  int runs_gs=0, runs_nt=0;
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp taskloop grainsize(100)
    for (int i=0;i<N;i++) { arr[i]=i; if (i%100==0) __atomic_add_fetch(&runs_gs,1,0); __atomic_add_fetch(&tl1,1,0);} 
    #pragma omp taskloop num_tasks(7)
    for (long long i=0;i<N;i++) { __atomic_add_fetch(&tl2,1,0); }
    #pragma omp taskloop reduction(+:red) grainsize(50)
    for (int i=0;i<N;i++) red += arr[i];
    #pragma omp taskgroup task_reduction(+:tgred)
    {
      for (int t=0;t<10;t++) {
        #pragma omp task in_reduction(+:tgred)
        tgred += t;
      }
    }
    int x=0;
    for (int t=0;t<6;t++) {
      #pragma omp task depend(mutexinoutset: mutex_v) shared(mutex_v)
      mutex_v += t;
    }
    #pragma omp task depend(out: x) shared(x)
    x = 5;
    #pragma omp taskwait depend(in: x)
    tw_ok = (x==5);
    #pragma omp taskwait
    omp_event_handle_t ev;
    #pragma omp task detach(ev) shared(det_done)
    { det_done = 1; }
    omp_fulfill_event(ev);
    #pragma omp taskwait
  }
  #pragma omp parallel reduction(task, +: ptask)
  {
    #pragma omp single
    for (int t=0;t<8;t++) {
      #pragma omp task in_reduction(+: ptask)
      ptask += t+1;
    }
  }
  long inr2=0;
  #pragma omp parallel
  #pragma omp for reduction(task, +: inr2)
  for (int i=0;i<20;i++) {
    #pragma omp task in_reduction(+: inr2)
    inr2 += i;
  }
  printf("tl1=%ld tl2=%ld gs_tasks=%d red=%ld tgred=%ld\n",tl1,tl2,runs_gs,red,tgred);
  printf("mutex=%d tw_ok=%d det=%d ptask=%ld inr2=%ld\n",mutex_v,tw_ok,det_done,ptask,inr2);
  return 0;
}
