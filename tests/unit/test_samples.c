/* test_samples.c: the stopping rule of the timed launches (cp_samples.c) fed sample sequences:
 * the median's interval and its rank, the noise after each sample, when the rule stops and why,
 * what it reports, how many samples it asks for next, and the options' parsers. */
#include <math.h>

#include "measure/cp_measure.h"
#include "cp_test.h"

/* P(Binomial(n, 1/2) <= k), summed in logs (independent of cp_samples.c's recurrence). */
static double binomial_cdf(size_t n, long k)
{
    double sum = 0;
    for (long i = 0; i <= k; i++)
        sum += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
                   (double)n * log(2.0));
    return sum;
}

/* The rank is the largest j whose interval covers the median with at least the level. */
static void check_rank_definition(size_t n)
{
    size_t j = cp_samples_interval_rank(n);
    double level = CP_SAMPLING_CONFIDENCE;
    CHECK(j >= 1 && 2 * j <= n + 1);
    CHECK(1 - 2 * binomial_cdf(n, (long)j - 1) >= level - 1e-12);
    CHECK(1 - 2 * binomial_cdf(n, (long)j) < level);
}

static void test_rank(void)
{
    for (size_t n = 0; n < CP_SAMPLING_NOISE_MIN_SAMPLES; n++)
        CHECK_EQ_U64(cp_samples_interval_rank(n), 0);
    /* the tables of the sign test's interval at 90%: [min, max] up to 7 samples */
    CHECK_EQ_U64(cp_samples_interval_rank(5), 1);
    CHECK_EQ_U64(cp_samples_interval_rank(7), 1);
    CHECK_EQ_U64(cp_samples_interval_rank(8), 2);
    CHECK_EQ_U64(cp_samples_interval_rank(10), 2);
    CHECK_EQ_U64(cp_samples_interval_rank(20), 6);
    CHECK_EQ_U64(cp_samples_interval_rank(100), 42);
    for (size_t n = 5; n <= 300; n++)
        check_rank_definition(n);
    check_rank_definition(999);
    check_rank_definition(1000);
    /* the normal approximation beyond 1000 agrees with the exact rank where both are known */
    size_t exact = cp_samples_interval_rank(1000), approx = cp_samples_interval_rank(1001);
    CHECK(approx == exact || approx == exact + 1);
    check_rank_definition(1001);
    check_rank_definition(4000);
    /* it never falls as n grows */
    for (size_t n = 5, last = 0; n < 3000; n++) {
        size_t j = cp_samples_interval_rank(n);
        CHECK(j >= last && j <= last + 1);
        last = j;
    }
}

static void test_noise(void)
{
    double five[] = {1, 2, 3, 4, 5};
    CHECK(isnan(cp_samples_noise(five, 4)));
    CHECK_NEAR(cp_samples_noise(five, 5), (5.0 - 1) / (2 * 3), 1e-12); /* [min, max] */
    double ten[] = {10, 90, 95, 99, 100, 100, 101, 105, 110, 200}; /* j = 2: outliers left out */
    CHECK_NEAR(cp_samples_noise(ten, 10), (110.0 - 90) / (2 * 100), 1e-12);
    CHECK_NEAR(cp_samples_median(ten, 10), 100, 0);
    CHECK_NEAR(cp_samples_median(five, 5), 3, 0);
    double same[] = {7, 7, 7, 7, 7};
    CHECK(cp_samples_noise(same, 5) == 0);
}

/* A rule with the defaults but for the fields given. */
static cp_sampling rule_of(uint32_t reps, uint32_t min_samples, double max_noise, double min_time,
                           double max_time)
{
    cp_sampling r;
    cp_sampling_defaults(&r);
    r.reps = reps;
    r.min_samples = min_samples;
    r.max_noise = max_noise;
    r.min_time_s = min_time;
    r.max_time_s = max_time;
    return r;
}

/* Feeds t[0..n) (each sample also the time spent, flushes ignored) until the rule stops; returns
 * the samples it took (n + 1 when it never stopped). */
static size_t feed(cp_samples *s, const double *t, size_t n)
{
    double spent = 0;
    for (size_t i = 0; i < n; i++) {
        spent += t[i];
        int r = cp_samples_add(s, t[i], spent);
        CHECK(r >= 0);
        if (r == 1)
            return i + 1;
    }
    return n + 1;
}

