/* fileio: reading files whole, writing them atomically, safe paths. */
#ifndef PR_FILEIO_H
#define PR_FILEIO_H

#include <stddef.h>

#include "buf.h"
#include "err.h"

/* What a file read whole may weigh: data files, templates and pages are
 * far below it; a link to /dev/zero or a 1 GB sparse file is not. */
#define PR_READ_MAX_BYTES ((size_t)64 << 20)

/* Opens path for reading only when it is a regular file (after following
 * symbolic links): a FIFO, device, socket or directory is an error naming
 * what it is, and opening never blocks.  Returns the fd (O_CLOEXEC, the
 * caller closes it) or -1. */
int pr_fileio_open_regular(const char *path, pr_err *err);
/* Appends the whole regular file to out; more than max_bytes is an error
 * (checked before reading). */
int pr_fileio_read_file_max(const char *path, size_t max_bytes, pr_buf *out, pr_err *err);
/* pr_fileio_read_file_max with PR_READ_MAX_BYTES. */
int pr_fileio_read_file(const char *path, pr_buf *out, pr_err *err);
/* pr_fileio_read_file, but a symbolic link at path is not followed: 1, nothing
 * read and err untouched, when path is one, so that the caller checks where
 * it leads first (lstat and open in one system call for the common case). */
int pr_fileio_read_file_nofollow(const char *path, pr_buf *out, pr_err *err);
/* 0 when path, with every symbolic link resolved, lies inside root (also
 * resolved); otherwise -1 with an error naming path.  What gen reads and
 * publishes must pass this against the tree it was given. */
int pr_fileio_path_within(const char *root, const char *path, pr_err *err);
/* "a FIFO", "a character device", "a directory", ... for a st_mode. */
const char *pr_fileio_mode_name(unsigned mode);
/* pr_fileio_path_within, and path (links followed) is a regular file: a FIFO,
 * device, socket or folder is an error naming what it is.  Nothing is
 * opened, so a FIFO never blocks. */
int pr_fileio_check_regular_within(const char *root, const char *path, pr_err *err);
/* Every entry below dir resolves inside dir and is a regular file or a
 * folder (for a tree of which any file may be read, such as the templates).
 * Symbolic links are checked, not walked: a linked folder that stays inside
 * is walked at its own place. */
int pr_fileio_check_tree_within(const char *dir, pr_err *err);
/* Writes data to path through a temporary file in the same directory,
 * fsync and rename: readers see the old content or the new, never a part.
 * Creates missing parent directories. */
int pr_fileio_write_atomic(const char *path, const void *data, size_t len, pr_err *err);
/* Like pr_fileio_write_atomic, but leaves the file untouched (and its mtime) when
 * its content is already data, and skips the fsync: for generated output
 * that can be regenerated (readers still never see a partial file). */
int pr_fileio_write_if_changed(const char *path, const void *data, size_t len, pr_err *err);
/* Creates path, which must not exist (O_EXCL|O_NOFOLLOW: nothing planted
 * there is followed), and writes data to it, without fsync; on error the
 * file is removed.  For files of a private staging folder. */
int pr_fileio_write_new(const char *path, const void *data, size_t len, pr_err *err);
/* Makes dst (which must not exist) hold the content of the regular file src:
 * a hard link when it can, else a copy (pr_fileio_write_new's rules). */
int pr_fileio_link_or_copy(const char *src, const char *dst, pr_err *err);
/* For a staging tree that replaces an older one (pr_fileio_swapdir): makes dst
 * (which must not exist) hold data, as a hard link to prev when prev is a
 * regular file (not a link) already holding exactly data (its inode and
 * mtime kept), else as a new file (pr_fileio_write_new); *changed says which. */
int pr_fileio_stage_write(const char *prev, const char *dst, const void *data, size_t len,
                          int *changed, pr_err *err);
/* pr_fileio_stage_write for the content of the regular file src, streaming. */
int pr_fileio_stage_copy(const char *src, const char *prev, const char *dst, int *changed,
                         pr_err *err);
/* Removes path and everything below it, never following a symbolic link
 * (rm -rf); best effort.  Returns 0 when path is gone. */
int pr_fileio_remove_tree(const char *path);
/* Swaps the folders a and b in one step (renameat2 RENAME_EXCHANGE): no
 * instant sees neither or both.  -1 with errno set (EINVAL or ENOSYS where
 * the file system or kernel cannot). */
int pr_fileio_exchange(const char *a, const char *b);
/* A folder replaced as a whole (perfrepro-gen build's reports, site's OUT):
 * the new tree is written into a staging folder beside it,
 * ".NAME.staging.PID", and swapped in by one renameat2(RENAME_EXCHANGE): at
 * any instant the folder is the old tree or the new one.  Where the file
 * system has no RENAME_EXCHANGE, two renames through ".NAME.old.PID" (a
 * writer killed between them leaves NAME missing, and the next writer puts
 * the old tree back).  Where no staging folder can be swapped (the folder
 * is a mount point, or its parent is not ours to write) stage is NULL and
 * the caller writes in place. */
typedef struct pr_fileio_swapdir {
    const char *dir; /* as given */
    char *stage;     /* the staging folder; NULL: write in place */
    char *real;      /* dir with links resolved; NULL when it does not exist yet */
    char *parent;    /* the folder holding dir and the staging folder */
    char *base;      /* dir's name */
} pr_fileio_swapdir;
/* Finds where dir is (a link to a folder: the folder it resolves to;
 * missing: its parent is created), removes what dead writers left beside
 * it (their staging folders; an old tree, put back first when dir is
 * missing), and creates the staging folder with dir's permissions.  sd is
 * released with pr_fileio_swapdir_free, also after an error. */
