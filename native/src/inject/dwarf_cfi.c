/* Call-frame information of .eh_frame / .eh_frame_hdr, read out of another process.
 *
 * The format is the one of the System V ABI's "Exception Frame" section and the LSB's
 * .eh_frame_hdr: a sorted table of (initial location, FDE address) pairs, FDEs and CIEs holding
 * DWARF call-frame instructions, and DWARF expressions for the frames that need them (PLT
 * stubs, signal trampolines). Only what unwinding needs is read; personality routines and
 * LSDAs are skipped. Every length and offset read from the target is bounded: a malformed
 * table makes a step fail, which the caller treats as "cannot unwind", never as "safe". */
#include "dwarf_cfi.h"

#include <errno.h>
#include <string.h>

/* Pointer encodings (DW_EH_PE_*). */
#define PE_OMIT 0xff
#define PE_FORMAT 0x0f
#define PE_APPL 0x70
#define PE_INDIRECT 0x80
#define PE_ABSPTR 0x00
#define PE_ULEB128 0x01
#define PE_UDATA2 0x02
#define PE_UDATA4 0x03
#define PE_UDATA8 0x04
#define PE_SLEB128 0x09
#define PE_SDATA2 0x0a
#define PE_SDATA4 0x0b
#define PE_SDATA8 0x0c
#define PE_PCREL 0x10
#define PE_DATAREL 0x30

#define MAX_STATE_DEPTH 8
#define MAX_EXPR_OPS 1024
#define EXPR_STACK 64

/* A cursor over a local copy of target bytes that remembers their target address (for
 * pc-relative pointers). Reading past the end sets err and yields zeros. */
struct cur {
    const uint8_t *p, *end;
    const uint8_t *start;
    uint64_t start_addr;
    int err;
};

static uint64_t cur_addr(const struct cur *c) { return c->start_addr + (uint64_t)(c->p - c->start); }

static int take(struct cur *c, void *out, size_t n) {
    if ((size_t)(c->end - c->p) < n) {
        c->err = 1;
        c->p = c->end;
        memset(out, 0, n);
        return -1;
    }
    memcpy(out, c->p, n);
    c->p += n;
    return 0;
}

static uint8_t u8(struct cur *c) { uint8_t v; take(c, &v, 1); return v; }
static uint16_t u16(struct cur *c) { uint16_t v; take(c, &v, 2); return v; }
static uint32_t u32(struct cur *c) { uint32_t v; take(c, &v, 4); return v; }
static uint64_t u64(struct cur *c) { uint64_t v; take(c, &v, 8); return v; }

static uint64_t uleb(struct cur *c) {
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
        uint8_t b = u8(c);
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80) || c->err) return v;
    }
    c->err = 1;
    return 0;
}

