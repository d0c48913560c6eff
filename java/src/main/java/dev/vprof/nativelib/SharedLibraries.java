package dev.vprof.nativelib;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * Shared libraries other than libc, loaded only to probe them ({@code vprof doctor}): whether one
 * loads, and one call of an {@code int f(int *out)} function such as {@code cuptiGetVersion}. Each
 * probe loads the library in an arena of its own and lets it go when done.
 */
public final class SharedLibraries {
    private SharedLibraries() {}

    /** What {@code int f(int *out)} returned, and what it wrote to {@code out}. */
    public record IntOut(int status, int value) {}

    /** Whether the dynamic loader loads {@code soname} from its usual search (LD_LIBRARY_PATH, ld.so.cache). */
    public static boolean loads(String soname) {
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup.libraryLookup(soname, arena);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Loads {@code library} (a file when {@code isPath}, else a name for the loader's search) and
     * calls its {@code symbol} as {@code int symbol(int *out)}.
     *
     * @return null when the library does not load, lacks the symbol, or the call fails
     */
    public static IntOut callIntOut(String library, boolean isPath, String symbol) {
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup l = isPath ? SymbolLookup.libraryLookup(Path.of(library), arena)
                    : SymbolLookup.libraryLookup(library, arena);
            MethodHandle f = Linker.nativeLinker().downcallHandle(l.findOrThrow(symbol),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
            MemorySegment out = arena.allocate(ValueLayout.JAVA_INT);
            int rc = (int) f.invokeExact(out);
            return new IntOut(rc, out.get(ValueLayout.JAVA_INT, 0));
        } catch (Throwable t) {
            return null;
        }
    }
}
