/* The collector API of the OpenMP ARB white paper "An OpenMP Runtime API for
 * Profiling" (Itzkowitz et al., 2007; seed 003), as libpomp provides it on top
 * of OMPT: a collector finds __omp_collector_api with dlsym and sends it
 * request buffers. The names and numeric values are the white paper's; how
 * pomp implements each request is in docs/collector.md. */
#ifndef POMP_OMP_COLLECTOR_API_H
#define POMP_OMP_COLLECTOR_API_H

#ifdef __cplusplus
extern "C" {
#endif

#define OMP_COLLECTOR_API "__omp_collector_api"

/* arg: a list of entries, each [int sz][int r][int ec][int rsz][mem: sz - 16
 * bytes], ended by an sz of 0. sz is a multiple of 4 and at least 16, and
 * the buffer is 4-byte aligned. Returns 0 when the whole list was processed
 * (each entry's ec tells its own result), -1 when an entry is malformed (the
 * rest is ignored). */
int __omp_collector_api(void *arg);

/* The 16-byte header in front of each entry's mem. */
#define OMP_COLLECTORAPI_HEADERSIZE (4 * (int)sizeof(int))

typedef enum {
    OMP_REQ_START = 0,        /* in: -; out: -. Before any other request. */
    OMP_REQ_REGISTER = 1,     /* in: {OMP_COLLECTORAPI_EVENT, void *callback} packed (12 bytes) */
    OMP_REQ_UNREGISTER = 2,   /* in: OMP_COLLECTORAPI_EVENT */
    OMP_REQ_STATE = 3,        /* out: {OMP_COLLECTOR_API_THR_STATE, unsigned long wait_id} packed; signal-safe */
    OMP_REQ_CURRENT_PRID = 4, /* out: uint64_t parallel region instance id, 0 outside; signal-safe */
    OMP_REQ_PARENT_PRID = 5,  /* out: uint64_t id of the enclosing region (master of a team only) */
    OMP_REQ_STOP = 6,
    OMP_REQ_PAUSE = 7,
    OMP_REQ_RESUME = 8,
    OMP_REQ_LAST
} OMP_COLLECTORAPI_REQUEST;

typedef enum {
    OMP_ERRCODE_OK = 0,
    OMP_ERRCODE_ERROR = 1,          /* input of the wrong size, or a NULL callback */
    OMP_ERRCODE_UNKNOWN = 2,        /* unknown request or event */
    OMP_ERRCODE_UNSUPPORTED = 3,    /* no OMPT runtime (libgomp, POMP_OMPT=off), or no state inquiry */
    OMP_ERRCODE_SEQUENCE_ERR = 4,   /* before OMP_REQ_START, a second START, or after STOP */
    OMP_ERRCODE_OBSOLETE = 5,       /* no request of this version is obsolete */
    OMP_ERRCODE_THREAD_ERR = 6,     /* PARENT_PRID from a thread that is no team's master */
    OMP_ERRCODE_MEM_TOO_SMALL = 7,  /* rsz then holds the size mem needs */
    OMP_ERRCODE_LAST
} OMP_COLLECTORAPI_EC;

typedef enum {
    OMP_EVENT_FORK = 1,
    OMP_EVENT_JOIN = 2,
    OMP_EVENT_THR_BEGIN_IDLE = 3,
    OMP_EVENT_THR_END_IDLE = 4,
    OMP_EVENT_THR_BEGIN_IBAR = 5,
    OMP_EVENT_THR_END_IBAR = 6,
    OMP_EVENT_THR_BEGIN_EBAR = 7,
    OMP_EVENT_THR_END_EBAR = 8,
    OMP_EVENT_THR_BEGIN_LKWT = 9,
    OMP_EVENT_THR_END_LKWT = 10,
    OMP_EVENT_THR_BEGIN_CTWT = 11,
    OMP_EVENT_THR_END_CTWT = 12,
    OMP_EVENT_THR_BEGIN_ODWT = 13,
    OMP_EVENT_THR_END_ODWT = 14,
    OMP_EVENT_THR_BEGIN_MASTER = 15,
    OMP_EVENT_THR_END_MASTER = 16,
    OMP_EVENT_THR_BEGIN_SINGLE = 17,
    OMP_EVENT_THR_END_SINGLE = 18,
    OMP_EVENT_THR_BEGIN_ORDERED = 19,
    OMP_EVENT_THR_END_ORDERED = 20,
    OMP_EVENT_THR_BEGIN_ATWT = 21,
    OMP_EVENT_THR_END_ATWT = 22,
    OMP_EVENT_THR_RESERVED_IMPL = 4096,
    OMP_EVENT_LAST
} OMP_COLLECTORAPI_EVENT;

typedef enum {
    THR_OVHD_STATE = 1,
    THR_WORK_STATE = 2,
    THR_IBAR_STATE = 3,
    THR_EBAR_STATE = 4,
    THR_IDLE_STATE = 5,
    THR_SERIAL_STATE = 6,
    THR_REDUC_STATE = 7,
    THR_LKWT_STATE = 8,
    THR_CTWT_STATE = 9,
    THR_ODWT_STATE = 10,
    THR_ATWT_STATE = 11,
    THR_LAST_STATE
} OMP_COLLECTOR_API_THR_STATE;

/* A callback for OMP_REQ_REGISTER: called on the thread where the event happens. */
typedef void (*omp_collector_callback_t)(OMP_COLLECTORAPI_EVENT event);

#ifdef __cplusplus
}
#endif

#endif
