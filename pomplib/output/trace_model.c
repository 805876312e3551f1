#include "trace_model.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

const char *trace_raw_error_text(int err)
{
    return err == TRACE_RAW_REPLACED ? "the file was removed or replaced while the program ran"
                                     : strerror(err);
}

int trace_region_is(const struct trace_region *r, const char *type)
{
    return r && strcmp(r->type, type) == 0;
}

void trace_span_label(const struct trace_region *r, enum trace_span span, char *buf, size_t size)
{
    if (!r) {
        snprintf(buf, size, "<unknown region>");
        return;
    }
    const char *suffix = "";
    if (trace_region_is(r, "parallel"))
        suffix = span == TRACE_SPAN_ENTERED ? " fork/join" : "";
    else if (trace_region_is(r, "task"))
        suffix = span == TRACE_SPAN_ENTERED ? " create" : "";
    else if (span == TRACE_SPAN_BODY)
        suffix = " body";
    const char *base = strrchr(r->file, '/');
    base = base ? base + 1 : r->file;
    int n = snprintf(buf, size, "%s%s%s%s", r->type, *r->name ? " " : "", r->name, suffix);
    if (*base && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, " @ %s:%d", base, r->first_line);
}

/* The byte offset (from the first record) of the first field a converter
 * could not use, or -1. */
static int64_t first_bad_field(const struct trace_thread *t, const struct trace_model *m,
                               const char **why)
{
    for (uint64_t i = 0; i < t->count; i++) {
        const struct pomp_event *e = &t->events[i];
        int64_t at = (int64_t)(i * sizeof *e);
        if (e->region > m->nregions) {
            *why = "region id that defs.json does not define";
            return at + (int64_t)offsetof(struct pomp_event, region);
        }
        /* every event is of a region (ids from 1); only the library's own
         * records may have none (a zeroed thread file read as a million
         * events of no region; a probe) */
        if (e->region == 0 && e->group != POMP_EVENT_GROUP_LIBRARY) {
            *why = "region id 0 in an event (ids start at 1: a zeroed or damaged record)";
            return at + (int64_t)offsetof(struct pomp_event, region);
        }
        if (e->phase >= POMP_PHASE_COUNT) {
            *why = "phase out of range (0-4)";
            return at + (int64_t)offsetof(struct pomp_event, phase);
        }
        if (e->kind >= POMP_EV_COUNT && e->kind != POMP_EV_TRACE_FLUSH &&
            e->kind != POMP_EV_TRACE_GAP) {
            *why = "event kind that pomp does not define";
            return at + (int64_t)offsetof(struct pomp_event, kind);
        }
        if (e->group >= m->ngroups && e->group != POMP_EVENT_GROUP_LIBRARY) {
            *why = "group that defs.json does not define";
            return at + (int64_t)offsetof(struct pomp_event, group);
        }
    }
    return -1;
}

int trace_thread_map(struct trace_thread *t, const char *dir, const struct trace_model *m,
                     char *err, size_t errsize)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/" TRACE_RAW_DIR "/thread-%u.bin", dir, t->index);
    t->events = NULL;
    t->count = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* (a FIFO: no wait for a writer) */
    if (fd < 0) {
        if (errno == ENOENT) /* a thread whose events all went to the lost count */
            return 0;
        snprintf(err, errsize, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errsize, "%s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) { /* mapped and read as records: only a file */
        snprintf(err, errsize, "%s: not a regular file", path);
        close(fd);
        return -1;
    }
    size_t size = (size_t)st.st_size;
    if (size < sizeof(struct trace_raw_header)) {
        /* no record in it: read as a missing file (a run killed before its
         * first write left it empty), which the callers say against the
         * count defs.json gives; the other threads' timelines stay (the whole
         * conversion failed; a probe) */
        close(fd);
        return 0;
    }
    void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        snprintf(err, errsize, "%s: %s", path, strerror(errno));
        return -1;
    }
    const struct trace_raw_header *h = map;
    const char *problem = NULL;
    size_t offset = 0;
    if (memcmp(h->magic, TRACE_RAW_MAGIC, sizeof h->magic) != 0)
        problem = "not a pomp raw trace (magic is not \"POMPRAW\")";
    else if (h->endian != TRACE_RAW_ENDIAN)
        offset = offsetof(struct trace_raw_header, endian), problem = "written on a machine of the other byte order";
    else if (h->version != TRACE_RAW_VERSION)
        offset = offsetof(struct trace_raw_header, version), problem = "raw trace version is not 1";
    else if (h->record_size != sizeof(struct pomp_event))
        offset = offsetof(struct trace_raw_header, record_size), problem = "record size is not 24";
    else if (h->thread != t->index)
        offset = offsetof(struct trace_raw_header, thread), problem = "thread index differs from the file name";
    else if (h->pid && m->pid > 0 && h->pid != (uint32_t)m->pid)
        /* two runs writing one directory at once: the later one replaced the
         * file, the earlier went on writing into it (its trace held the
         * other's records and 50,000 zeroed ones, unsaid; a probe) */
        offset = offsetof(struct trace_raw_header, pid),
        problem = "written by another process than defs.json's (two runs writing this directory at "
                  "once? POMP_OUTPUT_DIR=...%p gives each its own)";
    /* a file that ends inside a record (a write cut short: a full disk)
     * keeps its whole records; the caller says where it was cut (the whole
     * thread was dropped, and with it every good record) */
    t->cut = (size - sizeof *h) % sizeof(struct pomp_event);
    if (!problem) {
        t->events = (const struct pomp_event *)((const char *)map + sizeof *h);
        t->count = (size - sizeof *h) / sizeof(struct pomp_event);
        int64_t bad = first_bad_field(t, m, &problem);
        if (bad >= 0)
            offset = sizeof *h + (size_t)bad;
    }
    if (problem) {
        snprintf(err, errsize, "%s: byte offset %zu: %s", path, offset, problem);
        munmap(map, size);
        t->events = NULL;
        t->count = 0;
        return -1;
    }
    t->map = map;
    t->map_size = size;
    return 0;
}

const char *trace_group_name(const struct trace_model *m, unsigned group, char *buf, size_t size)
{
    const char *name = group < m->ngroups ? m->groups[group] : "pomp";
    size_t i = 0;
    for (; name[i] && i + 1 < size; i++)
        buf[i] = (char)tolower((unsigned char)name[i]);
    buf[i] = '\0';
    return buf;
}

void trace_model_free(struct trace_model *m)
{
    for (uint32_t i = 0; i < m->ngroups; i++)
        free(m->groups[i]);
    free(m->groups);
    for (uint32_t i = 0; i < m->nregions; i++) {
        free(m->regions[i].type);
        free(m->regions[i].name);
        free(m->regions[i].file);
    }
    for (uint32_t i = 0; i < m->nthreads; i++) {
        if (m->threads[i].map)
            munmap(m->threads[i].map, m->threads[i].map_size);
        free(m->threads[i].error);
    }
    free(m->regions);
    free(m->threads);
    free(m->program);
    free(m->hostname);
    free(m->clock_source);
    memset(m, 0, sizeof *m);
}


void trace_thread_label(const struct trace_thread *t, char *buf, size_t size)
{
    if (!t->stream)
        snprintf(buf, size, "thread %u (omp %d, tid %d)", t->index, t->omp_thread_num, t->os_tid);
    else if (t->host_thread == UINT32_MAX)
        snprintf(buf, size, "device %d trace", t->device);
    else
        snprintf(buf, size, "device %d from thread %u", t->device, t->host_thread);
}
