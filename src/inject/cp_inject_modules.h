/* cp_inject_modules.h: which cubin each module and function of the traced program comes from
 * (its CRC, as the SASS metrics name it), so that launches of two cubins' functions that share a
 * name (torch.compile's Triton kernels, one per compiled graph) are counted apart. Runs inside
 * the traced program: libc, the CUDA driver's callback parameters and CUPTI. */
#ifndef CP_INJECT_MODULES_H
#define CP_INJECT_MODULES_H

#include <cuda.h>
#include <cupti.h>
#include <stdint.h>

/* The module-loaded resource callback on this thread: the cubin of the load call it runs in. */
void cp_inject_modules_loaded(uint32_t crc);

/* A driver API callback: the module a load call made (cuModuleLoad*) and the functions looked
 * up in it (cuModuleGetFunction), at their exit. 1 when cbid is one of those calls. */
int cp_inject_modules_call(CUpti_CallbackId cbid, const CUpti_CallbackData *cb);

/* The calls cp_inject_modules_call reads, to enable. */
extern const CUpti_CallbackId cp_inject_modules_cbids[];
extern const size_t cp_inject_modules_ncbids;

/* The CRC of f's cubin, or 0 when not known (a function the program got otherwise: the CUDA
 * runtime's, through cuLibrary*; launches of those are counted by name). */
uint32_t cp_inject_modules_crc(CUfunction f);

void cp_inject_modules_free(void);

#endif