static void test_rule_quiet(void)
{
    cp_sampling r;
    cp_sampling_defaults(&r);
    cp_samples s;
    /* steady samples: quiet at the minimum count */
    double steady[40];
    for (size_t i = 0; i < 40; i++)
        steady[i] = 1e-3;
    cp_samples_init(&s, &r);
    CHECK_EQ_U64(cp_samples_next(&s), CP_SAMPLING_MIN_SAMPLES);
    CHECK_EQ_U64(feed(&s, steady, 40), CP_SAMPLING_MIN_SAMPLES);
    CHECK(s.stop == CP_SAMPLES_QUIET && s.noise == 0);
    CHECK_EQ_U64(cp_samples_next(&s), 0);
    CHECK(cp_samples_add(&s, 1e-3, 1) == -1); /* nothing after the stop */
    cp_measurement m;
    cp_measurement_clear(&m);
    cp_samples_result(&s, &m);
    CHECK(m.timed && m.reps == CP_SAMPLING_MIN_SAMPLES && !m.noisy && m.noise == 0);
    cp_samples_free(&s);

    /* one slow first launch: [min, max] up to 7 samples is too wide; at 8 the interval leaves
     * the extremes out and the rule stops */
    double outlier[40];
    for (size_t i = 0; i < 40; i++)
        outlier[i] = i == 0 ? 1.1e-3 : 1e-3;
    cp_samples_init(&s, &r);
    CHECK_EQ_U64(feed(&s, outlier, 40), 8);
    CHECK(s.stop == CP_SAMPLES_QUIET);
    cp_samples_result(&s, &m);
    CHECK_NEAR(m.time_max_s, 1.1e-3, 0);
    CHECK_NEAR(m.time_median_s, 1e-3, 0);
    cp_samples_free(&s);

    /* a spread of +-0.4% around the median passes 0.5% at once, fails 0.3% until max-time */
    double spread[] = {1.004e-3, 0.996e-3, 1e-3, 1.002e-3, 0.998e-3, 1.004e-3, 0.996e-3};
    cp_samples_init(&s, &r);
    CHECK_EQ_U64(feed(&s, spread, 7), 5);
    CHECK_NEAR(s.noise, 0.004, 1e-12);
    cp_samples_free(&s);
    cp_sampling strict = rule_of(0, 5, 0.003, 0, 4.5e-3);
    cp_samples_init(&s, &strict);
    CHECK_EQ_U64(feed(&s, spread, 7), 5); /* 4.5 ms spent during the fifth sample */
    CHECK(s.stop == CP_SAMPLES_TIMEOUT);
    cp_samples_result(&s, &m);
    CHECK(m.noisy && m.noise > 0.003);
    cp_samples_free(&s);
}

