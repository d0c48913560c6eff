package dev.vprof.cuda;

import dev.vprof.nativelib.SharedLibraries;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What this machine's CUDA answers when asked, for {@code vprof doctor}: the version a libcupti
 * reports, and whether the driver's library loads and its device files exist. The loading itself
 * is {@link SharedLibraries}'.
 */
public final class CudaProbe {
    private CudaProbe() {}

    /**
     * The driver as seen from here.
     *
     * @param libcudaLoads whether {@code libcuda.so.1} loads
     * @param devices      the names of the {@code /dev/nvidia*} files
     */
    public record Driver(boolean libcudaLoads, List<String> devices) {}

    /**
     * Loads the candidate's libcupti and asks {@code cuptiGetVersion}: the version as an unsigned
     * number, {@code (error N)} when the call fails, null when the library cannot be loaded.
     */
    public static String cuptiVersion(CuptiSearch.Candidate c) {
        SharedLibraries.IntOut r = SharedLibraries.callIntOut(c.library(), c.isPath(), "cuptiGetVersion");
        if (r == null) {
            return null;
        }
        return r.status() == 0 ? Integer.toUnsignedString(r.value()) : "(error " + r.status() + ")";
    }

    /** Whether libcuda.so.1 loads, and the {@code /dev/nvidia*} devices. */
    public static Driver driver() {
        boolean lib = SharedLibraries.loads("libcuda.so.1");
        List<String> devices = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("/dev"), "nvidia*")) {
            ds.forEach(p -> devices.add(p.getFileName().toString()));
        } catch (IOException ignored) {
            // no /dev listing: reported as no devices
        }
        return new Driver(lib, List.copyOf(devices));
    }
}
