/* The directories and files libpomp makes for its output: their owner can
 * always read, write and (a directory) search them, whatever the process's
 * umask. Under umask 0222 or 0777 the output directory pomp had just made was
 * one it could not write its files into, and under 0777 a trace's raw files
 * ones it could not read back at the end (a probe). Group and others keep what
 * the umask gives them. For file creation and the end of the run, never an
 * event's path. */
#ifndef POMP_OWNED_H
#define POMP_OWNED_H

#include <stdio.h>
#include <sys/types.h>

/* mkdir(path, 0777), then the owner's bits added: 0, or -1 with mkdir's errno. */
int pomp_mkdir_owned(const char *path);
/* open(path, flags, mode) with O_CREAT among flags, then the owner's read and
 * write bits added: the descriptor, or -1 with open's errno. */
int pomp_open_owned(const char *path, int flags, mode_t mode);
/* fopen(path, "w") made with pomp_open_owned; NULL with errno set. */
FILE *pomp_fopen_owned(const char *path);
/* The owner's bits added to what a library made itself (OTF2's archive): a
 * file, or a directory and everything in it. */
void pomp_own_tree(const char *path);

#endif
