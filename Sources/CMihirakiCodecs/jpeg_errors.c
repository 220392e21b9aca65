// The jumping libjpeg error handler (see jpeg_errors.h).
#include "jpeg_errors.h"
#include "shim.h"

#include <jerror.h>

void mh_jpeg_fail_with_message(j_common_ptr cinfo) {
    jump_error_manager *manager = (jump_error_manager *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    snprintf(manager->message, sizeof manager->message, "%s", text);
    longjmp(manager->jump, 1);
}

/// Warnings that do not affect the pixels; every other warning means the
/// entropy-coded data is damaged or cut short, and libjpeg would quietly fill
/// the rest of the page with grey.
static int harmless_warning(int code) {
    return code == JWRN_EXTRANEOUS_DATA || code == JWRN_JFIF_MAJOR || code == JWRN_ADOBE_XFORM ||
           code == JWRN_BOGUS_ICC;
}

static void emit_message(j_common_ptr cinfo, int level) {
    jump_error_manager *manager = (jump_error_manager *)cinfo->err;
    if (level < 0) {
        cinfo->err->num_warnings++;
        if (manager->fatal_warnings && !harmless_warning(cinfo->err->msg_code)) {
            mh_jpeg_fail_with_message(cinfo);
        }
    }
    // Trace messages (level >= 0) are ignored.
}

static void output_nothing(j_common_ptr cinfo) { (void)cinfo; }

void mh_jpeg_install_error_manager(jump_error_manager *manager) {
    jpeg_std_error(&manager->pub);
    manager->pub.error_exit = mh_jpeg_fail_with_message;
    manager->pub.emit_message = emit_message;
    manager->pub.output_message = output_nothing;
    manager->fatal_warnings = 1;
    manager->message[0] = 0;
}

int mh_jpeg_classify(const jump_error_manager *manager) {
    int code = manager->pub.msg_code;
    if (code == JERR_OUT_OF_MEMORY) return MH_ERR_NOMEM;
    if (code == JERR_ARITH_NOTIMPL || code == JERR_NOT_COMPILED || code == JERR_CONVERSION_NOTIMPL ||
        code == JERR_BAD_PRECISION || code == JERR_NOTIMPL) {
        return MH_ERR_UNSUPPORTED;
    }
    return MH_ERR_CORRUPT;
}
