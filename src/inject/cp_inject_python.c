/* cp_inject_python.c: the Python frame of each kernel launch, read through CPython's C API as the
 * traced process has it (looked up with dlsym, never linked: a process without Python pays one
 * failed lookup). Frames are walked only by a thread that holds the GIL (PyGILState_Check), and
 * no Python code ever runs here: the launch callbacks hold the injection library's lock, and
 * Python code may hand the GIL to another thread, whose own launch would then wait on that lock
 * while holding the GIL. So the standard library's directory comes from os.__file__ (sys.modules,
 * no import), not from sysconfig.
 *
 * Cost at a launch with the GIL: one PyFrame_GetCode, a table look-up keyed by the code object's
 * address and a PyFrame_GetBack per frame walked; the table keeps a reference to each code object
 * it holds, so an address never names two code objects. A frame already interned costs no
 * allocation of this library (the key lives on the stack); Python itself may create frame objects
 * in PyFrame_GetBack (3.11 and later).
 *
 * A thread that launches without the GIL (PyTorch's operators release it before they run: the
 * tensor methods behind `@`, `*`, `+` and indexing as much as torch.relu) cannot walk its stack
 * then: walking creates and references Python objects. So a profile function
 * (PyEval_SetProfileAllThreads, or PyEval_SetProfile for the main thread before 3.12), installed
 * once through Py_AddPendingCall as soon as CUDA starts (cp_inject_python_prepare) or at the
 * first launch, follows on each thread, while that thread holds the GIL, its innermost user frame:
 * the frame object itself, referenced, set when a user frame is called or calls a C function, and
 * moved to the innermost user frame of its callers when it returns (or yields). A launch without
 * the GIL reads that frame's current line (PyFrame_GetLineNumber: the frame's line table at its
 * current instruction, nothing created, nothing referenced): the frame belongs to the launching
 * thread, which runs no Python while it is in the launch, so neither the frame nor its line can
 * change under the read. So an operator's launch, which makes no profile event (a slot such as
 * nb_matrix_multiply, called by the BINARY_OP instruction, is no call of a function), is filed
 * under its own line, not under the line of the previous call. A thread that never ran Python has
 * no frame ("nogil"). The code objects' table and the references are touched only by threads that
 * hold the GIL (the profile function and a launch with the GIL), so the GIL serialises them; the
 * frames' table only under the injection library's lock. COALPROBE_TRACE_PYTHON_HOOK=0 installs
 * nothing. */
#define _GNU_SOURCE
#include "cp_inject_python.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/cp_base.h"
#include "cp_inject_format.h"

/* Frames walked at most looking for a user frame (a guard against a corrupt chain). */
#define CP_INJECT_PYTHON_WALK_MAX 4096

/* The C API functions used: in every CPython from 3.9 to 3.13. */
typedef struct cp_inject_python_api {
    int (*is_initialized)(void);              /* Py_IsInitialized */
    int (*gil_check)(void);                   /* PyGILState_Check */
    void *(*get_frame)(void);                 /* PyEval_GetFrame: borrowed */
    void *(*frame_code)(void *);              /* PyFrame_GetCode: new reference */
    int (*frame_line)(void *);                /* PyFrame_GetLineNumber */
    void *(*frame_back)(void *);              /* PyFrame_GetBack: new reference or NULL */
    void *(*get_attr)(void *, const char *);  /* PyObject_GetAttrString: new reference */
    const char *(*utf8)(void *);              /* PyUnicode_AsUTF8: borrowed */
    void (*inc_ref)(void *);                  /* Py_IncRef */
    void (*dec_ref)(void *);                  /* Py_DecRef */
    void (*err_clear)(void);                  /* PyErr_Clear */
    void *(*sys_object)(const char *);        /* PySys_GetObject: borrowed */
    void *(*dict_item)(void *, const char *); /* PyDict_GetItemString: borrowed */
    /* optional: the profile hook (absent: launches without the GIL stay "nogil") */
    int (*add_pending)(int (*)(void *), void *);                           /* Py_AddPendingCall */
    void (*set_profile)(int (*)(void *, void *, int, void *), void *);     /* PyEval_SetProfile */
    void (*set_profile_all)(int (*)(void *, void *, int, void *), void *); /* ...AllThreads */
} cp_inject_python_api;

