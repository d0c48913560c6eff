package dev.vprof.cli;

import dev.vprof.inject.InjectionReadiness;
import dev.vprof.inject.Injector;
import dev.vprof.inject.InjectorExit;
import dev.vprof.nativelib.NativeAccessException;
import dev.vprof.nativelib.NativeFiles;
import dev.vprof.nativelib.Posix;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Check what vprof needs on this machine: JDK, native access, the agent library, "
                + "libcupti and its version, the NVIDIA driver, /dev/shm, ptrace scope, whether `attach --inject` "
                + "can work here (CAP_SYS_PTRACE, seccomp, vprof-inject). Each line says OK, WARN or FAIL, with what to do. Exit code 1 when something FAILs."},
        footer = {"", "Example:", "  vprof doctor"})
final class DoctorCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private enum Level { OK, WARN, FAIL }

    private record Check(Level level, String what, String detail) {}

    private final List<Check> checks = new ArrayList<>();

    @Override
    public Integer call() {
        checkJdk();
        boolean nativeOk = checkNativeAccess();
        checkAgent();
        if (nativeOk) {
            checkCupti();
            checkDriver();
        }
        checkShm();
        checkPtrace();
        checkInjection();
        PrintWriter out = spec.commandLine().getOut();
        boolean failed = false;
        for (Check c : checks) {
            out.printf("%-5s %-14s %s%n", c.level(), c.what(), c.detail());
            failed |= c.level() == Level.FAIL;
        }
        out.flush();
        return failed ? 1 : 0;
    }

    private void add(Level l, String what, String detail) {
        checks.add(new Check(l, what, detail));
    }

    private void checkJdk() {
        int v = Runtime.version().feature();
        add(v >= 22 ? Level.OK : Level.FAIL, "jdk", "Java " + Runtime.version() + " at "
                + System.getProperty("java.home") + (v >= 22 ? "" : "; vprof needs JDK 22 or newer (FFM API)"));
    }

    private boolean checkNativeAccess() {
        boolean enabled = DoctorCommand.class.getModule().isNativeAccessEnabled();
        try {
            Posix.getuid();
        } catch (NativeAccessException e) {
            add(Level.FAIL, "native access", e.getMessage());
            return false;
        }
        add(enabled ? Level.OK : Level.WARN, "native access", enabled ? "enabled"
                : "works but is not enabled explicitly; add --enable-native-access=ALL-UNNAMED to silence JDK warnings");
        return true;
    }

    private void checkAgent() {
        try {
            Path p = NativeFiles.require(NativeFiles.AGENT);
            add(Level.OK, "agent", p + " (" + Files.size(p) + " bytes)");
        } catch (IOException e) {
            add(Level.FAIL, "agent", e.getMessage());
        }
    }

    /** The agent's search order (DESIGN §2), minus what only exists inside a CUDA process. */
    static List<Path> cuptiCandidates() {
        List<Path> out = new ArrayList<>();
        String explicit = System.getenv("VPROF_CUPTI_LIB");
        if (explicit != null && !explicit.isBlank()) {
            out.add(Path.of(explicit));
        }
        List<Path> dirs = new ArrayList<>();
        String home = System.getenv("CUDA_HOME");
        for (String h : home != null && !home.isBlank() ? List.of(home, "/usr/local/cuda") : List.of("/usr/local/cuda")) {
            dirs.add(Path.of(h, "extras", "CUPTI", "lib64"));
            dirs.add(Path.of(h, "lib64"));
            dirs.add(Path.of(h, "lib"));
        }
        for (Path d : dirs) {
            for (String name : List.of("libcupti.so.13", "libcupti.so.12", "libcupti.so")) {
                Path p = d.resolve(name);
                if (Files.exists(p)) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    private void checkCupti() {
        List<Path> candidates = cuptiCandidates();
        List<String> tried = new ArrayList<>();
        for (Path p : candidates) {
            tried.add(p.toString());
            String version = cuptiVersion(p.toString(), true);
            if (version != null) {
                add(Level.OK, "libcupti", p + ", cuptiGetVersion = " + version);
                return;
            }
        }
        for (String name : List.of("libcupti.so.13", "libcupti.so.12", "libcupti.so")) {
            String version = cuptiVersion(name, false);
            if (version != null) {
                add(Level.OK, "libcupti", name + " (default library search), cuptiGetVersion = " + version);
                return;
            }
        }
        add(Level.WARN, "libcupti", "not found (looked at VPROF_CUPTI_LIB, $CUDA_HOME/{extras/CUPTI/lib64,lib64,lib}, "
                + "/usr/local/cuda, the default search" + (tried.isEmpty() ? "" : "; could not load " + tried)
                + "); inside a CUDA process the agent also finds pip's nvidia/cuda_cupti; otherwise set VPROF_CUPTI_LIB");
    }

    /** Loads libcupti and asks its version; null when it cannot be loaded. */
    private static String cuptiVersion(String lib, boolean isPath) {
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup l = isPath ? SymbolLookup.libraryLookup(Path.of(lib), arena) : SymbolLookup.libraryLookup(lib, arena);
            MethodHandle getVersion = Linker.nativeLinker().downcallHandle(l.findOrThrow("cuptiGetVersion"),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
            MemorySegment v = arena.allocate(ValueLayout.JAVA_INT);
            int rc = (int) getVersion.invokeExact(v);
            return rc == 0 ? Integer.toUnsignedString(v.get(ValueLayout.JAVA_INT, 0)) : "(error " + rc + ")";
        } catch (Throwable t) {
            return null;
        }
    }

    private void checkDriver() {
        boolean lib;
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup.libraryLookup("libcuda.so.1", arena);
            lib = true;
        } catch (IllegalArgumentException e) {
            lib = false;
        }
        List<String> devices = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("/dev"), "nvidia*")) {
            ds.forEach(p -> devices.add(p.getFileName().toString()));
        } catch (IOException ignored) {
            // no /dev listing: reported as no devices
        }
        if (lib && !devices.isEmpty()) {
            add(Level.OK, "driver", "libcuda.so.1 loads; devices " + devices);
        } else {
            add(Level.WARN, "driver", (lib ? "libcuda.so.1 loads" : "libcuda.so.1 not found")
                    + (devices.isEmpty() ? ", no /dev/nvidia* devices" : ", devices " + devices)
                    + ": real captures need an NVIDIA GPU and driver; `vprof simulate` works without one");
        }
    }

    private void checkShm() {
        Path shm = Path.of(System.getProperty("vprof.shm.dir", "/dev/shm"));
        try {
            Path t = Files.createTempFile(shm, "vprof-doctor-", ".tmp");
            Files.delete(t);
            add(Level.OK, "shared memory", shm + " is writable");
        } catch (IOException | UnsupportedOperationException e) {
            add(Level.FAIL, "shared memory", shm + " is not writable (" + e.getMessage()
                    + "); agents cannot create their regions; in a container mount a tmpfs at /dev/shm");
        }
    }

    private void checkPtrace() {
        Path p = Path.of("/proc/sys/kernel/yama/ptrace_scope");
        String v;
        try {
            v = Files.readString(p).strip();
        } catch (IOException e) {
            add(Level.OK, "ptrace scope", "no Yama LSM: no ptrace restriction");
            return;
        }
        switch (v) {
            case "0" -> add(Level.OK, "ptrace scope", "0 (classic)");
            case "1" -> add(Level.OK, "ptrace scope", "1 (restricted to descendants): fine for launch/attach through "
                    + "the agent; loading the agent into an unprepared process would need sudo or ptrace_scope 0");
            default -> add(Level.WARN, "ptrace scope", v + ": ptrace is admin-only or off; attach through the agent works, "
                    + "late injection will not without CAP_SYS_PTRACE (see the injection line)");
        }
    }

    /** Whether `vprof attach --inject` can load the agent into running processes here, and if not why. */
    private void checkInjection() {
        String scope;
        try {
            scope = Files.readString(Path.of("/proc/sys/kernel/yama/ptrace_scope"));
        } catch (IOException e) {
            scope = null; // no Yama LSM
        }
        String status;
        try {
            status = Files.readString(Path.of("/proc/self/status"));
        } catch (IOException e) {
            status = "";
        }
        Path injector = null;
        try {
            injector = NativeFiles.require(NativeFiles.INJECT);
        } catch (IOException e) {
            // reported as a blocker below
        }
        InjectionReadiness.Verdict v = InjectionReadiness.assess(scope, status, injector != null);
        List<String> blockers = new ArrayList<>(v.blockers());
        boolean possible = v.possible();
        if (injector != null && possible) {
            // The injector's own probe: ptrace on a child of its own tells a seccomp/LSM ban apart.
            try {
                Injector.Result r = new Injector(injector).check((int) ProcessHandle.current().pid());
                if (r.exit() == InjectorExit.SECCOMP) {
                    possible = false;
                    blockers.clear();
                    blockers.add(r.exit().explain((int) ProcessHandle.current().pid(), "", r.detail()));
                } else if (r.exitCode() == 0) {
                    blockers.removeIf(b -> b.contains("seccomp filter")); // the probe shows ptrace works
                }
            } catch (IOException e) {
                blockers.add("cannot run " + injector + ": " + e.getMessage());
            }
        }
        String detail = "attach --inject is " + (possible ? v.summary() : v.summary().replaceFirst("^possible", "not possible"))
                + (blockers.isEmpty() ? "" : ": " + String.join("; ", blockers))
                + (possible ? "" : "; attach through an agent started with `vprof launch` still works");
        add(possible && blockers.isEmpty() ? Level.OK : Level.WARN, "injection", detail);
    }
}
