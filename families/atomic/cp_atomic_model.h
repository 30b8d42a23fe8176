/* cp_atomic_model.h: the atomic family's own counters (cp_atomic_model.c: their predict hooks
 * read its model), which its descriptor (cp_atomic_family.c) names; for its model part. */
#ifndef CP_ATOMIC_MODEL_H
#define CP_ATOMIC_MODEL_H

#define CP_ATOMIC_COUNTERS 3

extern const cp_family_counter cp_atomic_counters[CP_ATOMIC_COUNTERS];

#endif
