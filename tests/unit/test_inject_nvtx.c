/* test_inject_nvtx.c: the injection library's NVTX range stacks without a GPU: CUPTI's NVTX
 * callbacks fed by hand (the parameter structs of generated_nvtx_meta.h, as CUPTI hands them
 * over): push/pop nesting, domains, start/end ranges across threads, unbalanced pops, deep
 * nesting, the range records written once, and the cap's overflow. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cp_test.h"

/* the modules themselves, their statics included; cuptiEnableCallback is this test's own */
#include "inject/cp_inject_format.c"
#include "inject/cp_inject_nvtx.c"

static int enabled_nvtx;

CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle subscriber,
                                CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    (void)subscriber, (void)cbid;
    enabled_nvtx += enable == 1 && domain == CUPTI_CB_DOMAIN_NVTX;
    return CUPTI_SUCCESS;
}

static FILE *raw;

static void call(CUpti_CallbackId cbid, const void *params, const void *ret)
{
    CUpti_NvtxData d = {"nvtx", params, ret};
    cp_inject_nvtx_call(cbid, &d, raw);
}

static void push(const char *m)
{
    nvtxRangePushA_params p = {m};
    int level = 0;
    call(CUPTI_CBID_NVTX_nvtxRangePushA, &p, &level);
}

static void pop(void)
{
    nvtxRangePop_params p = {0};
    call(CUPTI_CBID_NVTX_nvtxRangePop, &p, NULL);
}

static void domain_push(nvtxDomainHandle_t dom, const char *m)
{
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = m;
    nvtxDomainRangePushEx_params p = {dom, {&a}};
    call(CUPTI_CBID_NVTX_nvtxDomainRangePushEx, &p, NULL);
}

static void domain_pop(nvtxDomainHandle_t dom)
{
    nvtxDomainRangePop_params p = {dom};
    call(CUPTI_CBID_NVTX_nvtxDomainRangePop, &p, NULL);
}

static void start(const char *m, nvtxRangeId_t id)
{
    nvtxRangeStartA_params p = {m};
    call(CUPTI_CBID_NVTX_nvtxRangeStartA, &p, &id);
}

static void end(nvtxRangeId_t id)
{
    nvtxRangeEnd_params p = {id};
    call(CUPTI_CBID_NVTX_nvtxRangeEnd, &p, NULL);
}

static char *text(char **buf)
{
    fflush(raw);
    return *buf;
}

static void test_push_pop(void)
{
    char *buf = NULL;
    size_t n = 0;
    raw = open_memstream(&buf, &n);
    CHECK(cp_inject_nvtx_enable(NULL) == CUPTI_SUCCESS);
    CHECK(enabled_nvtx >= 14);
    CHECK(cp_inject_nvtx_current() == 0);
    pop(); /* unbalanced: ignored */
    CHECK(cp_inject_nvtx_current() == 0);
    push("train");
    CHECK(cp_inject_nvtx_current() == 1);
    push("forward");
    CHECK(cp_inject_nvtx_current() == 2);
    pop();
    CHECK(cp_inject_nvtx_current() == 1);
    push("forward"); /* the same node again: no new record */
    CHECK(cp_inject_nvtx_current() == 2);
    pop();
    pop();
    CHECK(cp_inject_nvtx_current() == 0);
    push("forward"); /* at the top: another node */
    CHECK(cp_inject_nvtx_current() == 3);
    pop();
    pop();
    pop(); /* more pops than pushes */
    CHECK(cp_inject_nvtx_current() == 0);
    CHECK(strcmp(text(&buf), "range\t1\t-\ttrain\t0\n"
                             "range\t2\t-\tforward\t1\n"
                             "range\t3\t-\tforward\t0\n") == 0);
    nvtxRangePushW_params w = {L"w\u00e9"};
    call(CUPTI_CBID_NVTX_nvtxRangePushW, &w, NULL);
    CHECK(cp_inject_nvtx_current() == 4);
    CHECK_STR_CONTAINS(text(&buf), "range\t4\t-\tw\xc3\xa9\t0\n");
    pop();
    call(CUPTI_CBID_NVTX_nvtxRangePushA, NULL, NULL); /* no parameters: ignored */
    CHECK(cp_inject_nvtx_current() == 0);
    fclose(raw);
    free(buf);
    cp_inject_nvtx_free();
}

