/**
 * Readable names for the symbols a capture records. CUDA kernels arrive from CUPTI as Itanium
 * C++ ABI manglings ({@code _ZN4vllm15rms_norm_kernel...}); {@link dev.vprof.names.Demangler}
 * turns them into the text binutils' {@code c++filt} prints, entirely in Java and within fixed
 * bounds, because capture files may be damaged or hostile and native demanglers are neither
 * bounded nor safe to feed such input. Anything it cannot render exactly as {@code c++filt}
 * would comes back unchanged.
 */
package dev.vprof.names;
