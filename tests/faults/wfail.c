/* wfail: an LD_PRELOAD shim that makes writes fail, to test that perfrepro
 * reports the failure, exits non-zero and leaves what it wrote before
 * intact.
 *
 *   cc -shared -fPIC -o wfail.so tests/faults/wfail.c -ldl
 *   WFAIL_OPS=write WFAIL_ERRNO=ENOSPC WFAIL_PATH='*reports*' \
 *     LD_PRELOAD=./wfail.so perfrepro-gen build ...
 *
 * Environment:
 *   WFAIL_OPS    comma-separated calls to fail: open (opening for writing:
 *                O_WRONLY, O_RDWR or O_CREAT; also creat and fopen in a
 *                writing mode), write (also pwrite, writev), fsync (also
 *                fdatasync), close, rename (also renameat, renameat2),
 *                fwrite, mkdir.  Default: all of them.
 *   WFAIL_ERRNO  ENOSPC (default), EIO, EACCES, EROFS or EDQUOT.
 *   WFAIL_PATH   fnmatch(3) pattern (no FNM_PATHNAME: '*' crosses '/') the
 *                file's path must match: the path given to open, rename
 *                (either side) and mkdir; for calls on a descriptor the path
 *                /proc/self/fd/N points to.  Default: every path.
 *   WFAIL_NTH    fail only the Nth call that matches (1-based); later calls
 *                go through.  Default 0: every matching call fails.
 *   WFAIL_AFTER  with WFAIL_NTH unset: let the first N matching calls go
 *                through, fail every one after.
 *   WFAIL_LOG    a file to append one line per injected failure to
 *                ("op path errno"), so a test can tell the fault was hit.
 *   WFAIL_KILL   1: instead of failing the call, the process sends itself
 *                SIGKILL there (a writer killed at that exact point, before
 *                the call takes effect), for tests of what a killed writer
 *                leaves and what the next run makes of it.
 *
 * Only regular files are failed: writes to terminals, pipes and sockets
 * (standard error, the messages under test) always go through, and so does
 * every read.  The counter is per process (a forked child starts from the
 * parent's count at fork time).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

enum {
    OP_OPEN = 1,
    OP_WRITE = 2,
    OP_FSYNC = 4,
    OP_CLOSE = 8,
    OP_RENAME = 16,
    OP_FWRITE = 32,
    OP_MKDIR = 64
};

static int cfg_done, cfg_ops, cfg_errno, cfg_kill, in_shim;
static long cfg_nth, cfg_after, count;
static const char *cfg_path, *cfg_log;

static void config(void)
{
    if (cfg_done)
        return;
    cfg_done = 1;
    const char *ops = getenv("WFAIL_OPS");
    if (!ops || !*ops) {
        cfg_ops = OP_OPEN | OP_WRITE | OP_FSYNC | OP_CLOSE | OP_RENAME | OP_FWRITE | OP_MKDIR;
    } else {
        static const struct {
            const char *name;
            int op;
        } names[] = {{"open", OP_OPEN},   {"write", OP_WRITE},   {"fsync", OP_FSYNC},
                     {"close", OP_CLOSE}, {"rename", OP_RENAME}, {"fwrite", OP_FWRITE},
                     {"mkdir", OP_MKDIR}};
        for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
            const char *p = strstr(ops, names[i].name);
            size_t n = strlen(names[i].name);
            while (p && !((p == ops || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')))
                p = strstr(p + 1, names[i].name);
            if (p)
                cfg_ops |= names[i].op;
        }
    }
    const char *e = getenv("WFAIL_ERRNO");
    cfg_errno = ENOSPC;
    if (e && strcmp(e, "EIO") == 0)
        cfg_errno = EIO;
    else if (e && strcmp(e, "EACCES") == 0)
        cfg_errno = EACCES;
    else if (e && strcmp(e, "EROFS") == 0)
        cfg_errno = EROFS;
    else if (e && strcmp(e, "EDQUOT") == 0)
        cfg_errno = EDQUOT;
    cfg_path = getenv("WFAIL_PATH");
    if (cfg_path && !*cfg_path)
        cfg_path = NULL;
    const char *n = getenv("WFAIL_NTH");
    cfg_nth = n ? atol(n) : 0;
    n = getenv("WFAIL_AFTER");
    cfg_after = n ? atol(n) : 0;
    cfg_log = getenv("WFAIL_LOG");
    n = getenv("WFAIL_KILL");
    cfg_kill = n && strcmp(n, "1") == 0;
}

static void *real(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f)
        abort(); /* the shim cannot work without the function it wraps */
    return f;
}

