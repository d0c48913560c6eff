package dev.vprof.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.cuda.CudaProbe;
import dev.vprof.cuda.CuptiSearch;
import dev.vprof.discovery.ProcFs;
import dev.vprof.inject.InjectionReadiness;
import dev.vprof.inject.PtraceScope;
import dev.vprof.nativelib.NativeAccessException;
import dev.vprof.nativelib.NativeFiles;
import dev.vprof.nativelib.Posix;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Check what vprof needs on this machine: JDK, native access, the agent library, "
                + "libcupti and its version, the NVIDIA driver, /dev/shm, ptrace scope, whether `attach --inject` "
                + "can work here (CAP_SYS_PTRACE, seccomp, vprof-inject). Each line says OK, WARN or FAIL, with what to do. Exit code 5 when something FAILs."},
        footer = {"", "libcupti is looked for where the agent will look: VPROF_CUPTI_LIB, a CUDA toolkit ($CUDA_HOME, "
                + "/usr/local/cuda), and pip's CUDA wheels (site-packages/nvidia/cuda_cupti/lib for CUDA 12, "
                + "site-packages/nvidia/cu13/lib for CUDA 13) of the Python that runs the server.",
                "", "Examples:", "  vprof doctor", "  vprof doctor --python ~/venvs/vllm/bin/python",
                "  vprof doctor --pid 4242                    # what this running server loaded"})
final class DoctorCommand extends VprofCommand {
    DoctorCommand() {
        super(ExitCode.OK, ExitCode.NOT_EXPECTED);
    }

    @Option(names = "--pid", paramLabel = "PID",
            description = "Check for this running process: the libcupti it loaded or will load (from its own mapped libraries)")
    long pid;

    @Option(names = "--python", paramLabel = "PYTHON", defaultValue = "python3",
            description = "The Python that runs your server, whose pip-installed CUDA (nvidia-cuda-cupti wheels) is searched. Default: ${DEFAULT-VALUE} on PATH")
    String python;

    @Option(names = "--json", description = "Print the checks as one JSON object on stdout: ok, the number of "
            + "FAIL and WARN checks, and each check's level, name and detail (the exit code is the same).")
    boolean json;

    private enum Level { OK, WARN, FAIL }

    private record Check(Level level, String what, String detail) {}

    private final List<Check> checks = new ArrayList<>();

    @Override
    public Integer call() {
        if (pid < 0) {
            throw new CliException("--pid " + pid + " is not a process id: give the pid of your server (ps, or vprof list)");
        }
        if (pid > 0) {
            String cmd = ProcFs.system().commandLine((int) pid);
            add(cmd == null || cmd.isEmpty() ? Level.FAIL : Level.OK, "process", "pid " + pid
                    + (cmd == null || cmd.isEmpty() ? ": no such process (or not readable); give the pid of your server"
                            : ": " + cmd));
        }
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
        boolean failed = checks.stream().anyMatch(c -> c.level() == Level.FAIL);
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("ok", !failed);
            m.put("fail", checks.stream().filter(c -> c.level() == Level.FAIL).count());
            m.put("warn", checks.stream().filter(c -> c.level() == Level.WARN).count());
            List<Map<String, Object>> list = new ArrayList<>();
            for (Check c : checks) {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("level", c.level().name());
                o.put("check", c.what());
                o.put("detail", c.detail());
                list.add(o);
            }
            m.put("checks", list);
            try {
                out.println(new ObjectMapper().writeValueAsString(m));
            } catch (JsonProcessingException e) {
                throw new CliException("cannot write the checks as JSON: " + e.getMessage(), e);
            }
        } else {
            for (Check c : checks) {
                out.printf("%-5s %-14s %s%n", c.level(), c.what(), c.detail());
            }
        }
        out.flush();
        return failed ? ExitCode.NOT_EXPECTED.code() : ExitCode.OK.code();
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

