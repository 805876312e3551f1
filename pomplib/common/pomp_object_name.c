/* The name of a data object of this process from its address, after the run:
 * the symbol that starts there, from the dynamic symbol table (dladdr) or,
 * since an executable's own objects are not exported, from its module's
 * .symtab, read from the file (an ELF64 of this machine; a stripped module
 * has none: no name). */
#include "pomp_object_name.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
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

/* The data objects of a module file: visit gets each (its symbol, the
 * string table of its names) until it returns nonzero, which for_each_object
 * returns (0: none did, or the file is no ELF64 of this machine). From its
 * .symtab, which holds .dynsym's objects too; from .dynsym where it has none
 * (stripped). */
typedef int (*object_visit)(int fd, const Elf64_Ehdr *eh, const Elf64_Sym *sym,
                            const Elf64_Shdr *strings, void *arg);

static int table_visit(int fd, const Elf64_Ehdr *eh, const Elf64_Shdr *tab,
                       const Elf64_Shdr *strings, object_visit visit, void *arg)
{
    if (tab->sh_entsize != sizeof(Elf64_Sym))
        return 0;
    uint64_t count = tab->sh_size / sizeof(Elf64_Sym);
    Elf64_Sym batch[SYMBOL_BATCH];
    for (uint64_t first = 0; first < count; first += SYMBOL_BATCH) {
        size_t n = count - first < SYMBOL_BATCH ? (size_t)(count - first) : SYMBOL_BATCH;
        if (!read_at(fd, batch, n * sizeof *batch, tab->sh_offset + first * sizeof *batch))
            return 0;
        for (size_t k = 0; k < n; k++) {
            int rc = ELF64_ST_TYPE(batch[k].st_info) == STT_OBJECT &&
                             batch[k].st_shndx != SHN_UNDEF
                         ? visit(fd, eh, &batch[k], strings, arg)
                         : 0;
            if (rc)
                return rc;
        }
    }
    return 0;
}

static int for_each_object(const char *path, object_visit visit, void *arg)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int rc = 0;
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
    unsigned type = SHT_DYNSYM;
    for (unsigned i = 0; i < eh.e_shnum; i++)
        if (sections[i].sh_type == SHT_SYMTAB)
            type = SHT_SYMTAB;
    for (unsigned i = 0; i < eh.e_shnum && !rc; i++)
        if (sections[i].sh_type == type && sections[i].sh_link < eh.e_shnum)
            rc = table_visit(fd, &eh, &sections[i], &sections[sections[i].sh_link], visit, arg);
out:
    free(sections);
    close(fd);
    return rc;
}

/* The main program's file into path (PATH_MAX bytes), or NULL. */
static const char *main_program(char *path)
{
    ssize_t len = readlink("/proc/self/exe", path, PATH_MAX - 1);
    if (len <= 0)
        return NULL;
    path[len] = '\0';
    return path;
}

/* file_lookup: the object sought, and where its name goes. */
struct object_at {
    uintptr_t base, addr;
    char *buf;
    size_t size;
};

static int name_if_at(int fd, const Elf64_Ehdr *eh, const Elf64_Sym *sym,
                      const Elf64_Shdr *strings, void *arg)
{
    struct object_at *o = arg;
    /* an executable's symbols hold run-time addresses; a shared object's (and
     * a position-independent executable's) offsets from where it is loaded */
    uint64_t value = eh->e_type == ET_DYN ? o->addr - o->base : o->addr;
    return sym->st_value == value && string_at(fd, strings, sym->st_name, o->buf, o->size);
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
    if (!file || file[0] != '/') /* the main program: glibc names it by argv[0] */
        file = main_program(path);
    struct object_at o = {(uintptr_t)info.dli_fbase, addr, buf, size};
    return file && for_each_object(file, name_if_at, &o);
}

/* pomp_objects_named: what it gathers, module by module. */
struct named_objects {
    const char *prefix;
    size_t prefix_len;
    uintptr_t bias; /* the module being read: its load address */
    struct pomp_named_object *list;
    size_t n, cap;
    int failed;
};

static void add_object(struct named_objects *o, uintptr_t addr, const char *name)
{
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 16;
        struct pomp_named_object *l = realloc(o->list, cap * sizeof *l);
        if (!l) {
            o->failed = 1;
            return;
        }
        o->list = l, o->cap = cap;
    }
    char *copy = strdup(name);
    if (!copy) {
        o->failed = 1;
        return;
    }
    o->list[o->n++] = (struct pomp_named_object){addr, copy};
}

/* pomp_objects_named's visit: an object of the prefix, at its run-time address. */
static int gather_if_named(int fd, const Elf64_Ehdr *eh, const Elf64_Sym *sym,
                           const Elf64_Shdr *strings, void *arg)
{
    (void)eh;
    struct named_objects *o = arg;
    char name[256];
    if (sym->st_value && string_at(fd, strings, sym->st_name, name, sizeof name) &&
        strncmp(name, o->prefix, o->prefix_len) == 0)
        add_object(o, o->bias + (uintptr_t)sym->st_value, name);
    return o->failed;
}

static int gather_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct named_objects *o = arg;
    char path[PATH_MAX];
    const char *file = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name
                                                              : main_program(path);
    if (!file || !strchr(file, '/')) /* the vDSO (a library found by a relative path has its "./") */
        return 0;
    o->bias = (uintptr_t)info->dlpi_addr;
    for_each_object(file, gather_if_named, o);
    return o->failed;
}

size_t pomp_objects_named(const char *prefix, struct pomp_named_object **list)
{
    struct named_objects o = {.prefix = prefix, .prefix_len = strlen(prefix)};
    dl_iterate_phdr(gather_module, &o);
    if (o.failed) {
        pomp_named_objects_free(o.list, o.n);
        o.list = NULL, o.n = 0;
    }
    *list = o.list;
    return o.n;
}

void pomp_named_objects_free(struct pomp_named_object *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(list[i].name);
    free(list);
}
