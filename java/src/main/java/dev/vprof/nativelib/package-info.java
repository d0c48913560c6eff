/**
 * What the front end itself needs of the machine: the few libc calls as FFM downcalls in one
 * class ({@link dev.vprof.nativelib.Posix}, with a clear message when native access is not
 * enabled), other libraries loaded only to probe them ({@link dev.vprof.nativelib.SharedLibraries}:
 * does it load, what does an {@code int f(int *out)} answer), and the native files the jar ships for each architecture, extracted to a per-user
 * cache ({@link dev.vprof.nativelib.NativeFiles}: the agent, the CUPTI test double, the
 * simulator, the injector).
 */
package dev.vprof.nativelib;
