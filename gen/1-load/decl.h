/* decl: what the data declares about comparing figures.
 *
 *   DATA/precision-classes.json  which precision modes compare with each
 *                                other (amp, fp16 and a framework's "pure
 *                                fp16" as one mixed-precision class)
 *   DATA/models/ID.json          a model's headline configuration: the one
 *                                cell (platform, class, batch size, GPUs)
 *                                the index shows for every framework
 *
 * Without a classes file every precision mode is a class of its own.
 */
#ifndef PR_DECL_H
#define PR_DECL_H

#include <stddef.h>

#include "err.h"
#include "platform.h"

typedef struct pr_prec_class {
    char *id;
    char *title_zh, *title_en;
    const char **modes; /* NULL-terminated; point into pr_precisions */
} pr_prec_class;

typedef struct pr_model_decl {
    char *id; /* the model id (file stem) */
    char *file;
    const pr_platform *platform; /* the headline's */
    const pr_prec_class *precision_class;
    int batch_size, gpus;
} pr_model_decl;

typedef struct pr_decls {
    pr_prec_class *classes;
    size_t nclasses;
    pr_model_decl *models;
    size_t nmodels;
} pr_decls;

/* Loads DATA/precision-classes.json (path may be NULL: one class per mode).
 * Every mode must belong to exactly one class. */
int decl_load_classes(pr_decls *c, const char *path, pr_err *err);
/* Loads one DATA/models/ID.json (after the classes and platforms). */
int decl_add_model(pr_decls *c, const pr_platforms *ps, const char *path, pr_err *err);
void decl_free_all(pr_decls *c);
/* The class of a precision mode (never NULL once loaded). */
const pr_prec_class *decl_class_of(const pr_decls *c, const char *mode);
/* The declaration of a model, or NULL. */
const pr_model_decl *decl_model(const pr_decls *c, const char *model_id);

#endif
