// Mihiraki's perceptual metrics for `compare --metric`: ΔE00 per pixel and
// local SSIM. The scalar references, in double and written straight from the
// formulas (Sharma, Wu and Dalal 2005; Wang et al. 2004), and the dispatch to
// the vectorized bodies of metrics_simd.h.
#include "metrics_simd.h"

#include <pthread.h>

static float linear_table[256];
static float gauss[2 * MH_SSIM_RADIUS + 1];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static double srgb_linear(double v) {
    return v > 0.04045 ? pow((v + 0.055) / 1.055, 2.4) : v / 12.92;
}

static void make_tables(void) {
    for (int i = 0; i < 256; i++) linear_table[i] = (float)srgb_linear(i / 255.0);
    double sum = 0, w[2 * MH_SSIM_RADIUS + 1];
    for (int t = -MH_SSIM_RADIUS; t <= MH_SSIM_RADIUS; t++) sum += w[t + MH_SSIM_RADIUS] = exp(-0.5 * t * t / (1.5 * 1.5));
    for (int t = 0; t <= 2 * MH_SSIM_RADIUS; t++) gauss[t] = (float)(w[t] / sum);
}

const float *mh_metric_linear_table(void) {
    pthread_once(&tables_once, make_tables);
    return linear_table;
}

const float *mh_metric_gauss(void) {
    pthread_once(&tables_once, make_tables);
    return gauss;
}

static double lab_f(double t) { return t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116.0; }

void mh_srgb8_to_lab(const uint8_t rgb[3], double lab[3]) {
    const double r = srgb_linear(rgb[0] / 255.0), g = srgb_linear(rgb[1] / 255.0), b = srgb_linear(rgb[2] / 255.0);
    const double x = lab_f((0.412453 * r + 0.357580 * g + 0.180423 * b) / 0.95047);
    const double y = lab_f(0.212671 * r + 0.715160 * g + 0.072169 * b);
    const double z = lab_f((0.019334 * r + 0.119193 * g + 0.950227 * b) / 1.08883);
    lab[0] = 116 * y - 16;
    lab[1] = 500 * (x - y);
    lab[2] = 200 * (y - z);
}

static double degrees(double radians) { return radians * 180.0 / M_PI; }
static double radians(double degrees) { return degrees * M_PI / 180.0; }

double mh_ciede2000_lab(const double lab1[3], const double lab2[3]) {
    const double c1 = hypot(lab1[1], lab1[2]), c2 = hypot(lab2[1], lab2[2]);
    const double cm7 = pow((c1 + c2) / 2, 7);
    const double g = 0.5 * (1 - sqrt(cm7 / (cm7 + pow(25, 7))));
    const double a1 = (1 + g) * lab1[1], a2 = (1 + g) * lab2[1];
    const double cp1 = hypot(a1, lab1[2]), cp2 = hypot(a2, lab2[2]);
    double h1 = cp1 == 0 ? 0 : degrees(atan2(lab1[2], a1));
    double h2 = cp2 == 0 ? 0 : degrees(atan2(lab2[2], a2));
    if (h1 < 0) h1 += 360;
    if (h2 < 0) h2 += 360;
    const double dl = lab2[0] - lab1[0], dc = cp2 - cp1;
    double dh = 0;
    if (cp1 * cp2 != 0) {
        dh = h2 - h1;
        if (dh > 180) dh -= 360;
        else if (dh < -180) dh += 360;
    }
    const double dhh = 2 * sqrt(cp1 * cp2) * sin(radians(dh / 2));
    const double lm = (lab1[0] + lab2[0]) / 2, cpm = (cp1 + cp2) / 2;
    double hm = h1 + h2;
    if (cp1 * cp2 != 0) {
        if (fabs(h1 - h2) <= 180) hm /= 2;
        else if (hm < 360) hm = (hm + 360) / 2;
        else hm = (hm - 360) / 2;
    }
    const double t = 1 - 0.17 * cos(radians(hm - 30)) + 0.24 * cos(radians(2 * hm))
        + 0.32 * cos(radians(3 * hm + 6)) - 0.20 * cos(radians(4 * hm - 63));
    const double dtheta = 30 * exp(-pow((hm - 275) / 25, 2));
    const double cpm7 = pow(cpm, 7);
    const double rc = 2 * sqrt(cpm7 / (cpm7 + pow(25, 7)));
    const double sl = 1 + 0.015 * pow(lm - 50, 2) / sqrt(20 + pow(lm - 50, 2));
    const double sc = 1 + 0.045 * cpm, sh = 1 + 0.015 * cpm * t;
    const double rt = -sin(radians(2 * dtheta)) * rc;
    const double x = dl / sl, y = dc / sc, z = dhh / sh;
    return sqrt(x * x + y * y + z * z + rt * y * z);
}

