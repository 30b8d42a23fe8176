/* cp_inject_modules.c: the cubin (CRC) of each module the traced program loads and of each
 * function it looks up in one (cp_inject_modules.h). */
#define _GNU_SOURCE
#include "cp_inject_modules.h"

#include <cupti_pcsampling.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cp_base.h"

static struct {
    cp_table modules;   /* "%p" of a CUmodule -> its CRC (uintptr_t) */
    cp_table functions; /* "%p" of a CUfunction -> its CRC */
} cp_modules;

/* The CRC of the cubin this thread's load call loaded (its module-loaded callback), 0 none. */
static _Thread_local uint32_t cp_modules_loading;

const CUpti_CallbackId cp_inject_modules_cbids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuModuleLoad,        CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData,
    CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx,  CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary,
    CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction,
};
const size_t cp_inject_modules_ncbids = CP_COUNT_OF(cp_inject_modules_cbids);

void cp_inject_modules_loaded(uint32_t crc)
{
    cp_modules_loading = crc;
}

static void cp_modules_put(cp_table *t, const void *handle, uint32_t crc)
{
    char key[32];
    snprintf(key, sizeof key, "%p", handle);
    cp_table_entry *e = cp_table_get(t, key, NULL);
    if (e) /* out of memory: that handle's launches are counted by name */
        e->value = (void *)(uintptr_t)crc;
}

static uint32_t cp_modules_get(const cp_table *t, const void *handle)
{
    char key[32];
    snprintf(key, sizeof key, "%p", handle);
    const cp_table_entry *e = cp_table_find(t, key);
    return e ? (uint32_t)(uintptr_t)e->value : 0;
}

/* The CRC of a cubin loaded from memory, when image is one (an ELF file: its size is where its
 * section headers end); 0 otherwise (a fatbinary, PTX). */
static uint32_t cp_modules_image_crc(const void *image)
{
    const unsigned char *b = image;
    if (!b || memcmp(b, "\177ELF", 4) != 0 || b[4] != 2 /* 64-bit */)
        return 0;
    uint64_t shoff;
    uint16_t shentsize, shnum;
    memcpy(&shoff, b + 0x28, sizeof shoff);
    memcpy(&shentsize, b + 0x3A, sizeof shentsize);
    memcpy(&shnum, b + 0x3C, sizeof shnum);
    CUpti_GetCubinCrcParams p = {.size = CUpti_GetCubinCrcParamsSize};
    p.cubin = image;
    p.cubinSize = (size_t)(shoff + (uint64_t)shentsize * shnum);
    return cuptiGetCubinCrc(&p) == CUPTI_SUCCESS ? (uint32_t)p.cubinCrc : 0;
}

int cp_inject_modules_call(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    size_t i = 0;
    while (i < cp_inject_modules_ncbids && cp_inject_modules_cbids[i] != cbid)
        i++;
    if (i == cp_inject_modules_ncbids)
        return 0;
    if (cb->callbackSite == CUPTI_API_ENTER) {
        cp_modules_loading = 0;
        return 1;
    }
    if (!cb->functionReturnValue || *(const CUresult *)cb->functionReturnValue != CUDA_SUCCESS)
        return 1;
    const void *p = cb->functionParams;
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction) {
        const cuModuleGetFunction_params *g = p;
        uint32_t crc = cp_modules_get(&cp_modules.modules, g->hmod);
        if (crc && g->hfunc)
            cp_modules_put(&cp_modules.functions, *g->hfunc, crc);
        return 1;
    }
    CUmodule *module = NULL;
    uint32_t crc = cp_modules_loading;
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuModuleLoad) {
        module = ((const cuModuleLoad_params *)p)->module;
    } else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData) {
        module = ((const cuModuleLoadData_params *)p)->module;
        if (!crc)
            crc = cp_modules_image_crc(((const cuModuleLoadData_params *)p)->image);
    } else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx) {
        module = ((const cuModuleLoadDataEx_params *)p)->module;
        if (!crc)
            crc = cp_modules_image_crc(((const cuModuleLoadDataEx_params *)p)->image);
    } else {
        module = ((const cuModuleLoadFatBinary_params *)p)->module;
    }
    if (module && crc)
        cp_modules_put(&cp_modules.modules, *module, crc);
    cp_modules_loading = 0;
    return 1;
}

uint32_t cp_inject_modules_crc(CUfunction f)
{
    return f && cp_modules.functions.count ? cp_modules_get(&cp_modules.functions, f) : 0;
}

void cp_inject_modules_free(void)
{
    cp_table_free(&cp_modules.modules, NULL);
    cp_table_free(&cp_modules.functions, NULL);
}
