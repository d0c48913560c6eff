package dev.vprof.selftest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Finds the tools the GPU self-test needs: nvcc, a Python with PyTorch, c++filt. */
final class Toolchain {
    private Toolchain() {}

    /** nvcc from $CUDA_HOME/bin, $PATH or /usr/local/cuda/bin; null when there is none. */
    static Path nvcc() {
        String home = System.getenv("CUDA_HOME");
        if (home != null && Files.isExecutable(Path.of(home, "bin", "nvcc"))) return Path.of(home, "bin", "nvcc");
        Path onPath = onPath("nvcc");
        if (onPath != null) return onPath;
        Path usual = Path.of("/usr/local/cuda/bin/nvcc");
        return Files.isExecutable(usual) ? usual : null;
    }

    static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) return null;
        for (String dir : path.split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }

    /** python3 (or python) if it imports torch and sees a CUDA device; else null. */
    static String pythonWithTorch(Path work) throws InterruptedException {
        for (String py : List.of("python3", "python")) {
            if (onPath(py) == null) continue;
            try {
                SelfCli.Result r = SelfCli.run(List.of(py, "-c", "import torch,sys; sys.exit(0 if torch.cuda.is_available() else 1)"),
                        Map.of(), 120, work);
                if (r.exitCode() == 0) return py;
            } catch (IOException ignored) {
                // try the next name
            }
        }
        return null;
    }

    /** CUPTI reports mangled names and torch.profiler demangled ones: c++filt when present. */
    static String demangle(String name) {
        if (!name.startsWith("_Z") || onPath("c++filt") == null) return name;
        try {
            Process p = new ProcessBuilder("c++filt", name).start();
            String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor() == 0 && !s.isEmpty() ? s : name;
        } catch (IOException e) {
            return name;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return name;
        }
    }
}
