/* cp_samples.c: the stopping rule of the timed launches (cp_measure.h): a configuration's samples
 * kept sorted as they come, their noise (the relative half-width of the median's distribution-free
 * 90% confidence interval) updated with each, and when to stop; no GPU, so that the unit tests
 * feed it sequences. */
#include "cp_measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cp_sampling_defaults(cp_sampling *r)
{
    memset(r, 0, sizeof *r);
    r->min_samples = CP_SAMPLING_MIN_SAMPLES;
    r->max_noise = CP_SAMPLING_MAX_NOISE_PCT / 100.0;
    r->min_time_s = CP_SAMPLING_MIN_TIME_S;
    r->max_time_s = CP_SAMPLING_MAX_TIME_S;
}

void cp_samples_init(cp_samples *s, const cp_sampling *rule)
{
    memset(s, 0, sizeof *s);
    s->rule = *rule;
    s->noise = NAN;
}

void cp_samples_free(cp_samples *s)
{
    free(s->sorted);
    free(s->arrived);
    s->sorted = s->arrived = NULL;
    s->n = s->cap = 0;
}

/* Above this many samples the rank comes from the normal approximation of the binomial. */
#define CP_SAMPLES_EXACT_RANK 1000

size_t cp_samples_interval_rank(size_t n)
{
    const double tail = (1.0 - CP_SAMPLING_CONFIDENCE) / 2; /* each side's share: 0.05 */
    if (n < CP_SAMPLING_NOISE_MIN_SAMPLES)
        return 0;
    if (n > CP_SAMPLES_EXACT_RANK) {
        /* P(B <= j - 1) ~ Phi((j - 1/2 - n/2) / (sqrt(n)/2)) <= tail; z of the 95th percentile */
        const double z = 1.6448536269514722;
        return (size_t)floor((double)n / 2 + 0.5 - z * sqrt((double)n) / 2);
    }
    /* the binomial's terms from P(B = 0) = 2^-n (above the smallest double for n <= 1000) */
    double pmf = ldexp(1.0, -(int)n), cdf = 0;
    size_t k = 0;
    for (; k < n; k++) {
        cdf += pmf;
        if (cdf > tail)
            break;
        pmf *= (double)(n - k) / (double)(k + 1);
    }
    return k; /* P(B <= k - 1) <= tail < P(B <= k) */
}

double cp_samples_median(const double *sorted, size_t n)
{
    if (n == 0)
        return NAN;
    return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

double cp_samples_noise(const double *sorted, size_t n)
{
    size_t j = cp_samples_interval_rank(n);
    if (j == 0)
        return NAN;
    double lo = sorted[j - 1], hi = sorted[n - j], median = cp_samples_median(sorted, n);
    if (hi == lo)
        return 0;
    return median > 0 ? (hi - lo) / (2 * median) : INFINITY;
}

/* Inserts t into s->sorted in order (after its equals) and at the end of s->arrived. -1 when
 * memory ran out. */
static int cp_samples_insert(cp_samples *s, double t)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 32;
        double *grown = realloc(s->sorted, cap * sizeof *grown);
        if (!grown)
            return -1;
        s->sorted = grown;
        grown = realloc(s->arrived, cap * sizeof *grown);
        if (!grown)
            return -1;
        s->arrived = grown;
        s->cap = cap;
    }
    s->arrived[s->n] = t;
    size_t lo = 0, hi = s->n; /* the first sample above t */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->sorted[mid] <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    memmove(s->sorted + lo + 1, s->sorted + lo, (s->n - lo) * sizeof *s->sorted);
    s->sorted[lo] = t;
    s->n++;
    return 0;
}

/* The rule after a sample: why it stops now, or CP_SAMPLES_GOING. */
static cp_samples_stop cp_samples_judge(const cp_samples *s)
{
    const cp_sampling *r = &s->rule;
    if (r->reps)
        return s->n >= r->reps ? CP_SAMPLES_COUNTED : CP_SAMPLES_GOING;
    if (s->n >= CP_SAMPLING_MAX_COUNT) /* the ceiling: times too short to add up to --min-time */
        return s->noise <= r->max_noise ? CP_SAMPLES_QUIET : CP_SAMPLES_TIMEOUT;
    if (s->n < r->min_samples || s->sum_s < r->min_time_s)
        return CP_SAMPLES_GOING;
    if (s->noise <= r->max_noise) /* false while the noise is NAN */
        return CP_SAMPLES_QUIET;
    return s->spent_s >= r->max_time_s ? CP_SAMPLES_TIMEOUT : CP_SAMPLES_GOING;
}

