// lcms2 behind plain C calls: embedded ICC profiles to sRGB, relative
// colorimetric. Transforms are made without lcms2's one-pixel cache, so one
// transform serves every worker at once and the result never depends on
// which pixel a thread saw before. lcms2 reports errors by return values;
// its log handler is silenced so nothing reaches stderr.
#include "shim.h"

#include <ctype.h>
#include <string.h>

#include <lcms2.h>

static void quiet(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)context; (void)code; (void)text;
}

/// Whether the profile calls itself sRGB (as the common sRGB IEC61966-2.1 does).
static int describes_srgb(cmsHPROFILE profile) {
    char text[256] = {0};
    if (cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", text, sizeof text - 1) == 0) return 0;
    for (char *p = text; *p; p++) *p = (char)tolower((unsigned char)*p);
    return strstr(text, "srgb") != NULL;
}

/// The embedded profile, or NULL with the reason in `error`.
static cmsHPROFILE open_profile(const void *icc, size_t size, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    cmsSetLogErrorHandler(quiet);
    cmsHPROFILE profile = cmsOpenProfileFromMem(icc, (cmsUInt32Number)size);
    if (profile == NULL) mh_set_error(error, MH_ERR_CORRUPT, "the embedded colour profile cannot be read");
    return profile;
}

mh_color_transform *mh_color_transform_new(const void *icc, size_t size, int channels, mh_error *error) {
    cmsHPROFILE input = open_profile(icc, size, error);
    if (input == NULL) return NULL;
    cmsColorSpaceSignature space = cmsGetColorSpace(input);
    cmsHPROFILE output = NULL;
    cmsUInt32Number format = 0, flags = cmsFLAGS_NOCACHE;
    if ((channels == 3 || channels == 4) && space == cmsSigRgbData) {
        if (describes_srgb(input)) {
            cmsCloseProfile(input);
            return NULL;
        }
        output = cmsCreate_sRGBProfile();
        format = channels == 3 ? TYPE_RGB_8 : TYPE_RGBA_8;
        if (channels == 4) flags |= cmsFLAGS_COPY_ALPHA;
    } else if ((channels == 1 || channels == 2) && space == cmsSigGrayData) {
        // Gray stays gray: the sRGB tone curve on a D50 gray.
        cmsFloat64Number srgb[5] = {2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045};
        cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, 4, srgb);
        output = curve ? cmsCreateGrayProfile(cmsD50_xyY(), curve) : NULL;
        if (curve) cmsFreeToneCurve(curve);
        format = channels == 1 ? TYPE_GRAY_8 : TYPE_GRAYA_8;
        if (channels == 2) flags |= cmsFLAGS_COPY_ALPHA;
    } else {
        cmsCloseProfile(input);
        mh_set_error(error, MH_ERR_UNSUPPORTED, "the embedded colour profile does not fit the pixels");
        return NULL;
    }
    cmsHTRANSFORM transform =
        output ? cmsCreateTransform(input, format, output, format, INTENT_RELATIVE_COLORIMETRIC, flags) : NULL;
    cmsCloseProfile(input);
    if (output) cmsCloseProfile(output);
    if (transform == NULL) {
        mh_set_error(error, MH_ERR_UNSUPPORTED, "the embedded colour profile cannot be converted to sRGB");
        return NULL;
    }
    return (mh_color_transform *)transform;
}

mh_color_transform *mh_color_transform_new_cmyk(const void *icc, size_t size, int inverted, mh_error *error) {
    cmsHPROFILE input = open_profile(icc, size, error);
    if (input == NULL) return NULL;
    if (cmsGetColorSpace(input) != cmsSigCmykData) {
        cmsCloseProfile(input);
        mh_set_error(error, MH_ERR_UNSUPPORTED, "the embedded colour profile is not a CMYK profile");
        return NULL;
    }
    cmsHPROFILE output = cmsCreate_sRGBProfile();
    // Adobe (Photoshop) JPEGs store CMYK inverted, 255 meaning no ink: lcms2's "reversed" CMYK.
    cmsHTRANSFORM transform =
        output ? cmsCreateTransform(input, inverted ? TYPE_CMYK_8_REV : TYPE_CMYK_8, output, TYPE_RGB_8,
                                    INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOCACHE)
               : NULL;
    cmsCloseProfile(input);
    if (output) cmsCloseProfile(output);
    if (transform == NULL) {
        mh_set_error(error, MH_ERR_UNSUPPORTED, "the embedded CMYK profile cannot be converted to sRGB");
        return NULL;
    }
    return (mh_color_transform *)transform;
}

void mh_color_transform_convert(mh_color_transform *transform, const void *source, void *target, size_t count) {
    cmsDoTransform((cmsHTRANSFORM)transform, source, target, (cmsUInt32Number)count);
}

void mh_color_transform_apply(mh_color_transform *transform, void *pixels, size_t count) {
    cmsDoTransform((cmsHTRANSFORM)transform, pixels, pixels, (cmsUInt32Number)count);
}
