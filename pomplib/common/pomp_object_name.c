/* The name of a data object of this process from its address, after the run:
 * the symbol that starts there, from the dynamic symbol table (dladdr) or,
 * since an executable's own objects are not exported, from its module's
 * .symtab, read from the file (an ELF64 of this machine; a stripped module
 * has none: no name). */
#include "pomp_object_name.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { SYMBOL_BATCH = 256 };

/* This process's modules: 64-bit, in the host's byte order. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_DATA ELFDATA2LSB
#else
#define HOST_DATA ELFDATA2MSB
#endif

static int read_at(int fd, void *buf, size_t size, uint64_t offset)
{
    return pread(fd, buf, size, (off_t)offset) == (ssize_t)size;
}

/* The NUL-terminated string at offset `at` of string table s, into buf. */
static int string_at(int fd, const Elf64_Shdr *s, uint32_t at, char *buf, size_t size)
{
    if (at >= s->sh_size || size < 2)
        return 0;
    size_t n = s->sh_size - at < size - 1 ? (size_t)(s->sh_size - at) : size - 1;
    ssize_t got = pread(fd, buf, n, (off_t)(s->sh_offset + at));
    if (got <= 0)
        return 0;
    buf[got] = '\0';
    return buf[0] != '\0';
}

/* A data object of symbol table `tab` whose value is `value`. */
static int symtab_lookup(int fd, const Elf64_Shdr *tab, const Elf64_Shdr *strings,
                         uint64_t value, char *buf, size_t size)
{
    if (tab->sh_entsize != sizeof(Elf64_Sym))
        return 0;
    uint64_t count = tab->sh_size / sizeof(Elf64_Sym);
    Elf64_Sym batch[SYMBOL_BATCH];
    for (uint64_t first = 0; first < count; first += SYMBOL_BATCH) {
        size_t n = count - first < SYMBOL_BATCH ? (size_t)(count - first) : SYMBOL_BATCH;
        if (!read_at(fd, batch, n * sizeof *batch, tab->sh_offset + first * sizeof *batch))
            return 0;
        for (size_t k = 0; k < n; k++)
            if (batch[k].st_value == value && ELF64_ST_TYPE(batch[k].st_info) == STT_OBJECT &&
                string_at(fd, strings, batch[k].st_name, buf, size))
                return 1;
    }
    return 0;
}

/* The object at addr in the module file `path` loaded at `base`. */
static int file_lookup(const char *path, uintptr_t base, uintptr_t addr, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int found = 0;
    Elf64_Ehdr eh;
    Elf64_Shdr *sections = NULL;
    if (!read_at(fd, &eh, sizeof eh, 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != HOST_DATA ||
        eh.e_shentsize != sizeof(Elf64_Shdr) ||
        eh.e_shnum == 0) /* 0: more sections than the header counts (not read) */
        goto out;
    sections = malloc((size_t)eh.e_shnum * sizeof *sections);
    if (!sections || !read_at(fd, sections, (size_t)eh.e_shnum * sizeof *sections, eh.e_shoff))
        goto out;
    /* an executable's symbols hold run-time addresses; a shared object's (and
     * a position-independent executable's) offsets from where it is loaded */
    uint64_t value = eh.e_type == ET_DYN ? addr - base : addr;
    for (unsigned i = 0; i < eh.e_shnum && !found; i++)
        if (sections[i].sh_type == SHT_SYMTAB && sections[i].sh_link < eh.e_shnum)
            found = symtab_lookup(fd, &sections[i], &sections[sections[i].sh_link], value, buf,
                                  size);
out:
    free(sections);
    close(fd);
    return found;
}

int pomp_object_name(uintptr_t addr, char *buf, size_t size)
{
    Dl_info info;
    if (!addr || size < 2 || !dladdr((void *)addr, &info) || !info.dli_fbase)
        return 0;
    if (info.dli_sname && (uintptr_t)info.dli_saddr == addr) {
        size_t n = strlen(info.dli_sname);
        if (n >= size)
            n = size - 1;
        memcpy(buf, info.dli_sname, n);
        buf[n] = '\0';
        return n > 0;
    }
    char path[PATH_MAX];
    const char *file = info.dli_fname;
    if (!file || file[0] != '/') { /* the main program: glibc names it by argv[0] */
        ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
        if (len <= 0)
            return 0;
        path[len] = '\0';
        file = path;
    }
    return file_lookup(file, (uintptr_t)info.dli_fbase, addr, buf, size);
}
