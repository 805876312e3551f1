/* Which OpenMP runtime an instrumented program runs on, and how to link it:
 * GCC's libgomp with the libgomp bridge (libpomp-gomp.so), or LLVM libomp
 * (Debian libomp-19-dev) with OMPT. runtime_select.h chooses. */
#ifndef POMP_RUNTIME_H
#define POMP_RUNTIME_H

enum pomp_runtime { POMP_RUNTIME_LIBOMP, POMP_RUNTIME_GOMP };

/* Parses the value of --pomp-runtime= (omp, libomp, llvm; gomp, libgomp);
 * returns 0 or -1 for an unknown name. */
int pomp_runtime_parse(const char *name, enum pomp_runtime *out);

/* Does this compiler flag turn on OpenMP (-fopenmp, -fopenmp=libomp, -fiopenmp, -qopenmp)? */
int pomp_runtime_is_openmp_flag(const char *arg);

/* Whether OpenMP is on after this flag, given whether it was before: the
 * compilers' last -fopenmp or -fno-openmp wins (-fopenmp -fno-openmp builds a
 * serial program, which pomp measured as an OpenMP one). */
int pomp_runtime_openmp_after(int openmp, const char *arg);

/* Does this flag ask Clang for OpenMP offloading (-fopenmp-targets=,
 * --offload-arch=, -Xopenmp-target...)? Such a program needs Clang and libomptarget. */
int pomp_runtime_is_offload_flag(const char *arg);

/* Whether the flag must be dropped from the link line for this runtime (the
 * compiler driver would otherwise add its own runtime, libgomp for GCC). An
 * offloading link (offload != 0) keeps -fopenmp. On libgomp the user's
 * -lgomp goes: the link arguments add libgomp after the libgomp bridge. */
int pomp_runtime_drop_at_link(enum pomp_runtime rt, const char *arg, int offload);
/* Whether a link argument asks for libgomp's archive: -l:libgomp.a, or a path
 * to libgomp.a. The libgomp bridge needs the shared library: on libgomp such
 * an argument is dropped (its members, linked before the bridge, took the
 * program's calls: its parallel regions went unmeasured, unsaid; a probe). */
int pomp_runtime_is_libgomp_archive(const char *arg);
/* Whether a link argument names libgomp, however: -lgomp, -l:libgomp.so.1,
 * a path to libgomp.so or libgomp.a, or such a word after -Wl, alone. */
int pomp_runtime_is_libgomp(const char *arg);

/* The linker arguments that put the runtime under the program (NULL-terminated,
 * static storage); libgomp's need libpomp's directory in -L before them. */
const char *const *pomp_runtime_link_args(enum pomp_runtime rt);

#endif