/* The profile events the profile function follows frames with (PyTrace_*). */
#define CP_INJECT_PYTRACE_CALL 0
#define CP_INJECT_PYTRACE_RETURN 3
#define CP_INJECT_PYTRACE_C_CALL 4

/* This thread's innermost user frame, as the profile function follows it: the frame object
 * (referenced; NULL when no frame of the stack is the user's), its code object (one the codes'
 * table holds) and what is known of it. known: 1 once the note follows this thread's stack (the
 * thread's first profile event, or the hook's installation on the main thread, walks it). */
typedef struct cp_inject_python_note {
    void *frame;
    void *code;
    const struct cp_inject_python_code *info;
    int known;
} cp_inject_python_note;
static _Thread_local cp_inject_python_note cp_inject_python_noted;
/* The code object this thread saw last and what is known of it: most events come from the frame
 * the previous one came from, so the table is not searched for them. */
static _Thread_local void *cp_inject_python_last_code;
static _Thread_local const struct cp_inject_python_code *cp_inject_python_last_info;

/* One code object seen: its file and function, and whether its file is the user's. */
typedef struct cp_inject_python_code {
    char *file;
    char *function;
    int user;
} cp_inject_python_code;

static struct {
    cp_inject_python_lookup lookup;
    int found; /* 0: not looked up yet; 1: found; -1: no Python in the process */
    cp_inject_python_api api;
    int all_frames, whole_stack;
    int stdlib_known;      /* 1: stdlib holds the standard library's directory; -1: unknown */
    char stdlib[4096];     /* with a trailing slash */
    cp_table codes;        /* "%p" of a code object (referenced) -> cp_inject_python_code */
    cp_table frames;       /* "CODE\tLINE\tPARENT" -> index: the frame's ID */
    size_t cap;            /* CP_INJECT_WHERE_CAP; lowered by tests */
    int hook;              /* 0: not asked yet; 1: asked for (pending) or installed; -1: none */
    int hooked;            /* installed once: threads' notes may point into codes, kept */
    volatile int hook_off; /* set when the tables are freed: the profile function does nothing */
} cp_inject_python = {.cap = CP_INJECT_WHERE_CAP};

static void *cp_inject_python_dlsym(const char *name)
{
    return dlsym(RTLD_DEFAULT, name);
}

void cp_inject_python_set_lookup(cp_inject_python_lookup lookup)
{
    cp_inject_python.hook = 0; /* a test's own Python: its tables go */
    cp_inject_python_free();
    cp_inject_python.lookup = lookup;
    cp_inject_python.found = 0;
    cp_inject_python.stdlib_known = 0;
    cp_inject_python.hook_off = 0;
    cp_inject_python_noted = (cp_inject_python_note){0};
    cp_inject_python_last_code = NULL;
    cp_inject_python_last_info = NULL;
}

void cp_inject_python_configure(int all_frames, int whole_stack)
{
    cp_inject_python.all_frames = all_frames;
    cp_inject_python.whole_stack = whole_stack;
}

/* Looks the C API up once: Py_IsInitialized first, so that a process without Python pays one
 * failed look-up. 1 when every function is there. COALPROBE_TRACE_PYTHON=0 looks nothing up:
 * the process is traced as one without Python (what the cost of the frames is measured against). */