int cp_samples_add(cp_samples *s, double time_s, double spent_s)
{
    if (s->stop != CP_SAMPLES_GOING || cp_samples_insert(s, time_s) != 0)
        return -1;
    s->sum_s += time_s;
    s->spent_s = spent_s;
    s->noise = cp_samples_noise(s->sorted, s->n);
    s->stop = cp_samples_judge(s);
    return s->stop != CP_SAMPLES_GOING;
}

uint32_t cp_samples_next(const cp_samples *s)
{
    const cp_sampling *r = &s->rule;
    if (s->stop != CP_SAMPLES_GOING)
        return 0;
    if (r->reps)
        return r->reps - (uint32_t)s->n;
    if (s->n < r->min_samples)
        return r->min_samples - (uint32_t)s->n;
    if (s->sum_s < r->min_time_s && s->sum_s > 0) {
        double more = ceil((r->min_time_s - s->sum_s) / (s->sum_s / (double)s->n));
        return more >= CP_SAMPLING_MAX_COUNT ? CP_SAMPLING_MAX_COUNT
               : more < 1                    ? 1
                                             : (uint32_t)more;
    }
    return 1;
}

void cp_samples_result(const cp_samples *s, cp_measurement *m)
{
    m->reps = (uint32_t)s->n;
    m->timed = s->n > 0;
    m->time_min_s = s->n ? s->sorted[0] : NAN;
    m->time_max_s = s->n ? s->sorted[s->n - 1] : NAN;
    m->time_median_s = cp_samples_median(s->sorted, s->n);
    m->noise = s->noise;
    m->noisy = s->stop == CP_SAMPLES_TIMEOUT;
}

/* ---- the options ---------------------------------------------------------------------------- */

/* arg as a non-negative decimal ("0.5", "12", "0"; no sign, no exponent; a leading zero was
 * refused before) followed by one of the suffixes (NULL-ended, "" for none): its value and the
 * suffix's index; -1 when it is not. */
static int cp_sampling_number(const char *arg, const char *const *suffixes, double *v)
{
    size_t digits = strspn(arg, "0123456789"), len = digits;
    if (digits == 0)
        return -1;
    if (arg[len] == '.') {
        size_t more = strspn(arg + len + 1, "0123456789");
        if (more == 0)
            return -1;
        len += 1 + more;
    }
    for (int k = 0; suffixes[k]; k++) {
        if (strcmp(arg + len, suffixes[k]) == 0) {
            *v = strtod(arg, NULL);
            return k;
        }
    }
    return -1;
}

int cp_sampling_parse_noise(const char *arg, double *fraction, cp_status *st)
{
    static const char *const suffixes[] = {"", "%", NULL};
    double v = 0;
    CP_TRY(cp_sweep_check_leading_zero(arg, "--max-noise", st));
    if (cp_sampling_number(arg, suffixes, &v) < 0)
        return cp_status_usage(st, "e.g. --max-noise 0.5 or --max-noise 0.5% (percent)",
                               "--max-noise: '%s' is not a percentage", arg);
    if (v <= 0 || v > 100)
        return cp_status_usage(st, "give a percentage above 0 and at most 100, e.g. 0.5",
                               "--max-noise: '%s' is out of range", arg);
    *fraction = v / 100.0;
    return CP_EXIT_OK;
}

int cp_sampling_parse_seconds(const char *arg, const char *option, double *seconds, cp_status *st)
{
    static const char *const suffixes[] = {"", "s", "ms", NULL};
    double v = 0;
    CP_TRY(cp_sweep_check_leading_zero(arg, option, st));
    int unit = cp_sampling_number(arg, suffixes, &v);
    if (unit < 0)
        return cp_status_usage(st, "seconds, e.g. 0.5, 0.5s or 500ms", "%s: '%s' is not a time",
                               option, arg);
    if (unit == 2)
        v /= 1000.0;
    if (v > 3600)
        return cp_status_usage(st, "at most 3600 seconds a configuration", "%s: '%s' is too long",
                               option, arg);
    *seconds = v;
    return CP_EXIT_OK;
}
