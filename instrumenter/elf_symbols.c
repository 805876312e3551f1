#include "elf_symbols.h"

#include <ar.h>
#include <ctype.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* LLVM's nm, which reads the bitcode of its own version (LLVM_DIR). */
#ifndef POMP_LLVM_NM
#define POMP_LLVM_NM "/usr/lib/llvm-19/bin/llvm-nm"
#endif

/* The host's ELF: 64-bit objects in its own byte order (the others go to nm). */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_DATA ELFDATA2LSB
#else
#define HOST_DATA ELFDATA2MSB
#endif

static int in_bounds(size_t size, uint64_t off, uint64_t len)
{
    return off <= size && len <= size - off;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* nm's letter for a defined symbol, as for an external one (upper case). */
static char defined_letter(const Elf64_Sym *s, const Elf64_Shdr *sections, size_t nsections)
{
    unsigned bind = ELF64_ST_BIND(s->st_info), type = ELF64_ST_TYPE(s->st_info);
    if (s->st_shndx == SHN_ABS)
        return 'A';
    if (s->st_shndx == SHN_COMMON)
        return 'C';
    if (type == STT_GNU_IFUNC)
        return 'i';
    if (bind == STB_GNU_UNIQUE)
        return 'u';
    if (bind == STB_WEAK)
        return type == STT_OBJECT ? 'V' : 'W';
    if (s->st_shndx >= nsections || s->st_shndx >= SHN_LORESERVE)
        return type == STT_FUNC ? 'T' : 'D';
    const Elf64_Shdr *in = &sections[s->st_shndx];
    if (in->sh_flags & SHF_EXECINSTR)
        return 'T';
    if (in->sh_type == SHT_NOBITS)
        return 'B';
    return in->sh_flags & SHF_WRITE ? 'D' : 'R';
}

/* nm's letter for a symbol (external ones: upper case, local ones lower
 * case), or 0 if the mode does not list it. */
static char type_letter(const Elf64_Sym *s, const Elf64_Shdr *sections, size_t nsections,
                        enum elf_nm_mode mode)
{
    unsigned bind = ELF64_ST_BIND(s->st_info), type = ELF64_ST_TYPE(s->st_info);
    if (type == STT_SECTION || type == STT_FILE)
        return 0;
    int undefined = mode == ELF_NM_UNDEFINED || mode == ELF_NM_DYNAMIC_UNDEFINED;
    if (s->st_shndx == SHN_UNDEF) {
        if (!undefined)
            return 0;
        return bind != STB_WEAK ? 'U' : type == STT_OBJECT ? 'v' : 'w';
    }
    if (undefined || (bind == STB_LOCAL && mode != ELF_NM_DEFINED))
        return 0;
    char letter = defined_letter(s, sections, nsections);
    return bind == STB_LOCAL ? (char)tolower((unsigned char)letter) : letter;
}

static Elf64_Shdr *section_headers(const unsigned char *data, size_t size, Elf64_Ehdr *eh);

/* The name of section i, or NULL when the table of names or the name is out of bounds. */
static const char *section_name(const unsigned char *data, size_t size, const Elf64_Ehdr *eh,
                                const Elf64_Shdr *sh, size_t i)
{
    const Elf64_Shdr *table = eh->e_shstrndx < eh->e_shnum ? &sh[eh->e_shstrndx] : NULL;
    if (!table || table->sh_type != SHT_STRTAB || !in_bounds(size, table->sh_offset, table->sh_size))
        return NULL;
    const char *names = (const char *)data + table->sh_offset;
    if (sh[i].sh_name >= table->sh_size ||
        !memchr(names + sh[i].sh_name, '\0', table->sh_size - sh[i].sh_name))
        return NULL;
    return names + sh[i].sh_name;
}

/* One ELF file (an object, a shared object, an archive member). Headers and
 * symbols are copied out: an archive member is only 2-byte aligned. */
static int elf_file(const unsigned char *data, size_t size, enum elf_nm_mode mode,
                    struct strbuf *out)
{
    Elf64_Ehdr eh;
    Elf64_Shdr *sh = section_headers(data, size, &eh);
    if (!sh)
        return -1;
    size_t n = eh.e_shnum;
    int rc = 0;
    /* GCC's LTO objects: their real symbols are in the IR, which only nm's
     * plugin reads (clang's LTO objects are bitcode, not ELF) */
    for (size_t i = 0; i < n && rc == 0; i++) {
        const char *name = section_name(data, size, &eh, sh, i);
        if (name && starts_with(name, ".gnu.lto_"))
            rc = -1;
    }
    /* nm reads .symtab, and .dynsym with -D (the runtime choice's shared
     * objects, pomprun's program) */
    unsigned want = (eh.e_type == ET_DYN && mode == ELF_NM_UNDEFINED) ||
                            mode == ELF_NM_DYNAMIC_UNDEFINED
                        ? SHT_DYNSYM
                        : SHT_SYMTAB;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (sh[i].sh_type != want)
            continue;
        const Elf64_Shdr *strtab = sh[i].sh_link < n ? &sh[sh[i].sh_link] : NULL;
        if (sh[i].sh_entsize != sizeof(Elf64_Sym) || !strtab ||
            !in_bounds(size, sh[i].sh_offset, sh[i].sh_size) ||
            !in_bounds(size, strtab->sh_offset, strtab->sh_size) || strtab->sh_size == 0 ||
            data[strtab->sh_offset + strtab->sh_size - 1] != '\0') {
            rc = -1;
            break;
        }
        const char *strings = (const char *)data + strtab->sh_offset;
        size_t nsyms = sh[i].sh_size / sizeof(Elf64_Sym);
        for (size_t k = 1; k < nsyms; k++) { /* 0 is the null symbol */
            Elf64_Sym sym;
            memcpy(&sym, data + sh[i].sh_offset + k * sizeof sym, sizeof sym);
            char letter = type_letter(&sym, sh, n, mode);
            if (letter && sym.st_name < strtab->sh_size && strings[sym.st_name])
                sb_printf(out, "%s %c\n", strings + sym.st_name, letter);
        }
    }
    free(sh);
    return rc;
}

