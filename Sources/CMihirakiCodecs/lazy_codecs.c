// Loads libavif, libjxl and libarchive on first use: see lazy_codecs.h.
#define MH_LAZY_CODECS_IMPLEMENTATION
#include "lazy_codecs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

mh_avif_table mh_avif_functions;
mh_jxl_table mh_jxl_functions;
mh_archive_table mh_archive_functions;

// Opens `soname` and fills `count` function pointers from `names`; 1 on
// success. On failure the table stays unused and `problem` says why.
static int load(const char *soname, const char *const *names, void **slots, size_t count, char *problem, size_t room,
                const char *needed_for) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(problem, room, "%s could not be loaded (install it to %s)", soname, needed_for);
        return 0;
    }
    for (size_t i = 0; i < count; i++) {
        slots[i] = dlsym(library, names[i]);
        if (slots[i] == NULL) {
            snprintf(problem, room, "%s has no %s (another version than Mihiraki was built for)", soname, names[i]);
            return 0;
        }
    }
    return 1;  // kept open for the life of the process
}

#define MH_LAZY_NAME(name) #name,
#define MH_LAZY_COUNT(name) +1

static const char *const avif_names[] = { MH_AVIF_FUNCTIONS(MH_LAZY_NAME) };
static const char *const jxl_names[] = { MH_JXL_FUNCTIONS(MH_LAZY_NAME) };
static const char *const archive_names[] = { MH_ARCHIVE_FUNCTIONS(MH_LAZY_NAME) };
static int avif_ready, jxl_ready, archive_ready;
static char avif_problem[256], jxl_problem[256], archive_problem[256];
static pthread_once_t avif_once = PTHREAD_ONCE_INIT, jxl_once = PTHREAD_ONCE_INIT, archive_once = PTHREAD_ONCE_INIT;

// The tables hold only function pointers, in the order the lists name them.
_Static_assert(sizeof(mh_avif_table) == sizeof(void *) * (0 MH_AVIF_FUNCTIONS(MH_LAZY_COUNT)), "avif table layout");
_Static_assert(sizeof(mh_jxl_table) == sizeof(void *) * (0 MH_JXL_FUNCTIONS(MH_LAZY_COUNT)), "jxl table layout");
_Static_assert(sizeof(mh_archive_table) == sizeof(void *) * (0 MH_ARCHIVE_FUNCTIONS(MH_LAZY_COUNT)), "archive table layout");

static void load_avif(void) {
    avif_ready = load(MH_AVIF_SONAME, avif_names, (void **)&mh_avif_functions,
                      sizeof avif_names / sizeof *avif_names, avif_problem, sizeof avif_problem, "read or write this format");
}

static void load_jxl(void) {
    jxl_ready = load(MH_JXL_SONAME, jxl_names, (void **)&mh_jxl_functions,
                     sizeof jxl_names / sizeof *jxl_names, jxl_problem, sizeof jxl_problem, "read or write this format");
}

int mh_avif_load(mh_error *error) {
    pthread_once(&avif_once, load_avif);
    if (!avif_ready) mh_set_error(error, MH_ERR_UNSUPPORTED, avif_problem);
    return avif_ready;
}

const char *mh_avif_load_problem(void) {
    pthread_once(&avif_once, load_avif);
    return avif_ready ? NULL : avif_problem;
}

int mh_jxl_load(mh_error *error) {
    pthread_once(&jxl_once, load_jxl);
    if (!jxl_ready) mh_set_error(error, MH_ERR_UNSUPPORTED, jxl_problem);
    return jxl_ready;
}

static void load_archive(void) {
    archive_ready = load(MH_ARCHIVE_SONAME, archive_names, (void **)&mh_archive_functions,
                         sizeof archive_names / sizeof *archive_names, archive_problem, sizeof archive_problem,
                         "read RAR, 7z and tar books");
}

int mh_archive_load(mh_error *error) {
    pthread_once(&archive_once, load_archive);
    if (!archive_ready) mh_set_error(error, MH_ERR_UNSUPPORTED, archive_problem);
    return archive_ready;
}