static int cp_inject_python_find(void)
{
    cp_inject_python_lookup find =
        cp_inject_python.lookup ? cp_inject_python.lookup : cp_inject_python_dlsym;
    cp_inject_python_api *a = &cp_inject_python.api;
    cp_inject_python.found = -1;
    const char *env = getenv("COALPROBE_TRACE_PYTHON");
    if (env && strcmp(env, "0") == 0)
        return 0;
        /* object pointers to function pointers through memcpy: what dlsym hands back */
#define CP_INJECT_PY_FIND(field, name)                                                             \
    do {                                                                                           \
        void *p_ = find(name);                                                                     \
        if (!p_)                                                                                   \
            return 0;                                                                              \
        memcpy(&a->field, &p_, sizeof p_);                                                         \
    } while (0)
    CP_INJECT_PY_FIND(is_initialized, "Py_IsInitialized");
    CP_INJECT_PY_FIND(gil_check, "PyGILState_Check");
    CP_INJECT_PY_FIND(get_frame, "PyEval_GetFrame");
    CP_INJECT_PY_FIND(frame_code, "PyFrame_GetCode");
    CP_INJECT_PY_FIND(frame_line, "PyFrame_GetLineNumber");
    CP_INJECT_PY_FIND(frame_back, "PyFrame_GetBack");
    CP_INJECT_PY_FIND(get_attr, "PyObject_GetAttrString");
    CP_INJECT_PY_FIND(utf8, "PyUnicode_AsUTF8");
    CP_INJECT_PY_FIND(inc_ref, "Py_IncRef");
    CP_INJECT_PY_FIND(dec_ref, "Py_DecRef");
    CP_INJECT_PY_FIND(err_clear, "PyErr_Clear");
    CP_INJECT_PY_FIND(sys_object, "PySys_GetObject");
    CP_INJECT_PY_FIND(dict_item, "PyDict_GetItemString");
#undef CP_INJECT_PY_FIND
    void *p = find("Py_AddPendingCall"), *q = find("PyEval_SetProfile"),
         *r = find("PyEval_SetProfileAllThreads");
    memcpy(&a->add_pending, &p, sizeof p);
    memcpy(&a->set_profile, &q, sizeof q);
    memcpy(&a->set_profile_all, &r, sizeof r);
    cp_inject_python.found = 1;
    return 1;
}

/* The text of attribute name of obj, copied; NULL (the error cleared) when it has none. */
static char *cp_inject_python_attr_text(void *obj, const char *name)
{
    const cp_inject_python_api *a = &cp_inject_python.api;
    void *v = a->get_attr(obj, name);
    if (!v) {
        a->err_clear();
        return NULL;
    }
    const char *s = a->utf8(v);
    char *copy = s ? strdup(s) : NULL;
    if (!s)
        a->err_clear();
    a->dec_ref(v);
    return copy;
}

/* The standard library's directory, once, from os.__file__ of a module already imported. */
static void cp_inject_python_find_stdlib(void)
{
    const cp_inject_python_api *a = &cp_inject_python.api;
    cp_inject_python.stdlib_known = -1;
    void *modules = a->sys_object("modules");
    void *os = modules ? a->dict_item(modules, "os") : NULL;
    char *file = os ? cp_inject_python_attr_text(os, "__file__") : NULL;
    char *slash = file ? strrchr(file, '/') : NULL;
    if (slash && slash != file && (size_t)(slash - file) + 2 <= sizeof cp_inject_python.stdlib) {
        slash[1] = '\0';
        snprintf(cp_inject_python.stdlib, sizeof cp_inject_python.stdlib, "%s", file);
        cp_inject_python.stdlib_known = 1;
    }
    free(file);
}

int cp_inject_python_user_file(const char *file)
{
    if (!file || !file[0] || strncmp(file, "<frozen ", 8) == 0 || strcmp(file, "<string>") == 0)
        return 0;
    if (strstr(file, "site-packages") || strstr(file, "dist-packages"))
        return 0;
    if (cp_inject_python.stdlib_known > 0)
        return strncmp(file, cp_inject_python.stdlib, strlen(cp_inject_python.stdlib)) != 0;
    return strstr(file, "/lib/python3") == NULL; /* where the standard library usually is */
}

static void cp_inject_python_free_code(void *v)
{
    cp_inject_python_code *c = v;
    if (c) {
        free(c->file);
        free(c->function);
    }
    free(c);
}

/* What is known of code (a reference the caller gives up: the table keeps it at the first sight,
 * else it is released); NULL when the table is full or memory ran out. */
static const cp_inject_python_code *cp_inject_python_info(void *code)
{
    const cp_inject_python_api *a = &cp_inject_python.api;
    char key[32];
    snprintf(key, sizeof key, "%p", code);
    cp_table_entry *e = cp_table_find(&cp_inject_python.codes, key);
    if (e) {
        a->dec_ref(code); /* the table holds one */
        return e->value;
    }
    if (cp_inject_python.codes.count >= cp_inject_python.cap) {
        a->dec_ref(code);
        return NULL;
    }
    cp_inject_python_code *c = calloc(1, sizeof *c);
    if (c) {
        c->file = cp_inject_python_attr_text(code, "co_filename");
        c->function = cp_inject_python_attr_text(code, "co_name");
        c->user = cp_inject_python_user_file(c->file);
    }
    e = c ? cp_table_get(&cp_inject_python.codes, key, NULL) : NULL;
    if (!e) {
        cp_inject_python_free_code(c);
        a->dec_ref(code);
        return NULL;
    }
    e->value = c;
    return c;
}