/* What is read from one ELF file: its symbols (as nm) or a section's contents. */
struct elf_query {
    enum elf_nm_mode mode;
    const char *section; /* non-NULL: the contents of this section */
    struct strbuf *out;
};

static int section_contents(const unsigned char *data, size_t size, const struct elf_query *q);

static int elf_member(const unsigned char *data, size_t size, const struct elf_query *q)
{
    return q->section ? section_contents(data, size, q) : elf_file(data, size, q->mode, q->out);
}

/* The size field of the archive member header at data + off (ar's 60 bytes);
 * -1 where the header is not one. */
static int member_size(const unsigned char *data, size_t size, size_t off, unsigned long long *len)
{
    if (!in_bounds(size, off, 60) || memcmp(data + off + 58, ARFMAG, 2) != 0)
        return -1;
    char field[11];
    memcpy(field, data + off + 48, 10);
    field[10] = '\0';
    char *end;
    *len = strtoull(field, &end, 10);
    return end == field ? -1 : 0;
}

/* Calls member(data, size, arg) for each member of a GNU or BSD-style
 * archive (thin archives hold no members) until one returns non-zero; returns
 * that, or -1 for a malformed archive, or 0. */
static int archive_each(const unsigned char *data, size_t size,
                        int (*member)(const unsigned char *, size_t, const void *), const void *arg)
{
    enum { HEADER = 60 };
    size_t off = SARMAG;
    while (off < size) {
        unsigned long long len;
        if (member_size(data, size, off, &len) != 0)
            return -1;
        const char *name = (const char *)data + off;
        off += HEADER;
        if (!in_bounds(size, off, len))
            return -1;
        /* the symbol index ("/", "/SYM64/", "__.SYMDEF") and the long names ("//") */
        int special = name[0] == '/' ? (name[1] == ' ' || name[1] == '/' || name[1] == 'S')
                                     : strncmp(name, "__.SYMDEF", 9) == 0;
        int rc = special ? 0 : member(data + off, (size_t)len, arg);
        if (rc != 0)
            return rc;
        off += len + (len & 1);
    }
    return 0;
}

