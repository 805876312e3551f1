/* pomp-report: the sampling section of a profile. */
#ifndef REPORT_SAMPLING_H
#define REPORT_SAMPLING_H

#include <jansson.h>

/* Prints OpenMP Work/Wait and the max_paths most sampled call paths; nothing
 * when the profile has no "sampling" member. */
void report_sampling(json_t *root, int max_paths);

/* Checks the profile's (root, read from path) "sampling" member, if any: its
 * counts whole numbers from 0 to 2^53, each path's frames indices into its
 * frames (at most 4096 of them) and its states those pomp counts. Returns 0,
 * or -1 after saying the first that is not so and its byte offset. */
int rp_sampling_check(const char *path, json_t *root);

/* One function on a sampled call path: a frame's, or one inlined at it. The
 * strings belong to the profile's JSON. */
struct rp_sample_function {
    const char *function; /* the code address ("0x1060") when it has no name */
    const char *file;     /* "" when unknown, and for pseudo-frames (<OMP-idle>) */
    int line;
};

/* Calls visit with each function of a sampled path (path_frames: a path's
 * "frames", indices into the profile's sampling "frames"), outermost first,
 * inlined functions after the function they were inlined into, from main on
 * (frames below main are the C library's start-up code; a path without main,
 * such as <OMP-idle>, from its outermost frame). Stops at visit's first
 * non-zero return and returns it; 0 otherwise. */
int rp_sample_path_walk(json_t *path_frames, json_t *frames,
                        int (*visit)(void *ctx, const struct rp_sample_function *f), void *ctx);

#endif
