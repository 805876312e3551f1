/* The slow side of the per-thread trace buffers: allocation, and the flush a
 * thread does itself when its buffer is full. The flush writes the buffer to
 * the thread's raw file in OUTPUT_DIR/trace-raw/, and is recorded as a region
 * ("pomp flush") in the trace and the profile, so its cost shows where it
 * fell. A failed write loses the buffer's events: they are counted, a gap
 * record marks the place, and the finalizer reports them.
 * No descriptor of a raw file is kept between flushes: each flush opens the
 * file by its path, checks it is the file the run made, writes and closes
 * it. A descriptor kept open was closed by a program that closes its
 * descriptors (closefrom, a daemon's start), whose next file took its number,
 * and the later flushes wrote trace records into the program's file (a
 * probe: 30 bytes of its data became 289,710). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "ctc.h"
#include "pomp_clock.h"
#include "pomp_control.h"
#include "pomp_fd.h"
#include "pomp_levels.h"
#include "pomp_outdir.h"
#include "pomp_owned.h"
#include "pomp_region.h"
#include "pomp_thread.h"
#include "pomp_trace_buffer.h"
#include "trace_model.h"

/* The library's own region for flushes, made by the first flush (so a run
 * that never flushes has no such region). */
static POMP_Handle_t flush_region;

static struct POMP_Region_s *get_flush_region(void)
{
    struct POMP_Region_s *r = __atomic_load_n(&flush_region, __ATOMIC_ACQUIRE);
    if (r)
        return r;
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", "pomp");
    ctc_builder_add(&b, "name", "flush");
    char *ctc = ctc_builder_finish(&b);
    if (ctc)
        pomp_region_get_handle(&flush_region, ctc, POMP_INIT_HANDLE);
    free(ctc);
    return __atomic_load_n(&flush_region, __ATOMIC_ACQUIRE);
}

