/**
 * Readable names for the symbols a capture records. CUDA kernels arrive from CUPTI as Itanium
 * C++ ABI manglings ({@code _ZN4vllm15rms_norm_kernel...}); {@link dev.vprof.names.Demangler}
 * turns them into the text binutils' {@code c++filt} prints, entirely in Java and within fixed
 * bounds, because capture files may be damaged or hostile and native demanglers are neither
 * bounded nor safe to feed such input. Anything it cannot render exactly as {@code c++filt}
 * would comes back unchanged.
 *
 * <p>{@link dev.vprof.names.DemangleParser} and {@link dev.vprof.names.DemanglePrinter} are the
 * two files of the project allowed past 700 lines: each is one grammar, the Itanium C++ ABI's
 * mangling (parsed, then printed as c++filt prints it), kept whole so that it reads production
 * by production against the specification; split, a rule and the rules it recurses into would
 * sit in different files.
 */
package dev.vprof.names;
