/* fstree: whole trees of files for a writer that stages a folder and swaps
 * it in (perfrepro-measure import stages a copy of data/): a copy made of
 * hard links, files put back as links to the previous tree where their
 * bytes did not change (inode and mtime kept), and a listing that tells
 * whether anyone wrote into a tree meanwhile. */
#ifndef PR_FSTREE_H
#define PR_FSTREE_H

#include "buf.h"
#include "err.h"

/* Makes the existing empty folder dst a copy of the tree src: folders
 * created with their permissions, regular files hard links to src's (a
 * copy where a link is refused: another file system, protected_hardlinks),
 * symbolic links copied as links (never followed).  Anything else (a FIFO,
 * a device, a socket) is an error naming it. */
int pr_fstree_tree_link(const char *src, const char *dst, pr_err *err);
/* For each regular file of cur (not a link) whose counterpart in prev is a
 * regular file of another inode holding the same bytes: replaces it with a
 * hard link to prev's, so that a file rewritten with its old content keeps
 * its inode and mtime once cur replaces prev (left new where a link is
 * refused).  cur must be private to the caller (a staging tree). */
int pr_fstree_tree_relink_unchanged(const char *prev, const char *cur, pr_err *err);
/* Appends to out one line per entry below dir (sorted; path, type, inode,
 * size, mtime), never following links: two listings are equal only when
 * nothing in the tree was created, removed, replaced or written between
 * them. */
int pr_fstree_tree_listing(const char *dir, pr_buf *out, pr_err *err);

#endif
