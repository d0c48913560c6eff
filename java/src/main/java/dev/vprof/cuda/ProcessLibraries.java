package dev.vprof.cuda;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a running process has mapped, from {@code /proc/PID/maps}: the libcupti it already loaded
 * (PyTorch links one), its libcudart, and the site-packages folders its Python modules come
 * from. This is the target's own view, which beats asking a {@code python3} on PATH that may
 * belong to another environment.
 */
public record ProcessLibraries(Path cupti, Path cudart, List<Path> sitePackages) {
    /** Larger maps are cut here: a real server maps a few thousand files. */
    private static final int MAX_MAPS_BYTES = 16 << 20;

    /** Reads {@code /proc/PID/maps}; an IOException names the pid when it cannot be read. */
    public static ProcessLibraries of(long pid) throws IOException {
        Path maps = Path.of("/proc", Long.toString(pid), "maps");
        byte[] bytes;
        try (var in = Files.newInputStream(maps)) {
            bytes = in.readNBytes(MAX_MAPS_BYTES);
        } catch (IOException e) {
            throw new IOException("cannot read " + maps + " (" + e.getMessage()
                    + "): is process " + pid + " running, and yours (or run as root)?", e);
        }
        return parse(new String(bytes, StandardCharsets.UTF_8));
    }

    /** Parses the text of a maps file. */
    public static ProcessLibraries parse(String maps) {
        Path cupti = null;
        Path cudart = null;
        Set<Path> sites = new LinkedHashSet<>();
        for (String line : maps.split("\n")) {
            int slash = line.indexOf(" /");
            if (slash < 0) {
                continue;
            }
            String file = line.substring(slash + 1).strip();
            if (file.endsWith(" (deleted)")) {
                continue;
            }
            Path p = Path.of(file);
            String name = p.getFileName().toString();
            // libvprof-cuptisim.so is the CUPTI test double (what vprof simulate maps as its CUPTI)
            if (cupti == null && (name.startsWith("libcupti.so") || name.startsWith("libvprof-cuptisim.so"))) {
                cupti = p;
            } else if (cudart == null && name.startsWith("libcudart.so")) {
                cudart = p;
            }
            Path site = sitePackagesAbove(p);
            if (site != null) {
                sites.add(site);
            }
        }
        return new ProcessLibraries(cupti, cudart, List.copyOf(sites));
    }

    /** The nearest ancestor named site-packages or dist-packages (Debian's), or null. */
    private static Path sitePackagesAbove(Path p) {
        for (Path d = p.getParent(); d != null && d.getFileName() != null; d = d.getParent()) {
            String n = d.getFileName().toString();
            if (n.equals("site-packages") || n.equals("dist-packages")) {
                return d;
            }
        }
        return null;
    }

    /**
     * The libcupti files the agent would try next to this process's libcudart: the same folder
     * (CUDA 13 wheels, toolkits) and the sibling CUDA 12 wheel's {@code nvidia/cuda_cupti/lib}.
     */
    public List<Path> cuptiNextToCudart() {
        List<Path> out = new ArrayList<>();
        if (cudart == null || cudart.getParent() == null) {
            return out;
        }
        Path dir = cudart.getParent();
        for (String name : List.of("libcupti.so.13", "libcupti.so.12", "libcupti.so")) {
            out.add(dir.resolve(name));
        }
        out.add(dir.resolve("../../cuda_cupti/lib/libcupti.so.12").normalize());
        return out;
    }
}