static void test_rule_limits(void)
{
    cp_samples s;
    cp_measurement m;
    double steady[40], noisy[400];
    for (size_t i = 0; i < 40; i++)
        steady[i] = 1e-3;
    for (size_t i = 0; i < 400; i++)
        noisy[i] = i % 2 ? 1e-3 : 1.2e-3; /* a 10% half-width for ever */

    /* --min-samples beyond the quiet count */
    cp_sampling r = rule_of(0, 12, 0.005, 0, 1);
    cp_samples_init(&s, &r);
    CHECK_EQ_U64(feed(&s, steady, 40), 12);
    cp_samples_free(&s);

    /* --min-time: 9.5 ms of samples; after the first five, the count that should reach it */
    r = rule_of(0, 5, 0.005, 9.5e-3, 1);
    cp_samples_init(&s, &r);
    CHECK_EQ_U64(feed(&s, steady, 5), 6); /* not stopped after 5 */
    CHECK_EQ_U64(cp_samples_next(&s), 5);
    CHECK_EQ_U64(feed(&s, steady, 40), 5); /* 10 in all */
    CHECK_EQ_U64(s.n, 10);
    cp_samples_free(&s);

    /* noisy samples stop at --max-time, never before --min-samples, marked noisy */
    r = rule_of(0, 5, 0.005, 0, 50e-3);
    cp_samples_init(&s, &r);
    CHECK_EQ_U64(feed(&s, noisy, 400), 46); /* 23 pairs of 2.2 ms reach 50 ms at the 46th */
    CHECK(s.stop == CP_SAMPLES_TIMEOUT);
    cp_samples_result(&s, &m);
    CHECK(m.noisy && m.noise > 0.05 && m.reps == 46);
    CHECK_NEAR(m.time_min_s, 1e-3, 0);
    CHECK_NEAR(m.time_max_s, 1.2e-3, 0);
    cp_samples_free(&s);
    r = rule_of(0, 20, 0.005, 0, 1e-6); /* spent at once: still 20 samples */
    cp_samples_init(&s, &r);
    CHECK_EQ_U64(feed(&s, noisy, 400), 20);
    CHECK(s.stop == CP_SAMPLES_TIMEOUT);
    cp_samples_free(&s);

    /* --min-time beats --max-time */
    r = rule_of(0, 5, 0.005, 30e-3, 1e-6);
    cp_samples_init(&s, &r);
    CHECK_EQ_U64(feed(&s, noisy, 400), 28); /* 14 pairs of 2.2 ms: 30.8 ms */
    cp_samples_free(&s);

    /* times too short to add up to --min-time stop at the ceiling */
    r = rule_of(0, 5, 0.005, 1, 3600);
    cp_samples_init(&s, &r);
    int stopped = 0;
    size_t taken = 0;
    while (!stopped && taken < 2 * CP_SAMPLING_MAX_COUNT)
        stopped = cp_samples_add(&s, 0, 1e-6 * (double)++taken);
    CHECK_EQ_U64(taken, CP_SAMPLING_MAX_COUNT);
    CHECK(s.stop == CP_SAMPLES_QUIET);
    cp_samples_free(&s);

    /* too few samples for a noise: a timeout is noisy with the noise unknown */
    r = rule_of(0, 2, 0.005, 0, 1e-6);
    cp_samples_init(&s, &r);
    CHECK_EQ_U64(feed(&s, steady, 40), 2);
    cp_samples_result(&s, &m);
    CHECK(s.stop == CP_SAMPLES_TIMEOUT && m.noisy && isnan(m.noise));
    cp_samples_free(&s);

    /* --reps: exactly that many, noisy or not, never marked noisy */
    r = rule_of(3, 5, 0.005, 0, 1e-6);
    cp_samples_init(&s, &r);
    CHECK_EQ_U64(cp_samples_next(&s), 3);
    CHECK_EQ_U64(feed(&s, noisy, 400), 3);
    cp_samples_result(&s, &m);
    CHECK(s.stop == CP_SAMPLES_COUNTED && !m.noisy && isnan(m.noise) && m.reps == 3);
    cp_samples_free(&s);
    r = rule_of(20, 5, 0.005, 0, 1e-6);
    cp_samples_init(&s, &r);
    CHECK_EQ_U64(feed(&s, noisy, 400), 20);
    cp_samples_result(&s, &m);
    CHECK(!m.noisy && m.noise > 0.05);
    cp_samples_free(&s);
}

/* A deterministic stream of times around 1 ms with a spread of about 0.3% (a sum of uniform
 * draws of a linear congruential generator), out of order. */
static void test_rule_stream(void)
{
    cp_sampling r;
    cp_sampling_defaults(&r);
    cp_samples s;
    cp_samples_init(&s, &r);
    uint64_t x = 12345;
    int stopped = 0;
    double spent = 0, sorted_check[2000];
    for (size_t i = 0; i < 2000 && !stopped; i++) {
        double u = 0;
        for (int k = 0; k < 4; k++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            u += (double)(x >> 11) / 9007199254740992.0 - 0.5;
        }
        double t = 1e-3 * (1 + 0.006 * u);
        spent += t + 30e-6;
        stopped = cp_samples_add(&s, t, spent);
        sorted_check[i] = t;
        /* the noise kept as the samples came equals the noise of them all sorted afresh */
        size_t n = i + 1;
        for (size_t a = 1; a < n; a++)
            for (size_t b = a; b > 0 && sorted_check[b - 1] > sorted_check[b]; b--) {
                double tmp = sorted_check[b];
                sorted_check[b] = sorted_check[b - 1];
                sorted_check[b - 1] = tmp;
            }
        double fresh = cp_samples_noise(sorted_check, n);
        CHECK((isnan(fresh) && isnan(s.noise)) || fresh == s.noise);
    }
    CHECK(stopped == 1 && s.stop == CP_SAMPLES_QUIET);
    CHECK(s.noise <= r.max_noise && s.n >= CP_SAMPLING_MIN_SAMPLES && s.n < 100);
    cp_samples_free(&s);
}

