package dev.vprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Which files of a torch_profiler_dir are this capture's, and each way there are none, named. */
@Timeout(60)
class TorchTraceFolderTest {
    @TempDir
    Path dir;

    private final StringWriter log = new StringWriter();

    /** A folder watch on {@code dir} whose snapshot of what was there before the capture is taken now. */
    private TorchTraceFolder snapshotted(Duration timeout) {
        TorchTraceFolder f = new TorchTraceFolder(dir, timeout, Duration.ofMillis(300));
        f.snapshot(now());
        return f;
    }

    /** Waits on {@code f}, which must end in a CaptureException whose message holds every one of {@code parts}. */
    private void assertWaitFails(TorchTraceFolder f, String... parts) {
        CaptureException e = assertThrows(CaptureException.class, () -> f.await(new PrintWriter(log, true)));
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), e.getMessage());
        }
    }

    private static long now() {
        Instant n = Instant.now();
        return n.getEpochSecond() * 1_000_000_000L + n.getNano();
    }

    @Test
    void onlyTheTracesWrittenDuringTheCaptureAreTaken() throws Exception {
        Path before = Files.writeString(dir.resolve("a.1.pt.trace.json"), "{}");
        Path copied = dir.resolve("b.2.pt.trace.json");
        TorchTraceFolder f = snapshotted(Duration.ofSeconds(10));
        Files.writeString(copied, "{}");
        Files.setLastModifiedTime(copied, FileTime.from(Instant.now().minusSeconds(600))); // a copy keeping its time
        Path fresh = Files.writeString(dir.resolve("rank0.3.pt.trace.json"), "{\"traceEvents\":[]}\n");
        Path gz = Files.write(dir.resolve("rank1.3.pt.trace.json.gz"), new byte[] {0x1f, (byte) 0x8b, 8, 0});
        Files.writeString(dir.resolve("notes.txt"), "not a trace");
        Files.writeString(dir.resolve(".rank2.tmp.json"), "{}"); // hidden: a writer's temporary file
        List<Path> got = f.await(new PrintWriter(log, true));
        assertEquals(List.of(fresh, gz), got);
        assertTrue(Files.exists(before));
    }

    @Test
    void aTraceThatWasThereAndChangedDuringTheCaptureIsTaken() throws Exception {
        Path p = Files.writeString(dir.resolve("w.pt.trace.json"), "{}");
        Files.setLastModifiedTime(p, FileTime.from(Instant.now().minusSeconds(60)));
        TorchTraceFolder f = snapshotted(Duration.ofSeconds(10));
        Files.writeString(p, "{\"traceEvents\":[]}");
        assertEquals(List.of(p), f.await(new PrintWriter(log, true)));
    }

    @Test
    void filesOfAnotherRunOnlyAreNamedAsSuch() throws Exception {
        Files.writeString(dir.resolve("old.pt.trace.json"), "{}");
        TorchTraceFolder f = snapshotted(Duration.ofMillis(600));
        assertWaitFails(f, "holds only 1 trace file from another run");
    }

    @Test
    void aFolderThatStaysEmptyOrNeverAppearsIsNamedAsSuch() {
        TorchTraceFolder f = new TorchTraceFolder(dir.resolve("missing"), Duration.ofMillis(500), Duration.ofMillis(100));
        f.snapshot(now());
        assertWaitFails(f, "stayed empty for 500ms", "torch_profiler_dir");
    }

    @Test
    void aTraceStillBeingWrittenWhenTheWaitRunsOutIsNamedWithItsSize() throws Exception {
        TorchTraceFolder f = snapshotted(Duration.ofSeconds(2));
        Path p = dir.resolve("rank0.9.pt.trace.json");
        Files.writeString(p, "{\"traceEvents\":[" + "{},".repeat(1000)); // never closed
        assertWaitFails(f, "vLLM was still writing rank0.9.pt.trace.json", "--torch-traces-timeout");
    }

    @Test
    void theWaitLastsUntilTheFilesStopChanging() throws Exception {
        TorchTraceFolder f = snapshotted(Duration.ofSeconds(20));
        Path p = dir.resolve("rank0.pt.trace.json");
        CompletableFuture<List<Path>> waiting = CompletableFuture.supplyAsync(() -> f.await(new PrintWriter(log, true)));
        Files.writeString(p, "{\"traceEvents\":[");
        for (int i = 0; i < 5; i++) {
            Thread.sleep(150);
            Files.writeString(p, "{\"ph\":\"X\"},", StandardOpenOption.APPEND);
        }
        assertTrue(!waiting.isDone(), "still writing: not done");
        Files.writeString(p, "{}]}", StandardOpenOption.APPEND);
        assertEquals(List.of(p), waiting.get(10, TimeUnit.SECONDS));
        assertTrue(log.toString().contains("waiting up to 20s"), log.toString());
    }
}