int pr_fileio_swapdir_open(pr_fileio_swapdir *sd, const char *dir, pr_err *err);
/* Puts the staging tree in dir's place; sd->stage then holds the previous
 * tree (NULL when dir did not exist), which pr_fileio_swapdir_free removes.  what
 * names the tree in messages ("reports", "site").  On error dir is as it
 * was and the staging tree is still sd->stage. */
int pr_fileio_swapdir_swap(pr_fileio_swapdir *sd, const char *what, pr_err *err);
/* Removes sd->stage (a tree given up, or the previous one after a swap) and
 * frees what sd holds. */
void pr_fileio_swapdir_free(pr_fileio_swapdir *sd);
/* 1 when a process with this id exists (kill(pid, 0)), for telling the
 * leftovers of a dead writer (pr_fileio_is_temp_name) from those of a live one. */
int pr_fileio_pid_alive(long pid);
/* Makes dst a copy of the regular file src, streaming, through a temporary
 * file and rename without fsync (regenerated output), and only when dst
 * does not already hold the same bytes; *changed says whether it was
 * written. */
int pr_fileio_copy_if_changed(const char *src, const char *dst, int *changed, pr_err *err);
/* Copies src to dst through a temporary file and rename, streaming (logs can
 * be gigabytes); creates dst's parent directories. */
int pr_fileio_copy_file_atomic(const char *src, const char *dst, pr_err *err);
/* The first half of pr_fileio_copy_file_atomic: copies src to a temporary file
 * beside dst (synced; dst's parent directories created), *tmp_out malloc'd;
 * commit it with pr_fileio_commit_temp.  On error nothing is left behind. */
int pr_fileio_copy_temp(const char *src, const char *dst, char **tmp_out, pr_err *err);
/* The two halves of pr_fileio_write_atomic, for replacing a set of files together
 * (perfrepro-gen build writes every changed page first and renames them all
 * only when every write succeeded, so a failed build leaves the previous
 * generation as it was).  pr_fileio_write_temp writes data to a temporary file
 * beside path (see PR_TEMP_INFIX; missing parent directories are created), with
 * an fsync when durable, and sets *tmp_out (malloc'd); on error nothing is
 * left behind.  pr_fileio_commit_temp renames it to path; on error it removes tmp.
 * A caller that gives up between the two unlinks the temporary files. */
int pr_fileio_write_temp(const char *path, const void *data, size_t len, int durable,
                         char **tmp_out, pr_err *err);
int pr_fileio_commit_temp(const char *tmp, const char *path, pr_err *err);
/* Creates path's temporary file (PR_TEMP_INFIX, O_EXCL, mode 0644) for
 * writing; the fd, *tmp_out malloc'd; -1 with err set.  Commit it with
 * pr_fileio_commit_temp. */
int pr_fileio_create_temp(const char *path, char **tmp_out, pr_err *err);
/* Temporary files are "NAME" PR_TEMP_INFIX "PID.XXXXXX" (random, created
 * with O_EXCL).  pr_fileio_is_temp_name says whether a file name has that shape
 * (also the older "NAME.tmp.PID"), and gives the PID of its writer, so a
 * later run can remove what a killed one left. */
#define PR_TEMP_INFIX ".tmp."
int pr_fileio_is_temp_name(const char *name, long *pid_out);
/* Removes from dir what writers that are gone left: the entries named as
 * pr_fileio_is_temp_name says (their NAME ending in stem_end; "" for any) whose
 * PID is not a live process (nor ours: a writer of ours has not started
 * when this runs, but a live one elsewhere may be writing); a folder goes
 * whole (pr_fileio_remove_tree).  Anything else, and a live writer's files, stay.
 * Best effort: what cannot be listed or removed stays. */
void pr_fileio_remove_dead_temps(const char *dir, const char *stem_end);
/* 1 when path is a regular file (not a symbolic link) holding exactly
 * data[0..len). */
int pr_fileio_equals(const char *path, const void *data, size_t len);
/* 1 when the files at a and b hold the same bytes; 0 when they differ or
 * one cannot be read (then nothing is claimed). */
int pr_fileio_same_bytes(const char *a, const char *b);
/* mkdir -p. */
int pr_fileio_mkdirs(const char *path, pr_err *err);
/* 1 when path exists and is a regular file / a directory. */
int pr_fileio_is_file(const char *path);
int pr_fileio_is_dir(const char *path);
/* 1 when rel is a relative path that stays inside its base: not empty, not
 * absolute, no "..", "." or empty components, no backslash, no control
 * characters. */
int pr_fileio_path_is_safe_relative(const char *rel);
/* Returns a malloc'd "a/b" (the caller frees it). */
char *pr_fileio_path_join(const char *a, const char *b);
/* Returns a malloc'd directory part of path ("." when none). */
char *pr_fileio_path_dirname(const char *path);
/* Returns a malloc'd relative path from directory from_dir to file to_path;
 * both relative to the same root, normalised, without "..".  */
char *pr_fileio_path_relative(const char *from_dir, const char *to_path);

/* Lists the entries of dir (not "." or ".."), sorted bytewise, into a
 * malloc'd NULL-terminated array of malloc'd names; free with
 * pr_fileio_strv_free. */
int pr_fileio_list_dir(const char *dir, char ***names_out, size_t *count_out, pr_err *err);
void pr_fileio_strv_free(char **v);
/* qsort/bsearch comparator for an array of char* (bytewise order). */
int pr_fileio_strv_cmp(const void *a, const void *b);

#endif
