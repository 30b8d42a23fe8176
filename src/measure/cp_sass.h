/* cp_sass.h: the SASS of coalprobe's own kernels, read with cuobjdump from this executable:
 * which load instruction a kernel compiled to (LDG.E, LDG.E.CONSTANT, LDC...). Private to the
 * measure layer. */
#ifndef CP_SASS_H
#define CP_SASS_H

#include <stddef.h>

/* The opcode of the first instruction of function `function` (its mangled name) in this
 * executable's SASS for sm_<arch> for which pick(opcode, line) is 1, into opcode (len bytes).
 * Returns 1 when found; 0 with why (wlen bytes) when not: cuobjdump not installed, no SASS for
 * that architecture in the executable, no such instruction. Runs cuobjdump (from PATH, else
 * /usr/local/cuda/bin) once per call, without a shell. */
int cp_sass_find_opcode(int arch, const char *function,
                        int (*pick)(const char *opcode, const char *line), char *opcode, size_t len,
                        char *why, size_t wlen);

/* The opcode of one line of cuobjdump's SASS listing (the address comment, an optional
 * predicate such as @P0, then the opcode: LDG.E), into opcode; 0 for a line that holds no
 * instruction. */
int cp_sass_line_opcode(const char *line, char *opcode, size_t len);

#endif
