/* Function symbols (with sizes) of a 64-bit ELF shared object, read from its file. */
#ifndef VPROF_INJECT_ELF_SYMBOLS_H
#define VPROF_INJECT_ELF_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

struct elf_image {
    const uint8_t *data;
    size_t size;
    uint64_t link_base; /* p_vaddr - p_offset of the first PT_LOAD: vaddr of file offset 0 */
    uint16_t machine;
};

/* Maps the file read-only. Returns 0, or -errno (-ENOEXEC: not a 64-bit ELF). */
int elf_open(const char *path, struct elf_image *img);
void elf_close(struct elf_image *img);

/* Reads only the ELF header: class (ELFCLASS32/64) and machine. Returns 0 or -errno. */
int elf_probe(const char *path, int *elf_class, uint16_t *machine);

/* Looks up a defined function or object symbol by name in .dynsym, then .symtab.
 * Among several versions the default one (name@@VERSION) wins. Returns 0 or -ENOENT. */
int elf_lookup(const struct elf_image *img, const char *name, uint64_t *value, uint64_t *size);

/* Calls cb for each defined function symbol (both tables; duplicates possible). */
void elf_for_each_function(const struct elf_image *img,
                           void (*cb)(void *ctx, const char *name, uint64_t value, uint64_t size),
                           void *ctx);

/* Runtime load bias of an image whose file offset `map_offset` is mapped at `map_start`. */
uint64_t elf_load_bias(const struct elf_image *img, uint64_t map_start, uint64_t map_offset);

#endif