/* What is known of frame's code object, *code_out its address; NULL without one. */
static const cp_inject_python_code *cp_inject_python_code_of(void *frame, void **code_out)
{
    void *code = cp_inject_python.api.frame_code(frame);
    *code_out = code;
    return code ? cp_inject_python_info(code) : NULL;
}

/* The ID of frame (code, line) under parent, its record written when new; -1 past the cap. */
static int64_t cp_inject_python_intern(FILE *raw, void *code, const cp_inject_python_code *c,
                                       int line, int64_t parent)
{
    char key[96];
    snprintf(key, sizeof key, "%p\t%d\t%" PRId64, code, line, parent);
    cp_table_entry *e = cp_table_find(&cp_inject_python.frames, key);
    if (e)
        return (int64_t)e->index;
    if (cp_inject_python.frames.count >= cp_inject_python.cap)
        return -1;
    e = cp_table_get(&cp_inject_python.frames, key, NULL);
    if (!e)
        return -1;
    e->index = cp_inject_python.frames.count;
    if (raw) {
        fprintf(raw, "frame\t%zu\t", e->index);
        cp_inject_format_text(raw, c->file ? c->file : "?");
        fprintf(raw, "\t%d\t", line);
        cp_inject_format_text(raw, c->function ? c->function : "?");
        fprintf(raw, "\t%" PRId64 "\n", parent);
    }
    return (int64_t)e->index;
}

/* The recorded frames of this thread's stack, innermost first: code objects, their entries and
 * lines; the count (0: every frame skipped; -1: a code object could not be kept). */
static int cp_inject_python_walk(void **codes, const cp_inject_python_code **infos, int *lines)
{
    const cp_inject_python_api *a = &cp_inject_python.api;
    void *frame = a->get_frame(); /* borrowed: referenced here, so that every step releases */
    if (!frame)
        return 0;
    a->inc_ref(frame);
    int n = 0, failed = 0;
    for (int walked = 0; frame && walked < CP_INJECT_PYTHON_WALK_MAX; walked++) {
        void *code = NULL;
        const cp_inject_python_code *c = cp_inject_python_code_of(frame, &code);
        if (!c) {
            failed = 1;
            break;
        }
        if (n > 0 || c->user || cp_inject_python.all_frames) {
            codes[n] = code;
            infos[n] = c;
            lines[n] = a->frame_line(frame);
            n++;
            if (!cp_inject_python.whole_stack || n == CP_INJECT_PYTHON_STACK_MAX)
                break;
        }
        void *back = a->frame_back(frame);
        a->dec_ref(frame);
        frame = back;
    }
    if (frame)
        a->dec_ref(frame);
    return failed ? -1 : n;
}

/* What is known of frame's code object, *code_out its address (NULL without one), through this
 * thread's last code object seen. Holds the GIL. */
static const cp_inject_python_code *cp_inject_python_cached_code(void *frame, void **code_out)
{
    const cp_inject_python_api *a = &cp_inject_python.api;
    void *code = a->frame_code(frame);
    *code_out = NULL;
    if (!code)
        return NULL;
    const cp_inject_python_code *c;
    if (code == cp_inject_python_last_code) {
        a->dec_ref(code); /* the table holds one */
        c = cp_inject_python_last_info;
    } else {
        c = cp_inject_python_info(code);
        cp_inject_python_last_code = c ? code : NULL;
        cp_inject_python_last_info = c;
    }
    if (c)
        *code_out = code;
    return c;
}

/* 1 when a frame of code c is one a launch is filed under. */
static int cp_inject_python_wanted(const cp_inject_python_code *c)
{
    return c && (c->user || cp_inject_python.all_frames);
}

