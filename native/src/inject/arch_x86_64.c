/* x86-64 (System V ABI) part of the injector. */
#if defined(__x86_64__)
#include "arch.h"
#include "stub_layout.h"

#include <elf.h>
#include <errno.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* The helper thread's start routine, void *stub(void *shared):
 *   record gettid(); pthread_detach(pthread_self()) so the thread frees itself on exit;
 *   handle = dlopen(path, mode); on failure copy dlerror() into the page (the dlerror buffer is
 *   thread-local and dies with the thread); finally store done = 1 and return.
 * rbx (callee-saved) holds the page; one push keeps calls 16-byte aligned. The trap byte after
 * it is where calls the injector makes on a hijacked thread return to. */
__asm__(
    ".pushsection .rodata.vprof_inject_stub,\"a\"\n"
    ".intel_syntax noprefix\n"
    ".globl vprof_stub_start\n.globl vprof_stub_trap\n.globl vprof_stub_end\n" /* for arch_stub (arch.h) */
    ".hidden vprof_stub_start\n.hidden vprof_stub_trap\n.hidden vprof_stub_end\n"
    "vprof_stub_start:\n"
    "  push rbx\n"
    "  mov rbx, rdi\n"
    "  mov eax, " STUB_STR(SYS_gettid) "\n"
    "  syscall\n"
    "  mov [rbx+" STUB_STR(SH_TID) "], rax\n"
    "  call qword ptr [rbx+" STUB_STR(SH_FN_SELF) "]\n"
    "  mov rdi, rax\n"
    "  call qword ptr [rbx+" STUB_STR(SH_FN_DETACH) "]\n"
    "  lea rdi, [rbx+" STUB_STR(SH_PATH) "]\n"
    "  mov rsi, [rbx+" STUB_STR(SH_MODE) "]\n"
    "  call qword ptr [rbx+" STUB_STR(SH_FN_DLOPEN) "]\n"
    "  mov [rbx+" STUB_STR(SH_HANDLE) "], rax\n"
    "  test rax, rax\n"
    "  jnz 2f\n"
    "  mov rax, [rbx+" STUB_STR(SH_FN_DLERROR) "]\n"
    "  test rax, rax\n"
    "  jz 2f\n"
    "  call rax\n"
    "  test rax, rax\n"
    "  jz 2f\n"
    "  lea rdi, [rbx+" STUB_STR(SH_ERR) "]\n"
    "  mov ecx, " STUB_STR(SH_ERR_LEN) " - 1\n"
    "1:\n"
    "  mov dl, [rax]\n"
    "  mov [rdi], dl\n"
    "  test dl, dl\n"
    "  jz 2f\n"
    "  inc rax\n"
    "  inc rdi\n"
    "  dec ecx\n"
    "  jnz 1b\n"
    "  mov byte ptr [rdi], 0\n"
    "2:\n"
    "  mov qword ptr [rbx+" STUB_STR(SH_DONE) "], 1\n" /* x86 stores are not reordered */
    "  xor eax, eax\n"
    "  pop rbx\n"
    "  ret\n"
    "vprof_stub_trap:\n"
    "  int3\n"
    "vprof_stub_end:\n"
    ".att_syntax prefix\n"
    ".popsection\n");

int arch_get_regs(pid_t tid, struct arch_regs *r) {
    return ptrace(PTRACE_GETREGS, tid, NULL, &r->r) == 0 ? 0 : -errno;
}

int arch_set_regs(pid_t tid, const struct arch_regs *r) {
    return ptrace(PTRACE_SETREGS, tid, NULL, &r->r) == 0 ? 0 : -errno;
}

int arch_get_fpregs(pid_t tid, struct arch_fpregs *f) {
    struct iovec iov = {f->buf, sizeof f->buf};
    if (ptrace(PTRACE_GETREGSET, tid, (void *)NT_X86_XSTATE, &iov) == 0) {
        f->len = iov.iov_len;
        return 0;
    }
    /* Without XSAVE support: the legacy FXSAVE area (x87, SSE). */
    if (ptrace(PTRACE_GETFPREGS, tid, NULL, f->buf) != 0) return -errno;
    f->len = 0;
    return 0;
}

int arch_set_fpregs(pid_t tid, const struct arch_fpregs *f) {
    if (f->len == 0) return ptrace(PTRACE_SETFPREGS, tid, NULL, (void *)f->buf) == 0 ? 0 : -errno;
    struct iovec iov = {(void *)f->buf, f->len};
    return ptrace(PTRACE_SETREGSET, tid, (void *)NT_X86_XSTATE, &iov) == 0 ? 0 : -errno;
}

uint64_t arch_pc(const struct arch_regs *r) { return r->r.rip; }
uint64_t arch_sp(const struct arch_regs *r) { return r->r.rsp; }

int arch_in_syscall(const struct arch_regs *r, int mem_fd) {
    (void)mem_fd;
    /* orig_rax holds the syscall number while the kernel still considers the thread inside a
     * system call (its restart decision pending); -1 in user code. */
    return (long long)r->r.orig_rax >= 0;
}