static int elf_archive_member(const unsigned char *data, size_t size, const void *q)
{
    /* a member that is not ELF (bitcode...): the whole archive is nm's */
    return elf_member(data, size, q) != 0 ? -1 : 0;
}

static int archive(const unsigned char *data, size_t size, const struct elf_query *q)
{
    return archive_each(data, size, elf_archive_member, q);
}

/* The ELF header and section headers of one file, or NULL (-1 from the caller). */
static Elf64_Shdr *section_headers(const unsigned char *data, size_t size, Elf64_Ehdr *eh)
{
    if (size < sizeof(Elf64_Ehdr) || memcmp(data, ELFMAG, SELFMAG) != 0 ||
        data[EI_CLASS] != ELFCLASS64 || data[EI_DATA] != HOST_DATA)
        return NULL;
    memcpy(eh, data, sizeof *eh);
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum == 0 ||
        !in_bounds(size, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)))
        return NULL;
    Elf64_Shdr *sh = xmalloc(eh->e_shnum * sizeof *sh);
    memcpy(sh, data + eh->e_shoff, eh->e_shnum * sizeof *sh);
    return sh;
}

/* Appends the contents of every section named q->section (none: nothing). */
static int section_contents(const unsigned char *data, size_t size, const struct elf_query *q)
{
    Elf64_Ehdr eh;
    Elf64_Shdr *sh = section_headers(data, size, &eh);
    if (!sh)
        return -1;
    size_t n = eh.e_shnum;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const char *name = section_name(data, size, &eh, sh, i);
        if (!name || strcmp(name, q->section) != 0 || sh[i].sh_type == SHT_NOBITS)
            continue;
        if (!in_bounds(size, sh[i].sh_offset, sh[i].sh_size))
            rc = -1;
        else
            sb_addn(q->out, (const char *)data + sh[i].sh_offset, sh[i].sh_size);
    }
    free(sh);
    return rc;
}

static int query_buffer(const unsigned char *data, size_t size, const struct elf_query *q)
{
    size_t before = q->out->len;
    int rc = size >= SARMAG && memcmp(data, ARMAG, SARMAG) == 0 ? archive(data, size, q)
                                                                 : elf_member(data, size, q);
    if (rc != 0 && q->out->s) { /* nothing of a file nm will read again */
        q->out->len = before;
        q->out->s[before] = '\0';
    }
    return rc;
}

int elf_nm_buffer(const unsigned char *data, size_t size, enum elf_nm_mode mode,
                  struct strbuf *out)
{
    struct elf_query q = {mode, NULL, out};
    return query_buffer(data, size, &q);
}

/* Maps the file at path and returns fn(data, size, arg); -1 if it cannot be read. */
static int with_file(const char *path, int (*fn)(const unsigned char *, size_t, const void *),
                     const void *arg)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
        close(fd);
        return -1;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return -1;
    int rc = fn(map, (size_t)st.st_size, arg);
    munmap(map, (size_t)st.st_size);
    return rc;
}

/* A thin archive (ar T, "!<thin>\n"): member headers only, each naming a
 * file beside the archive (its path relative to the archive's directory).
 * Its members were read as no file at all: a library of them kept its
 * objects' counts and needs from the link (a scan sent to libomp, which
 * aborted; constructs left to the runtime unsaid; a probe). */
#define THIN_MAGIC "!<thin>\n"
enum { NOT_THIN = -2 };

struct thin_walk {
    const char *dir;                               /* the archive's directory */
    int (*fn)(const char *path, const void *arg);  /* for each member's file */
    const void *arg;
};

/* The name of the member at header h (short "name/", or "/N" into the long
 * names, names_len bytes at names); NULL where it has none. */
