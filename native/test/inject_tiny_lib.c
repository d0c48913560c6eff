/* A do-nothing library: the busy target dlopens/dlcloses it in a loop, and the process-tree
 * test loads it under the name libcuda.so.1 to look like a CUDA worker. */
int inject_tiny_function(int x) { return x + 1; }