static int64_t sleb(struct cur *c) {
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b;
    do {
        b = u8(c);
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while ((b & 0x80) && !c->err && shift < 70);
    if (shift < 64 && (b & 0x40)) v |= ~0ull << shift;
    return (int64_t)v;
}

/* An encoded pointer. datarel_base: the .eh_frame_hdr address (only the header uses datarel). */
static uint64_t encoded(struct cur *c, uint8_t enc, uint64_t datarel_base) {
    if (enc == PE_OMIT) return 0;
    uint64_t at = cur_addr(c), v;
    switch (enc & PE_FORMAT) {
    case PE_ABSPTR: v = u64(c); break;
    case PE_ULEB128: v = uleb(c); break;
    case PE_UDATA2: v = u16(c); break;
    case PE_UDATA4: v = u32(c); break;
    case PE_UDATA8: v = u64(c); break;
    case PE_SLEB128: v = (uint64_t)sleb(c); break;
    case PE_SDATA2: v = (uint64_t)(int64_t)(int16_t)u16(c); break;
    case PE_SDATA4: v = (uint64_t)(int64_t)(int32_t)u32(c); break;
    case PE_SDATA8: v = u64(c); break;
    default: c->err = 1; return 0;
    }
    switch (enc & PE_APPL) {
    case 0: break;
    case PE_PCREL: v += at; break;
    case PE_DATAREL: v += datarel_base; break;
    default: c->err = 1; return 0; /* textrel, funcrel, aligned: not used on Linux x86-64/arm64 */
    }
    /* Indirect pointers appear only for personality routines, which are skipped unread. */
    if (enc & PE_INDIRECT) c->err = 1;
    return v;
}

/* Copies one CIE or FDE record at addr into buf; sets *body to its first byte after the length. */
static int read_record(const struct cfi_mem *m, uint64_t addr, uint8_t *buf, size_t cap,
                       struct cur *c) {
    uint32_t len32;
    int rc = m->read_table(m->ctx, addr, &len32, 4);
    if (rc) return rc;
    uint64_t hdr = 4, len = len32;
    if (len32 == 0) return -ENOENT; /* terminator */
    if (len32 == 0xffffffffu) {
        if ((rc = m->read_table(m->ctx, addr + 4, &len, 8)) != 0) return rc;
        hdr = 12;
    }
    if (len > cap || len < 4) return -E2BIG;
    if ((rc = m->read_table(m->ctx, addr + hdr, buf, (size_t)len)) != 0) return rc;
    *c = (struct cur){buf, buf + len, buf, addr + hdr, 0};
    return 0;
}

struct cie_facts {
    uint8_t fde_enc;
    int has_z;
};

static int parse_cie(const struct cfi_mem *m, uint64_t addr, struct cfi_fde *f, struct cie_facts *cf) {
    struct cur c;
    int rc = read_record(m, addr, f->cie_buf, sizeof f->cie_buf, &c);
    if (rc) return rc == -ENOENT ? -EINVAL : rc;
    if (u32(&c) != 0) return -EINVAL; /* CIE id in .eh_frame */
    uint8_t version = u8(&c);
    if (version != 1 && version != 3 && version != 4) return -EINVAL;
    const char *aug = (const char *)c.p;
    size_t aug_len = strnlen(aug, (size_t)(c.end - c.p));
    if (aug_len == (size_t)(c.end - c.p)) return -EINVAL;
    c.p += aug_len + 1;
    if (strstr(aug, "eh")) return -EINVAL; /* pre-GCC-3 format */
    if (version == 4) { u8(&c); u8(&c); } /* address and segment sizes */
    f->code_align = uleb(&c);
    f->data_align = sleb(&c);
    f->ra_column = version == 1 ? u8(&c) : (unsigned)uleb(&c);
    cf->fde_enc = PE_ABSPTR;
    cf->has_z = aug[0] == 'z';
    f->signal_frame = 0;
    if (cf->has_z) {
        uint64_t data_len = uleb(&c);
        if (c.err || data_len > (uint64_t)(c.end - c.p)) return -EINVAL;
        const uint8_t *data_end = c.p + data_len;
        for (const char *a = aug + 1; *a; a++) {
            if (*a == 'R') cf->fde_enc = u8(&c);
            else if (*a == 'P') { uint8_t e = u8(&c); encoded(&c, e & 0x7f, 0); }
            else if (*a == 'L') u8(&c);
            else if (*a == 'S') f->signal_frame = 1;
            else if (*a == 'B' || *a == 'G') continue; /* arm64 BTI / MTE markers: no data */
            else break; /* unknown: its data is skipped with the rest */
        }
        c.p = data_end;
        c.err = 0;
    } else if (aug[0] != 0) {
        return -EINVAL; /* augmentation without 'z': cannot know how much to skip */
    }
    if (c.err || f->ra_column >= ARCH_DWARF_NREGS || f->code_align == 0) return -EINVAL;
    f->cie_insns = c.p;
    f->cie_end = c.end;
    return 0;
}

static int parse_fde(const struct cfi_mem *m, uint64_t addr, struct cfi_fde *f) {
    struct cur c;
    int rc = read_record(m, addr, f->fde_buf, sizeof f->fde_buf, &c);
    if (rc) return rc == -ENOENT ? -EINVAL : rc;
    uint64_t id_at = cur_addr(&c);
    uint32_t cie_off = u32(&c);
    if (cie_off == 0) return -EINVAL; /* a CIE, not an FDE */
    struct cie_facts cf;
    if ((rc = parse_cie(m, id_at - cie_off, f, &cf)) != 0) return rc;
    f->pc_begin = encoded(&c, cf.fde_enc, 0);
    f->pc_end = f->pc_begin + encoded(&c, cf.fde_enc & PE_FORMAT, 0);
    if (cf.has_z) {
        uint64_t skip = uleb(&c);
        if (skip > (uint64_t)(c.end - c.p)) return -EINVAL;
        c.p += skip;
    }
    if (c.err) return -EINVAL;
    f->fde_insns = c.p;
    f->fde_end = c.end;
    return 0;
}

static int enc_size(uint8_t enc) {
    switch (enc & PE_FORMAT) {
    case PE_UDATA2: case PE_SDATA2: return 2;
    case PE_UDATA4: case PE_SDATA4: return 4;
    case PE_ABSPTR: case PE_UDATA8: case PE_SDATA8: return 8;
    default: return -1;
    }
}

int cfi_find_fde(const struct cfi_mem *m, uint64_t hdr, uint64_t pc, struct cfi_fde *out) {
    uint8_t h[4 + 8 + 8];
    int rc = m->read_table(m->ctx, hdr, h, 4);
    if (rc) return rc;
    /* version 1; eh_frame_ptr and fde_count of fixed size; a table of sdata4 pairs relative to
     * the header (what GNU ld and lld write). */
    int s1 = enc_size(h[1]), s2 = enc_size(h[2]);
    if (h[0] != 1 || h[3] != (PE_DATAREL | PE_SDATA4) || s1 < 0 || s2 < 0 || h[2] == PE_OMIT)
        return -ENOTSUP;
    if ((rc = m->read_table(m->ctx, hdr + 4, h + 4, (size_t)(s1 + s2))) != 0) return rc;
    struct cur c = {h + 4, h + 4 + s1 + s2, h, hdr, 0};
    encoded(&c, h[1], hdr); /* eh_frame_ptr: the FDE addresses in the table are absolute */
    uint64_t count = encoded(&c, h[2], hdr);
    if (c.err || count == 0 || count > (1u << 24)) return c.err ? -EINVAL : -ENOENT;
    uint64_t table = hdr + 4 + (uint64_t)(s1 + s2);
    /* The last entry whose initial location is <= pc. */
    uint64_t lo = 0, hi = count;
    int32_t e[2];
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if ((rc = m->read_table(m->ctx, table + mid * 8, e, 8)) != 0) return rc;
        if (hdr + (uint64_t)(int64_t)e[0] <= pc) lo = mid;
        else hi = mid;
    }
    if ((rc = m->read_table(m->ctx, table + lo * 8, e, 8)) != 0) return rc;
    if (hdr + (uint64_t)(int64_t)e[0] > pc) return -ENOENT;
    if ((rc = parse_fde(m, hdr + (uint64_t)(int64_t)e[1], out)) != 0) return rc;
    return pc >= out->pc_begin && pc < out->pc_end ? 0 : -ENOENT;
}

