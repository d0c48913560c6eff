/* The machine-specific part of the injector: registers, calling convention, trap and
 * system-call instructions, and the helper-thread stub. x86-64 is built and tested;
 * aarch64 is written to the AAPCS64 / arm64 ptrace ABI but has not been run. */
#ifndef VPROF_INJECT_ARCH_H
#define VPROF_INJECT_ARCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* DWARF register columns the unwinder (dwarf_cfi.c) tracks: the general registers, the stack
 * pointer, and the column that holds the return address. */
#if defined(__x86_64__)
#include <sys/user.h>
struct arch_regs { struct user_regs_struct r; };
#define ARCH_DWARF_NREGS 17 /* rax rdx rcx rbx rsi rdi rbp rsp r8-r15, 16: return address (rip) */
#define ARCH_DWARF_SP 7
#define ARCH_DWARF_RA 16
#define ARCH_DWARF_PC 16
#elif defined(__aarch64__)
#include <asm/ptrace.h>
struct arch_regs { struct user_pt_regs r; };
#define ARCH_DWARF_NREGS 33 /* x0-x30 (x30: link register), 31: sp, 32: pc */
#define ARCH_DWARF_SP 31
#define ARCH_DWARF_RA 30
#define ARCH_DWARF_PC 32
#else
#error "vprof-inject supports x86-64 and aarch64 only"
#endif

/* Vector/FP state: x86 XSAVE area (AVX-512 and AMX tiles fit), or arm64 FPSIMD. */
struct arch_fpregs {
    size_t len;
    _Alignas(64) unsigned char buf[16384];
};

int arch_get_regs(pid_t tid, struct arch_regs *r);
int arch_set_regs(pid_t tid, const struct arch_regs *r);
int arch_get_fpregs(pid_t tid, struct arch_fpregs *f);
int arch_set_fpregs(pid_t tid, const struct arch_fpregs *f);

uint64_t arch_pc(const struct arch_regs *r);
uint64_t arch_sp(const struct arch_regs *r);

/* Whether the stopped thread was in (or was interrupted out of) a system call. */
int arch_in_syscall(const struct arch_regs *r, int mem_fd);

/* The number of the system call the stopped thread is in, or -1 when it is not in one. */
long arch_syscall_nr(const struct arch_regs *r, int mem_fd);

/* Points the thread at an existing system-call instruction with the given number and
 * arguments, with kernel syscall-restart disabled for this step. */
void arch_prepare_syscall(struct arch_regs *r, uint64_t insn, long nr, const uint64_t args[6]);

/* True when a single step over the instruction at insn has completed. */
int arch_syscall_done(const struct arch_regs *r, uint64_t insn);

/* Sets up a call of fn(args...) that returns to trap. The stack pointer moves below the red
 * zone and is aligned as the ABI requires at a call. When the ABI passes the return address
 * on the stack, *stack_addr/stack_bytes are what the caller must write (and later restore);
 * the return value is their length (0 when the return address is in a register). */
size_t arch_prepare_call(struct arch_regs *r, uint64_t fn, uint64_t trap, const uint64_t args[6],
                         uint64_t *stack_addr, uint8_t stack_bytes[16]);

/* True when the thread stopped on the trap instruction at trap. */
int arch_at_trap(const struct arch_regs *r, uint64_t trap);

uint64_t arch_return_value(const struct arch_regs *r);

/* The stopped thread's registers as DWARF columns (frame 0 of an unwind). The RA column holds
 * the pc on x86-64 (rip) and the link register on aarch64. */
void arch_dwarf_regs(const struct arch_regs *r, uint64_t regs[ARCH_DWARF_NREGS]);

/* A return address as the code address it points to: arm64 pointer authentication signs
 * return addresses saved on the stack; the signature bits are cleared. x86-64: unchanged. */
uint64_t arch_code_address(uint64_t ra);

/* The function that the call instruction just before return address ra called: a direct call
 * (followed through a PLT stub to the address in its GOT slot) or a call through a memory
 * operand (x86-64 -fno-plt). Returns 0 with *fn, or -1 when that cannot be read off the code
 * (a call through a register, a stub not yet bound). */
int arch_call_target(int mem_fd, uint64_t ra, uint64_t *fn);

/* Offset of a system-call instruction in buf (which starts at an address with the
 * instruction alignment), or -1. */
long arch_find_syscall_insn(const uint8_t *buf, size_t len);

/* The helper-thread stub: position-independent code, entered as a pthread start routine with
 * the data page (stub_layout.h) as its argument; the trap at *trap_offset is where injected
 * calls return to. Each arch file's assembly defines the three labels. */
extern const uint8_t vprof_stub_start[], vprof_stub_trap[], vprof_stub_end[];

static inline const uint8_t *arch_stub(size_t *size, size_t *trap_offset) {
    *size = (size_t)(vprof_stub_end - vprof_stub_start);
    *trap_offset = (size_t)(vprof_stub_trap - vprof_stub_start);
    return vprof_stub_start;
}

#endif
