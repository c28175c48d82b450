/* rule: how a log becomes one number, written down.
 *
 * A parse rule is a JSON object (stored in suites, copied into every record)
 * that says which lines hold records, how a value is read from a line, what
 * the value means (a rate per card or for the whole job, or a time per step),
 * which records count (skip, reduce, min_records) and the unit.  A `profile`
 * fills in the defaults for a known log format.  docs/parse-rules.md is the
 * reference for every key.
 *
 * Rules are validated strictly: an unknown key, a wrong type, a bad enum
 * value, contradicting keys or a bad regular expression is an error that
 * names the file, line, column and field ("FILE:L:C: rule.skip: ...").
 * The checking is lib/rulecfg.c's (gen checks the rules it loads with it);
 * this module adds the compiled pattern.
 *
 * A pr_rule is immutable once built, except for the PCRE2 match data it
 * carries: use one pr_rule from one thread at a time.
 */
#ifndef PR_RULE_H
#define PR_RULE_H

#include <jansson.h>
#include <stddef.h>

#include "err.h"
#include "jdoc.h"
#include "rulecfg.h"

typedef struct pr_rule pr_rule;

/* Builds a rule from the object at c.  When c is a document's root, error
 * paths are written "rule.KEY"; inside a larger document they are the
 * document's own path ("cases[0].rule.KEY"). */
int rule_from_jcur(const pr_jdoc_jcur *c, pr_rule **out, pr_err *err);
/* Builds a rule from a JSON value already loaded (a suite's "rule"); the
 * errors name `name` and the field ("suite.json: rule.skip: ...") without a
 * line and column.  Prefer rule_from_jcur when the document is at hand. */
int rule_from_json(json_t *v, const char *name, pr_rule **out, pr_err *err);
/* Parses JSON text; name is used in messages ("<--rule>" for inline text). */
int rule_parse(const char *name, const char *text, size_t len, pr_rule **out, pr_err *err);
/* Loads a rule file. */
int rule_load(const char *path, pr_rule **out, pr_err *err);
void rule_free(pr_rule *r);

const pr_rulecfg_cfg *rule_get(const pr_rule *r);
/* The normalised rule: every key with its resolved value, in a fixed order
 * (a new reference; the caller owns it).  Building a rule from this object
 * gives the same rule again. */
json_t *rule_to_json(const pr_rule *r);

/* Runs the rule's regular expression on s[0..len).  Returns 1 and sets
 * *cap and *cap_len to the capture on a match, 0 on no match, -1 on a matching
 * error (e.g. the match limit; the line is treated as unreadable).  *edges
 * gets PR_NUM_EDGE_START when the capture starts the whole match and
 * PR_NUM_EDGE_END when it ends it (numbers.h). */
int rule_regex(const pr_rule *r, const char *s, size_t len, const char **cap, size_t *cap_len,
               int *edges);

/* The names used in JSON, for messages and documentation. */
const char *rule_profile_name(pr_rulecfg_profile p);
const char *rule_value_name(pr_rulecfg_value_kind v);

#endif
