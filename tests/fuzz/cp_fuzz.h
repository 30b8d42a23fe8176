/* cp_fuzz.h: what the libFuzzer targets share: the entry point's declaration and the input as
 * a NUL-terminated string. */
#ifndef CP_FUZZ_H
#define CP_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A malloc'ed copy of the input with a NUL after it (NULL when out of memory). */
static inline char *cp_fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
    }
    return text;
}

#endif
