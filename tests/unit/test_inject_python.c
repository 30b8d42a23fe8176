/* test_inject_python.c: the injection library's Python frames and call sites without Python or a
 * GPU: CPython's C API faked (frames, code objects, strings, reference counts) and handed to the
 * module through its look-up function; user frames found past the standard library,
 * site-packages and frozen modules, every frame kept with the option, whole stacks as PARENT
 * chains, the records written once, references balanced, the caps' overflow, a process without
 * Python, and the sites and host records. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cp_test.h"

/* the modules themselves, their statics included */
#include "inject/cp_inject_format.c"
#include "inject/cp_inject_python.c"
#include "inject/cp_inject_sites.c"

/* ---- a fake CPython: every object has a kind and a reference count -------------------- */

typedef struct fake_obj {
    int kind; /* 0 str, 1 code, 2 frame, 3 dict, 4 module */
    long refs;
    const char *text;                 /* str */
    struct fake_obj *filename, *name; /* code */
    struct fake_obj *code;            /* frame */
    int line;
    struct fake_obj *back;
} fake_obj;

static int fake_gil = 1, fake_initialized = 1;
static fake_obj *fake_current; /* the innermost frame of "this thread" */
static fake_obj fake_os_file = {0, 1, "/usr/lib/python3.11/os.py", 0, 0, 0, 0, 0};
static fake_obj fake_os = {4, 1, 0, 0, 0, 0, 0, 0};
static fake_obj fake_modules = {3, 1, 0, 0, 0, 0, 0, 0};
static int fake_sys_calls, fake_has_os = 1;

static int f_is_initialized(void)
{
    return fake_initialized;
}
static int f_gil_check(void)
{
    return fake_gil;
}
static void *f_get_frame(void)
{
    return fake_current;
}
static void *f_frame_code(void *f)
{
    fake_obj *c = ((fake_obj *)f)->code;
    c->refs++;
    return c;
}
static int f_frame_line(void *f)
{
    return ((fake_obj *)f)->line;
}
static void *f_frame_back(void *f)
{
    fake_obj *b = ((fake_obj *)f)->back;
    if (b)
        b->refs++;
    return b;
}
static void *f_get_attr(void *o, const char *name)
{
    fake_obj *x = o, *v = NULL;
    if (x->kind == 1 && strcmp(name, "co_filename") == 0)
        v = x->filename;
    else if (x->kind == 1 && strcmp(name, "co_name") == 0)
        v = x->name;
    else if (x->kind == 4 && strcmp(name, "__file__") == 0)
        v = &fake_os_file;
    if (v)
        v->refs++;
    return v;
}
static const char *f_utf8(void *o)
{
    return ((fake_obj *)o)->text;
}
static void f_inc_ref(void *o)
{
    ((fake_obj *)o)->refs++;
}
static void f_dec_ref(void *o)
{
    ((fake_obj *)o)->refs--;
}
static void f_err_clear(void) {}
static void *f_sys_object(const char *name)
{
    fake_sys_calls++;
    return strcmp(name, "modules") == 0 ? &fake_modules : NULL;
}
static void *f_dict_item(void *d, const char *key)
{
    return d == &fake_modules && strcmp(key, "os") == 0 && fake_has_os ? &fake_os : NULL;
}

static int lookups;
static void *fake_lookup(const char *name)
{
    lookups++;
    static const struct {
        const char *name;
        void *fn;
    } api[] = {{"Py_IsInitialized", (void *)f_is_initialized},
               {"PyGILState_Check", (void *)f_gil_check},
               {"PyEval_GetFrame", (void *)f_get_frame},
               {"PyFrame_GetCode", (void *)f_frame_code},
               {"PyFrame_GetLineNumber", (void *)f_frame_line},
               {"PyFrame_GetBack", (void *)f_frame_back},
               {"PyObject_GetAttrString", (void *)f_get_attr},
               {"PyUnicode_AsUTF8", (void *)f_utf8},
               {"Py_IncRef", (void *)f_inc_ref},
               {"Py_DecRef", (void *)f_dec_ref},
               {"PyErr_Clear", (void *)f_err_clear},
               {"PySys_GetObject", (void *)f_sys_object},
               {"PyDict_GetItemString", (void *)f_dict_item}};
    for (size_t i = 0; i < sizeof api / sizeof api[0]; i++)
        if (strcmp(api[i].name, name) == 0)
            return api[i].fn;
    return NULL;
}

