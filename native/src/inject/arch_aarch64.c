/* aarch64 (AAPCS64) part of the injector. Written to the arm64 ptrace ABI; NOT yet run on an
 * arm64 machine. SVE/SME register state beyond the FPSIMD view is not saved. */
#if defined(__aarch64__)
#include "arch.h"
#include "stub_layout.h"

#include <elf.h>
#include <errno.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* Same contract as the x86-64 stub (see arch_x86_64.c); x19 holds the page. */
__asm__(
    ".pushsection .rodata.vprof_inject_stub,\"a\"\n"
    ".balign 4\n"
    ".globl vprof_stub_start\n.globl vprof_stub_trap\n.globl vprof_stub_end\n" /* for arch_stub (arch.h) */
    ".hidden vprof_stub_start\n.hidden vprof_stub_trap\n.hidden vprof_stub_end\n"
    "vprof_stub_start:\n"
    "  stp x29, x30, [sp, #-32]!\n"
    "  mov x29, sp\n"
    "  str x19, [sp, #16]\n"
    "  mov x19, x0\n"
    "  mov x8, #" STUB_STR(SYS_gettid) "\n"
    "  svc #0\n"
    "  str x0, [x19, #" STUB_STR(SH_TID) "]\n"
    "  ldr x9, [x19, #" STUB_STR(SH_FN_SELF) "]\n"
    "  blr x9\n"
    "  ldr x9, [x19, #" STUB_STR(SH_FN_DETACH) "]\n"
    "  blr x9\n"
    "  add x0, x19, #" STUB_STR(SH_PATH) "\n"
    "  ldr x1, [x19, #" STUB_STR(SH_MODE) "]\n"
    "  ldr x9, [x19, #" STUB_STR(SH_FN_DLOPEN) "]\n"
    "  blr x9\n"
    "  str x0, [x19, #" STUB_STR(SH_HANDLE) "]\n"
    "  cbnz x0, 2f\n"
    "  ldr x9, [x19, #" STUB_STR(SH_FN_DLERROR) "]\n"
    "  cbz x9, 2f\n"
    "  blr x9\n"
    "  cbz x0, 2f\n"
    "  add x1, x19, #" STUB_STR(SH_ERR) "\n"
    "  mov x2, #" STUB_STR(SH_ERR_LEN) " - 1\n"
    "1:\n"
    "  ldrb w3, [x0], #1\n"
    "  strb w3, [x1], #1\n"
    "  cbz w3, 2f\n"
    "  subs x2, x2, #1\n"
    "  b.ne 1b\n"
    "  strb wzr, [x1]\n"
    "2:\n"
    "  mov x0, #1\n"
    "  add x1, x19, #" STUB_STR(SH_DONE) "\n"
    "  stlr x0, [x1]\n" /* release: the results above are visible before done */
    "  mov x0, #0\n"
    "  ldr x19, [sp, #16]\n"
    "  ldp x29, x30, [sp], #32\n"
    "  ret\n"
    "vprof_stub_trap:\n"
    "  brk #0\n"
    "vprof_stub_end:\n"
    ".popsection\n");

static int regset(int req, pid_t tid, int type, void *buf, size_t *len) {
    struct iovec iov = {buf, *len};
    if (ptrace(req, tid, (void *)(long)type, &iov) != 0) return -errno;
    *len = iov.iov_len;
    return 0;
}

int arch_get_regs(pid_t tid, struct arch_regs *r) {
    size_t len = sizeof r->r;
    return regset(PTRACE_GETREGSET, tid, NT_PRSTATUS, &r->r, &len);
}

int arch_set_regs(pid_t tid, const struct arch_regs *r) {
    size_t len = sizeof r->r;
    return regset(PTRACE_SETREGSET, tid, NT_PRSTATUS, (void *)&r->r, &len);
}

int arch_get_fpregs(pid_t tid, struct arch_fpregs *f) {
    f->len = sizeof(struct user_fpsimd_state);
    return regset(PTRACE_GETREGSET, tid, NT_PRFPREG, f->buf, &f->len);
}

int arch_set_fpregs(pid_t tid, const struct arch_fpregs *f) {
    size_t len = f->len;
    return regset(PTRACE_SETREGSET, tid, NT_PRFPREG, (void *)f->buf, &len);
}

uint64_t arch_pc(const struct arch_regs *r) { return r->r.pc; }
uint64_t arch_sp(const struct arch_regs *r) { return r->r.sp; }

int arch_in_syscall(const struct arch_regs *r, int mem_fd) {
    /* arm64 rewinds pc onto the svc (and restores x0) before the ptrace stop when the syscall
     * is to be restarted, and leaves it after the svc when it returns -EINTR: either way an
     * svc #0 sits at pc or pc - 4. */
    uint32_t insn[2];
    if (pread(mem_fd, insn, sizeof insn, (off_t)(r->r.pc - 4)) != (ssize_t)sizeof insn) return 0;
    return insn[0] == 0xd4000001u || insn[1] == 0xd4000001u;
}