/* Makes frame (borrowed; NULL: none) of code c this thread's noted frame, referenced. Holds the
 * GIL. */
static void cp_inject_python_note_set(void *frame, void *code, const cp_inject_python_code *c)
{
    const cp_inject_python_api *a = &cp_inject_python.api;
    void *old = cp_inject_python_noted.frame;
    if (frame)
        a->inc_ref(frame);
    cp_inject_python_noted =
        (cp_inject_python_note){frame, frame ? code : NULL, frame ? c : NULL, 1};
    if (old)
        a->dec_ref(old);
}

/* Notes the innermost user frame of the stack from frame (borrowed, included; NULL: an empty
 * stack) outwards. Holds the GIL. */
static void cp_inject_python_note_from(void *frame)
{
    const cp_inject_python_api *a = &cp_inject_python.api;
    if (frame)
        a->inc_ref(frame); /* so that every step releases */
    for (int walked = 0; frame && walked < CP_INJECT_PYTHON_WALK_MAX; walked++) {
        void *code = NULL;
        const cp_inject_python_code *c = cp_inject_python_cached_code(frame, &code);
        if (cp_inject_python_wanted(c)) {
            cp_inject_python_note_set(frame, code, c);
            a->dec_ref(frame);
            return;
        }
        void *back = a->frame_back(frame);
        a->dec_ref(frame);
        frame = back;
    }
    if (frame)
        a->dec_ref(frame);
    cp_inject_python_note_set(NULL, NULL, NULL);
}

/* The profile function: follows this thread's innermost user frame. A call of a user frame (a
 * Python call's new frame, or the frame that calls a C function) makes it the note; the return
 * (or yield) of the noted frame moves the note to the innermost user frame of its callers.
 * Called by Python with the GIL held; never fails. */
static int cp_inject_python_profile(void *obj, void *frame, int what, void *arg)
{
    (void)obj;
    (void)arg;
    if (cp_inject_python.hook_off || !frame)
        return 0;
    if (what == CP_INJECT_PYTRACE_CALL || what == CP_INJECT_PYTRACE_C_CALL) {
        if (!cp_inject_python_noted.known) {
            cp_inject_python_note_from(frame);
        } else if (frame != cp_inject_python_noted.frame) {
            void *code = NULL;
            const cp_inject_python_code *c = cp_inject_python_cached_code(frame, &code);
            if (cp_inject_python_wanted(c))
                cp_inject_python_note_set(frame, code, c);
        }
    } else if (what == CP_INJECT_PYTRACE_RETURN &&
               (!cp_inject_python_noted.known || frame == cp_inject_python_noted.frame)) {
        void *back = cp_inject_python.api.frame_back(frame);
        cp_inject_python_note_from(back);
        if (back)
            cp_inject_python.api.dec_ref(back);
    }
    return 0;
}

/* Installs the profile function; run by Python in its main thread with the GIL held, where it
 * notes the main thread's innermost user frame (the frames it is in made no call event). */
static int cp_inject_python_install(void *unused)
{
    (void)unused;
    const cp_inject_python_api *a = &cp_inject_python.api;
    if (cp_inject_python.stdlib_known == 0)
        cp_inject_python_find_stdlib();
    if (a->set_profile_all)
        a->set_profile_all(cp_inject_python_profile, NULL);
    else
        a->set_profile(cp_inject_python_profile, NULL);
    cp_inject_python.hooked = 1;
    if (!cp_inject_python.hook_off)
        cp_inject_python_note_from(a->get_frame());
    return 0;
}

/* Asks Python, once, to install the profile function (COALPROBE_TRACE_PYTHON_HOOK=0: never). */
static void cp_inject_python_hook(void)
{
    const cp_inject_python_api *a = &cp_inject_python.api;
    const char *env = getenv("COALPROBE_TRACE_PYTHON_HOOK");
    int wanted = !(env && strcmp(env, "0") == 0);
    cp_inject_python.hook = -1;
    if (wanted && a->add_pending && (a->set_profile || a->set_profile_all) &&
        a->add_pending(cp_inject_python_install, NULL) == 0)
        cp_inject_python.hook = 1;
}

