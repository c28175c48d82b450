/* suite_names: which model, framework and case names are safe as file names, and why not. */
#include "suite.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Extensions a web server or browser treats as active content: a log or
 * folder named so would be served as a page (stored XSS), not as text. */
static const char *const active_extensions[] = {
    "html", "htm", "xhtml", "xht", "shtml", "svg",   "svgz", "xml", "xsl",  "xslt", "js",
    "mjs",  "css", "swf",   "pdf", "mht",   "mhtml", "php",  "cgi", "wasm", NULL};

int pr_suite_name_has_active_extension(const char *s)
{
    const char *dot = strrchr(s, '.');
    if (!dot)
        return 0;
    for (const char *const *e = active_extensions; *e; e++)
        if (strcasecmp(dot + 1, *e) == 0)
            return 1;
    return 0;
}

int pr_suite_name_is_safe(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 128 || s[0] == '.' || s[0] == '-' || pr_suite_name_has_active_extension(s))
        return 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-' || c == '+'))
            return 0;
    }
    return 1;
}

const char *pr_suite_name_unsafe_why(const char *s, char *buf, size_t len)
{
    size_t n = strlen(s);
    if (pr_suite_name_is_safe(s))
        return NULL;
    if (n == 0)
        return "it is empty";
    if (n > 128)
        return "it is longer than 128 bytes";
    if (s[0] == '.')
        return "it starts with '.' (a hidden file, or \".\" and \"..\")";
    if (s[0] == '-')
        return "it starts with '-' (a command would read it as an option)";
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-' || c == '+')) {
            if (c < 0x20 || c >= 0x7f)
                snprintf(buf, len, "byte 0x%02x is not one of [A-Za-z0-9._+-]", c);
            else
                snprintf(buf, len, "'%c' is not one of [A-Za-z0-9._+-]", c);
            return buf;
        }
    }
    if (pr_suite_name_has_active_extension(s)) {
        snprintf(buf, len,
                 "it ends in \"%s\", an extension a browser runs or renders as a "
                 "page (active content)",
                 strrchr(s, '.'));
        return buf;
    }
    return "it is not a safe name";
}
