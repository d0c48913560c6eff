/* Call-frame information of .eh_frame / .eh_frame_hdr (the tables C++ exceptions unwind with),
 * read out of another process: find the FDE that covers a pc, and compute the caller's
 * registers from the callee's. Arch-neutral: register columns come from arch.h. */
#ifndef VPROF_INJECT_DWARF_CFI_H
#define VPROF_INJECT_DWARF_CFI_H

#include "arch.h"

#include <stddef.h>
#include <stdint.h>

/* How the unwinder reads the target. Tables (.eh_frame_hdr, .eh_frame) do not change while a
 * library stays mapped and may be cached; the stack is live and is read afresh. Both return 0
 * or -errno. */
struct cfi_mem {
    int (*read_table)(void *ctx, uint64_t addr, void *buf, size_t len);
    int (*read_stack)(void *ctx, uint64_t addr, void *buf, size_t len);
    void *ctx;
};

/* Register values of one frame; bit i of valid says column i is known. */
struct cfi_regs {
    uint64_t v[ARCH_DWARF_NREGS];
    uint64_t valid;
};

#define CFI_MAX_CIE 1024
#define CFI_MAX_FDE 16384

/* One FDE with its CIE, copied out of the target (expressions point into these copies). */
struct cfi_fde {
    uint64_t pc_begin, pc_end;
    uint64_t code_align;
    int64_t data_align;
    unsigned ra_column;
    int signal_frame;            /* CIE augmentation 'S': a signal trampoline (sigreturn) */
    const uint8_t *cie_insns, *cie_end, *fde_insns, *fde_end;
    uint8_t cie_buf[CFI_MAX_CIE];
    uint8_t fde_buf[CFI_MAX_FDE];
};

/* Finds the FDE that covers pc through the binary-search table of the .eh_frame_hdr at hdr.
 * Returns 0, -ENOENT (no FDE covers pc), or another -errno (unreadable, malformed, or a table
 * not sorted for search). */
int cfi_find_fde(const struct cfi_mem *m, uint64_t hdr, uint64_t pc, struct cfi_fde *out);

/* From the registers of a frame executing at pc (for a caller frame: the return address minus
 * one), computes its caller's registers. Sets *outermost when the return-address rule is
 * "undefined" (the first frame of a thread: _start, clone). Returns 0 or -errno. */
int cfi_step(const struct cfi_mem *m, const struct cfi_fde *f, uint64_t pc, const struct cfi_regs *in,
             struct cfi_regs *out, int *outermost);

#endif
