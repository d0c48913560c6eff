/* Function symbols (with sizes) of a 64-bit ELF shared object, read from its file. */
#include "elf_symbols.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int elf_probe(const char *path, int *elf_class, uint16_t *machine) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    Elf64_Ehdr eh;
    ssize_t n = pread(fd, &eh, sizeof eh, 0);
    close(fd);
    if (n < (ssize_t)EI_NIDENT + 4 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return -ENOEXEC;
    *elf_class = eh.e_ident[EI_CLASS];
    *machine = eh.e_machine; /* same offset in both classes */
    return 0;
}

static const Elf64_Shdr *sections(const struct elf_image *img, size_t *count) {
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img->data;
    if (eh->e_shoff == 0 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > img->size) {
        *count = 0;
        return NULL;
    }
    *count = eh->e_shnum;
    return (const Elf64_Shdr *)(img->data + eh->e_shoff);
}

int elf_open(const char *path, struct elf_image *img) {
    memset(img, 0, sizeof *img);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(Elf64_Ehdr)) { close(fd); return -ENOEXEC; }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return -errno;
    img->data = p;
    img->size = (size_t)st.st_size;
    const Elf64_Ehdr *eh = p;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > img->size) {
        elf_close(img);
        return -ENOEXEC;
    }
    img->machine = eh->e_machine;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(img->data + eh->e_phoff);
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_LOAD) { img->link_base = ph[i].p_vaddr - ph[i].p_offset; break; }
    return 0;
}

void elf_close(struct elf_image *img) {
    if (img->data) munmap((void *)img->data, img->size);
    memset(img, 0, sizeof *img);
}

uint64_t elf_load_bias(const struct elf_image *img, uint64_t map_start, uint64_t map_offset) {
    return map_start - map_offset - img->link_base;
}

struct symtab_view {
    const Elf64_Sym *syms;
    size_t count;
    const char *strs;
    size_t strs_size;
    const uint16_t *versyms; /* .gnu.version, parallel to .dynsym; NULL for .symtab */
};

/* Finds the symbol table of the given type (SHT_DYNSYM or SHT_SYMTAB) and its string table. */
static int symtab(const struct elf_image *img, uint32_t type, struct symtab_view *v) {
    size_t n;
    const Elf64_Shdr *sh = sections(img, &n);
    memset(v, 0, sizeof *v);
    for (size_t i = 0; i < n; i++) {
        if (sh[i].sh_type != type || sh[i].sh_link >= n) continue;
        const Elf64_Shdr *str = &sh[sh[i].sh_link];
        if (sh[i].sh_offset + sh[i].sh_size > img->size || str->sh_offset + str->sh_size > img->size)
            return -1;
        v->syms = (const Elf64_Sym *)(img->data + sh[i].sh_offset);
        v->count = sh[i].sh_size / sizeof(Elf64_Sym);
        v->strs = (const char *)img->data + str->sh_offset;
        v->strs_size = str->sh_size;
        if (type == SHT_DYNSYM)
            for (size_t j = 0; j < n; j++)
                if (sh[j].sh_type == SHT_GNU_versym && sh[j].sh_offset + sh[j].sh_size <= img->size &&
                    sh[j].sh_size / 2 == v->count)
                    v->versyms = (const uint16_t *)(img->data + sh[j].sh_offset);
        return 0;
    }
    return -1;
}

static const char *sym_name(const struct symtab_view *v, const Elf64_Sym *s) {
    if (s->st_name >= v->strs_size) return "";
    return v->strs + s->st_name;
}

static int defined(const Elf64_Sym *s) {
    int t = ELF64_ST_TYPE(s->st_info);
    return s->st_shndx != SHN_UNDEF && s->st_value != 0 &&
           (t == STT_FUNC || t == STT_OBJECT || t == STT_GNU_IFUNC);
}

int elf_lookup(const struct elf_image *img, const char *name, uint64_t *value, uint64_t *size) {
    static const uint32_t types[] = {SHT_DYNSYM, SHT_SYMTAB};
    for (int t = 0; t < 2; t++) {
        struct symtab_view v;
        if (symtab(img, types[t], &v) != 0) continue;
        const Elf64_Sym *found = NULL;
        for (size_t i = 1; i < v.count; i++) {
            const Elf64_Sym *s = &v.syms[i];
            if (!defined(s) || strcmp(sym_name(&v, s), name) != 0) continue;
            /* IFUNCs would need their resolver run; none of the symbols we call is one. */
            if (ELF64_ST_TYPE(s->st_info) == STT_GNU_IFUNC) continue;
            int hidden_version = v.versyms && (v.versyms[i] & 0x8000);
            if (!found || !hidden_version) found = s;
            if (!hidden_version) break;
        }
        if (found) {
            *value = found->st_value;
            if (size) *size = found->st_size;
            return 0;
        }
    }
    return -ENOENT;
}

void elf_for_each_function(const struct elf_image *img,
                           void (*cb)(void *ctx, const char *name, uint64_t value, uint64_t size),
                           void *ctx) {
    static const uint32_t types[] = {SHT_DYNSYM, SHT_SYMTAB};
    for (int t = 0; t < 2; t++) {
        struct symtab_view v;
        if (symtab(img, types[t], &v) != 0) continue;
        for (size_t i = 1; i < v.count; i++) {
            const Elf64_Sym *s = &v.syms[i];
            int type = ELF64_ST_TYPE(s->st_info);
            if (s->st_shndx == SHN_UNDEF || s->st_value == 0) continue;
            if (type != STT_FUNC && type != STT_GNU_IFUNC) continue;
            cb(ctx, sym_name(&v, s), s->st_value, s->st_size);
        }
    }
}
