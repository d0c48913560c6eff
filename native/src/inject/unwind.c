/* The call chain of a stopped thread of another process, from its unwind tables.
 *
 * Why our own unwinder rather than libunwind: the tables are all there is to read (every
 * library built for x86-64 or arm64 Linux carries .eh_frame and the .eh_frame_hdr search
 * table, since C++ exceptions and pthread_cancel need them), and reading them through
 * /proc/PID/mem costs about one page per frame. libunwind would add a build and runtime
 * dependency (libunwind-ptrace, a package on every machine that builds or runs vprof) for the
 * same walk. A library is found from /proc/PID/maps: the mapping of its file at offset 0 holds
 * its ELF header, whose PT_GNU_EH_FRAME segment locates the search table; the vDSO (where a
 * thread in clock_gettime stops, and arm64's signal trampoline lives) is an ELF image in
 * memory and is read the same way. Code without tables (JIT code, hand-written assembly
 * without CFI) stops the walk; the caller then falls back to scanning the rest of the stack. */
#include "unwind.h"
#include "dwarf_cfi.h"
#include "hijack.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE 4096u
#define CACHE_PAGES 64
#define MAX_MODULES 64

struct module {
    uint64_t base;      /* where the file's offset 0 is mapped */
    uint64_t eh_hdr;    /* .eh_frame_hdr in the target, 0: none */
};

struct unwinder {
    int mem_fd;
    uint64_t tag[CACHE_PAGES];      /* page address + 1; 0: empty */
    uint8_t page[CACHE_PAGES][PAGE];
    struct module mod[MAX_MODULES];
    int nmod;
    struct cfi_fde fde;             /* large: kept here, not on the stack */
};

struct unwinder *unwinder_new(int mem_fd) {
    struct unwinder *u = calloc(1, sizeof *u);
    if (u) u->mem_fd = mem_fd;
    return u;
}

void unwinder_free(struct unwinder *u) { free(u); }

static int read_stack(void *ctx, uint64_t addr, void *buf, size_t len) {
    struct unwinder *u = ctx;
    return mem_read(u->mem_fd, addr, buf, len);
}

/* Tables are read through a direct-mapped page cache: a binary search touches a few pages, and
 * consecutive frames are often in the same library. */
static int read_table(void *ctx, uint64_t addr, void *buf, size_t len) {
    struct unwinder *u = ctx;
    uint8_t *out = buf;
    while (len > 0) {
        uint64_t pg = addr & ~(uint64_t)(PAGE - 1);
        unsigned slot = (unsigned)((pg / PAGE) % CACHE_PAGES);
        if (u->tag[slot] != pg + 1) {
            int rc = mem_read(u->mem_fd, pg, u->page[slot], PAGE);
            if (rc) return mem_read(u->mem_fd, addr, out, len); /* end of a mapping: uncached */
            u->tag[slot] = pg + 1;
        }
        size_t off = (size_t)(addr - pg), n = PAGE - off < len ? PAGE - off : len;
        memcpy(out, u->page[slot] + off, n);
        out += n;
        addr += n;
        len -= n;
    }
    return 0;
}

/* The ELF image a code mapping belongs to: the mapping of the same file at offset 0 (for the
 * vDSO, the mapping itself). */
static const struct map_entry *image_base(const struct maps *m, const struct map_entry *e) {
    if (e->offset == 0) return e;
    if (e->path[0] != '/') return NULL;
    const struct map_entry *best = NULL;
    for (size_t i = 0; i < m->n; i++) {
        const struct map_entry *b = &m->v[i];
        if (b->offset == 0 && b->start <= e->start && b->inode == e->inode &&
            b->dev_major == e->dev_major && b->dev_minor == e->dev_minor && strcmp(b->path, e->path) == 0 &&
            (!best || b->start > best->start))
            best = b;
    }
    return best;
}

