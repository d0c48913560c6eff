package dev.vprof.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The simulated server's GPU workers: one {@code vprof-simgpu --serve} process per
 * tensor-parallel rank, driven line by line over stdin/stdout, as vLLM's engine
 * drives its workers. Each worker initializes "CUDA" through the CUPTI test double,
 * so the agent named by CUDA_INJECTION64_PATH rides in it like in a real worker.
 */
final class GpuWorkers implements AutoCloseable {
    private final List<Worker> workers = new ArrayList<>();

    GpuWorkers(Path simgpu, int count, Map<String, String> env, Path logDir) throws IOException {
        for (int rank = 0; rank < count; rank++) {
            ProcessBuilder pb = new ProcessBuilder(simgpu.toString(), "--serve");
            pb.environment().putAll(env);
            // What vLLM's multiprocessing executor gives each tensor-parallel worker: its rank,
            // and a GPU of its own (the simulator uses the device its LOCAL_RANK names).
            pb.environment().put("RANK", Integer.toString(rank));
            pb.environment().put("LOCAL_RANK", Integer.toString(rank));
            pb.environment().put("WORLD_SIZE", Integer.toString(count));
            pb.environment().put("VPROF_SIM_DEVICE_COUNT", Integer.toString(count));
            pb.redirectError(logDir.resolve(DemoDir.workerLog(rank)).toFile());
            Process p = pb.start();
            workers.add(new Worker(p,
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)),
                    p.getOutputStream()));
        }
    }

    List<Long> pids() {
        return workers.stream().map(w -> w.process.pid()).toList();
    }

    /** One forward step on every rank; returns when all ranks answered. */
    synchronized void step(int prefillTokens, int decodeSeqs) throws IOException {
        send("step " + prefillTokens + " " + decodeSeqs);
    }

    /** What vLLM's workers do on POST /start_profile with the cuda profiler: cudaProfilerStart. */
    synchronized void profilerStart() throws IOException { send("start"); }

    synchronized void profilerStop() throws IOException { send("stop"); }

    private void send(String command) throws IOException {
        for (Worker w : workers) {
            w.in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            w.in.flush();
        }
        for (Worker w : workers) {
            String reply = w.out.readLine();
            if (reply == null) {
                throw new IOException("GPU worker pid " + w.process.pid() + " exited (see its log)");
            }
            if (!reply.equals("ok")) {
                throw new IOException("GPU worker pid " + w.process.pid() + " answered '" + reply + "' to " + command);
            }
        }
    }

    @Override
    public synchronized void close() {
        for (Worker w : workers) {
            try {
                w.in.write("exit\n".getBytes(StandardCharsets.UTF_8));
                w.in.flush();
                w.in.close();
            } catch (IOException ignored) {
                // already gone; waited for below
            }
        }
        for (Worker w : workers) {
            try {
                if (!w.process.waitFor(10, TimeUnit.SECONDS)) {
                    w.process.destroy();
                    w.process.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                w.process.destroyForcibly();
            }
        }
    }

    private record Worker(Process process, BufferedReader out, OutputStream in) {}
}
