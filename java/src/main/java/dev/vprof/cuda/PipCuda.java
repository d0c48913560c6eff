package dev.vprof.cuda;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * NVIDIA's pip wheels of CUDA, as vLLM, SGLang and PyTorch install them: no toolkit under
 * {@code /usr/local/cuda}, the libraries inside the Python environment. The wheels for CUDA 12
 * carry one component each ({@code nvidia-cuda-cupti-cu12}:
 * {@code site-packages/nvidia/cuda_cupti/lib/libcupti.so.12}, next to
 * {@code nvidia/cuda_runtime/lib/libcudart.so.12}); the CUDA 13 wheels ({@code nvidia-cuda-cupti}
 * 13.x and its siblings) share one folder, {@code site-packages/nvidia/cu13/lib/}.
 */
public final class PipCuda {
    private PipCuda() {}

    /** One wheel layout of libcupti. */
    public enum Wheel {
        CU13("nvidia-cuda-cupti 13.x", 13, "nvidia/cu13/lib", "libcupti.so.13"),
        CU12("nvidia-cuda-cupti-cu12", 12, "nvidia/cuda_cupti/lib", "libcupti.so.12");

        /** The package name pip knows it by. */
        public final String packageName;
        /** The CUDA major version it belongs to. */
        public final int cudaMajor;
        /** Its library folder, relative to site-packages. */
        public final String libDir;
        /** The file the agent opens. */
        public final String fileName;

        Wheel(String packageName, int cudaMajor, String libDir, String fileName) {
            this.packageName = packageName;
            this.cudaMajor = cudaMajor;
            this.libDir = libDir;
            this.fileName = fileName;
        }

        /** Where this wheel puts libcupti under a site-packages folder. */
        public Path library(Path sitePackages) {
            return sitePackages.resolve(libDir).resolve(fileName);
        }

        /** "pip wheel nvidia-cuda-cupti-cu12, CUDA 12". */
        public String describe() {
            return "pip wheel " + packageName + ", CUDA " + cudaMajor;
        }
    }

    /** A libcupti file of a wheel, in one site-packages folder. */
    public record Installed(Wheel wheel, Path sitePackages, Path library) {}

    /** Every wheel layout present under a site-packages folder, newest CUDA first. */
    public static List<Installed> installedIn(Path sitePackages) {
        List<Installed> out = new ArrayList<>();
        for (Wheel w : Wheel.values()) {
            Path lib = w.library(sitePackages);
            if (Files.exists(lib)) {
                out.add(new Installed(w, sitePackages, lib));
            }
        }
        return out;
    }

    /** The wheel a library path belongs to, when it lies where a wheel puts libcupti. */
    public static Optional<Installed> wheelOf(Path library) {
        for (Wheel w : Wheel.values()) {
            Path dir = library.getParent();
            Path rel = Path.of(w.libDir);
            if (dir != null && dir.endsWith(rel) && library.getFileName().toString().startsWith("libcupti.so")) {
                Path site = dir;
                for (int i = 0; i < rel.getNameCount(); i++) {
                    site = site.getParent();
                }
                return Optional.of(new Installed(w, site, library));
            }
        }
        return Optional.empty();
    }

    /**
     * The site-packages folders of a Python interpreter, asked of the interpreter itself (it
     * knows its venv, its user site and its distribution's dist-packages); importing nothing but
     * the standard library, so a broken CUDA install cannot make the question fail. Empty when
     * the interpreter does not run within 15 s.
     */
    public static List<Path> sitePackagesOf(String python) throws InterruptedException {
        String code = "import site, sysconfig\n"
                + "p = sysconfig.get_paths()\n"
                + "dirs = [p['purelib'], p['platlib']] + list(getattr(site, 'getsitepackages', lambda: [])())\n"
                + "dirs.append(site.getusersitepackages())\n"
                + "print('\\n'.join(dirs))\n";
        try {
            Process p = new ProcessBuilder(python, "-c", code).redirectErrorStream(false)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readNBytes(64 * 1024);
            if (!p.waitFor(15, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return List.of();
            }
            if (p.exitValue() != 0) {
                return List.of();
            }
            Set<Path> dirs = new LinkedHashSet<>();
            for (String line : new String(out, StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    Path d = Path.of(line.strip());
                    if (Files.isDirectory(d)) {
                        dirs.add(d);
                    }
                }
            }
            return List.copyOf(dirs);
        } catch (IOException e) {
            return List.of(); // no such interpreter
        }
    }
}
