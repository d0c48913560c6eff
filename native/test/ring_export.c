/* Beside ring.c in libvprof-ring.so: the size of the struct a caller allocates for
 * vprof_ring_init, so the Java test through FFM never restates ring.h's layout. */
#include "ring.h"

size_t vprof_ring_struct_size(void)
{
    return sizeof(struct vprof_ring);
}
