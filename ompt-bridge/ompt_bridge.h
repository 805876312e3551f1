/* What libpomp's life cycle calls in the OMPT bridge (ompt-bridge/). The bridge
 * is the OMPT tool inside libpomp: libomp finds ompt_start_tool in the program
 * (or through OMP_TOOL_LIBRARIES, see pomprun) and reports what only the
 * runtime knows; the bridge records it on the calling thread's own profile. */
#ifndef POMP_OMPT_BRIDGE_H
#define POMP_OMPT_BRIDGE_H

/* At finalization, after recording stopped and before the output is written:
 * closes what the runtime would only have closed later (a worker's last
 * implicit barrier ends when its team is next forked), and names the regions
 * the bridge created after their code addresses. Prints, once, that OMPT was
 * not there when the program ran on a runtime without it (libgomp). */
void pomp_ompt_finalize(void);

/* At finalization, while still recording: the runtime hands over what it
 * buffered (device trace records). */
void pomp_ompt_flush(void);

#endif
