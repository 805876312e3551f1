/* pomplib.h: the POMP monitoring API (seed 002, Appendix C) as libpomp implements it.
 *
 * Types: the proposal's int32 and int64 are POMP_Int32 and POMP_Int64 (int32_t, int64_t). CTC string
 * parameters are `const char ctc[]` (the proposal's `char ctc[]` with const added,
 * so string literals can be passed without a cast). Every routine returns a POMP
 * error code (POMP_SUCCESS or one of the POMP_ERR_* values, see docs/api.md). */
#ifndef POMPLIB_H
#define POMPLIB_H

/* No system header is included: the instrumenter puts this header first in a
 * file, before the user's own feature macros (_GNU_SOURCE, ...) take effect. */
#if defined(__INT32_TYPE__) && defined(__INT64_TYPE__)
typedef __INT32_TYPE__ POMP_Int32;
typedef __INT64_TYPE__ POMP_Int64;
#else
#include <stdint.h>
typedef int32_t POMP_Int32;
typedef int64_t POMP_Int64;
#endif

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* libpomp is built with hidden visibility */
#endif

/* The version of the POMP API this library implements (the value of _POMP). */
#define POMP_API_VERSION 202611

/* A library handle: opaque, zero before initialization. */
typedef struct POMP_Region_s *POMP_Handle_t;

/* Error codes. */
#define POMP_SUCCESS            0
#define POMP_ERR_NO_CONTEXT     1  /* handle is zero and no CTC string was given */
#define POMP_ERR_BAD_CTC        2  /* the CTC string is malformed (region still created) */
#define POMP_ERR_NESTING        3  /* end/exit without the matching enter/begin on this thread */
#define POMP_ERR_FINALIZED      4  /* the library was finalized; the event was ignored */
#define POMP_ERR_NULL_ARGUMENT  5  /* a required pointer argument is NULL */
#define POMP_ERR_NO_MEMORY      6
#define POMP_ERR_DEPTH          7  /* region nesting deeper than the library records */

/* Library control (section 3.6) and handles (section 3.2, Appendix A, B). */
POMP_Int32 POMP_Init(void);
POMP_Int32 POMP_Finalize(void);
POMP_Int32 POMP_Get_handle(POMP_Handle_t *handle, const char ctc[]);

/* Parallel group. */
POMP_Int32 POMP_Parallel_enter(POMP_Handle_t *handle, POMP_Int32 thread_id, POMP_Int32 num_threads,
                            POMP_Int32 if_expr_result, const char ctc[]);
POMP_Int32 POMP_Parallel_begin(POMP_Handle_t handle, POMP_Int32 thread_id);
POMP_Int32 POMP_Parallel_end(POMP_Handle_t handle, POMP_Int32 thread_id);
POMP_Int32 POMP_Parallel_exit(POMP_Handle_t handle, POMP_Int32 thread_id);

/* Loop group. */
POMP_Int32 POMP_Loop_enter(POMP_Handle_t *handle, POMP_Int32 thread_id, POMP_Int64 chunk_size,
                        POMP_Int64 init_iter, POMP_Int64 final_iter, POMP_Int64 incr, const char ctc[]);
POMP_Int32 POMP_Loop_exit(POMP_Handle_t handle, POMP_Int32 thread_id);

/* Workshare group: single. */
POMP_Int32 POMP_Single_enter(POMP_Handle_t *handle, POMP_Int32 thread_id, const char ctc[]);
POMP_Int32 POMP_Single_begin(POMP_Handle_t handle, POMP_Int32 thread_id);
POMP_Int32 POMP_Single_end(POMP_Handle_t handle, POMP_Int32 thread_id);
POMP_Int32 POMP_Single_exit(POMP_Handle_t handle, POMP_Int32 thread_id);

/* Sync group: critical and barrier. */
POMP_Int32 POMP_Critical_enter(POMP_Handle_t *handle, POMP_Int32 thread_id, const char ctc[]);
POMP_Int32 POMP_Critical_begin(POMP_Handle_t handle, POMP_Int32 thread_id);
POMP_Int32 POMP_Critical_end(POMP_Handle_t handle, POMP_Int32 thread_id);
POMP_Int32 POMP_Critical_exit(POMP_Handle_t handle, POMP_Int32 thread_id);
POMP_Int32 POMP_Barrier_enter(POMP_Handle_t *handle, POMP_Int32 thread_id, const char ctc[]);
POMP_Int32 POMP_Barrier_exit(POMP_Handle_t handle, POMP_Int32 thread_id);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
