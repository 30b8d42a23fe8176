/* cp_async_model.h: what the async family's model part offers its descriptor besides its hooks:
 * the schedule --explain draws (cp_family_desc.schedule). */
#ifndef CP_ASYNC_MODEL_H
#define CP_ASYNC_MODEL_H

#include "cp_model_family.h"

/* Who copies what into which buffer, step by step, for configuration c (cp_async_model.c). */
void cp_model_async_schedule(const cp_config *c, char *buf, size_t len);

#endif
