// The bodies of Mihiraki's perceptual metrics in single precision, written
// branch-free so the compiler vectorizes each loop: metrics.c compiles them
// for the baseline (SSE2, four lanes), metrics_avx2.c for AVX2 (eight
// lanes). The scalar references in double are in metrics.c; the tests hold
// both to them. Transcendentals are polynomials here: a cube root by three
// Newton steps, atan, sin and 2^x by short series, each far inside the 0.02
// ΔE00 the metric is checked to.
#ifndef CMIHIRAKI_METRICS_SIMD_H
#define CMIHIRAKI_METRICS_SIMD_H

#include "metrics_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

// No fused multiply-adds: every build rounds each step the same way, so
// every kernel level gives the same bits.
#pragma STDC FP_CONTRACT OFF

#define MH_INLINE static inline __attribute__((always_inline))

/// A square root the vectorizer takes (sqrtf sets errno, so it would not);
/// every argument here is ≥ 0.
#define m_sqrt(x) __builtin_elementwise_sqrt(x)

MH_INLINE float m_select(int take, float a, float b) { return take ? a : b; }

/// t^(1/3) for t > 0: a guess from the exponent's bits, then three Newton steps.
MH_INLINE float m_cbrt(float t) {
    int32_t bits;
    memcpy(&bits, &t, 4);
    int32_t guess = (int32_t)((float)bits * (1.0f / 3.0f)) + 709921077;
    float y;
    memcpy(&y, &guess, 4);
    for (int i = 0; i < 3; i++) y = (2.0f * y + t / (y * y)) * (1.0f / 3.0f);
    return y;
}

/// CIELAB's f(t) (CIE 15, with the 0.008856 / 7.787 constants scikit-image uses).
MH_INLINE float m_lab_f(float t) {
    float c = m_cbrt(t > 1e-12f ? t : 1e-12f);
    return t > 0.008856f ? c : 7.787f * t + 16.0f / 116.0f;
}

/// The hue angle atan2(y, x) in degrees, 0 ≤ h < 360; 0 when x = y = 0.
MH_INLINE float m_hue(float y, float x) {
    float ax = fabsf(x), ay = fabsf(y);
    float big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;
    float z = small / (big > 0.0f ? big : 1.0f), z2 = z * z;
    float r = z * (0.99997726f + z2 * (-0.33262347f + z2 * (0.19354346f + z2 * (-0.11643287f
                  + z2 * (0.05265332f + z2 * -0.01172120f)))));
    r = ay > ax ? 1.57079632679f - r : r;
    r = x < 0.0f ? 3.14159265359f - r : r;
    r = y < 0.0f ? -r : r;
    float d = r * 57.2957795131f;
    return d < 0.0f ? d + 360.0f : d;
}

/// sin of an angle in degrees, |d| ≤ 1,500: folded into ±90°, then an odd series to x¹¹.
MH_INLINE float m_sin_deg(float d) {
    float turns = d * (1.0f / 360.0f);
    float n = (float)(int32_t)(turns + (turns >= 0.0f ? 0.5f : -0.5f));
    d -= 360.0f * n;
    d = d > 90.0f ? 180.0f - d : d;
    d = d < -90.0f ? -180.0f - d : d;
    float x = d * 0.01745329252f, x2 = x * x;
    return x * (1.0f + x2 * (-1.0f / 6 + x2 * (1.0f / 120 + x2 * (-1.0f / 5040 + x2 * (1.0f / 362880
                 + x2 * (-1.0f / 39916800))))));
}

MH_INLINE float m_cos_deg(float d) { return m_sin_deg(d + 90.0f); }

/// e^x for x ≤ 0 (0 below -80): 2^n from the exponent bits times a series for 2^f.
MH_INLINE float m_exp_neg(float x) {
    x = x < -80.0f ? -80.0f : x;
    float v = x * 1.44269504089f;
    int32_t whole = (int32_t)v;
    whole -= (float)whole > v ? 1 : 0;
    float f = v - (float)whole, u = f * 0.69314718056f;
    float p = 1.0f + u * (1.0f + u * (0.5f + u * (1.0f / 6 + u * (1.0f / 24 + u * (1.0f / 120 + u * (1.0f / 720
                  + u * (1.0f / 5040)))))));
    int32_t bits = (whole + 127) << 23;
    float scale;
    memcpy(&scale, &bits, 4);
    return p * scale;
}

