/* The C ABI from C (include/mihiraki.h): open a book, plan it, draw a spread,
   a bad option's error, a spread index past the book's, and null handles
   and places. Built and run by test_mihiraki.py against the
   library the wheel installed. Prints "ok WxHxC" or the failure. */
#include <stdio.h>
#include <string.h>
#include "mihiraki.h"

int main(int argc, char **argv) {
    if (argc < 2 || mihiraki_abi_version() != MIHIRAKI_ABI_VERSION) return 2;
    mihiraki_error *error = NULL;
    mihiraki_book *book = mihiraki_book_open(argv[1], &error);
    if (!book) { printf("open: %s\n", mihiraki_error_message(error)); mihiraki_error_free(error); return 1; }
    const char *names[] = {"size", "direction"}, *values[] = {"x200", "rtl"};
    char *plan = mihiraki_book_plan_json(book, names, values, 2, 1, &error);
    if (!plan || !strstr(plan, "\"direction\": \"rtl\"")) { printf("plan: %s\n", plan ? plan : "none"); return 1; }
    mihiraki_string_free(plan);
    uint8_t *pixels = NULL;
    int width = 0, height = 0, channels = 0;
    if (mihiraki_book_spread(book, names, values, 2, 1, 1, &pixels, &width, &height, &channels, &error) != 0) {
        printf("spread: %s\n", mihiraki_error_message(error));
        return 1;
    }
    mihiraki_buffer_free(pixels);
    /* Past the last spread, and SIZE_MAX (-1 cast): an error, never a read out of bounds. */
    ptrdiff_t spreads = mihiraki_book_spread_count(book, names, values, 2, 1, NULL);
    size_t past[] = {(size_t)spreads, (size_t)-1};
    for (int k = 0; k < 2; k++) {
        pixels = NULL;
        if (mihiraki_book_spread(book, names, values, 2, 1, past[k], &pixels, &width, &height, &channels, &error) != -1
            || pixels != NULL || mihiraki_error_kind(error) != MIHIRAKI_ERROR_USAGE
            || !strstr(mihiraki_error_message(error), "spreads")) {
            printf("spread index %zu not refused\n", past[k]);
            return 1;
        }
        mihiraki_error_free(error);
    }
    width = height = channels = 0;
    if (mihiraki_book_spread(book, names, values, 2, 1, 1, &pixels, &width, &height, &channels, &error) != 0) return 1;
    mihiraki_buffer_free(pixels);
    const char *bad_names[] = {"size"}, *bad_values[] = {"huge"};
    if (mihiraki_book_plan_json(book, bad_names, bad_values, 1, 1, &error) != NULL
        || mihiraki_error_kind(error) != MIHIRAKI_ERROR_USAGE || !strstr(mihiraki_error_message(error), "--size")) {
        printf("bad option not refused\n");
        return 1;
    }
    mihiraki_error_free(error);
    if (mihiraki_book_page_count(book, NULL) <= 0) { printf("no pages\n"); return 1; }
    if (mihiraki_book_spread_count(book, names, values, 2, 1, NULL) < 2) { printf("no spreads\n"); return 1; }
    /* A null book, and null places for a spread's pixels and size: a usage error, never a crash. */
    if (mihiraki_book_plan_json(NULL, names, values, 2, 1, &error) != NULL
        || mihiraki_error_kind(error) != MIHIRAKI_ERROR_USAGE || !strstr(mihiraki_error_message(error), "null")) {
        printf("null book not refused\n");
        return 1;
    }
    mihiraki_error_free(error);
    if (mihiraki_book_page_count(NULL, NULL) != -1 || mihiraki_book_spread_count(NULL, names, values, 2, 1, NULL) != -1
        || mihiraki_book_pages_json(NULL) != NULL) {
        printf("null book counted\n");
        return 1;
    }
    if (mihiraki_book_spread(NULL, names, values, 2, 1, 1, &pixels, &width, &height, &channels, NULL) != -1
        || mihiraki_book_spread(book, names, values, 2, 1, 1, NULL, &width, &height, &channels, &error) != -1
        || mihiraki_error_kind(error) != MIHIRAKI_ERROR_USAGE) {
        printf("null spread places not refused\n");
        return 1;
    }
    mihiraki_error_free(error);
    if (mihiraki_book_spread(book, names, values, 2, 1, 1, &pixels, NULL, NULL, NULL, NULL) != -1) {
        printf("null size places not refused\n");
        return 1;
    }
    /* No error object: an empty message and kind 0. */
    if (strcmp(mihiraki_error_message(NULL), "") != 0 || mihiraki_error_kind(NULL) != 0) {
        printf("null error unreadable\n");
        return 1;
    }
    mihiraki_book_free(book);
    printf("ok %dx%dx%d\n", width, height, channels);
    return 0;
}