static char *ar_member_name(const char *h, const char *names, size_t names_len)
{
    const char *name = h;
    size_t len = 0;
    if (h[0] == '/' && isdigit((unsigned char)h[1])) {
        unsigned long at = strtoul(h + 1, NULL, 10);
        if (!names || at >= names_len)
            return NULL;
        name = names + at;
        while (at + len < names_len && name[len] != '\n')
            len++;
        if (len && name[len - 1] == '/')
            len--;
    } else {
        while (len < 16 && h[len] != '/')
            len++;
    }
    return len ? xasprintf("%.*s", (int)len, name) : NULL;
}

/* The file of the thin archive's member at header h: its name, beside the archive. */
static char *thin_member_path(const struct thin_walk *w, const char *h, const char *names,
                              size_t names_len)
{
    char *name = ar_member_name(h, names, names_len);
    if (!name || name[0] == '/')
        return name;
    char *path = xasprintf("%s/%s", w->dir, name);
    free(name);
    return path;
}

/* The header of the member at *off of an archive (data, size bytes), and its
 * content's length: 1, *off past the header (at the content); 0 at the end;
 * -1 for a malformed header. */
static int next_member(const unsigned char *data, size_t size, size_t *off, const char **h,
                       unsigned long long *len)
{
    enum { HEADER = 60 };
    if (*off >= size)
        return 0;
    if (member_size(data, size, *off, len) != 0)
        return -1;
    *h = (const char *)data + *off;
    *off += HEADER;
    return 1;
}

static int thin_members(const unsigned char *data, size_t size, const void *arg)
{
    const struct thin_walk *w = arg;
    size_t off = sizeof THIN_MAGIC - 1;
    const char *names = NULL, *h;
    size_t names_len = 0;
    unsigned long long len;
    int more;
    while ((more = next_member(data, size, &off, &h, &len)) > 0) {
        /* the symbol index and the long names are in the archive; members are not */
        int special = h[0] == '/' && (h[1] == ' ' || h[1] == '/' || h[1] == 'S');
        if (special) {
            if (!in_bounds(size, off, len))
                return -1;
            if (h[1] == '/') {
                names = (const char *)data + off;
                names_len = (size_t)len;
            }
            off += len + (len & 1);
            continue;
        }
        char *path = thin_member_path(w, h, names, names_len);
        int rc = path ? w->fn(path, w->arg) : -1;
        free(path);
        if (rc != 0)
            return rc;
    }
    return more;
}

/* fn(member path, arg) for each member of the thin archive at path, until
 * one returns non-zero (that, -1 if malformed, or 0); NOT_THIN for any other file. */
static int thin_each(const char *path, int (*fn)(const char *, const void *), const void *arg)
{
    char magic[sizeof THIN_MAGIC - 1];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NOT_THIN;
    ssize_t got = read(fd, magic, sizeof magic);
    close(fd);
    if (got != (ssize_t)sizeof magic || memcmp(magic, THIN_MAGIC, sizeof magic) != 0)
        return NOT_THIN;
    char *copy = xstrdup(path);
    char *slash = strrchr(copy, '/');
    const char *dir = slash ? (slash == copy ? "/" : (*slash = '\0', copy)) : ".";
    struct thin_walk w = {dir, fn, arg};
    int rc = with_file(path, thin_members, &w);
    free(copy);
    return rc;
}

static int query_mapped(const unsigned char *data, size_t size, const void *q)
{
    return query_buffer(data, size, q);
}

static int query_file(const char *path, const struct elf_query *q);

static int query_member_file(const char *path, const void *q)
{
    return query_file(path, q);
}

static int query_file(const char *path, const struct elf_query *q)
{
    size_t before = q->out->len;
    int rc = thin_each(path, query_member_file, q);
    if (rc == NOT_THIN)
        return with_file(path, query_mapped, q);
    if (rc != 0 && q->out->s) { /* nothing of an archive nm will read again */
        q->out->len = before;
        q->out->s[before] = '\0';
    }
    return rc;
}

int elf_nm(const char *path, enum elf_nm_mode mode, struct strbuf *out)
{
    struct elf_query q = {mode, NULL, out};
    return query_file(path, &q);
}