/* The profile hook's C API: a pending call is kept (Python runs it later, in its main thread),
 * the profile function installed is kept. */
typedef int (*fake_pending_fn)(void *);
typedef int (*fake_profile_fn)(void *, void *, int, void *);
static fake_pending_fn fake_pending;
static fake_profile_fn fake_profile;
static int fake_pending_calls;
static int f_add_pending(fake_pending_fn fn, void *arg)
{
    (void)arg;
    fake_pending_calls++;
    fake_pending = fn;
    return 0;
}
static void f_set_profile(fake_profile_fn fn, void *obj)
{
    (void)obj;
    fake_profile = fn;
}

/* fake_lookup and the hook's functions */
static void *hook_lookup(const char *name)
{
    if (strcmp(name, "Py_AddPendingCall") == 0)
        return (void *)f_add_pending;
    if (strcmp(name, "PyEval_SetProfile") == 0)
        return (void *)f_set_profile;
    return fake_lookup(name);
}

static void *no_python(const char *name)
{
    (void)name;
    lookups++;
    return NULL;
}

/* A stack of n frames, innermost first: files[i], functions[i], lines[i]. */
typedef struct fake_stack {
    fake_obj str[32], code[16], frame[16];
    int n;
} fake_stack;

static void make_stack(fake_stack *s, int n, const char *const *files, const char *const *funcs,
                       const int *lines)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    for (int i = 0; i < n; i++) {
        s->str[2 * i] = (fake_obj){0, 1, files[i], 0, 0, 0, 0, 0};
        s->str[2 * i + 1] = (fake_obj){0, 1, funcs[i], 0, 0, 0, 0, 0};
        s->code[i] = (fake_obj){1, 1, 0, &s->str[2 * i], &s->str[2 * i + 1], 0, 0, 0};
        s->frame[i] = (fake_obj){2, 1, 0, 0, 0, &s->code[i], lines[i], 0};
    }
    for (int i = 0; i + 1 < n; i++)
        s->frame[i].back = &s->frame[i + 1];
    fake_current = n ? &s->frame[0] : NULL;
}

/* Every frame and string back at one reference (codes may hold the table's). */
static void check_frames_balanced(const fake_stack *s)
{
    for (int i = 0; i < s->n; i++)
        CHECK(s->frame[i].refs == 1);
    for (int i = 0; i < 2 * s->n; i++)
        CHECK(s->str[i].refs == 1);
}

static const char *const torch_files[] = {
    "/usr/lib/python3.11/site-packages/torch/nn/functional.py", "<frozen importlib._bootstrap>",
    "/usr/lib/python3.11/contextlib.py", "/home/me/train.py", "/home/me/main.py"};
static const char *const torch_funcs[] = {"linear", "_call", "inner", "step", "<module>"};
static const int torch_lines[] = {120, 7, 81, 42, 9};

static void test_user_frame(void)
{
    cp_inject_python_set_lookup(fake_lookup);
    cp_inject_python_configure(0, 0);
    fake_gil = fake_initialized = 1;
    fake_stack s;
    make_stack(&s, 5, torch_files, torch_funcs, torch_lines);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    int64_t id = cp_inject_python_frame(f);
    CHECK(id == 1);
    CHECK(cp_inject_python_frame(f) == 1); /* the same line again: the same frame, no record */
    s.frame[3].line = 43;                  /* another line of the same code object */
    CHECK(cp_inject_python_frame(f) == 2);
    fflush(f);
    CHECK_STR_CONTAINS(buf, "frame\t1\t/home/me/train.py\t42\tstep\t0\n");
    CHECK_STR_CONTAINS(buf, "frame\t2\t/home/me/train.py\t43\tstep\t0\n");
    CHECK(strstr(buf, "functional.py") == NULL && strstr(buf, "contextlib") == NULL);
    CHECK(strstr(strstr(buf, "frame\t1\t") + 1, "frame\t1\t") == NULL); /* written once */
    check_frames_balanced(&s);
    /* the standard library's directory came from os.__file__ */
    CHECK(cp_inject_python.stdlib_known == 1);
    CHECK(strcmp(cp_inject_python.stdlib, "/usr/lib/python3.11/") == 0);
    fclose(f);
    free(buf);
    cp_inject_python_free();
}