long arch_syscall_nr(const struct arch_regs *r, int mem_fd) {
    return arch_in_syscall(r, mem_fd) ? (long)r->r.orig_rax : -1;
}

void arch_prepare_syscall(struct arch_regs *r, uint64_t insn, long nr, const uint64_t a[6]) {
    r->r.rip = insn;
    r->r.rax = (uint64_t)nr;
    r->r.rdi = a[0]; r->r.rsi = a[1]; r->r.rdx = a[2];
    r->r.r10 = a[3]; r->r.r8 = a[4]; r->r.r9 = a[5];
    /* orig_rax = -1: when this thread resumes from its current stop the kernel must not
     * "restart" an interrupted system call by rewinding our rip. */
    r->r.orig_rax = (uint64_t)-1;
}

int arch_syscall_done(const struct arch_regs *r, uint64_t insn) { return r->r.rip == insn + 2; }

size_t arch_prepare_call(struct arch_regs *r, uint64_t fn, uint64_t trap, const uint64_t a[6],
                         uint64_t *stack_addr, uint8_t stack_bytes[16]) {
    /* Skip the 128-byte red zone the interrupted code may be using, plus some slack, align to
     * 16 and push the return address: at entry rsp + 8 is 16-byte aligned, as after a call. */
    uint64_t sp = (r->r.rsp - 128 - 256) & ~(uint64_t)15;
    sp -= 8;
    *stack_addr = sp;
    memcpy(stack_bytes, &trap, 8);
    r->r.rsp = sp;
    r->r.rip = fn;
    r->r.rdi = a[0]; r->r.rsi = a[1]; r->r.rdx = a[2];
    r->r.rcx = a[3]; r->r.r8 = a[4]; r->r.r9 = a[5];
    r->r.rax = 0; /* no vector arguments (varargs convention) */
    r->r.eflags &= ~(uint64_t)0x400; /* the ABI requires DF clear at a call */
    r->r.orig_rax = (uint64_t)-1;
    return 8;
}

int arch_at_trap(const struct arch_regs *r, uint64_t trap) { return r->r.rip == trap + 1; }

uint64_t arch_return_value(const struct arch_regs *r) { return r->r.rax; }

void arch_dwarf_regs(const struct arch_regs *r, uint64_t v[ARCH_DWARF_NREGS]) {
    const struct user_regs_struct *g = &r->r;
    const uint64_t cols[ARCH_DWARF_NREGS] = {g->rax, g->rdx, g->rcx, g->rbx, g->rsi, g->rdi, g->rbp,
                                             g->rsp, g->r8,  g->r9,  g->r10, g->r11, g->r12, g->r13,
                                             g->r14, g->r15, g->rip};
    memcpy(v, cols, sizeof cols);
}

uint64_t arch_code_address(uint64_t ra) { return ra; }

static int read_exact(int fd, uint64_t addr, void *buf, size_t len) {
    return pread(fd, buf, len, (off_t)addr) == (ssize_t)len ? 0 : -1;
}

/* A PLT entry: [endbr64] [bnd] jmp *disp32(%rip). Returns the GOT slot's address, or 0. */
static uint64_t plt_slot(int mem_fd, uint64_t at) {
    uint8_t b[11];
    if (read_exact(mem_fd, at, b, sizeof b)) return 0;
    size_t i = 0;
    if (b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && b[3] == 0xfa) i = 4;
    if (b[i] == 0xf2) i++;
    if (b[i] != 0xff || b[i + 1] != 0x25) return 0;
    int32_t disp;
    memcpy(&disp, b + i + 2, 4);
    return at + i + 6 + (uint64_t)(int64_t)disp;
}

int arch_call_target(int mem_fd, uint64_t ra, uint64_t *fn) {
    uint8_t b[6];
    if (ra < 6 || read_exact(mem_fd, ra - 6, b, sizeof b)) return -1;
    uint64_t target, slot = 0;
    int32_t rel;
    if (b[0] == 0xff && b[1] == 0x15) {          /* call *disp32(%rip) */
        memcpy(&rel, b + 2, 4);
        slot = ra + (uint64_t)(int64_t)rel;
    } else if (b[1] == 0xe8) {                   /* call rel32 */
        memcpy(&rel, b + 2, 4);
        target = ra + (uint64_t)(int64_t)rel;
        slot = plt_slot(mem_fd, target);
        if (!slot) { *fn = target; return 0; }   /* a direct call of the function itself */
    } else {
        return -1;                               /* through a register or another operand */
    }
    /* An unbound lazy slot points back into the PLT: not a C library function, so the caller
     * does not accept it. */
    if (read_exact(mem_fd, slot, &target, 8)) return -1;
    *fn = target;
    return 0;
}

long arch_find_syscall_insn(const uint8_t *buf, size_t len) {
    for (size_t i = 0; i + 1 < len; i++)
        if (buf[i] == 0x0f && buf[i + 1] == 0x05) return (long)i;
    return -1;
}
#endif