int elf_section(const char *path, const char *section, struct strbuf *out)
{
    struct elf_query q = {ELF_NM_DEFINED_EXTERNAL, section, out};
    return query_file(path, &q);
}

int elf_section_buffer(const unsigned char *data, size_t size, const char *section,
                       struct strbuf *out)
{
    struct elf_query q = {ELF_NM_DEFINED_EXTERNAL, section, out};
    return query_buffer(data, size, &q);
}

/* What elf_each_object walks: the callback, and the archive's name. */
struct object_walk {
    elf_object_fn fn;
    void *arg;
    const char *archive;
};

/* fn for each member of the (not thin) archive in data: 0, fn's first
 * non-zero value, or -1 for a malformed archive. */
static int walk_archive(const unsigned char *data, size_t size, const struct object_walk *w)
{
    size_t off = SARMAG;
    const char *names = NULL, *h;
    size_t names_len = 0;
    unsigned long long len;
    int more;
    while ((more = next_member(data, size, &off, &h, &len)) > 0) {
        if (!in_bounds(size, off, len))
            return -1;
        int rc = 0;
        if (h[0] == '/' && h[1] == '/') {
            names = (const char *)data + off;
            names_len = (size_t)len;
        } else if (!(h[0] == '/' && (h[1] == ' ' || h[1] == 'S')) &&
                   strncmp(h, "__.SYMDEF", 9) != 0) {
            char *name = ar_member_name(h, names, names_len);
            char *shown = xasprintf("%s(%s)", w->archive, name ? name : "?");
            rc = w->fn(data + off, (size_t)len, shown, w->arg);
            free(shown);
            free(name);
        }
        if (rc != 0)
            return rc;
        off += len + (len & 1);
    }
    return more;
}

static int walk_mapped(const unsigned char *data, size_t size, const void *arg)
{
    const struct object_walk *w = arg;
    if (size >= SARMAG && memcmp(data, ARMAG, SARMAG) == 0)
        return walk_archive(data, size, w);
    return w->fn(data, size, w->archive, w->arg);
}

static int walk_member_file(const char *path, const void *arg)
{
    const struct object_walk *outer = arg;
    const char *member = strncmp(path, "./", 2) == 0 ? path + 2 : path;
    char *shown = xasprintf("%s(%s)", outer->archive, member);
    struct object_walk w = {outer->fn, outer->arg, shown};
    int rc = with_file(path, walk_mapped, &w);
    free(shown);
    return rc;
}

int elf_each_object(const char *path, elf_object_fn fn, void *arg)
{
    struct object_walk w = {fn, arg, path};
    int rc = thin_each(path, walk_member_file, &w);
    return rc == NOT_THIN ? with_file(path, walk_mapped, &w) : rc;
}

/* LLVM bitcode: raw ('BC' 0xC0DE) or in its wrapper header (0x0B17C0DE, little-endian). */
static int is_bitcode(const unsigned char *data, size_t size, const void *arg)
{
    static const unsigned char raw[4] = {'B', 'C', 0xC0, 0xDE}, wrapped[4] = {0xDE, 0xC0, 0x17, 0x0B};
    (void)arg;
    return size >= 4 && (memcmp(data, raw, 4) == 0 || memcmp(data, wrapped, 4) == 0);
}

/* A test of one object (is_bitcode, is_lto_ir), for file_holds. */
struct object_test {
    int (*test)(const unsigned char *data, size_t size, const void *arg);
};

/* 1 if the file, or a member of the archive, passes the test (arg: its object_test). */
static int file_holds(const unsigned char *data, size_t size, const void *arg)
{
    const struct object_test *t = arg;
    if (size >= SARMAG && memcmp(data, ARMAG, SARMAG) == 0)
        return archive_each(data, size, t->test, NULL) == 1;
    return t->test(data, size, NULL);
}

/* 1 if the file at path, a member of its archive or of its thin archive,
 * passes the test. */