    /**
     * Which libcupti the agent would load, and from where: a CUDA toolkit or the pip wheel of the
     * Python that runs the server (its own mapped libraries with --pid, else --python's
     * site-packages). The first candidate that loads and answers cuptiGetVersion is the answer.
     */
    private void checkCupti() {
        String explicit = pid > 0 ? null : System.getenv("VPROF_CUPTI_LIB");
        if (explicit != null && !explicit.isBlank() && !Files.exists(Path.of(explicit))) {
            add(Level.FAIL, "libcupti", "VPROF_CUPTI_LIB=" + explicit + " does not exist; the agent uses only that file "
                    + "when the variable is set: fix the path or unset it");
            return;
        }
        List<CuptiSearch.Candidate> candidates;
        try {
            candidates = CuptiSearch.candidates(System.getenv(), pid, pid > 0 ? null : python);
        } catch (IOException e) {
            add(Level.FAIL, "libcupti", e.getMessage());
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        List<String> failed = new ArrayList<>();
        for (int i = 0; i < candidates.size(); i++) {
            CuptiSearch.Candidate c = candidates.get(i);
            String version = CudaProbe.cuptiVersion(c);
            if (version == null && c.source().startsWith("already loaded by process")) {
                // What the process has mapped is the answer, even where this JVM cannot load it.
                add(Level.OK, "libcupti", c.library() + " (" + c.source() + ")");
                return;
            }
            if (version == null) {
                if (c.isPath()) {
                    failed.add(c.library());
                }
                continue;
            }
            List<String> others = new ArrayList<>();
            for (CuptiSearch.Candidate o : candidates.subList(i + 1, candidates.size())) {
                if (o.isPath()) {
                    others.add(o.library() + " (" + o.source() + ")");
                }
            }
            add(Level.OK, "libcupti", c.library() + " (" + c.source() + "), cuptiGetVersion = " + version
                    + (failed.isEmpty() ? "" : "; could not load " + failed)
                    + (others.isEmpty() ? "" : "; also found: " + String.join(", ", others)));
            return;
        }
        add(Level.WARN, "libcupti", "not found (looked at VPROF_CUPTI_LIB"
                + (pid > 0 ? ", the libraries of process " + pid + " (it has no libcupti mapped yet: this is what it"
                        + " would load)" : "")
                + ", $CUDA_HOME and /usr/local/cuda {extras/CUPTI/lib64,lib64,lib}"
                + (pid > 0 ? "" : ", the pip wheels nvidia-cuda-cupti-cu12 and nvidia-cuda-cupti 13.x in the site-packages of "
                        + python)
                + ", the default library search" + (failed.isEmpty() ? "" : "; could not load " + failed)
                + "); give the server's process with --pid or its Python with --python, or set VPROF_CUPTI_LIB");
    }

    private void checkDriver() {
        CudaProbe.Driver d = CudaProbe.driver();
        List<String> devices = d.devices();
        if (d.libcudaLoads() && !devices.isEmpty()) {
            add(Level.OK, "driver", "libcuda.so.1 loads; devices " + devices);
        } else {
            add(Level.WARN, "driver", (d.libcudaLoads() ? "libcuda.so.1 loads" : "libcuda.so.1 not found")
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
        PtraceScope scope = PtraceScope.read();
        if (scope.classic()) {
            add(Level.OK, "ptrace scope", scope.describe());
        } else if (scope.value().equals("1")) {
            add(Level.OK, "ptrace scope", scope.describe() + ": fine for launch/attach through the agent; loading the "
                    + "agent into an unprepared process would need sudo or ptrace_scope 0");
        } else {
            add(Level.WARN, "ptrace scope", scope.describe() + ": attach through the agent works, late injection will not"
                    + (scope.liftedByCapability() ? " without CAP_SYS_PTRACE" : "") + " (see the injection line)");
        }
    }

    /** Whether `vprof attach --inject` can load the agent into running processes here, and if not why. */
    private void checkInjection() {
        Path injector = null;
        try {
            injector = NativeFiles.require(NativeFiles.INJECT);
        } catch (IOException e) {
            // reported as a blocker by the probe
        }
        InjectionReadiness.Assessment v = InjectionReadiness.probe(injector);
        String detail = "attach --inject is " + v.summary()
                + (v.blockers().isEmpty() ? "" : ": " + String.join("; ", v.blockers()))
                + (v.possible() ? "" : "; attach through an agent started with `vprof launch` still works");
        add(v.possible() && v.blockers().isEmpty() ? Level.OK : Level.WARN, "injection", detail);
    }
}
