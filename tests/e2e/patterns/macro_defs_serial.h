/* A header whose directive takes a macro the file that includes it defines
 * differently after the #include (macro_defs.c): where that definition is in
 * force is not known in the header, which is read as written. */
#define TEAM num_threads(1)
static int serial_team(void)
{
    int n = 0;
#pragma omp parallel TEAM /* P_HDR_TEAM */
    {
#pragma omp atomic
        n++;
    }
    return n;
}
#undef TEAM
