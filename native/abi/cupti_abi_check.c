/*
 * cupti_abi_check.c: vprof's CUPTI declarations (src/cupti_abi.h) against the real CUDA headers.
 *
 * Built only by cupti-abi-check.sh, with -I naming a CUDA toolkit's include/. It includes the
 * real headers and only the lists of cupti_abi.h (not its declarations, which would clash), and
 * expands every list entry into a compile-time assertion: each enum value and constant, each
 * enum type's size and signedness, each typedef, each struct's size and alignment, each field's
 * offset and type, each prototype. A difference is a compile error that names the entry. The
 * program it builds prints how many of each were checked.
 *
 * Types are compared as spelled in the lists, resolved here against the real headers: a field
 * listed as CUpti_ActivityKind must be CUPTI's CUpti_ActivityKind, a prototype listed with
 * (CUpti_ActivityKind kind) must be CUPTI's. Since cupti_abi.h generates its declarations from
 * the same spellings and checks its own numbers, the two declare the same ABI.
 */
#include <cupti.h>
#include <generated_nvtx_meta.h>
#include <stddef.h>
#include <stdio.h>

#define VPROF_CUPTI_ABI_LISTS_ONLY
#include "cupti_abi.h"

/* Same release only: a record's layout is what its name promises within a release, and the
 * lists name CUPTI 13.0's records. The script says which headers it found before this. */
#define CHECK_RELEASE(name, value) \
    _Static_assert((name) / 100 == (value) / 100, \
                   "these headers are not of the CUPTI release cupti_abi.h describes (" #value ")");
VPROF_CUPTI_RELEASE(CHECK_RELEASE)

#define CHECK_CONSTANT(name, value) _Static_assert((name) == (value), #name " is not " #value);
VPROF_CUPTI_CONSTANTS(CHECK_CONSTANT)

#define CHECK_VALUE(name, value) _Static_assert((name) == (value), #name " is not " #value);
#define CHECK_ENUM(type, promoted) \
    _Static_assert(sizeof(type) == sizeof(promoted) && \
                   __builtin_types_compatible_p(__typeof__(+(type)0), promoted), #type " is not a " #promoted); \
    VPROF_ENUM_##type(CHECK_VALUE)
VPROF_CUPTI_ENUM_TYPES(CHECK_ENUM)

#define CHECK_TYPEDEF(name, ...) \
    _Static_assert(__builtin_types_compatible_p(name, __typeof__(__VA_ARGS__)), \
                   "typedef " #name " is not " #__VA_ARGS__);
VPROF_CUPTI_TYPEDEFS(CHECK_TYPEDEF)

/* The lists' own names for types CUPTI declares anonymously inside another (a typedef that
 * names a type again as itself is allowed, so every entry gets one). */
#define ALIAS(name, real, kind, size, align, layout) typedef real name;
VPROF_CUPTI_STRUCTS(ALIAS)

#define CHECK_FIELD(T, off, type, name) \
    _Static_assert(offsetof(T, name) == (off), #T "." #name " is not at byte " #off); \
    _Static_assert(__builtin_types_compatible_p(__typeof__(((T *)0)->name), type), \
                   #T "." #name " is not of type " #type);
#define NO_PAD(bytes)
#define CHECK_STRUCT(name, real, kind, size, align, layout) \
    _Static_assert(sizeof(name) == (size), #name " is not " #size " bytes"); \
    _Static_assert(_Alignof(name) == (align), #name " is not aligned to " #align); \
    VPROF_FIELDS_##name(CHECK_FIELD, NO_PAD, name)
VPROF_CUPTI_STRUCTS(CHECK_STRUCT)

#define CHECK_FUNCTION(ret, name, params) \
    _Static_assert(__builtin_types_compatible_p(__typeof__(name), ret params), #name " is not " #ret " " #params);
VPROF_CUPTI_FUNCTIONS(CHECK_FUNCTION)

#define CHECK_ENTRY_POINT(ret, name, params, pointer) \
    _Static_assert(__builtin_types_compatible_p(ret(*) params, pointer), #name " is not a " #pointer);
VPROF_NVTX_ENTRY_POINTS(CHECK_ENTRY_POINT)

/* The callback-id lists hold every id the headers define, 1 to SIZE - 1 in order, then SIZE (whose
 * value CHECK_VALUE compared with the header's): the front end names every call from them. */
#define AS_VALUE(name, value) (value),
static const unsigned DRIVER_IDS[] = {VPROF_ENUM_CUpti_driver_api_trace_cbid(AS_VALUE)};
static const unsigned RUNTIME_IDS[] = {VPROF_ENUM_CUpti_runtime_api_trace_cbid(AS_VALUE)};

static int every_id(const char *domain, const unsigned *ids, size_t n, unsigned size)
{
    for (size_t i = 0; i < n; i++) {
        if (ids[i] != i + 1) {
            fprintf(stderr, "cupti-abi: FAILED: src/cupti_abi.h's %s callback ids skip or repeat one at entry %zu "
                            "(%u, expected %zu): list every id of the header, 1 to %u\n",
                    domain, i + 1, ids[i], i + 1, size - 1);
            return 0;
        }
    }
    if (n != size) {
        fprintf(stderr, "cupti-abi: FAILED: src/cupti_abi.h lists %zu %s callback ids and SIZE; the header has %u\n",
                n - 1, domain, size - 1);
        return 0;
    }
    return 1;
}

/* ---- what was checked, counted from the same lists ---- */
#define ONE(...) +1
#define FIELDS_OF(name, real, kind, size, align, layout) VPROF_FIELDS_##name(ONE, NO_PAD, name)
#define VALUES_OF(type, promoted) VPROF_ENUM_##type(ONE)

int main(void)
{
    if (!every_id("driver", DRIVER_IDS, sizeof DRIVER_IDS / sizeof DRIVER_IDS[0], CUPTI_DRIVER_TRACE_CBID_SIZE) ||
        !every_id("runtime", RUNTIME_IDS, sizeof RUNTIME_IDS / sizeof RUNTIME_IDS[0], CUPTI_RUNTIME_TRACE_CBID_SIZE)) {
        return 1;
    }
    printf("cupti-abi: CUPTI %d headers agree with src/cupti_abi.h: %d constants, %d enum types with "
           "%d values, %d typedefs, %d structs with %d fields (offset and type), %d prototypes, "
           "%d NVTX entry point; every driver and runtime callback id\n",
           (int)CUPTI_API_VERSION, 0 VPROF_CUPTI_CONSTANTS(ONE), 0 VPROF_CUPTI_ENUM_TYPES(ONE),
           0 VPROF_CUPTI_ENUM_TYPES(VALUES_OF), 0 VPROF_CUPTI_TYPEDEFS(ONE), 0 VPROF_CUPTI_STRUCTS(ONE),
           0 VPROF_CUPTI_STRUCTS(FIELDS_OF), 0 VPROF_CUPTI_FUNCTIONS(ONE), 0 VPROF_NVTX_ENTRY_POINTS(ONE));
    return 0;
}