/* The path behind fd when it is a regular file; NULL otherwise. */
static const char *fd_path(int fd, char *buf, size_t size)
{
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))
        return NULL;
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, buf, size - 1);
    if (n < 0)
        return NULL;
    buf[n] = '\0';
    return buf;
}

static void log_fault(const char *op, const char *path)
{
    if (!cfg_log)
        return;
    int (*ropen)(const char *, int, ...) = real("open");
    ssize_t (*rwrite)(int, const void *, size_t) = real("write");
    int (*rclose)(int) = real("close");
    int fd = ropen(cfg_log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    char line[PATH_MAX + 64];
    int n = snprintf(line, sizeof line, "%s %s %s\n", op, path, strerror(cfg_errno));
    if (n > 0)
        (void)!rwrite(fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    rclose(fd);
}

/* 1 when this call must fail (errno is then set). */
static int should_fail(int op, const char *path, const char *path2)
{
    if (in_shim)
        return 0;
    config();
    if (!(cfg_ops & op) || !path)
        return 0;
    if (cfg_path && fnmatch(cfg_path, path, 0) != 0 && (!path2 || fnmatch(cfg_path, path2, 0) != 0))
        return 0;
    count++;
    int fail = cfg_nth > 0 ? count == cfg_nth : count > cfg_after;
    if (!fail)
        return 0;
    static const char *const names[] = {"open",   "write",  "fsync", "close",
                                        "rename", "fwrite", "mkdir"};
    int i = 0;
    while (!(op & (1 << i)))
        i++;
    in_shim = 1;
    log_fault(names[i], path);
    in_shim = 0;
    if (cfg_kill)
        kill(getpid(), SIGKILL);
    errno = cfg_errno;
    return 1;
}

static int writing(int flags)
{
    return (flags & (O_WRONLY | O_RDWR | O_CREAT)) != 0;
}

/* ---- open ---- */

#define OPEN_WRAPPER(name, ...)                                                                    \
    {                                                                                              \
        mode_t mode = 0;                                                                           \
        if (flags & (O_CREAT | O_TMPFILE)) {                                                       \
            va_list ap;                                                                            \
            va_start(ap, flags);                                                                   \
            mode = (mode_t)va_arg(ap, int);                                                        \
            va_end(ap);                                                                            \
        }                                                                                          \
        if (writing(flags) && should_fail(OP_OPEN, path, NULL))                                    \
            return -1;                                                                             \
        return fn(__VA_ARGS__, flags, mode);                                                       \
    }

int open(const char *path, int flags, ...)
{
    static int (*fn)(const char *, int, ...);
    if (!fn)
        fn = real("open");
    OPEN_WRAPPER(open, path)
}

int open64(const char *path, int flags, ...)
{
    static int (*fn)(const char *, int, ...);
    if (!fn)
        fn = real("open64");
    OPEN_WRAPPER(open64, path)
}

int openat(int dirfd, const char *path, int flags, ...)
{
    static int (*fn)(int, const char *, int, ...);
    if (!fn)
        fn = real("openat");
    OPEN_WRAPPER(openat, dirfd, path)
}

int openat64(int dirfd, const char *path, int flags, ...)
{
    static int (*fn)(int, const char *, int, ...);
    if (!fn)
        fn = real("openat64");
    OPEN_WRAPPER(openat64, dirfd, path)
}

int creat(const char *path, mode_t mode)
{
    static int (*fn)(const char *, mode_t);
    if (!fn)
        fn = real("creat");
    if (should_fail(OP_OPEN, path, NULL))
        return -1;
    return fn(path, mode);
}

static int fmode_writes(const char *mode)
{
    return mode && strpbrk(mode, "wa+") != NULL;
}

FILE *fopen(const char *path, const char *mode)
{
    static FILE *(*fn)(const char *, const char *);
    if (!fn)
        fn = real("fopen");
    if (fmode_writes(mode) && should_fail(OP_OPEN, path, NULL))
        return NULL;
    return fn(path, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
    static FILE *(*fn)(const char *, const char *);
    if (!fn)
        fn = real("fopen64");
    if (fmode_writes(mode) && should_fail(OP_OPEN, path, NULL))
        return NULL;
    return fn(path, mode);
}

/* ---- write, fsync, close ---- */

ssize_t write(int fd, const void *buf, size_t n)
{
    static ssize_t (*fn)(int, const void *, size_t);
    if (!fn)
        fn = real("write");
    char p[PATH_MAX];
    if (!in_shim && fd > 2 && should_fail(OP_WRITE, fd_path(fd, p, sizeof p), NULL))
        return -1;
    return fn(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    static ssize_t (*fn)(int, const void *, size_t, off_t);
    if (!fn)
        fn = real("pwrite");
    char p[PATH_MAX];
    if (!in_shim && fd > 2 && should_fail(OP_WRITE, fd_path(fd, p, sizeof p), NULL))
        return -1;
    return fn(fd, buf, n, off);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
    static ssize_t (*fn)(int, const struct iovec *, int);
    if (!fn)
        fn = real("writev");
    char p[PATH_MAX];
    if (!in_shim && fd > 2 && should_fail(OP_WRITE, fd_path(fd, p, sizeof p), NULL))
        return -1;
    return fn(fd, iov, cnt);
}

int fsync(int fd)
{
    static int (*fn)(int);
    if (!fn)
        fn = real("fsync");
    char p[PATH_MAX];
    if (should_fail(OP_FSYNC, fd_path(fd, p, sizeof p), NULL))
        return -1;
    return fn(fd);
}

int fdatasync(int fd)
{
    static int (*fn)(int);
    if (!fn)
        fn = real("fdatasync");
    char p[PATH_MAX];
    if (should_fail(OP_FSYNC, fd_path(fd, p, sizeof p), NULL))
        return -1;
    return fn(fd);
}

int close(int fd)
{
    static int (*fn)(int);
    if (!fn)
        fn = real("close");
    char p[PATH_MAX];
    /* Only descriptors open for writing: closing what was read cannot lose
     * data.  Like Linux, the descriptor is closed even when close fails. */
    int fl = fd > 2 && !in_shim ? fcntl(fd, F_GETFL) : -1;
    if (fl >= 0 && (fl & O_ACCMODE) != O_RDONLY &&
        should_fail(OP_CLOSE, fd_path(fd, p, sizeof p), NULL)) {
        int e = errno;
        fn(fd);
        errno = e;
        return -1;
    }
    return fn(fd);
}

size_t fwrite(const void *buf, size_t size, size_t n, FILE *f)
{
    static size_t (*fn)(const void *, size_t, size_t, FILE *);
    if (!fn)
        fn = real("fwrite");
    char p[PATH_MAX];
    int fd = fileno(f);
    if (!in_shim && fd > 2 && should_fail(OP_FWRITE, fd_path(fd, p, sizeof p), NULL))
        return 0;
    return fn(buf, size, n, f);
}

/* ---- rename, mkdir ---- */

int rename(const char *from, const char *to)
{
    static int (*fn)(const char *, const char *);
    if (!fn)
        fn = real("rename");
    if (should_fail(OP_RENAME, to, from))
        return -1;
    return fn(from, to);
}

int renameat(int fd1, const char *from, int fd2, const char *to)
{
    static int (*fn)(int, const char *, int, const char *);
    if (!fn)
        fn = real("renameat");
    if (should_fail(OP_RENAME, to, from))
        return -1;
    return fn(fd1, from, fd2, to);
}

int renameat2(int fd1, const char *from, int fd2, const char *to, unsigned flags)
{
    static int (*fn)(int, const char *, int, const char *, unsigned);
    if (!fn)
        fn = real("renameat2");
    if (should_fail(OP_RENAME, to, from))
        return -1;
    return fn(fd1, from, fd2, to, flags);
}

int mkdir(const char *path, mode_t mode)
{
    static int (*fn)(const char *, mode_t);
    if (!fn)
        fn = real("mkdir");
    if (should_fail(OP_MKDIR, path, NULL))
        return -1;
    return fn(path, mode);
}