void pomp_eventlog_alloc(struct pomp_eventlog *l, uint32_t capacity)
{
    enum { SMALLEST = 4096 / sizeof(struct pomp_event) };
    uint32_t asked = capacity;
    for (; capacity >= SMALLEST; capacity /= 2) {
        l->buf = malloc((size_t)capacity * sizeof *l->buf);
        if (l->buf) {
            l->capacity = capacity;
            static int said; /* a smaller buffer flushes more often: said once (it was not) */
            if (capacity < asked && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
                fprintf(stderr,
                        "pomp: note: memory is short: a thread's trace buffer holds %u events, "
                        "not the %u POMP_BUFFER_SIZE asks for; it is written out more often\n",
                        capacity, asked);
            return;
        }
    }
    l->capacity = 0;
    l->error = ENOMEM;
}

/* OUTPUT_DIR/trace-raw, made once: as the messages name it, and as the
 * flushes open its files (a full path: the program may change its working
 * directory between two flushes). */
static pthread_once_t raw_dir_once = PTHREAD_ONCE_INIT;
static char raw_dir[4200], raw_dir_full[8400];
static int raw_dir_errno;

/* Whether a file would pass the process's file-size limit (ulimit -f) by
 * growing to end bytes: the kernel kills a program with SIGXFSZ for such a
 * write (153, before any output of its own, with a trace; a probe), so the
 * trace's files stop short of it, as at a full disk. */
static int beyond_file_limit(off_t end)
{
    struct rlimit limit;
    return getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
           (rlim_t)end > limit.rlim_cur;
}

/* The room kept for profile.json (TRACE_PROFILE_RESERVE): an eighth of the
 * file system, at most TRACE_PROFILE_RESERVE_MAX, none below 64 KiB (a file
 * system that small holds no trace worth the name). A raw trace that filled
 * the disk during the run cost the profile at exit (a probe: a 2 MB tmpfs). */
static void reserve_profile_room(void)
{
    struct statvfs fs;
    if (statvfs(raw_dir, &fs) != 0)
        return;
    uint64_t size = (uint64_t)fs.f_blocks * fs.f_frsize / 8;
    if (size > TRACE_PROFILE_RESERVE_MAX)
        size = TRACE_PROFILE_RESERVE_MAX;
    if (size < (64u << 10) || beyond_file_limit((off_t)size))
        return;
    char path[sizeof raw_dir + 32];
    snprintf(path, sizeof path, "%s/" TRACE_PROFILE_RESERVE, raw_dir);
    int fd = pomp_open_owned(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    if (posix_fallocate(fd, 0, (off_t)size) != 0)
        unlink(path); /* (no room even for that: the losses are said anyway) */
    close(fd);
}

static void make_raw_dir(void)
{
    int err;
    const char *dir = pomp_output_dir(&err);
    snprintf(raw_dir, sizeof raw_dir, "%s/" TRACE_RAW_DIR, dir);
    /* (a relative output directory is placed while the working directory is
     * the one the program started in, pomp_outdir.c) */
    char cwd[4096];
    int n = raw_dir[0] != '/' && getcwd(cwd, sizeof cwd)
                ? snprintf(raw_dir_full, sizeof raw_dir_full, "%s/%s", cwd, raw_dir)
                : -1;
    if (n < 0 || (size_t)n >= sizeof raw_dir_full)
        snprintf(raw_dir_full, sizeof raw_dir_full, "%s", raw_dir);
    if (err)
        raw_dir_errno = err;
    else if (pomp_mkdir_owned(raw_dir) != 0 && errno != EEXIST)
        raw_dir_errno = errno;
    if (!raw_dir_errno)
        reserve_profile_room();
}

void pomp_trace_raw_path(uint32_t thread, char *buf, size_t size)
{
    pthread_once(&raw_dir_once, make_raw_dir);
    snprintf(buf, size, "%s/thread-%u.bin", raw_dir, thread);
}

static int write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

/* The thread's raw file, as the flushes open it. */
static void raw_file_path(uint32_t thread, char *buf, size_t size)
{
    pthread_once(&raw_dir_once, make_raw_dir);
    snprintf(buf, size, "%s/thread-%u.bin", raw_dir_full, thread);
}

/* Makes the thread's raw file with its header, and notes its identity;
 * returns its descriptor (at 3 or above) or -1 with *err set. */
static int make_raw(struct pomp_eventlog *l, uint32_t thread, const char *path, int *err)
{
    /* a new file, never the old one cut to nothing: another run writing this
     * directory at once (a POMP_OUTPUT_DIR without %p) may be reading that
     * one through a mapping at its exit, which a truncation killed with
     * SIGBUS (a probe: 2 to 6 of 8 such runs); reading this run's file
     * instead, it says the file is another process's */
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 8; tries++) {
        if (unlink(path) != 0 && errno != ENOENT)
            return *err = errno, -1;
        fd = pomp_fd_above_std(
            pomp_open_owned(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
        if (fd < 0 && errno != EEXIST) /* (EEXIST: another run made it in between) */
            return *err = errno, -1;
    }
    if (fd < 0)
        return *err = EEXIST, -1;
    struct trace_raw_header h = {.magic = TRACE_RAW_MAGIC,
                                 .version = TRACE_RAW_VERSION,
                                 .record_size = sizeof(struct pomp_event),
                                 .thread = thread,
                                 .endian = TRACE_RAW_ENDIAN,
                                 .pid = (uint32_t)getpid()};
    struct stat st;
    *err = beyond_file_limit((off_t)sizeof h) ? EFBIG : write_all(fd, &h, sizeof h);
    if (!*err && fstat(fd, &st) != 0)
        *err = errno;
    if (*err) { /* no file rather than one without its header (a full disk), which the
                   readers take for a missing one; before they did, no trace was converted */
        close(fd);
        unlink(path);
        return -1;
    }
    l->file_dev = (uint64_t)st.st_dev;
    l->file_ino = (uint64_t)st.st_ino;
    l->made = 1;
    return fd;
}

/* Opens the thread's raw file for one flush: made at the first, opened again
 * by its path at each later one (O_RDWR: its header is read) and checked to
 * be that file, at 3 or above. Returns the descriptor, or -1 with *err set (an
 * errno, or TRACE_RAW_REPLACED). */
static int open_raw(struct pomp_eventlog *l, uint32_t thread, int *err)
{
    char path[sizeof raw_dir_full + 32];
    raw_file_path(thread, path, sizeof path);
    if (raw_dir_errno)
        return *err = raw_dir_errno, -1;
    if (!l->made)
        return make_raw(l, thread, path, err);
    int fd = pomp_fd_above_std(open(path, O_RDWR | O_CLOEXEC));
    if (fd < 0)
        return *err = errno == ENOENT ? TRACE_RAW_REPLACED : errno, -1;
    /* the same device and inode, the size the run's records made and its
     * header: a file made in its place after it was removed may get the
     * same inode number (a probe: tmpfs gave it at once) */
    struct stat st;
    struct trace_raw_header h;
    off_t whole = (off_t)(sizeof h + l->written * sizeof *l->buf);
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_dev != l->file_dev ||
        (uint64_t)st.st_ino != l->file_ino || st.st_size != whole ||
        pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h ||
        memcmp(h.magic, TRACE_RAW_MAGIC, sizeof h.magic) != 0 || h.thread != thread ||
        h.pid != (uint32_t)getpid()) {
        close(fd);
        return *err = TRACE_RAW_REPLACED, -1;
    }
    return fd;
}

/* A write that failed (a full disk) left the file ending where the last whole
 * buffer did, with a gap record of the lost buffer's events after it, where
 * there is room for one: the file gave up, its part of a buffer stayed (a
 * probe: 72 records more than defs.json said, "the file is missing, cut or not
 * this run's"), and the gap record stayed in a buffer never written, so the
 * converters drew the thread's open regions on to the run's end (a critical
 * body of 39 ms). The gap is placed at the first lost event. */
static void end_file_at_loss(struct pomp_eventlog *l, int fd, off_t whole)
{
    if (ftruncate(fd, whole) != 0)
        return;
    struct POMP_Region_s *r = get_flush_region();
    struct pomp_event gap = {.time = l->used ? l->buf[0].time : pomp_now(),
                             .arg = l->used,
                             .region = r ? r->id : 0,
                             .kind = POMP_EV_TRACE_GAP,
                             .phase = POMP_PHASE_EVENT,
                             .group = POMP_EVENT_GROUP_LIBRARY};
    if (!beyond_file_limit(whole + (off_t)sizeof gap) && lseek(fd, whole, SEEK_SET) == whole &&
        write_all(fd, &gap, sizeof gap) == 0) {
        l->written++;
    } else { /* no room for the gap: the file ends whole */
        int ignored = ftruncate(fd, whole);
        (void)ignored;
    }
}

/* Writes the buffer to the raw file, after the records written before (its
 * descriptor open for this write only). Returns 0, or an errno (the events
 * are then counted as dropped and the file is given up). */
static int write_buffer(struct pomp_eventlog *l, uint32_t thread)
{
    int err = l->error; /* failed before: do not retry every flush */
    int fd = err ? -1 : open_raw(l, thread, &err);
    if (!err) {
        off_t whole = (off_t)(sizeof(struct trace_raw_header) + l->written * sizeof *l->buf);
        size_t bytes = (size_t)l->used * sizeof *l->buf;
        if (beyond_file_limit(whole + (off_t)bytes))
            err = EFBIG;
        else if (lseek(fd, whole, SEEK_SET) != whole)
            err = errno;
        else
            err = write_all(fd, l->buf, bytes);
        if (err)
            end_file_at_loss(l, fd, whole);
    }
    if (fd >= 0 && close(fd) != 0 && !err && errno != EINTR)
        err = errno; /* (a network file system's write error, told at the close) */
    if (err) {
        /* a file that could not be opened again for want of a descriptor or
         * memory (the program at its RLIMIT_NOFILE for a moment) is tried
         * again at the next flush: this buffer's events are lost, not the
         * rest of the thread's trace (a review) */
        int transient = l->made && fd < 0 &&
                        (err == EMFILE || err == ENFILE || err == ENOMEM || err == EINTR ||
                         err == EAGAIN);
        if (!l->error && !transient)
            l->error = err;
        l->dropped += l->used;
        return err;
    }
    l->written += l->used;
    return 0;
}

static void put_library_record(struct pomp_eventlog *l, uint64_t time, uint32_t region,
                               unsigned kind, enum pomp_phase phase, uint64_t arg)
{
    /* the buffer was just emptied, so these always fit (capacity >= 170) */
    struct pomp_event *e = &l->buf[l->used++];
    *e = (struct pomp_event){.time = time, .arg = arg, .region = region, .kind = (uint16_t)kind,
                             .phase = (uint8_t)phase, .group = POMP_EVENT_GROUP_LIBRARY};
}

/* Says, once a run, that thread's trace could not be written and why: at a
 * flush during the run or at the last write at the end (before, only a flush
 * said it, and a run that never flushed, the common case with the default
 * buffer, said only that events were lost, the cause in defs.json alone; a
 * probe: a file size limit, a full disk). */
static void report_write_error(const struct pomp_eventlog *l, uint32_t thread, int err)
{
    static int reported;
    if (__atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED))
        return;
    /* (the directory, where the file could not be made in it; else the file) */
    char where[sizeof raw_dir + 32];
    if (l->made)
        snprintf(where, sizeof where, "%s/thread-%u.bin", raw_dir, thread);
    else
        snprintf(where, sizeof where, "%s", raw_dir);
    fprintf(stderr,
            "pomp: error: cannot write the trace of thread %u to %s: %s; its events "
            "are dropped and counted, as are those of any other thread that cannot "
            "write (said once: trace-raw/defs.json names each)\n",
            thread, where, trace_raw_error_text(err));
}

void pomp_eventlog_flush(struct pomp_eventlog *l)
{
    struct pomp_thread *t =
        (struct pomp_thread *)((char *)l - offsetof(struct pomp_thread, log));
    uint64_t start = pomp_now();
    uint64_t lost = l->used;
    int given_up = l->error != 0; /* a write failed before: nothing is written now */
    int err = write_buffer(l, t->index);
    l->used = 0;
    uint64_t end = pomp_now();
    l->flushed_at = end;
    struct POMP_Region_s *r = get_flush_region();
    uint32_t id = r ? r->id : 0;
    if (err) {
        report_write_error(l, t->index, err);
        put_library_record(l, start, id, POMP_EV_TRACE_GAP, POMP_PHASE_EVENT, lost);
        if (given_up) /* no write tried: a gap, not a flush (no time, no visit) */
            return;
    } else {
        l->flushes++;
    }
    put_library_record(l, start, id, POMP_EV_TRACE_FLUSH, POMP_PHASE_ENTER, 0);
    put_library_record(l, end, id, POMP_EV_TRACE_FLUSH, POMP_PHASE_EXIT, 0);
    if (r) { /* the flush's time in the profile, under the region it interrupted */
        pomp_profile_enter(&t->profile, r, start, 0);
        pomp_profile_exit(&t->profile, r, end);
    }
}

int pomp_eventlog_finish(struct pomp_eventlog *l, uint32_t thread)
{
    int given_up = l->error != 0; /* said when it gave up */
    int err = l->buf ? write_buffer(l, thread) : 0;
    l->used = 0;
    if (err && !given_up)
        report_write_error(l, thread, err);
    return err;
}