/// ΔE00 of two CIELAB colours (kL = kC = kH = 1), every branch of the
/// formula a selection.
MH_INLINE float m_ciede2000(float l1, float a1, float b1, float l2, float a2, float b2) {
    float c1 = m_sqrt(a1 * a1 + b1 * b1), c2 = m_sqrt(a2 * a2 + b2 * b2);
    float cm = 0.5f * (c1 + c2), cm2 = cm * cm, cm7 = cm2 * cm2 * cm2 * cm;
    float g = 0.5f * (1.0f - m_sqrt(cm7 / (cm7 + 6103515625.0f)));
    float ap1 = (1.0f + g) * a1, ap2 = (1.0f + g) * a2;
    float cp1 = m_sqrt(ap1 * ap1 + b1 * b1), cp2 = m_sqrt(ap2 * ap2 + b2 * b2);
    float h1 = m_hue(b1, ap1), h2 = m_hue(b2, ap2);
    int achromatic = cp1 * cp2 == 0.0f;
    float dh = h2 - h1;
    dh = dh > 180.0f ? dh - 360.0f : dh;
    dh = dh < -180.0f ? dh + 360.0f : dh;
    dh = achromatic ? 0.0f : dh;
    float dl = l2 - l1, dc = cp2 - cp1;
    float dhh = 2.0f * m_sqrt(cp1 * cp2) * m_sin_deg(0.5f * dh);
    float lm = 0.5f * (l1 + l2), cpm = 0.5f * (cp1 + cp2);
    float hsum = h1 + h2, hm = 0.5f * hsum;
    int far = fabsf(h1 - h2) > 180.0f;
    hm = far ? (hsum < 360.0f ? 0.5f * (hsum + 360.0f) : 0.5f * (hsum - 360.0f)) : hm;
    hm = achromatic ? hsum : hm;
    float t = 1.0f - 0.17f * m_cos_deg(hm - 30.0f) + 0.24f * m_cos_deg(2.0f * hm)
        + 0.32f * m_cos_deg(3.0f * hm + 6.0f) - 0.20f * m_cos_deg(4.0f * hm - 63.0f);
    float q = (hm - 275.0f) * (1.0f / 25.0f);
    float dtheta = 30.0f * m_exp_neg(-q * q);
    float cpm2 = cpm * cpm, cpm7 = cpm2 * cpm2 * cpm2 * cpm;
    float rc = 2.0f * m_sqrt(cpm7 / (cpm7 + 6103515625.0f));
    float l50 = (lm - 50.0f) * (lm - 50.0f);
    float sl = 1.0f + 0.015f * l50 / m_sqrt(20.0f + l50);
    float sc = 1.0f + 0.045f * cpm, sh = 1.0f + 0.015f * cpm * t;
    float rt = -m_sin_deg(2.0f * dtheta) * rc;
    float x = dl / sl, y = dc / sc, z = dhh / sh;
    float sum = x * x + y * y + z * z + rt * y * z;
    return m_sqrt(sum > 0.0f ? sum : 0.0f);
}

/// RGBA pixels (straight alpha) blended over white in 8 bits, as the scalar
/// reference does, into linear-light floats through the table.
MH_INLINE void m_linear(const uint8_t *p, size_t n, const float *table, float *r, float *g, float *b) {
    for (size_t i = 0; i < n; i++) {
        const uint32_t a = p[4 * i + 3];
        uint32_t c[3];
        for (int k = 0; k < 3; k++) c[k] = mh_metric_blend(p[4 * i + k], a);
        r[i] = table[c[0]]; g[i] = table[c[1]]; b[i] = table[c[2]];
    }
}

MH_INLINE void m_lab(float r, float g, float b, float *l, float *a, float *bb) {
    float x = m_lab_f((0.412453f * r + 0.357580f * g + 0.180423f * b) * (1.0f / 0.95047f));
    float y = m_lab_f(0.212671f * r + 0.715160f * g + 0.072169f * b);
    float z = m_lab_f((0.019334f * r + 0.119193f * g + 0.950227f * b) * (1.0f / 1.08883f));
    *l = 116.0f * y - 16.0f;
    *a = 500.0f * (x - y);
    *bb = 200.0f * (y - z);
}