/* The samples are kept in the order they came as well as sorted (the samples log), past the
 * first growth of the arrays. */
static void test_arrival_order(void)
{
    cp_sampling rule;
    cp_sampling_defaults(&rule);
    rule.reps = 40;
    cp_samples s;
    cp_samples_init(&s, &rule);
    for (int i = 0; i < 40; i++)
        CHECK(cp_samples_add(&s, 1e-3 * (double)((i * 7) % 40 + 1), 1e-3 * (i + 1)) >= 0);
    CHECK_EQ_U64(s.n, 40);
    for (int i = 0; i < 40; i++) {
        CHECK(s.arrived[i] == 1e-3 * (double)((i * 7) % 40 + 1));
        CHECK(s.sorted[i] == 1e-3 * (double)(i + 1));
    }
    cp_samples_free(&s);
}

static void test_parsers(void)
{
    cp_sampling r;
    cp_sampling_defaults(&r);
    CHECK_EQ_U64(r.reps, 0);
    CHECK_EQ_U64(r.min_samples, CP_SAMPLING_MIN_SAMPLES);
    CHECK_NEAR(r.max_noise, CP_SAMPLING_MAX_NOISE_PCT / 100.0, 1e-15);
    CHECK_NEAR(r.min_time_s, CP_SAMPLING_MIN_TIME_S, 0);
    CHECK_NEAR(r.max_time_s, CP_SAMPLING_MAX_TIME_S, 0);

    cp_status st;
    double v = -1;
    CHECK(cp_sampling_parse_noise("0.5", &v, &st) == CP_EXIT_OK);
    CHECK_NEAR(v, 0.005, 1e-15);
    CHECK(cp_sampling_parse_noise("2%", &v, &st) == CP_EXIT_OK);
    CHECK_NEAR(v, 0.02, 1e-15);
    CHECK(cp_sampling_parse_noise("100", &v, &st) == CP_EXIT_OK);
    static const char *const bad_noise[] = {"0",  "0%", "101", "-1", "abc",  "1e-3",
                                            ".5", "5.", "5 %", "",   "0.5%%"};
    for (size_t i = 0; i < CP_COUNT_OF(bad_noise); i++) {
        cp_status_clear(&st);
        int rc = cp_sampling_parse_noise(bad_noise[i], &v, &st);
        CHECK_USAGE_ERROR(rc, st, "--max-noise");
    }
    cp_status_clear(&st);
    CHECK_USAGE_ERROR(cp_sampling_parse_noise("05", &v, &st), st, "leading zero");

    CHECK(cp_sampling_parse_seconds("0.5", "--max-time", &v, &st) == CP_EXIT_OK);
    CHECK_NEAR(v, 0.5, 0);
    CHECK(cp_sampling_parse_seconds("250ms", "--max-time", &v, &st) == CP_EXIT_OK);
    CHECK_NEAR(v, 0.25, 1e-15);
    CHECK(cp_sampling_parse_seconds("2s", "--min-time", &v, &st) == CP_EXIT_OK);
    CHECK_NEAR(v, 2, 0);
    CHECK(cp_sampling_parse_seconds("0", "--min-time", &v, &st) == CP_EXIT_OK);
    CHECK(v == 0);
    static const char *const bad_time[] = {"3601", "-1", "1h", "", "0.5 s", "1e3", "ms"};
    for (size_t i = 0; i < CP_COUNT_OF(bad_time); i++) {
        cp_status_clear(&st);
        int rc = cp_sampling_parse_seconds(bad_time[i], "--min-time", &v, &st);
        CHECK_USAGE_ERROR(rc, st, "--min-time");
    }
}

int main(void)
{
    test_rank();
    test_noise();
    test_rule_quiet();
    test_rule_limits();
    test_rule_stream();
    test_arrival_order();
    test_parsers();
    return cp_test_finish();
}
