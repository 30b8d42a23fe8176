/* cp_inject_sites.h: the call sites of kernel launches (device, function, Python frame, NVTX
 * range), interned as `site` records and counted as `launches_at` records, and the `host` and
 * `rank` records of the process (cp_trace_raw.h). */
#ifndef CP_INJECT_SITES_H
#define CP_INJECT_SITES_H

#include <stdint.h>
#include <stdio.h>

/* The site of a launch of function on device ordinal from frame (an ID or CP_INJECT_FRAME_*)
 * inside range (a node ID, 0, or CP_INJECT_RANGE_OVERFLOW): its ID (> 0), its record written to
 * raw when new. Past the caps, or when the frame or range overflowed, the site of FRAME
 * "overflow" and RANGE 0 for the function. 0 only when memory runs out. */
uint32_t cp_inject_sites_get(FILE *raw, uint32_t ordinal, const char *function, int64_t frame,
                             int64_t range);

/* n more launches at site (0: none known, ignored). */
void cp_inject_sites_count(uint32_t site, uint64_t n);

/* A launches_at record for each site launched since the last call. */
void cp_inject_sites_write_counts(FILE *raw);

/* The note on the launches that lost their call site to the caps, if any. */
void cp_inject_sites_write_lost(FILE *raw);

/* The host record and a rank record for each rank variable set in the environment. */
void cp_inject_sites_write_host(FILE *raw);

void cp_inject_sites_free(void);

#endif