void mh_ciede2000_rgba_scalar(const uint8_t *a, const uint8_t *b, size_t count, double *out) {
    for (size_t i = 0; i < count; i++) {
        uint8_t p[3], q[3];
        for (int k = 0; k < 3; k++) {
            p[k] = (uint8_t)mh_metric_blend(a[4 * i + k], a[4 * i + 3]);
            q[k] = (uint8_t)mh_metric_blend(b[4 * i + k], b[4 * i + 3]);
        }
        double lab1[3], lab2[3];
        mh_srgb8_to_lab(p, lab1);
        mh_srgb8_to_lab(q, lab2);
        out[i] = mh_ciede2000_lab(lab1, lab2);
    }
}

void mh_ciede2000_rgba(const uint8_t *a, const uint8_t *b, size_t count, float *out) {
#if defined(__x86_64__)
    if (mh_kernels_level() >= 3) { mh_k_ciede2000_avx2(a, b, count, out); return; }
#endif
    m_ciede2000_rgba(a, b, count, out);
}

void mh_luma601_rgba(const uint8_t *pixels, size_t count, float *out) {
    for (size_t i = 0; i < count; i++) {
        const uint32_t alpha = pixels[4 * i + 3];
        const float r = (float)mh_metric_blend(pixels[4 * i], alpha);
        const float g = (float)mh_metric_blend(pixels[4 * i + 1], alpha);
        const float b = (float)mh_metric_blend(pixels[4 * i + 2], alpha);
        out[i] = 0.299f * r + 0.587f * g + 0.114f * b;
    }
}

void mh_ssim_rows_scalar(const float *a, const float *b, int width, int height, int y0, int y1, double *out) {
    double w[2 * MH_SSIM_RADIUS + 1], sum = 0;
    for (int t = -MH_SSIM_RADIUS; t <= MH_SSIM_RADIUS; t++) sum += w[t + MH_SSIM_RADIUS] = exp(-0.5 * t * t / 2.25);
    const double c1 = pow(0.01 * 255, 2), c2 = pow(0.03 * 255, 2);
    for (int y = y0; y < y1; y++) {
        for (int x = 0; x < width; x++) {
            double mx = 0, my = 0, mxx = 0, myy = 0, mxy = 0;
            for (int j = -MH_SSIM_RADIUS; j <= MH_SSIM_RADIUS; j++) {
                const int sy = mh_metric_reflect(y + j, height);
                for (int i = -MH_SSIM_RADIUS; i <= MH_SSIM_RADIUS; i++) {
                    const size_t at = (size_t)sy * width + mh_metric_reflect(x + i, width);
                    const double k = w[j + MH_SSIM_RADIUS] * w[i + MH_SSIM_RADIUS] / (sum * sum);
                    const double p = a[at], q = b[at];
                    mx += k * p; my += k * q; mxx += k * p * p; myy += k * q * q; mxy += k * p * q;
                }
            }
            const double vx = mxx - mx * mx, vy = myy - my * my, cov = mxy - mx * my;
            out[(size_t)(y - y0) * width + x] =
                ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
        }
    }
}

int mh_ssim_rows(const float *a, const float *b, int width, int height, int y0, int y1, float *out) {
    if (width < 1 || height < 1 || y0 < 0 || y1 > height || y0 >= y1) return 0;
#if defined(__x86_64__)
    if (mh_kernels_level() >= 3) return mh_k_ssim_rows_avx2(a, b, width, height, y0, y1, out);
#endif
    return m_ssim_rows(a, b, width, height, y0, y1, out);
}
