/* md: escaping for each place text from data lands in a Markdown report,
 * GitHub heading anchors, and the one rounding policy for figures. */
#ifndef PR_MD_H
#define PR_MD_H

#include <stddef.h>

#include "buf.h"

/* Rounding, stated once: throughput and other figures with 2 decimals,
 * speedups with 2 decimals (as the seeds), percentages with 1 decimal. */
#define PR_DECIMALS_VALUE 2
#define PR_DECIMALS_SPEEDUP 2
#define PR_DECIMALS_PERCENT 1

/* Appends v with the given decimals (round half away from zero on the
 * decimal value, so 2.675 -> 2.68 as a reader expects); "-0.00" never
 * appears. */
void md_number(pr_buf *out, double v, int decimals);
/* Rounds v to decimals the same way. */
double md_round(double v, int decimals);

/* Text inside a table cell: escapes | \ ` * _ [ ] < > & and turns newlines
 * and control characters into spaces, so data cannot break the table or
 * start markup. */
void md_cell(pr_buf *out, const char *s);
/* Inline text in a paragraph or heading: the same escaping as a cell. */
void md_text(pr_buf *out, const char *s);
/* A link target that is a URL: percent-encodes spaces, parentheses, <, >,
 * control bytes and a '%' that starts no escape; '#' and '?' keep their URL
 * meaning; non-ASCII bytes are kept (GitHub accepts UTF-8). */
void md_link_target(pr_buf *out, const char *s);
/* A link target that is a relative file path: also percent-encodes '#',
 * '?', '%', '&', ':', brackets and braces, so that any file name from data
 * links to that file once decoded (what `perfrepro-gen check` does). */
void md_link_path(pr_buf *out, const char *path);
/* A value from data as one POSIX shell word in a command block: unchanged
 * when non-empty and made of [A-Za-z0-9_@%+=:,./-] only, otherwise
 * single-quoted, each ' written '\''.  The same rule as measure's
 * runner_shell_quote, so a pasted command gives the job what measure gives it. */
void md_shell_word(pr_buf *out, const char *s);
/* Code in a fenced block: the fence is chosen longer than any backtick run
 * in s.  Appends "```lang\n" s "\n```\n". */
void md_code_block(pr_buf *out, const char *lang, const char *s);
/* Inline code span, with a fence longer than any backtick run inside. */
void md_code_span(pr_buf *out, const char *s);
/* The same for a table cell: each '|' escaped with a backslash, which GFM
 * reads as a '|' of the code, not as a cell boundary. */
void md_code_cell(pr_buf *out, const char *s);

/* A text field of a CSV record (RFC 4180), the one place every CSV writer
 * escapes text (export, history, compare, the site's tables): unchanged
 * unless it holds a comma, a double quote, CR or LF, then quoted with each
 * '"' doubled.  A field a spreadsheet would run as a formula (it starts
 * with = + - @ tab or CR and is not a plain number such as "-3.5") is
 * quoted with a ' first, as OWASP's CSV injection advice says, so it shows
 * as the text it is.  NULL is the empty field.  UTF-8 is kept as it is.
 * Numbers a writer prints itself (md_num_shortest) are not text: they stay
 * numbers. */
void md_csv_field(pr_buf *out, const char *s);
/* The shortest decimal form of v that reads back as v exactly (strtod):
 * the fewest significant digits (1 to 17) that round-trip, so 1510.92
 * stays "1510.92", never "1510.9200000000001"; in fixed notation from
 * 1e-4 to 1e16 ("100", "0.00015"), else as %g ("1.5e-05", as Python's
 * repr switches); NAN and
 * infinities are the empty string.  Byte-identical on every build with an
 * IEEE double and a correctly rounding printf. */
void md_num_shortest(pr_buf *out, double v);
/* The significant digits md_num_shortest uses for v (1 to 17). */
int md_num_shortest_digits(double v);

/* The anchor GitHub generates for a heading text (without '#'):
 * lower-cased ASCII, spaces to '-', punctuation removed, letters, digits,
 * CJK, '-' and '_' kept. */
void md_anchor(pr_buf *out, const char *heading);

/* A list of anchors already used in a document, for GitHub's "-1", "-2"
 * suffixes on repeated headings. */
typedef struct pr_md_anchors pr_md_anchors;
pr_md_anchors *md_anchors_new(void);
void md_anchors_free(pr_md_anchors *a);
/* Appends the unique anchor for heading to out and remembers it. */
void md_anchors_add(pr_md_anchors *a, const char *heading, pr_buf *out);
/* 1 when anchor (without '#') was produced. */
int md_anchors_has(const pr_md_anchors *a, const char *anchor);

/* Builds a table of contents (nested list of links) from the ATX headings
 * of markdown between levels min_level and max_level, skipping fenced code.
 * Appends to out. */
void md_toc(pr_buf *out, const char *markdown, int min_level, int max_level);
/* Appends the raw text of a heading line with inline markup stripped the
 * way GitHub does before making the anchor (links keep their text, code
 * spans their content, emphasis markers and backslash escapes dropped,
 * entities &amp; &lt; &gt; &quot; &apos; &#N; &#xH; decoded once, as the
 * heading is rendered). */
void md_heading_plain(pr_buf *out, const char *s, size_t len);

/* Text or an attribute value of XML or HTML (the Atom feed, the site's page
 * frame and anchors): & < > " escaped, and
 * what XML 1.0 forbids dropped: C0 controls but tab, LF and CR, U+FFFE,
 * U+FFFF, surrogates and bytes that are not UTF-8. */
void md_xml(pr_buf *out, const char *s);

/* Appends Markdown page md (len bytes) with each prose line of more than
 * PR_MD_WRAP_OVER characters broken after sentence ends (". ", "; ", "。",
 * "；") into lines of about PR_MD_WRAP_AT characters, each continuation
 * indented to its list item's text: a soft line break, so the page renders
 * the same, but no line runs to thousands of characters (issue 34).  Code
 * blocks, tables, headings, HTML lines, code spans and link targets are
 * never broken. */
#define PR_MD_WRAP_OVER 1000
#define PR_MD_WRAP_AT 300
void md_wrap_prose(pr_buf *out, const char *md, size_t len);

#endif