static void test_filters(void)
{
    cp_inject_python_set_lookup(fake_lookup);
    cp_inject_python.stdlib_known = 1;
    snprintf(cp_inject_python.stdlib, sizeof cp_inject_python.stdlib, "/opt/py/lib/python3.12/");
    CHECK(!cp_inject_python_user_file("/opt/py/lib/python3.12/json/decoder.py"));
    CHECK(!cp_inject_python_user_file("/home/me/venv/lib/python3.12/site-packages/torch/a.py"));
    CHECK(!cp_inject_python_user_file("/usr/lib/python3/dist-packages/numpy/b.py"));
    CHECK(!cp_inject_python_user_file("<frozen runpy>"));
    CHECK(!cp_inject_python_user_file("<string>"));
    CHECK(!cp_inject_python_user_file(""));
    CHECK(!cp_inject_python_user_file(NULL));
    CHECK(cp_inject_python_user_file("/home/me/train.py"));
    CHECK(cp_inject_python_user_file("/opt/py/lib/python3.12x/mine.py"));
    CHECK(cp_inject_python_user_file("<stdin>"));
    cp_inject_python.stdlib_known = -1; /* unknown: the usual place of the standard library */
    CHECK(!cp_inject_python_user_file("/usr/local/lib/python3.10/json/decoder.py"));
    CHECK(cp_inject_python_user_file("/home/me/train.py"));

    /* no os module: the fallback, found once */
    fake_has_os = 0;
    fake_sys_calls = 0;
    cp_inject_python_set_lookup(fake_lookup);
    cp_inject_python_configure(0, 0);
    fake_stack s;
    make_stack(&s, 5, torch_files, torch_funcs, torch_lines);
    CHECK(cp_inject_python_frame(NULL) == 1);
    CHECK(cp_inject_python_frame(NULL) == 1);
    CHECK(cp_inject_python.stdlib_known == -1 && fake_sys_calls == 1);
    fake_has_os = 1;
    cp_inject_python_free();
}

static void test_all_frames_and_stack(void)
{
    cp_inject_python_set_lookup(fake_lookup);
    cp_inject_python_configure(1, 0); /* all: the innermost frame, whatever it is */
    fake_stack s;
    make_stack(&s, 5, torch_files, torch_funcs, torch_lines);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    CHECK(cp_inject_python_frame(f) == 1);
    fflush(f);
    CHECK_STR_CONTAINS(buf, "frame\t1\t/usr/lib/python3.11/site-packages/torch/nn/functional.py"
                            "\t120\tlinear\t0\n");
    fclose(f);
    free(buf);
    check_frames_balanced(&s);

    /* the whole stack from the user frame out: PARENT chains to the outermost */
    cp_inject_python_set_lookup(fake_lookup);
    cp_inject_python_configure(0, 1);
    buf = NULL;
    f = open_memstream(&buf, &n);
    int64_t id = cp_inject_python_frame(f);
    fflush(f);
    CHECK(id == 2);
    CHECK_STR_CONTAINS(buf, "frame\t1\t/home/me/main.py\t9\t<module>\t0\n"
                            "frame\t2\t/home/me/train.py\t42\tstep\t1\n");
    fclose(f);
    free(buf);
    check_frames_balanced(&s);
    cp_inject_python_free();
}

static void test_nogil_none_nopython(void)
{
    cp_inject_python_set_lookup(fake_lookup);
    cp_inject_python_configure(0, 0);
    fake_stack s;
    make_stack(&s, 3, torch_files, torch_funcs, torch_lines); /* torch, frozen, stdlib only */
    CHECK(cp_inject_python_frame(NULL) == CP_INJECT_FRAME_NONE);
    check_frames_balanced(&s);
    fake_gil = 0;
    CHECK(cp_inject_python_frame(NULL) == CP_INJECT_FRAME_NOGIL);
    fake_gil = 1;
    fake_initialized = 0;
    CHECK(cp_inject_python_frame(NULL) == CP_INJECT_FRAME_NOPYTHON);
    fake_initialized = 1;
    fake_current = NULL;
    CHECK(cp_inject_python_frame(NULL) == CP_INJECT_FRAME_NONE);
    cp_inject_python_free();

    /* no Python in the process: one failed look-up, once, and "-" every time */
    lookups = 0;
    cp_inject_python_set_lookup(no_python);
    for (int i = 0; i < 5; i++)
        CHECK(cp_inject_python_frame(NULL) == CP_INJECT_FRAME_NOPYTHON);
    CHECK_EQ_U64(lookups, 1);
}

