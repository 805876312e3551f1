/* The event sources beside the POMP routines (the runtime bridges: ompt-bridge/,
 * and the ones to come) as the core sees them: each registers its hooks once,
 * at load time, and the core calls them at finalization. The core includes no
 * header of a source, so a bridge can be added or left out without touching it. */
#ifndef POMP_SOURCES_H
#define POMP_SOURCES_H

struct POMP_Region_s;

struct pomp_source_hooks {
    const char *name;           /* "OMPT", for messages */
    /* At finalization, while still recording: hand over what the source
     * buffered (device trace records). May be NULL. */
    void (*flush)(void);
    /* After recording stopped, before the output is built: close what the
     * runtime would only have closed later, name the source's regions. May be NULL. */
    void (*finalize)(void);
    /* A region was just made from a CTC string (POMP_Get_handle or a lazy
     * handle), before its handle is published: a thread that finds the
     * handle set sees what the hook did. Runs under the region registry's
     * lock: no lock, no allocation, no region of its own. May be NULL. */
    void (*region_made)(struct POMP_Region_s *r);
    /* The setting under which the source records nothing ("POMP_OMPT=off"),
     * for the message of a run that recorded nothing; NULL when it records.
     * May be NULL. */
    const char *(*declined_by)(void);
    /* What the source could not measure in this run that the events alone do
     * not show (the runtime ended its tool interface midway): one sentence per
     * say(ctx, what), for profile.json's "unmeasured" and pomp-report. Called
     * after finalize. May be NULL. */
    void (*unmeasured)(void (*say)(void *ctx, const char *what), void *ctx);
    /* What the source measured but could not keep apart (a cap reached: call
     * sites past its table counted under their construct's region), the same
     * way, for profile.json's "kept_together": the run is rated all the same.
     * May be NULL. */
    void (*kept_together)(void (*say)(void *ctx, const char *what), void *ctx);
    /* At the program's exit, in libpomp's exit handler: whether the source's
     * runtime ends the measurement itself later, when no code can run OpenMP
     * any more (LLVM libomp ends its tool in its own destructor, after those
     * of every library that uses it: a C++ static object's pool among them);
     * the source keeps now what it will need of the runtime's memory, which
     * that shutdown frees. May be NULL. */
    int (*ends_later)(void);
};

enum { POMP_MAX_SOURCES = 8 };

/* Registers a source (hooks must stay valid for the whole run); from a
 * constructor. Returns 0, or -1 when POMP_MAX_SOURCES are registered already. */
int pomp_source_register(const struct pomp_source_hooks *hooks);

/* Called by the finalizer, in registration order. */
void pomp_sources_flush(void);
void pomp_sources_finalize(void);
/* Called by the region registry for each region it makes (region_made). */
void pomp_sources_region_made(struct POMP_Region_s *r);
/* The first source's declined_by setting that is not NULL, or NULL. */
const char *pomp_sources_declined_by(void);
/* Every source's unmeasured sentences, in registration order. */
void pomp_sources_unmeasured(void (*say)(void *ctx, const char *what), void *ctx);
/* Every source's kept_together sentences, in registration order. */
void pomp_sources_kept_together(void (*say)(void *ctx, const char *what), void *ctx);
/* Whether a source's runtime ends the measurement after libpomp's exit
 * handler (ends_later). */
int pomp_sources_end_later(void);

#endif