static int path_holds(const char *path, const void *arg)
{
    int rc = thin_each(path, path_holds, arg);
    return rc == NOT_THIN ? with_file(path, file_holds, arg) == 1 : rc == 1;
}

int elf_has_llvm_bitcode(const char *path)
{
    struct object_test t = {is_bitcode};
    return path_holds(path, &t);
}

int elf_is_link_input(const char *path)
{
    unsigned char head[SARMAG] = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    return (got >= SELFMAG && memcmp(head, ELFMAG, SELFMAG) == 0) ||
           (got == SARMAG && (memcmp(head, ARMAG, SARMAG) == 0 ||
                              memcmp(head, THIN_MAGIC, SARMAG) == 0)) ||
           is_bitcode(head, got, NULL);
}

const char *elf_nm_program(const char *path, const char *nm)
{
    return elf_has_llvm_bitcode(path) ? POMP_LLVM_NM : nm;
}

/* GCC's LTO sections in an ELF object. */
static int has_gcc_lto_sections(const unsigned char *data, size_t size)
{
    Elf64_Ehdr eh;
    Elf64_Shdr *sh = section_headers(data, size, &eh);
    int found = 0;
    for (size_t i = 0; sh && i < eh.e_shnum && !found; i++) {
        const char *name = section_name(data, size, &eh, sh, i);
        found = name && starts_with(name, ".gnu.lto_");
    }
    free(sh);
    return found;
}

static int is_lto_ir(const unsigned char *data, size_t size, const void *arg)
{
    return is_bitcode(data, size, arg) || has_gcc_lto_sections(data, size);
}

int elf_has_lto_ir(const char *path)
{
    struct object_test t = {is_lto_ir};
    return path_holds(path, &t);
}

/* Whether an ELF file of type ET_DYN is a position-independent program
 * (DF_1_PIE in its dynamic section, which ld sets for -pie and -static-pie),
 * not a shared library. */
static int is_pie(const unsigned char *data, size_t size, const Elf64_Phdr *dynamic)
{
    if (!in_bounds(size, dynamic->p_offset, dynamic->p_filesz))
        return 0;
    for (Elf64_Xword k = 0; k < dynamic->p_filesz / sizeof(Elf64_Dyn); k++) {
        Elf64_Dyn d;
        memcpy(&d, data + dynamic->p_offset + k * sizeof d, sizeof d);
        if (d.d_tag == DT_NULL)
            break;
        if (d.d_tag == DT_FLAGS_1)
            return (d.d_un.d_val & DF_1_PIE) != 0;
    }
    return 0;
}

static int program_kind(const unsigned char *data, size_t size, const void *arg)
{
    (void)arg;
    Elf64_Ehdr eh;
    if (size < sizeof eh || memcmp(data, ELFMAG, SELFMAG) != 0)
        return -1; /* (a truncated ELF header too: the exec refuses it as no program) */
    if (data[EI_CLASS] != ELFCLASS64 || data[EI_DATA] != HOST_DATA)
        return ELF_PROGRAM_DYNAMIC; /* (not one this reader reads: the loader decides) */
    memcpy(&eh, data, sizeof eh);
    if (eh.e_phentsize != sizeof(Elf64_Phdr) ||
        !in_bounds(size, eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr)))
        return ELF_PROGRAM_DYNAMIC;
    Elf64_Phdr ph, dynamic = {.p_type = PT_NULL};
    for (unsigned k = 0; k < eh.e_phnum; k++) {
        memcpy(&ph, data + eh.e_phoff + k * sizeof ph, sizeof ph);
        if (ph.p_type == PT_INTERP)
            return ELF_PROGRAM_DYNAMIC;
        if (ph.p_type == PT_DYNAMIC)
            dynamic = ph;
    }
    if (eh.e_type == ET_DYN && dynamic.p_type == PT_DYNAMIC && !is_pie(data, size, &dynamic))
        return ELF_PROGRAM_LIBRARY;
    return ELF_PROGRAM_STATIC;
}

int elf_program_kind(const char *path)
{
    return with_file(path, program_kind, NULL);
}