static void test_domains(void)
{
    char *buf = NULL;
    size_t n = 0;
    raw = open_memstream(&buf, &n);
    nvtxDomainHandle_t dom = (nvtxDomainHandle_t)(uintptr_t)0x1000;
    nvtxDomainCreateA_params cp = {"mylib"};
    call(CUPTI_CBID_NVTX_nvtxDomainCreateA, &cp, &dom);
    nvtxStringHandle_t sh = (nvtxStringHandle_t)(uintptr_t)0x2000;
    nvtxDomainRegisterStringA_params rp = {dom, "registered"};
    call(CUPTI_CBID_NVTX_nvtxDomainRegisterStringA, &rp, &sh);

    push("outer");
    domain_push(dom, "inner");
    CHECK(cp_inject_nvtx_current() == 2);
    pop(); /* the default domain's pop closes "outer", under "inner" */
    CHECK(cp_inject_nvtx_current() == 2);
    domain_pop(dom);
    CHECK(cp_inject_nvtx_current() == 0);
    domain_pop(dom); /* unbalanced */
    CHECK(cp_inject_nvtx_current() == 0);

    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = sh;
    nvtxDomainRangePushEx_params p = {dom, {&a}};
    call(CUPTI_CBID_NVTX_nvtxDomainRangePushEx, &p, NULL);
    CHECK(cp_inject_nvtx_current() == 3);
    domain_pop(dom);
    domain_push((nvtxDomainHandle_t)(uintptr_t)0x3000, "unknown domain");
    CHECK(cp_inject_nvtx_current() == 4);
    domain_pop((nvtxDomainHandle_t)(uintptr_t)0x3000);
    CHECK(strcmp(text(&buf), "range\t1\t-\touter\t0\n"
                             "range\t2\tmylib\tinner\t1\n"
                             "range\t3\tmylib\tregistered\t0\n"
                             "range\t4\t?\tunknown domain\t0\n") == 0);
    fclose(raw);
    free(buf);
    cp_inject_nvtx_free();
}

static int64_t other_thread_range;

static void *other_thread(void *arg)
{
    (void)arg;
    other_thread_range = cp_inject_nvtx_current();
    end(77); /* ends a range another thread started */
    return NULL;
}

static void test_start_end(void)
{
    char *buf = NULL;
    size_t n = 0;
    raw = open_memstream(&buf, &n);
    push("loop");
    start("step", 77);
    CHECK(cp_inject_nvtx_current() == 2);
    start("no id", 0); /* unknown ID: not followed */
    CHECK(cp_inject_nvtx_current() == 2);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, other_thread, NULL) == 0);
    pthread_join(t, NULL);
    CHECK(other_thread_range == 0); /* started here: not that thread's */
    CHECK(cp_inject_nvtx_current() == 1);
    start("step", 78);
    CHECK(cp_inject_nvtx_current() == 2);
    end(78);
    CHECK(cp_inject_nvtx_current() == 1);
    end(99); /* never started */
    pop();
    CHECK(cp_inject_nvtx_current() == 0);
    CHECK(strcmp(text(&buf), "range\t1\t-\tloop\t0\n"
                             "range\t2\t-\tstep\t1\n") == 0);
    fclose(raw);
    free(buf);
    cp_inject_nvtx_free();
}

static void test_deep_and_cap(void)
{
    raw = NULL;
    char name[32];
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "level%d", i);
        push(name);
    }
    CHECK(cp_inject_nvtx_current() == CP_INJECT_NVTX_DEPTH); /* the deepest kept stands in */
    for (int i = 0; i < 100; i++)
        pop();
    CHECK(cp_inject_nvtx_current() == 0);
    push("again");
    CHECK(cp_inject_nvtx_current() == CP_INJECT_NVTX_DEPTH + 1);
    pop();
    cp_inject_nvtx_free();

    cp_inject_nvtx.cap = 2;
    push("a");
    push("b");
    push("c"); /* the third node: past the cap */
    CHECK(cp_inject_nvtx_current() == CP_INJECT_RANGE_OVERFLOW);
    push("d"); /* inside an overflowed range */
    CHECK(cp_inject_nvtx_current() == CP_INJECT_RANGE_OVERFLOW);
    pop();
    pop();
    CHECK(cp_inject_nvtx_current() == 2);
    pop();
    pop();
    cp_inject_nvtx.cap = CP_INJECT_WHERE_CAP;
    cp_inject_nvtx_free();
}

/* --nvtx-include: inside a range of the name asked for, at any depth, pushed or started. */
static void test_inside(void)
{
    cp_inject_nvtx_free();
    cp_inject_nvtx_want("step");
    CHECK(!cp_inject_nvtx_inside());
    push("setup");
    CHECK(!cp_inject_nvtx_inside());
    pop();
    push("step");
    CHECK(cp_inject_nvtx_inside());
    push("forward"); /* nested deeper: still inside */
    CHECK(cp_inject_nvtx_inside());
    pop();
    pop();
    CHECK(!cp_inject_nvtx_inside());
    push("stepper"); /* the whole name, not a prefix */
    CHECK(!cp_inject_nvtx_inside());
    pop();
    start("step", 77); /* a start/end range */
    CHECK(cp_inject_nvtx_inside());
    end(77);
    CHECK(!cp_inject_nvtx_inside());
    cp_inject_nvtx_want(NULL);
    push("step");
    CHECK(!cp_inject_nvtx_inside()); /* nothing asked for: never inside */
    pop();
    cp_inject_nvtx_free();
}

int main(void)
{
    test_inside();
    test_push_pop();
    test_domains();
    test_start_end();
    test_deep_and_cap();
    return cp_test_finish();
}