/* ---- the row of the CFA table at pc ---- */

enum rule_kind { R_SAME, R_UNDEF, R_OFFSET, R_VAL_OFFSET, R_REG, R_EXPR, R_VAL_EXPR };

struct rule {
    uint8_t kind;
    uint16_t reg;
    int64_t off;
    const uint8_t *expr;
    uint64_t expr_len;
};

struct row {
    int cfa_is_expr;
    unsigned cfa_reg;
    int64_t cfa_off;
    const uint8_t *cfa_expr;
    uint64_t cfa_len;
    struct rule r[ARCH_DWARF_NREGS];
};

static void set_rule(struct row *row, uint64_t reg, struct rule r) {
    if (reg < ARCH_DWARF_NREGS) row->r[reg] = r; /* vector registers and others: not tracked */
}

static int block(struct cur *c, const uint8_t **p, uint64_t *len) {
    *len = uleb(c);
    if (c->err || *len > (uint64_t)(c->end - c->p)) return -1;
    *p = c->p;
    c->p += *len;
    return 0;
}

/* Runs call-frame instructions until the row for target_pc is complete. init: the row after
 * the CIE's instructions (DW_CFA_restore goes back to it); NULL while running those. */
static int run(struct cur *c, const struct cfi_fde *f, uint64_t target_pc, uint64_t loc,
               struct row *row, const struct row *init) {
    struct row saved[MAX_STATE_DEPTH];
    int depth = 0;
    while (c->p < c->end && !c->err) {
        uint8_t op = u8(c), low = op & 0x3f;
        uint64_t reg, delta = 0;
        const uint8_t *p;
        uint64_t len;
        switch (op & 0xc0) {
        case 0x40: delta = low; goto advance;                                  /* advance_loc */
        case 0x80: set_rule(row, low, (struct rule){R_OFFSET, 0, (int64_t)uleb(c) * f->data_align, 0, 0}); continue;
        case 0xc0: if (!init) return -EINVAL; set_rule(row, low, low < ARCH_DWARF_NREGS ? init->r[low] : (struct rule){0}); continue;
        }
        switch (op) {
        case 0x00: break;                                                      /* nop */
        case 0x01: {                                                           /* set_loc */
            /* Rare (linker-relaxed code); the pointer uses the FDE's encoding, which is gone by
             * now: GNU tools never emit it in .eh_frame. */
            return -ENOTSUP;
        }
        case 0x02: delta = u8(c); goto advance;
        case 0x03: delta = u16(c); goto advance;
        case 0x04: delta = u32(c); goto advance;
        case 0x05: reg = uleb(c); set_rule(row, reg, (struct rule){R_OFFSET, 0, (int64_t)uleb(c) * f->data_align, 0, 0}); break;
        case 0x06: reg = uleb(c); if (!init) return -EINVAL; if (reg < ARCH_DWARF_NREGS) row->r[reg] = init->r[reg]; break;
        case 0x07: set_rule(row, uleb(c), (struct rule){R_UNDEF, 0, 0, 0, 0}); break;
        case 0x08: set_rule(row, uleb(c), (struct rule){R_SAME, 0, 0, 0, 0}); break;
        case 0x09: reg = uleb(c); { uint64_t r2 = uleb(c); if (r2 >= ARCH_DWARF_NREGS) return -ENOTSUP;
                   set_rule(row, reg, (struct rule){R_REG, (uint16_t)r2, 0, 0, 0}); } break;
        case 0x0a: if (depth == MAX_STATE_DEPTH) return -EINVAL; saved[depth++] = *row; break;
        case 0x0b: if (depth == 0) return -EINVAL; *row = saved[--depth]; break;
        case 0x0c: row->cfa_reg = (unsigned)uleb(c); row->cfa_off = (int64_t)uleb(c); row->cfa_is_expr = 0; break;
        case 0x0d: row->cfa_reg = (unsigned)uleb(c); row->cfa_is_expr = 0; break;
        case 0x0e: row->cfa_off = (int64_t)uleb(c); break;
        case 0x0f: if (block(c, &p, &len)) return -EINVAL; row->cfa_is_expr = 1; row->cfa_expr = p; row->cfa_len = len; break;
        case 0x10: reg = uleb(c); if (block(c, &p, &len)) return -EINVAL; set_rule(row, reg, (struct rule){R_EXPR, 0, 0, p, len}); break;
        case 0x11: reg = uleb(c); set_rule(row, reg, (struct rule){R_OFFSET, 0, sleb(c) * f->data_align, 0, 0}); break;
        case 0x12: row->cfa_reg = (unsigned)uleb(c); row->cfa_off = sleb(c) * f->data_align; row->cfa_is_expr = 0; break;
        case 0x13: row->cfa_off = sleb(c) * f->data_align; break;
        case 0x14: reg = uleb(c); set_rule(row, reg, (struct rule){R_VAL_OFFSET, 0, (int64_t)uleb(c) * f->data_align, 0, 0}); break;
        case 0x15: reg = uleb(c); set_rule(row, reg, (struct rule){R_VAL_OFFSET, 0, sleb(c) * f->data_align, 0, 0}); break;
        case 0x16: reg = uleb(c); if (block(c, &p, &len)) return -EINVAL; set_rule(row, reg, (struct rule){R_VAL_EXPR, 0, 0, p, len}); break;
        case 0x2d: break; /* arm64 negate_ra_state (return addresses are stripped anyway) */
        case 0x2e: uleb(c); break;                                             /* GNU_args_size */
        case 0x2f: reg = uleb(c); set_rule(row, reg, (struct rule){R_OFFSET, 0, -(int64_t)uleb(c) * f->data_align, 0, 0}); break;
        default: return -ENOTSUP;
        }
        continue;
    advance:
        loc += delta * f->code_align;
        if (loc > target_pc) return 0;
    }
    return c->err ? -EINVAL : 0;
}

