/* measure/import_steps: the template a written suite.json names its cases
 * and command words with (docs/import.md, "The run set's environment and
 * steps"; issue 33 item 7).  import_steps_template finds, for strings one
 * per case, a template that expands to each with the case's own values:
 *   - what differs becomes the placeholder whose value each string prints,
 *     the first variable in order where two print one value;
 *   - what every string shares stays as printed ("--epochs 1" never
 *     "--epochs {nodes}"), a number inside a longer one is never taken
 *     ("1" in "16"), and braces are written {{ }};
 *   - strings no template fits give NULL (the import then writes no suite). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "5-import/import_steps.h"

static const char *const names[] = {"gpus", "batch_size", "precision", "nodes"};

/* The template of n strings, case i's values vals[i][0..3]. */
static char *tmpl(const char *const *strings, size_t n, const char *const vals[][4])
{
    const char *const *values[8];
    for (size_t i = 0; i < n; i++)
        values[i] = vals[i];
    return import_steps_template(strings, n, names, values, 4);
}

Test(import_steps, what_differs_is_a_placeholder)
{
    const char *s[] = {"toy_bs8_fp32_gpu1", "toy_bs8_fp32_gpu8", "toy_bs16_fp16_gpu8"};
    const char *v[][4] = {
        {"1", "8", "fp32", "1"}, {"8", "8", "fp32", "1"}, {"8", "16", "fp16", "1"}};
    char *t = tmpl(s, 3, v);
    cr_assert_str_eq(t, "toy_bs{batch_size}_{precision}_gpu{gpus}");
    free(t);
}

Test(import_steps, shared_parts_stay_as_printed)
{
    const char *s[] = {"--epochs=1", "--epochs=1"};
    const char *v[][4] = {{"1", "8", "fp32", "1"}, {"8", "8", "fp32", "1"}};
    char *t = tmpl(s, 2, v);
    cr_assert_str_eq(t, "--epochs=1");
    free(t);
    /* gpus and nodes both 8 and 8 in the first case: the one that fits all. */
    const char *s2[] = {"n8", "n2"};
    const char *v2[][4] = {{"8", "8", "fp32", "8"}, {"16", "8", "fp32", "2"}};
    t = tmpl(s2, 2, v2);
    cr_assert_str_eq(t, "n{nodes}");
    free(t);
}

Test(import_steps, numbers_inside_numbers_and_braces)
{
    const char *s[] = {"{x}_16_1", "{x}_16_8"};
    const char *v[][4] = {{"1", "16", "fp32", "1"}, {"8", "16", "fp32", "1"}};
    char *t = tmpl(s, 2, v);
    cr_assert_str_eq(t, "{{x}}_16_{gpus}");
    free(t);
}

Test(import_steps, no_template_is_null)
{
    const char *s[] = {"run_a", "run_b"};
    const char *v[][4] = {{"1", "8", "fp32", "1"}, {"8", "8", "fp32", "1"}};
    cr_assert_null(tmpl(s, 2, v));
}
