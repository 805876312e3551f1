/* A function defined in a header: not a function region of the files that
 * include it (only functions defined in the instrumented file are). */
static inline int from_header(int x) { return x + 1; }