/* ---- DWARF expressions (the subset call-frame information uses) ---- */

static int eval(const struct cfi_mem *m, const uint8_t *expr, uint64_t len, const struct cfi_regs *regs,
                int push_cfa, uint64_t cfa, uint64_t *result) {
    uint64_t st[EXPR_STACK];
    int sp = 0;
    if (push_cfa) st[sp++] = cfa;
    struct cur c = {expr, expr + len, expr, 0, 0};
#define NEED(n) do { if (sp < (n)) return -EINVAL; } while (0)
#define PUSH(v) do { uint64_t pv_ = (v); if (sp == EXPR_STACK) return -EINVAL; st[sp++] = pv_; } while (0)
    for (int ops = 0; c.p < c.end; ops++) {
        if (ops == MAX_EXPR_OPS || c.err) return -EINVAL;
        uint8_t op = u8(&c);
        uint64_t a, b;
        if (op >= 0x30 && op <= 0x4f) { PUSH((uint64_t)(op - 0x30)); continue; }      /* lit */
        if ((op >= 0x70 && op <= 0x8f) || op == 0x92) {                                 /* breg */
            uint64_t r = op == 0x92 ? uleb(&c) : (uint64_t)(op - 0x70);
            int64_t off = sleb(&c);
            if (r >= ARCH_DWARF_NREGS || !(regs->valid & (1ull << r))) return -EINVAL;
            PUSH(regs->v[r] + (uint64_t)off);
            continue;
        }
        switch (op) {
        case 0x03: PUSH(u64(&c)); break;
        case 0x06: NEED(1); if (m->read_stack(m->ctx, st[sp - 1], &st[sp - 1], 8)) return -EFAULT; break;
        case 0x94: { uint8_t n = u8(&c); NEED(1); if (n == 0 || n > 8) return -EINVAL;
                     uint64_t v = 0; if (m->read_stack(m->ctx, st[sp - 1], &v, n)) return -EFAULT;
                     st[sp - 1] = v; break; }
        case 0x08: PUSH(u8(&c)); break;
        case 0x09: PUSH((uint64_t)(int64_t)(int8_t)u8(&c)); break;
        case 0x0a: PUSH(u16(&c)); break;
        case 0x0b: PUSH((uint64_t)(int64_t)(int16_t)u16(&c)); break;
        case 0x0c: PUSH(u32(&c)); break;
        case 0x0d: PUSH((uint64_t)(int64_t)(int32_t)u32(&c)); break;
        case 0x0e: case 0x0f: PUSH(u64(&c)); break;
        case 0x10: PUSH(uleb(&c)); break;
        case 0x11: PUSH((uint64_t)sleb(&c)); break;
        case 0x12: NEED(1); PUSH(st[sp - 1]); break;
        case 0x13: NEED(1); sp--; break;
        case 0x14: NEED(2); PUSH(st[sp - 2]); break;
        case 0x15: { uint8_t i = u8(&c); NEED(i + 1); PUSH(st[sp - 1 - i]); break; }
        case 0x16: NEED(2); a = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = a; break;
        case 0x17: NEED(3); a = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = st[sp - 3]; st[sp - 3] = a; break;
        case 0x19: NEED(1); if ((int64_t)st[sp - 1] < 0) st[sp - 1] = -st[sp - 1]; break;
        case 0x1f: NEED(1); st[sp - 1] = -st[sp - 1]; break;
        case 0x20: NEED(1); st[sp - 1] = ~st[sp - 1]; break;
        case 0x23: NEED(1); st[sp - 1] += uleb(&c); break;
        case 0x28: case 0x2f: {                                                      /* bra, skip */
            int16_t off = (int16_t)u16(&c);
            int jump = op == 0x2f;
            if (op == 0x28) { NEED(1); jump = st[--sp] != 0; }
            if (jump) {
                if (off < 0 ? (uint64_t)(c.p - c.start) < (uint64_t)-off : (uint64_t)(c.end - c.p) < (uint64_t)off)
                    return -EINVAL;
                c.p += off;
            }
            break;
        }
        case 0x96: break;
        case 0x1a: case 0x1b: case 0x1c: case 0x1d: case 0x1e: case 0x21: case 0x22: case 0x24:
        case 0x25: case 0x26: case 0x27: case 0x29: case 0x2a: case 0x2b: case 0x2c: case 0x2d: case 0x2e:
            NEED(2);
            b = st[--sp];
            a = st[sp - 1];
            switch (op) {
            case 0x1a: a &= b; break;
            case 0x1b: if (b == 0) return -EINVAL; a = (uint64_t)((int64_t)a / (int64_t)b); break;
            case 0x1c: a -= b; break;
            case 0x1d: if (b == 0) return -EINVAL; a %= b; break;
            case 0x1e: a *= b; break;
            case 0x21: a |= b; break;
            case 0x22: a += b; break;
            case 0x24: a = b >= 64 ? 0 : a << b; break;
            case 0x25: a = b >= 64 ? 0 : a >> b; break;
            case 0x26: a = (uint64_t)((int64_t)a >> (b >= 64 ? 63 : b)); break;
            case 0x27: a ^= b; break;
            case 0x29: a = a == b; break;
            case 0x2a: a = (int64_t)a >= (int64_t)b; break;
            case 0x2b: a = (int64_t)a > (int64_t)b; break;
            case 0x2c: a = (int64_t)a <= (int64_t)b; break;
            case 0x2d: a = (int64_t)a < (int64_t)b; break;
            case 0x2e: a = a != b; break;
            }
            st[sp - 1] = a;
            break;
        default: return -ENOTSUP;
        }
    }
#undef NEED
#undef PUSH
    if (sp < 1 || c.err) return -EINVAL;
    *result = st[sp - 1];
    return 0;
}