static void test_caps(void)
{
    cp_inject_python_set_lookup(fake_lookup);
    cp_inject_python_configure(0, 0);
    cp_inject_python.cap = 2;
    fake_stack s;
    make_stack(&s, 5, torch_files, torch_funcs, torch_lines);
    /* the code cap (2) is reached by the skipped frames: the walk overflows */
    CHECK(cp_inject_python_frame(NULL) == CP_INJECT_FRAME_OVERFLOW);
    check_frames_balanced(&s);
    cp_inject_python_set_lookup(fake_lookup);
    cp_inject_python.cap = 8;
    int lines[5] = {1, 2, 3, 4, 5};
    const char *files[5] = {"/a.py", "/a.py", "/a.py", "/a.py", "/a.py"};
    make_stack(&s, 1, files, torch_funcs, lines);
    for (int i = 1; i <= 8; i++) {
        s.frame[0].line = i;
        CHECK(cp_inject_python_frame(NULL) == i);
    }
    s.frame[0].line = 9;
    CHECK(cp_inject_python_frame(NULL) == CP_INJECT_FRAME_OVERFLOW);
    s.frame[0].line = 3;
    CHECK(cp_inject_python_frame(NULL) == 3); /* interned before: still found */
    cp_inject_python.cap = CP_INJECT_WHERE_CAP;
    cp_inject_python_free();
}

static void test_sites(void)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    uint32_t a = cp_inject_sites_get(f, 0, "_Z4copyPf", 1, 0);
    uint32_t b = cp_inject_sites_get(f, 0, "_Z4copyPf", 1, 0);
    uint32_t c = cp_inject_sites_get(f, 1, "_Z4copyPf", 1, 0);
    uint32_t d = cp_inject_sites_get(f, 0, "_Z4copyPf", 1, 3);
    uint32_t e = cp_inject_sites_get(f, 0, "_Z4copyPf", CP_INJECT_FRAME_NOPYTHON, 0);
    uint32_t g = cp_inject_sites_get(f, 0, "_Z4copyPf", CP_INJECT_FRAME_NOGIL, 0);
    uint32_t h = cp_inject_sites_get(f, 0, "_Z4copyPf", CP_INJECT_FRAME_NONE, 2);
    CHECK(a == 1 && b == 1 && c == 2 && d == 3 && e == 4 && g == 5 && h == 6);
    cp_inject_sites_count(a, 3);
    cp_inject_sites_count(d, 1);
    cp_inject_sites_count(0, 7); /* unknown: ignored */
    cp_inject_sites_write_counts(f);
    cp_inject_sites_write_counts(f); /* nothing since */
    cp_inject_sites_count(a, 2);
    cp_inject_sites_write_counts(f);
    /* past the cap: the overflow site of the function, and the note */
    cp_inject_sites.cap = 6;
    uint32_t o = cp_inject_sites_get(f, 0, "_Z4copyPf", 2, 0);
    uint32_t p = cp_inject_sites_get(f, 0, "_Z4copyPf", CP_INJECT_FRAME_OVERFLOW, 0);
    uint32_t q = cp_inject_sites_get(f, 0, "_Z4copyPf", 1, CP_INJECT_RANGE_OVERFLOW);
    CHECK(o == 7 && p == 7 && q == 7);
    CHECK(cp_inject_sites_get(f, 0, "_Z4copyPf", 1, 0) == 1); /* known sites still found */
    cp_inject_sites_count(o, 4);
    cp_inject_sites_write_counts(f);
    cp_inject_sites_write_lost(f);
    cp_inject_sites.cap = CP_INJECT_WHERE_CAP;
    fflush(f);
    CHECK(strcmp(buf, "site\t1\t0\t_Z4copyPf\t1\t0\n"
                      "site\t2\t1\t_Z4copyPf\t1\t0\n"
                      "site\t3\t0\t_Z4copyPf\t1\t3\n"
                      "site\t4\t0\t_Z4copyPf\t-\t0\n"
                      "site\t5\t0\t_Z4copyPf\tnogil\t0\n"
                      "site\t6\t0\t_Z4copyPf\tnone\t2\n"
                      "launches_at\t1\t3\n"
                      "launches_at\t3\t1\n"
                      "launches_at\t1\t2\n"
                      "site\t7\t0\t_Z4copyPf\toverflow\t0\n"
                      "launches_at\t7\t4\n"
                      "note\t4 launches lost their call site: the process had more than 65536 "
                      "distinct call sites, Python frames or NVTX ranges (they are filed under a "
                      "site of frame \"overflow\" for their function)\n") == 0);
    if (strncmp(buf, "site\t1", 6) != 0)
        fprintf(stderr, "%s", buf);
    fclose(f);
    free(buf);
    cp_inject_sites_free();
}