long arch_syscall_nr(const struct arch_regs *r, int mem_fd) {
    /* x8 carries the number into svc and the kernel leaves it unchanged. */
    return arch_in_syscall(r, mem_fd) ? (long)r->r.regs[8] : -1;
}

void arch_prepare_syscall(struct arch_regs *r, uint64_t insn, long nr, const uint64_t a[6]) {
    /* The kernel already forgot the interrupted syscall before the stop (forget_syscall), so
     * resuming at another pc does not trigger a restart. */
    r->r.pc = insn;
    r->r.regs[8] = (uint64_t)nr;
    for (int i = 0; i < 6; i++) r->r.regs[i] = a[i];
}

int arch_syscall_done(const struct arch_regs *r, uint64_t insn) { return r->r.pc == insn + 4; }

size_t arch_prepare_call(struct arch_regs *r, uint64_t fn, uint64_t trap, const uint64_t a[6],
                         uint64_t *stack_addr, uint8_t stack_bytes[16]) {
    (void)stack_addr; (void)stack_bytes;
    /* AAPCS64 has no red zone, but leaf code may still touch memory below sp via signal-free
     * assumptions; skip 256 bytes anyway and keep sp 16-byte aligned. */
    r->r.sp = (r->r.sp - 256) & ~(uint64_t)15;
    r->r.pc = fn;
    r->r.regs[30] = trap; /* link register: return address */
    for (int i = 0; i < 6; i++) r->r.regs[i] = a[i];
    return 0;
}

int arch_at_trap(const struct arch_regs *r, uint64_t trap) { return r->r.pc == trap; }

uint64_t arch_return_value(const struct arch_regs *r) { return r->r.regs[0]; }

void arch_dwarf_regs(const struct arch_regs *r, uint64_t v[ARCH_DWARF_NREGS]) {
    for (int i = 0; i < 31; i++) v[i] = r->r.regs[i];
    v[31] = r->r.sp;
    v[32] = r->r.pc;
}

/* User addresses have at most 48 bits here (a 52-bit address space is only given to a process
 * that asks mmap for one); above them sit the pointer-authentication code and the tag byte. */
uint64_t arch_code_address(uint64_t ra) { return ra & ((1ull << 48) - 1); }

static int read_insns(int fd, uint64_t addr, uint32_t *buf, size_t n) {
    return pread(fd, buf, n * 4, (off_t)addr) == (ssize_t)(n * 4) ? 0 : -1;
}

/* A PLT entry: [bti c] adrp x16, slot@page; ldr x17, [x16, #slot@pageoff]; add; br x17.
 * Returns the GOT slot's address, or 0. */
static uint64_t plt_slot(int mem_fd, uint64_t at) {
    uint32_t in[3];
    if (read_insns(mem_fd, at, in, 3)) return 0;
    int i = 0;
    if (in[0] == 0xd503245fu) i = 1; /* bti c */
    uint32_t adrp = in[i], ldr = in[i + 1];
    if ((adrp & 0x9f00001fu) != 0x90000010u || (ldr & 0xffc003ffu) != 0xf9400211u) return 0;
    int64_t imm = (int64_t)((((adrp >> 5) & 0x7ffff) << 2) | ((adrp >> 29) & 3));
    if (imm & (1 << 20)) imm -= 1 << 21;
    uint64_t page = ((at + (uint64_t)i * 4) & ~0xfffull) + (uint64_t)(imm << 12);
    return page + ((ldr >> 10) & 0xfff) * 8;
}

int arch_call_target(int mem_fd, uint64_t ra, uint64_t *fn) {
    uint32_t bl;
    uint64_t at = arch_code_address(ra) - 4;
    if (read_insns(mem_fd, at, &bl, 1) || (bl & 0xfc000000u) != 0x94000000u) return -1; /* not bl */
    int64_t imm = (int64_t)(bl & 0x03ffffff);
    if (imm & (1 << 25)) imm -= 1 << 26;
    uint64_t target = at + (uint64_t)(imm * 4), slot = plt_slot(mem_fd, target);
    if (!slot) { *fn = target; return 0; }
    /* An unbound lazy slot points at PLT0: not a C library function, so the caller does not
     * accept it. */
    if (pread(mem_fd, &target, 8, (off_t)slot) != 8) return -1;
    *fn = target;
    return 0;
}

long arch_find_syscall_insn(const uint8_t *buf, size_t len) {
    for (size_t i = 0; i + 4 <= len; i += 4) {
        uint32_t w;
        memcpy(&w, buf + i, 4);
        if (w == 0xd4000001u) return (long)i;
    }
    return -1;
}
#endif