int cfi_step(const struct cfi_mem *m, const struct cfi_fde *f, uint64_t pc, const struct cfi_regs *in,
             struct cfi_regs *out, int *outermost) {
    struct row init, row;
    memset(&init, 0, sizeof init);
    struct cur c = {f->cie_insns, f->cie_end, f->cie_insns, 0, 0};
    int rc = run(&c, f, UINT64_MAX, 0, &init, NULL);
    if (rc) return rc;
    row = init;
    c = (struct cur){f->fde_insns, f->fde_end, f->fde_insns, 0, 0};
    if ((rc = run(&c, f, pc, f->pc_begin, &row, &init)) != 0) return rc;

    uint64_t cfa;
    if (row.cfa_is_expr) {
        if ((rc = eval(m, row.cfa_expr, row.cfa_len, in, 0, 0, &cfa)) != 0) return rc;
    } else {
        if (row.cfa_reg >= ARCH_DWARF_NREGS || !(in->valid & (1ull << row.cfa_reg))) return -EINVAL;
        cfa = in->v[row.cfa_reg] + (uint64_t)row.cfa_off;
    }
    *outermost = row.r[f->ra_column].kind == R_UNDEF;
    if (*outermost) return 0;
    memset(out, 0, sizeof *out);
    for (unsigned i = 0; i < ARCH_DWARF_NREGS; i++) {
        const struct rule *r = &row.r[i];
        uint64_t v = 0, addr;
        switch (r->kind) {
        case R_SAME:
            if (!(in->valid & (1ull << i))) continue;
            v = in->v[i];
            break;
        case R_UNDEF: continue;
        case R_OFFSET:
            if (m->read_stack(m->ctx, cfa + (uint64_t)r->off, &v, 8)) return -EFAULT;
            break;
        case R_VAL_OFFSET: v = cfa + (uint64_t)r->off; break;
        case R_REG:
            if (!(in->valid & (1ull << r->reg))) continue;
            v = in->v[r->reg];
            break;
        case R_EXPR:
            if ((rc = eval(m, r->expr, r->expr_len, in, 1, cfa, &addr)) != 0) return rc;
            if (m->read_stack(m->ctx, addr, &v, 8)) return -EFAULT;
            break;
        case R_VAL_EXPR:
            if ((rc = eval(m, r->expr, r->expr_len, in, 1, cfa, &v)) != 0) return rc;
            break;
        }
        out->v[i] = v;
        out->valid |= 1ull << i;
    }
    /* The caller's stack pointer is the CFA by definition, unless a rule says otherwise (the
     * register restore of a signal trampoline). */
    if (row.r[ARCH_DWARF_SP].kind == R_SAME) {
        out->v[ARCH_DWARF_SP] = cfa;
        out->valid |= 1ull << ARCH_DWARF_SP;
    }
    if (!(out->valid & (1ull << f->ra_column))) return -EINVAL;
    out->v[ARCH_DWARF_PC] = arch_code_address(out->v[f->ra_column]);
    out->valid |= 1ull << ARCH_DWARF_PC;
    return 0;
}
