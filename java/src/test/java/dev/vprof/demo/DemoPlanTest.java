package dev.vprof.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The demo's plan as {@code vprof demo}'s options make it, and what a plan refuses. */
class DemoPlanTest {
    private static final Path DIR = Path.of("vprof-demo");

    @Test
    void theDefaultStoryIsASteadyPhaseThenABurstThenTheTorchPath() {
        DemoPlan p = DemoPlan.of(DIR, 40, 6, 60, 48, true);
        assertEquals(List.of(new DemoPlan.Phase(DemoPlan.Phase.Kind.STEADY, 40, 6, 1),
                new DemoPlan.Phase(DemoPlan.Phase.Kind.BURST, 60, Double.POSITIVE_INFINITY, 2)), p.phases());
        assertEquals(100, p.requests());
        assertEquals(DemoPlan.TorchPath.DEFAULT, p.torchPath());
        assertEquals(0, p.otlpPort(), "an ephemeral receiver port");
        assertEquals(DIR, p.dir());
    }

    @Test
    void aPhaseOfNoRequestsIsLeftOut() {
        assertEquals(List.of(DemoPlan.Phase.burst(5)), DemoPlan.of(DIR, 0, 6, 5, 16, false).phases());
        assertEquals(List.of(DemoPlan.Phase.steady(5, 2.5)), DemoPlan.of(DIR, 5, 2.5, 0, 16, false).phases());
        assertNull(DemoPlan.of(DIR, 5, 2.5, 0, 16, false).torchPath());
    }

    @Test
    void aPlanRefusesWhatCannotRun() {
        assertThrows(IllegalArgumentException.class, () -> DemoPlan.of(DIR, 0, 6, 0, 16, true));
        assertThrows(IllegalArgumentException.class, () -> DemoPlan.of(DIR, 4, 6, 4, 0, true));
        assertThrows(IllegalArgumentException.class, () -> DemoPlan.Phase.steady(4, 0));
        assertThrows(IllegalArgumentException.class, () -> DemoPlan.Phase.steady(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new DemoPlan(DIR, List.of(DemoPlan.Phase.burst(1)), 16,
                null, 70000));
        assertThrows(IllegalArgumentException.class, () -> new DemoPlan.TorchPath(12, 8, 16, Duration.ZERO,
                Duration.ofSeconds(60)));
    }

    @Test
    void theTorchPathsDurationsAreWrittenAsTheCaptureCommandTakesThem() {
        assertEquals("4s", DemoTorchPath.duration(Duration.ofSeconds(4)));
        assertEquals("60s", DemoTorchPath.duration(Duration.ofSeconds(60)));
        assertEquals("1500ms", DemoTorchPath.duration(Duration.ofMillis(1500)));
    }
}
