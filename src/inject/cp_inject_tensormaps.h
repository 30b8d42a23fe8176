/* cp_inject_tensormaps.h: the injection library's record of the tensor maps (TMA descriptors)
 * the traced program encodes on the host: every successful cuTensorMapEncodeTiled,
 * cuTensorMapEncodeIm2col and cuTensorMapEncodeIm2colWide, identical maps (all but the address)
 * counted together, and the cuTensorMapReplaceAddress calls; written as tensor_map and
 * tensor_map_calls records (cp_trace_raw.h) when the process ends. Runs inside the traced
 * program under the library's lock: libc and CUPTI's callback data only. */
#ifndef CP_INJECT_TENSORMAPS_H
#define CP_INJECT_TENSORMAPS_H

#include <cuda.h>
#include <cupti.h>
#include <stdint.h>
#include <stdio.h>

/* Enables the driver API callbacks of the calls above on subscriber; the first failure's result
 * (tensor maps are then not recorded, and no record says they were watched). */
CUptiResult cp_inject_tmaps_enable(CUpti_SubscriberHandle subscriber);

/* Handles one driver API callback: 1 when cbid is one of the calls above (recorded on the exit
 * of a call that returned CUDA_SUCCESS), 0 when it is another call. */
int cp_inject_tmaps_call(CUpti_CallbackId cbid, const CUpti_CallbackData *cb);

/* The bytes of a CUtensorMap: a kernel parameter of this size may be one. */
#define CP_INJECT_TMAP_BYTES 128

/* Looks the driver's cuFuncGetParamInfo up in the handle of libcuda (CUDA 12.4 and later). */
void cp_inject_tmaps_load(void *cuda);

/* The indices of f's parameters of a CUtensorMap's size (CP_INJECT_TMAP_BYTES), at most max of
 * them, into index: their count, or -1 when the driver cannot say. */
int cp_inject_tmaps_params(CUfunction f, uint16_t *index, int max);

/* 1 once a descriptor was encoded (launches' parameters are then worth comparing). */
int cp_inject_tmaps_any(void);

/* The map (index among the tensor_map records) whose encoded descriptor is the 128 bytes at
 * value, or -1 when no descriptor encoded on the host while traced is (one built on the device,
 * encoded before the injection, or past the table). */
int64_t cp_inject_tmaps_find(const void *value);

/* One launch of function (cubin crc, 0 unknown) on device ordinal passed map `map` (-1: a
 * 128-byte parameter that is no known descriptor); written as kernel_tmap records. hint (NULL:
 * none) is the caller's memory of where this kind of use was counted last, tried first: a
 * launch-heavy program then pays no search a launch. */
void cp_inject_tmaps_used(uint32_t ordinal, uint32_t crc, const char *function, int64_t map,
                          uint32_t *hint);

/* One launch of function whose 128-byte parameters were all compared (each then passed to
 * cp_inject_tmaps_used): a kernel_tmap record of MAP "*". */
void cp_inject_tmaps_checked(uint32_t ordinal, uint32_t crc, const char *function, uint32_t *hint);

/* Writes the tensor_map records, the tensor_map_calls record and the kernel_tmap records to raw
 * (nothing when the callbacks were never enabled), then forgets every map. */
void cp_inject_tmaps_write(FILE *raw);

#endif
