/* Host teams, nested parallel regions, nest and test locks, a named
 * critical with a hint, omp_pause_resource_all and omp_display_affinity;
 * prints what each computed. */
#include <stdio.h>
#include <omp.h>
#include <unistd.h>
static omp_nest_lock_t nl; static omp_lock_t lk;
int main(void){
  int teams_seen[4]={0}; int nteams=0;
  #pragma omp teams num_teams(2)
  {
    int t = omp_get_team_num();
    teams_seen[t] = 1;
    if (t==0) nteams = omp_get_num_teams();
    #pragma omp parallel num_threads(2)
    {
      #pragma omp atomic
      teams_seen[t+2]++;
    }
  }
  printf("teams=%d seen=%d %d inner=%d %d\n",nteams,teams_seen[0],teams_seen[1],teams_seen[2],teams_seen[3]);
  int inner_total=0, levels=0;
  #pragma omp parallel num_threads(2)
  {
    #pragma omp parallel num_threads(2)
    {
      #pragma omp atomic
      inner_total++;
      if (omp_get_thread_num()==0 && omp_get_ancestor_thread_num(1)==0) levels = omp_get_active_level();
    }
  }
  printf("nested inner=%d level=%d\n",inner_total,levels);
  omp_init_nest_lock(&nl); omp_init_lock(&lk);
  int nest_cnt=0, test_ok=0, test_fail=0;
  #pragma omp parallel num_threads(2) reduction(+:test_ok,test_fail)
  {
    for (int r=0;r<100;r++){
      omp_set_nest_lock(&nl); omp_set_nest_lock(&nl);
      nest_cnt++;
      omp_unset_nest_lock(&nl); omp_unset_nest_lock(&nl);
    }
    for (int r=0;r<50;r++){
      if (omp_test_lock(&lk)) { test_ok++; omp_unset_lock(&lk);} else test_fail++;
    }
  }
  printf("nest=%d test_total=%d\n",nest_cnt,test_ok+test_fail);
  int p1=0,p2=0;
  #pragma omp parallel
  {
    #pragma omp atomic
    p1++;
  }
  int pr = omp_pause_resource_all(omp_pause_soft);
  #pragma omp parallel
  {
    #pragma omp atomic
    p2++;
  }
  printf("pause rc=%d p1=%d p2=%d\n",pr,p1,p2);
  fflush(stdout);
  omp_set_affinity_format("AFF tid=%n nthr=%N lvl=%L");
  #pragma omp parallel
  {
    #pragma omp critical
    omp_display_affinity(NULL);
  }
  omp_destroy_nest_lock(&nl); omp_destroy_lock(&lk);
  return 0;
}
