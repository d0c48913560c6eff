/**
 * {@code vprof attach --inject}: the agent loaded into CUDA processes that were started without
 * it. {@link dev.vprof.inject.LateInjection} finds them and injects each: a CPython 3.14+ target
 * through PEP 768 ({@code RemoteExec}), any other through the bundled ptrace injector
 * ({@link dev.vprof.inject.Injector}, {@code native/src/inject}), after checking that the kernel
 * allows it ({@link dev.vprof.inject.InjectionReadiness}, with Yama's setting read and worded in one
 * place: {@link dev.vprof.inject.PtraceScope}). Every way it can fail is one sentence
 * ({@link dev.vprof.inject.InjectorExit}), and a refused process is left unchanged.
 */
package dev.vprof.inject;