static void test_host(void)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    setenv("RANK", "3", 1);
    setenv("WORLD_SIZE", "8", 1);
    unsetenv("LOCAL_RANK");
    setenv("PMI_RANK", "a\tb", 1);
    cp_inject_sites_write_host(f);
    fflush(f);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    char want[600];
    snprintf(want, sizeof want, "host\t%s\nrank\tRANK\t3\nrank\tWORLD_SIZE\t8\n", host);
    CHECK(strncmp(buf, want, strlen(want)) == 0);
    CHECK_STR_CONTAINS(buf, "rank\tPMI_RANK\ta\\tb\n");
    CHECK(strstr(buf, "LOCAL_RANK") == NULL);
    fclose(f);
    free(buf);
}

/* PyTorch's operators release the GIL before they launch: the profile function, installed
 * through a pending call, follows the innermost user frame while the GIL is held, and a launch
 * without the GIL reads that frame's current line. */
static void test_profile_hook(void)
{
    cp_inject_python_set_lookup(hook_lookup);
    cp_inject_python_configure(0, 0);
    fake_gil = fake_initialized = 1;
    fake_pending = NULL;
    fake_profile = NULL;
    fake_pending_calls = 0;
    fake_stack s;
    make_stack(&s, 5, torch_files, torch_funcs, torch_lines);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    /* no note yet, no GIL: "nogil"; the hook asked for once */
    fake_gil = 0;
    CHECK(cp_inject_python_frame(f) == CP_INJECT_FRAME_NOGIL);
    CHECK(cp_inject_python_frame(f) == CP_INJECT_FRAME_NOGIL);
    CHECK(fake_pending_calls == 1 && fake_pending != NULL && fake_profile == NULL);
    /* Python runs the pending call with the GIL, in the middle of the stack: the profile function
     * is installed and the innermost user frame (frame 3: train.py, step) noted, referenced */
    fake_gil = 1;
    CHECK(fake_pending && fake_pending(NULL) == 0 && fake_profile != NULL);
    if (!fake_profile)
        return;
    CHECK(s.frame[3].refs == 2);
    fake_gil = 0;
    int64_t at42 = cp_inject_python_frame(f);
    CHECK(at42 > 0);
    /* an operator on line 44 (`e @ w`: no profile event): its own line, read at the launch */
    s.frame[3].line = 44;
    int64_t at44 = cp_inject_python_frame(f);
    CHECK(at44 > 0 && at44 != at42);
    /* a C call and a return inside a package do not move the note */
    fake_gil = 1;
    CHECK(fake_profile(NULL, &s.frame[0], 4 /* PyTrace_C_CALL */, NULL) == 0);
    CHECK(fake_profile(NULL, &s.frame[0], 3 /* PyTrace_RETURN */, NULL) == 0);
    fake_gil = 0;
    CHECK(cp_inject_python_frame(f) == at44);
    /* frame 3 returns: the note moves to its caller, main.py's line 9 */
    fake_gil = 1;
    CHECK(fake_profile(NULL, &s.frame[3], 3, NULL) == 0);
    CHECK(s.frame[3].refs == 1 && s.frame[4].refs == 2);
    fake_gil = 0;
    int64_t at9 = cp_inject_python_frame(f);
    CHECK(at9 > 0 && at9 != at44);
    /* a Python call of a user frame: the new frame (its line now 45) */
    fake_gil = 1;
    s.frame[3].line = 45;
    CHECK(fake_profile(NULL, &s.frame[3], 0 /* PyTrace_CALL */, NULL) == 0);
    fake_gil = 0;
    int64_t at45 = cp_inject_python_frame(f);
    CHECK(at45 > 0 && at45 != at44 && at45 != at9);
    /* the stack unwinds: no user frame left ("none"), every reference given back */
    fake_gil = 1;
    CHECK(fake_profile(NULL, &s.frame[3], 3, NULL) == 0);
    s.frame[3].back = NULL; /* main.py's frame returns too: nothing behind it */
    CHECK(fake_profile(NULL, &s.frame[4], 3, NULL) == 0);
    fake_gil = 0;
    CHECK(cp_inject_python_frame(f) == CP_INJECT_FRAME_NONE);
    s.frame[3].back = &s.frame[4];
    fflush(f);
    CHECK_STR_CONTAINS(buf, "\t/home/me/train.py\t42\tstep\t0\n");
    CHECK_STR_CONTAINS(buf, "\t/home/me/train.py\t44\tstep\t0\n");
    CHECK_STR_CONTAINS(buf, "\t/home/me/train.py\t45\tstep\t0\n");
    CHECK_STR_CONTAINS(buf, "\t/home/me/main.py\t9\t<module>\t0\n");
    CHECK(strstr(buf, "functional.py") == NULL);
    check_frames_balanced(&s);
    /* a thread's first event (a call inside a package): its stack walked to the user frame */
    cp_inject_python_noted = (cp_inject_python_note){0};
    fake_gil = 1;
    CHECK(fake_profile(NULL, &s.frame[0], 0, NULL) == 0);
    CHECK(cp_inject_python_noted.known && cp_inject_python_noted.frame == &s.frame[3]);
    CHECK(fake_profile(NULL, &s.frame[3], 3, NULL) == 0);
    CHECK(fake_profile(NULL, &s.frame[4], 3, NULL) == 0); /* frame 4's back: none */
    check_frames_balanced(&s);
    /* COALPROBE_TRACE_PYTHON_HOOK=0: nothing asked for */
    cp_inject_python_set_lookup(hook_lookup);
    fake_pending_calls = 0;
    fake_gil = 0;
    setenv("COALPROBE_TRACE_PYTHON_HOOK", "0", 1);
    CHECK(cp_inject_python_frame(f) == CP_INJECT_FRAME_NOGIL && fake_pending_calls == 0);
    unsetenv("COALPROBE_TRACE_PYTHON_HOOK");
    /* CUDA's start asks for the hook (cp_inject_python_prepare), once, before any launch */
    cp_inject_python_set_lookup(hook_lookup);
    fake_pending_calls = 0;
    cp_inject_python_prepare();
    cp_inject_python_prepare();
    CHECK(fake_pending_calls == 1);
    /* COALPROBE_TRACE_PYTHON=0: traced as a process without Python, nothing looked up */
    cp_inject_python_set_lookup(hook_lookup);
    setenv("COALPROBE_TRACE_PYTHON", "0", 1);
    lookups = 0;
    cp_inject_python_prepare();
    CHECK(cp_inject_python_frame(f) == CP_INJECT_FRAME_NOPYTHON && lookups == 0);
    unsetenv("COALPROBE_TRACE_PYTHON");
    fake_gil = 1;
    fclose(f);
    free(buf);
    /* the fake Python runs no other thread that could be inside the hook: its code objects go
     * (a real process keeps them, cp_inject_python_free), so that the next test starts empty */
    cp_inject_python.hooked = 0;
    cp_inject_python.hook = 0;
    cp_inject_python_free();
}

int main(void)
{
    test_user_frame();
    test_filters();
    test_all_frames_and_stack();
    test_nogil_none_nopython();
    test_profile_hook();
    test_caps();
    test_sites();
    test_host();
    return cp_test_finish();
}