enum { M_CHUNK = 64 };

/// ΔE00 of `count` pixel pairs, a chunk at a time: linear light by table,
/// then Lab and the difference in one vectorized loop.
MH_INLINE void m_ciede2000_rgba(const uint8_t *pa, const uint8_t *pb, size_t count, float *out) {
    const float *table = mh_metric_linear_table();
    float r1[M_CHUNK], g1[M_CHUNK], b1[M_CHUNK], r2[M_CHUNK], g2[M_CHUNK], b2[M_CHUNK];
    for (size_t start = 0; start < count; start += M_CHUNK) {
        const size_t n = count - start < M_CHUNK ? count - start : M_CHUNK;
        m_linear(pa + 4 * start, n, table, r1, g1, b1);
        m_linear(pb + 4 * start, n, table, r2, g2, b2);
        float *o = out + start;
        for (size_t i = 0; i < n; i++) {
            float l1, a1, bb1, l2, a2, bb2;
            m_lab(r1[i], g1[i], b1[i], &l1, &a1, &bb1);
            m_lab(r2[i], g2[i], b2[i], &l2, &a2, &bb2);
            o[i] = m_ciede2000(l1, a1, bb1, l2, a2, bb2);
        }
    }
}

/// Local SSIM of rows [y0, y1): the five Gaussian-weighted moments by a
/// horizontal pass over the rows the window reaches, a vertical pass per
/// output row, then the index. Values are centred on 128 first, so the
/// variances are differences of small numbers.
MH_INLINE int m_ssim_rows(const float *a, const float *b, int width, int height, int y0, int y1, float *out) {
    const float *w = mh_metric_gauss();
    const int r = MH_SSIM_RADIUS, rows = y1 - y0 + 2 * r;
    const size_t plane = (size_t)rows * (size_t)width;
    float *moments = malloc(5 * plane * sizeof(float));
    float *ca = malloc(2 * (size_t)(width + 2 * r) * sizeof(float));
    if (!moments || !ca) { free(moments); free(ca); return 0; }
    float *cb = ca + width + 2 * r;
    for (int j = 0; j < rows; j++) {
        const int y = mh_metric_reflect(y0 - r + j, height);
        for (int x = -r; x < width + r; x++) {
            const int sx = mh_metric_reflect(x, width);
            ca[x + r] = a[(size_t)y * width + sx] - 128.0f;
            cb[x + r] = b[(size_t)y * width + sx] - 128.0f;
        }
        float *mx = moments + (size_t)j * width, *my = mx + plane, *mxx = my + plane, *myy = mxx + plane,
              *mxy = myy + plane;
        for (int x = 0; x < width; x++) {
            float sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
            _Pragma("clang loop unroll(full)")
            for (int t = 0; t <= 2 * r; t++) {
                const float p = ca[x + t], q = cb[x + t], k = w[t];
                sx += k * p; sy += k * q; sxx += k * p * p; syy += k * q * q; sxy += k * p * q;
            }
            mx[x] = sx; my[x] = sy; mxx[x] = sxx; myy[x] = syy; mxy[x] = sxy;
        }
    }
    const float c1 = (0.01f * 255) * (0.01f * 255), c2 = (0.03f * 255) * (0.03f * 255);
    for (int y = y0; y < y1; y++) {
        float *o = out + (size_t)(y - y0) * width;
        const size_t top = (size_t)(y - y0) * width;
        for (int x = 0; x < width; x++) {
            float sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
            _Pragma("clang loop unroll(full)")
            for (int t = 0; t <= 2 * r; t++) {
                const size_t i = top + (size_t)t * width + x;
                const float k = w[t];
                sx += k * moments[i]; sy += k * moments[plane + i]; sxx += k * moments[2 * plane + i];
                syy += k * moments[3 * plane + i]; sxy += k * moments[4 * plane + i];
            }
            const float vx = sxx - sx * sx, vy = syy - sy * sy, cov = sxy - sx * sy;
            const float ux = sx + 128.0f, uy = sy + 128.0f;
            o[x] = ((2 * ux * uy + c1) * (2 * cov + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2));
        }
    }
    free(moments);
    free(ca);
    return 1;
}

#endif
