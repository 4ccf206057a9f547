/* test_util.h - tiny helpers shared by the C unit tests of sw/.
 * CHECK counts failures and goes on, so one run shows every broken case;
 * main returns test_finish(). */
#ifndef KOLO_TEST_UTIL_H
#define KOLO_TEST_UTIL_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failures;
static int test_checks;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        test_checks++;                                                                             \
        if (!(cond)) {                                                                             \
            if (++test_failures <= 30) {                                                           \
                fprintf(stderr, "%s:%d: FAIL %s: ", __FILE__, __LINE__, #cond);                    \
                fprintf(stderr, __VA_ARGS__);                                                      \
                fprintf(stderr, "\n");                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#define CHECK_EQ(got, want, ...)                                                                   \
    do {                                                                                           \
        long long got_ = (long long)(got), want_ = (long long)(want);                              \
        test_checks++;                                                                             \
        if (got_ != want_) {                                                                       \
            if (++test_failures <= 30) {                                                           \
                fprintf(stderr, "%s:%d: FAIL %s = %lld, want %lld: ", __FILE__, __LINE__, #got,    \
                        got_, want_);                                                              \
                fprintf(stderr, __VA_ARGS__);                                                      \
                fprintf(stderr, "\n");                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* xorshift64*: small, seedable, the same everywhere */
static uint64_t test_rng_state;

static uint64_t test_rand64(void) {
    uint64_t x = test_rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    test_rng_state = x;
    return x * 0x2545f4914f6cdd1dull;
}

/* uniform-enough in [0, n) for the small n used here */
static unsigned test_rand(unsigned n) { return (unsigned)((test_rand64() >> 11) % n); }

/* Seed from --seed=N, --seed N, +seed=N or env SEED; fixed default (1) so
 * that a plain `make test` is reproducible. */
static uint64_t test_seed(int argc, char **argv, const char *name) {
    uint64_t seed = 1;
    const char *env = getenv("SEED");
    int i;
    if (env && *env)
        seed = strtoull(env, NULL, 0);
    for (i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--seed=", 7))
            seed = strtoull(argv[i] + 7, NULL, 0);
        else if (!strncmp(argv[i], "+seed=", 6))
            seed = strtoull(argv[i] + 6, NULL, 0);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[i + 1], NULL, 0);
    }
    printf("%s: seed %" PRIu64 " (replay: SEED=%" PRIu64 ")\n", name, seed, seed);
    fflush(stdout);
    test_rng_state = seed * 0x9e3779b97f4a7c15ull | 1u;
    return seed;
}

static int test_finish(const char *name) {
    if (test_failures) {
        printf("%s: FAIL (%d of %d checks failed)\n", name, test_failures, test_checks);
        return 1;
    }
    printf("%s: PASS (%d checks)\n", name, test_checks);
    return 0;
}

#endif
