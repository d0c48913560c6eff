package dev.vprof.cli;

import dev.vprof.demo.DemoScenario;
import dev.vprof.demo.SimulatedVllmServer;
import dev.vprof.engine.StopSignals;
import dev.vprof.loadgen.LoadGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * {@code vprof demo --serve}: the demo's simulated vLLM server, left running for the person to
 * profile as they would a real one (README, "Profiling a real server"): its GPU workers carry a
 * dormant agent, it answers /metrics, /v1/completions, /start_profile and /stop_profile, exports
 * its llm_request spans over OTLP/HTTP, and, unless --load 0, serves a steady background load of
 * its own so a capture has requests and kernels in it. Up until Ctrl-C or SIGTERM, which stop the
 * load, end the workers and exit 0. The server is the demo's own ({@link DemoScenario#serverConfig});
 * this class adds only what serving it to a person needs: the address, the signals, the load.
 */
final class DemoServe {
    /** Options of {@code vprof demo} that mean something only with {@code --serve}. */
    record Options(String host, int port, URI otlp, double load, int maxTokens, Path dir, Path torchProfilerDir) {}

    private DemoServe() {}

    static int run(Options o, PrintWriter out, PrintWriter err) throws InterruptedException {
        SimulatedVllmServer.Config config;
        try {
            // The demo's own server: its GPU workers' agents dormant, waiting for an attach.
            config = DemoScenario.serverConfig(o.otlp(), o.dir());
            Files.createDirectories(o.dir());
        } catch (IOException e) {
            throw new CliException(e.getMessage(), e);
        }
        InetSocketAddress bind = new InetSocketAddress(o.host(), o.port());
        if (bind.isUnresolved()) {
            throw new CliException("cannot resolve --host " + o.host() + "; give an address such as 127.0.0.1");
        }
        config = config.withBind(bind);
        if (o.torchProfilerDir() != null) {
            config = config.withTorchProfilerDir(o.torchProfilerDir());
        }
        SimulatedVllmServer server;
        try {
            server = SimulatedVllmServer.start(config);
        } catch (BindException e) {
            throw new CliException("cannot listen on " + o.host() + ":" + o.port() + ": " + e.getMessage()
                    + " (is another server there?); choose another port with --port, or --port 0 for a free one", e);
        } catch (IOException e) {
            throw new CliException("cannot start the simulated server: " + e.getMessage(), e);
        }

        CountDownLatch stop = new CountDownLatch(1);
        AtomicReference<String> why = new AtomicReference<>();
        AtomicBoolean closed = new AtomicBoolean();
        Runnable close = () -> {
            if (closed.compareAndSet(false, true)) {
                server.close();
            }
        };
        // Without the signal handlers (-Xrs), the JVM's own shutdown still ends the workers.
        Thread hook = new Thread(close, "vprof-demo-serve-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        StopSignals signals = StopSignals.install(name -> {
            why.compareAndSet(null, name);
            stop.countDown();
        });
        Thread load = o.load() > 0 ? Thread.ofPlatform().daemon().name("demo-serve-load")
                .start(() -> backgroundLoad(server, o.load(), o.maxTokens(), err)) : null;
        try {
            URI base = server.baseUri();
            List<Long> pids = server.workerPids();
            long self = ProcessHandle.current().pid();
            String workers = pids.stream().map(String::valueOf).collect(Collectors.joining(" "));
            out.println("vprof demo --serve: a simulated vLLM server (" + server.model() + ") at " + base);
            out.println("  server pid: " + self + " (vprof attach --pid " + self + " captures every worker)");
            out.println("  worker pids: " + workers + " (each a simulated GPU worker with a dormant vprof agent)");
            out.println("  endpoints: " + base + "/metrics /v1/completions /start_profile /stop_profile");
            out.println("  spans: " + (o.otlp() == null ? "none" : "OTLP/HTTP to " + o.otlp()
                    + " (vprof attach --otlp receives them there)"));
            out.println("  load: " + (load == null ? "none (--load 0)"
                    : num(o.load()) + " requests/s of its own"));
            out.println("Ctrl-C or SIGTERM stops it.");
            out.flush();
            stop.await();
            err.println("vprof demo --serve: " + (why.get() == null ? "stopping" : why.get() + ": stopping")
                    + "; ending the workers " + workers);
            err.flush();
            if (load != null) {
                load.interrupt();
            }
            close.run();
            if (load != null) {
                load.join(5_000);
            }
            for (long p : pids) {
                if (ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false)) {
                    err.println("vprof: warning: demo --serve: worker pid " + p + " is still running");
                }
            }
            err.println("vprof demo --serve: stopped");
            err.flush();
            return 0;
        } finally {
            if (signals != null) {
                signals.restore();
            }
            close.run();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is what is closing the server
            }
        }
    }

    /** Requests at {@code rate} per second, in rounds of about 5 s, until interrupted. */
    private static void backgroundLoad(SimulatedVllmServer server, double rate, int maxTokens, PrintWriter err) {
        LoadGenerator gen = new LoadGenerator();
        int perRound = (int) Math.max(1, Math.round(rate * 5));
        for (long seed = 1; !Thread.currentThread().isInterrupted(); seed++) {
            try {
                gen.run(new LoadGenerator.Plan(server.baseUri(), server.model(), perRound, rate, 200, 1200, maxTokens,
                        false, seed), r -> { });
            } catch (InterruptedException e) {
                return;
            } catch (IOException e) {
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                err.println("vprof: warning: demo --serve: background load: " + e.getMessage());
                err.flush();
                try {
                    Thread.sleep(1_000);
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    /** {@code --otlp}: a full URL, or HOST:PORT for OTLP/HTTP's /v1/traces there. */
    static URI otlpUrl(String value) {
        String v = value.contains("://") ? value : "http://" + value;
        URI u;
        try {
            u = URI.create(v);
        } catch (IllegalArgumentException e) {
            throw new CliException("--otlp " + value + " is not a URL; give one such as http://127.0.0.1:4318/v1/traces");
        }
        if ((!"http".equals(u.getScheme()) && !"https".equals(u.getScheme())) || u.getHost() == null) {
            throw new CliException("--otlp " + value + " is not an http URL; the simulated server exports OTLP/HTTP "
                    + "JSON, e.g. http://127.0.0.1:4318/v1/traces");
        }
        if (u.getRawPath() == null || u.getRawPath().isEmpty() || u.getRawPath().equals("/")) {
            u = u.resolve("/v1/traces");
        }
        return u;
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