/* A launch without the GIL: the noted frame of this thread at its current line. The frame is
 * this thread's own and referenced, and PyFrame_GetLineNumber only reads it and its code's line
 * table, so the GIL is not needed: no other thread runs this frame, and this one runs no Python
 * while it is in the launch. */
static int64_t cp_inject_python_noted_frame(FILE *raw)
{
    cp_inject_python_note n = cp_inject_python_noted;
    if (!n.known)
        return CP_INJECT_FRAME_NOGIL;
    if (!n.frame)
        return CP_INJECT_FRAME_NONE;
    int line = cp_inject_python.api.frame_line(n.frame);
    int64_t id = cp_inject_python_intern(raw, n.code, n.info, line, 0);
    return id < 0 ? CP_INJECT_FRAME_OVERFLOW : id;
}

void cp_inject_python_prepare(void)
{
    if (cp_inject_python.found == 0)
        cp_inject_python_find();
    if (cp_inject_python.found > 0 && cp_inject_python.hook == 0 &&
        cp_inject_python.api.is_initialized())
        cp_inject_python_hook();
}

int64_t cp_inject_python_frame(FILE *raw)
{
    if (cp_inject_python.found == 0)
        cp_inject_python_find();
    if (cp_inject_python.found < 0 || !cp_inject_python.api.is_initialized())
        return CP_INJECT_FRAME_NOPYTHON;
    if (cp_inject_python.hook == 0)
        cp_inject_python_hook();
    if (!cp_inject_python.api.gil_check())
        return cp_inject_python_noted_frame(raw);
    if (cp_inject_python.stdlib_known == 0)
        cp_inject_python_find_stdlib();
    void *codes[CP_INJECT_PYTHON_STACK_MAX];
    const cp_inject_python_code *infos[CP_INJECT_PYTHON_STACK_MAX];
    int lines[CP_INJECT_PYTHON_STACK_MAX];
    int n = cp_inject_python_walk(codes, infos, lines);
    if (n < 0)
        return CP_INJECT_FRAME_OVERFLOW;
    if (n == 0)
        return CP_INJECT_FRAME_NONE;
    int64_t id = 0; /* the outermost recorded frame's parent */
    for (int i = n - 1; i >= 0; i--) {
        id = cp_inject_python_intern(raw, codes[i], infos[i], lines[i], id);
        if (id < 0)
            return CP_INJECT_FRAME_OVERFLOW;
    }
    return id;
}

void cp_inject_python_free(void)
{
    cp_inject_python.hook_off = 1;
    /* with the profile function installed, Python may still be in it on another thread: its
     * table of code objects stays (the process is ending) */
    if (cp_inject_python.hook != 1 && !cp_inject_python.hooked)
        cp_table_free(&cp_inject_python.codes, cp_inject_python_free_code);
    cp_table_free(&cp_inject_python.frames, NULL);
}

void cp_inject_python_attach(void)
{
    if (cp_inject_python.found == 0)
        cp_inject_python_find();
    const cp_inject_python_api *a = &cp_inject_python.api;
    if (cp_inject_python.found < 0 || !a->is_initialized())
        return;
    const char *env = getenv("COALPROBE_TRACE_PYTHON_HOOK");
    int wanted = !(env && strcmp(env, "0") == 0) && (a->set_profile || a->set_profile_all);
    int installed = cp_inject_python.hook == 1;
    cp_inject_python.hook_off = 0;
    if (wanted && a->gil_check()) {
        cp_inject_python_install(NULL);
        cp_inject_python.hook = 1;
    } else if (wanted && installed && a->add_pending) { /* left by a detach without the GIL */
        if (a->add_pending(cp_inject_python_install, NULL) != 0)
            cp_inject_python.hook = -1;
    }
}

void cp_inject_python_detach(void)
{
    const cp_inject_python_api *a = &cp_inject_python.api;
    if (cp_inject_python.found <= 0 || cp_inject_python.hook != 1 || !a->is_initialized() ||
        !a->gil_check())
        return;
    if (a->set_profile_all)
        a->set_profile_all(NULL, NULL);
    else
        a->set_profile(NULL, NULL);
    if (cp_inject_python_noted.frame)
        a->dec_ref(cp_inject_python_noted.frame);
    cp_inject_python_noted = (cp_inject_python_note){0};
    cp_inject_python.hook = 0;
}
