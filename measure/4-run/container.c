#include "container.h"

#include <string.h>

#include "buf.h"

static const char *const kind_names[] = {"none", "docker", "apptainer", "pyxis"};

const char *container_name(pr_container_kind kind)
{
    return kind >= PR_CT_NONE && kind <= PR_CT_PYXIS ? kind_names[kind] : "?";
}

int container_kind_of(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(kind_names[i], name) == 0)
            return i;
    return -1;
}

char *container_image_ref(pr_container_kind kind, const char *image)
{
    int is_path = image[0] == '/' || image[0] == '.' || strstr(image, "://") != NULL;
    if (kind == PR_CT_APPTAINER) {
        size_t n = strlen(image);
        int sif = n > 4 && strcmp(image + n - 4, ".sif") == 0;
        return is_path || sif ? pr_xstrdup(image) : pr_xasprintf("docker://%s", image);
    }
    if (kind == PR_CT_PYXIS && !is_path && !strchr(image, '#')) {
        /* A first component with a '.' or ':' (or "localhost") is a registry
         * host (Docker's own rule); enroot wants it followed by '#'. */
        const char *slash = strchr(image, '/');
        size_t hl = slash ? (size_t)(slash - image) : 0;
        if (slash && (memchr(image, '.', hl) || memchr(image, ':', hl) ||
                      (hl == 9 && memcmp(image, "localhost", 9) == 0)))
            return pr_xasprintf("%.*s#%s", (int)hl, image, slash + 1);
    }
    return pr_xstrdup(image);
}

/* Splits "SRC[:DST]" into the two absolute paths (DST defaults to SRC). */
static int split_mount(const char *m, char **src, char **dst, pr_err *err)
{
    const char *colon = strchr(m, ':');
    *src = colon ? pr_xstrndup(m, (size_t)(colon - m)) : pr_xstrdup(m);
    *dst = pr_xstrdup(colon ? colon + 1 : m);
    if ((*src)[0] != '/' || (*dst)[0] != '/' || strchr(*dst, ':') || strchr(*src, ',') ||
        strchr(*dst, ',')) {
        free(*src);
        free(*dst);
        *src = *dst = NULL;
        return pr_err_set(err, NULL, 0, 0, "--mount",
                          "\"%s\" is not SRC[:DST] with absolute paths (no ',' in them)", m);
    }
    return 0;
}

int container_words(const pr_container_spec *sp, char ***v, size_t *n, pr_err *err)
{
    int rc = -1;
    char *ref = NULL;
    pr_buf b = PR_BUF_INIT;
    if (sp->kind == PR_CT_NONE)
        return 0;
    if (!sp->image || !*sp->image)
        return pr_err_set(err, NULL, 0, 0, "container",
                          "the %s container needs the suite's \"image\"", container_name(sp->kind));
    ref = container_image_ref(sp->kind, sp->image);
    /* The two directories every job path points into, then the user's. */
    size_t nm = 0;
    while (sp->mounts && sp->mounts[nm])
        nm++;
    size_t total = 2 + nm;
    char **src = pr_xcalloc(total, sizeof *src), **dst = pr_xcalloc(total, sizeof *dst);
    src[0] = pr_xstrdup(sp->workdir);
    dst[0] = pr_xstrdup(sp->workdir);
    src[1] = pr_xstrdup(sp->out_dir);
    dst[1] = pr_xstrdup(sp->out_dir);
    size_t k = 2;
    for (size_t i = 0; i < nm; i++, k++)
        if (split_mount(sp->mounts[i], &src[k], &dst[k], err) < 0)
            goto out;
    /* The output directory is usually inside the working directory: one
     * mount is enough then (some engines refuse nested duplicates). */
    size_t wl = strlen(sp->workdir);
    int out_inside =
        strncmp(sp->out_dir, sp->workdir, wl) == 0 &&
        (sp->out_dir[wl] == '/' || sp->out_dir[wl] == '\0' || (wl == 1 && sp->workdir[0] == '/'));
    switch (sp->kind) {
    case PR_CT_DOCKER:
        launch_strv_push(v, n, pr_xstrdup("docker"));
        launch_strv_push(v, n, pr_xstrdup("run"));
        launch_strv_push(v, n, pr_xstrdup("--rm"));
        launch_strv_push(v, n, pr_xstrdup("--gpus"));
        launch_strv_push(v, n, pr_xstrdup("all"));
        /* NCCL and PyTorch's DataLoader share memory through /dev/shm. */
        launch_strv_push(v, n, pr_xstrdup("--ipc=host"));
        for (size_t i = 0; i < total; i++) {
            if (i == 1 && out_inside)
                continue;
            launch_strv_push(v, n, pr_xstrdup("-v"));
            launch_strv_push(v, n, pr_xasprintf("%s:%s", src[i], dst[i]));
        }
        launch_strv_push(v, n, pr_xstrdup("-w"));
        launch_strv_push(v, n, pr_xstrdup(sp->workdir));
        /* docker passes only what it is told: -e NAME takes the value from
         * docker's own environment, which is the job's. */
        for (char *const *e = sp->env_names; e && *e; e++) {
            launch_strv_push(v, n, pr_xstrdup("-e"));
            launch_strv_push(v, n, pr_xstrdup(*e));
        }
        launch_strv_push(v, n, pr_xstrdup(ref));
        break;
    case PR_CT_APPTAINER:
        launch_strv_push(v, n, pr_xstrdup("apptainer"));
        launch_strv_push(v, n, pr_xstrdup("exec"));
        launch_strv_push(v, n, pr_xstrdup("--nv"));
        for (size_t i = 0; i < total; i++) {
            if (i == 1 && out_inside)
                continue;
            if (b.len)
                pr_buf_putc(&b, ',');
            if (strcmp(src[i], dst[i]) == 0)
                pr_buf_puts(&b, src[i]);
            else
                pr_buf_printf(&b, "%s:%s", src[i], dst[i]);
        }
        launch_strv_push(v, n, pr_xstrdup("--bind"));
        launch_strv_push(v, n, pr_xstrdup(pr_buf_cstr(&b)));
        launch_strv_push(v, n, pr_xstrdup("--pwd"));
        launch_strv_push(v, n, pr_xstrdup(sp->workdir));
        launch_strv_push(v, n, pr_xstrdup(ref));
        break;
    case PR_CT_PYXIS:
        launch_strv_push(v, n, pr_xasprintf("--container-image=%s", ref));
        for (size_t i = 0; i < total; i++) {
            if (i == 1 && out_inside)
                continue;
            pr_buf_printf(&b, "%s%s:%s", b.len ? "," : "", src[i], dst[i]);
        }
        launch_strv_push(v, n, pr_xasprintf("--container-mounts=%s", pr_buf_cstr(&b)));
        launch_strv_push(v, n, pr_xasprintf("--container-workdir=%s", sp->workdir));
        break;
    case PR_CT_NONE:
        break;
    }
    rc = 0;
out:
    for (size_t i = 0; i < total; i++) {
        free(src[i]);
        free(dst[i]);
    }
    free(src);
    free(dst);
    free(ref);
    pr_buf_free(&b);
    return rc;
}