/* Finds (or reads and caches) the .eh_frame_hdr of the image mapped at base. */
static uint64_t module_eh_hdr(struct unwinder *u, uint64_t base) {
    for (int i = 0; i < u->nmod; i++)
        if (u->mod[i].base == base) return u->mod[i].eh_hdr;
    Elf64_Ehdr eh;
    uint64_t hdr = 0;
    if (read_table(u, base, &eh, sizeof eh) == 0 && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
        eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phnum <= 128) {
        Elf64_Phdr ph[128];
        if (read_table(u, base + eh.e_phoff, ph, eh.e_phnum * sizeof *ph) == 0) {
            uint64_t link_base = 0, eh_vaddr = 0;
            int have_load = 0;
            for (int i = 0; i < eh.e_phnum; i++) {
                if (ph[i].p_type == PT_LOAD && !have_load) {
                    link_base = ph[i].p_vaddr - ph[i].p_offset;
                    have_load = 1;
                }
                if (ph[i].p_type == PT_GNU_EH_FRAME) eh_vaddr = ph[i].p_vaddr;
            }
            if (have_load && eh_vaddr) hdr = base - link_base + eh_vaddr;
        }
    }
    if (u->nmod < MAX_MODULES) u->mod[u->nmod++] = (struct module){base, hdr};
    return hdr;
}

static const char *where(const struct map_entry *e) {
    if (!e) return "no mapping";
    return e->path[0] ? path_basename(e->path) : "anonymous memory";
}

void unwind_thread(struct unwinder *u, const struct maps *m, const struct arch_regs *r,
                   struct unwind_result *out) {
    memset(u->tag, 0, sizeof u->tag);
    u->nmod = 0;
    const struct cfi_mem mem = {read_table, read_stack, u};
    struct cfi_regs regs = {.valid = (1ull << ARCH_DWARF_NREGS) - 1};
    arch_dwarf_regs(r, regs.v);
    out->n = 0;
    out->complete = 0;
    out->why[0] = 0;
    int exact = 1;
    for (;;) {
        uint64_t pc = regs.v[ARCH_DWARF_PC], sp = regs.v[ARCH_DWARF_SP];
        if (out->n == UNWIND_MAX_FRAMES) {
            snprintf(out->why, sizeof out->why, "more than %d frames", UNWIND_MAX_FRAMES);
            return;
        }
        struct unwind_frame *fr = &out->f[out->n++];
        *fr = (struct unwind_frame){pc, sp, exact, 0};
        uint64_t look = unwind_lookup_pc(fr);
        const struct map_entry *e = maps_find(m, look);
        if (!e || e->perms[2] != 'x') {
            snprintf(out->why, sizeof out->why, "0x%llx is not in executable memory (%s)",
                     (unsigned long long)pc, where(e));
            return;
        }
        const struct map_entry *base = image_base(m, e);
        uint64_t hdr = base ? module_eh_hdr(u, base->start) : 0;
        if (!hdr) {
            snprintf(out->why, sizeof out->why, "no unwind table for 0x%llx (%s)", (unsigned long long)pc,
                     where(e));
            return;
        }
        int rc = cfi_find_fde(&mem, hdr, look, &u->fde);
        if (rc) {
            snprintf(out->why, sizeof out->why, "%s for 0x%llx (%s)",
                     rc == -ENOENT ? "no unwind entry" : "unreadable unwind table", (unsigned long long)pc,
                     where(e));
            return;
        }
        fr->signal = u->fde.signal_frame;
        struct cfi_regs caller;
        int outermost = 0;
        rc = cfi_step(&mem, &u->fde, look, &regs, &caller, &outermost);
        if (rc) {
            snprintf(out->why, sizeof out->why, "cannot unwind the frame at 0x%llx (%s): %s",
                     (unsigned long long)pc, where(e), strerror(-rc));
            return;
        }
        if (outermost) {
            out->complete = 1;
            return;
        }
        uint64_t next_sp = caller.v[ARCH_DWARF_SP];
        /* The stack grows down: a caller's frame lies above its callee's. A signal frame may
         * switch stacks (sigaltstack), so it is exempt. */
        if (!(caller.valid & (1ull << ARCH_DWARF_SP)) || (!fr->signal && next_sp <= sp)) {
            snprintf(out->why, sizeof out->why, "the stack pointer does not move up at 0x%llx (%s)",
                     (unsigned long long)pc, where(e));
            return;
        }
        if (caller.v[ARCH_DWARF_PC] == 0) { /* some outermost frames end with a zero return address */
            out->complete = 1;
            return;
        }
        exact = fr->signal;
        regs = caller;
    }
}
