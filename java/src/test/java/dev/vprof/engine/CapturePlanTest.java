package dev.vprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import dev.vprof.region.ArmSpec;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A plan is a description: built, compared and printed without starting anything. */
class CapturePlanTest {
    private static final ArmSpec ARM = new ArmSpec(VprofRing.RANGE_NONE, 1, VprofRing.KINDS_DEFAULT, 0, 7,
            "", "");

    private static CapturePlan.Builder attach() {
        return CapturePlan.builder(CapturePlan.Mode.ATTACH).rootPid(42).arm(ARM).output(Path.of("c.vprof"));
    }

    @Test
    void theBuilderNamesEachPartAndLeavesTheRestAtTheirDefaults() {
        CapturePlan p = attach().duration(Duration.ofSeconds(3)).build();
        assertEquals(CapturePlan.Mode.ATTACH, p.mode());
        assertEquals(42, p.rootPid());
        assertEquals(ARM, p.arm());
        assertEquals(Path.of("c.vprof"), p.output());
        assertEquals(Duration.ofSeconds(3), p.duration());
        assertEquals(0, p.ringBytes());
        assertEquals(List.of(), p.commandLine());
        assertEquals(Map.of(), p.options());
        assertEquals(null, p.metrics());
        assertEquals(null, p.trigger());
        assertEquals(null, p.torchTraces());
        assertEquals(false, p.rangeScopeTree());
    }

    @Test
    void twoPlansOfTheSamePartsAreEqualAndPrintAlike() {
        CapturePlan a = attach().metrics(new CapturePlan.Scrape(URI.create("http://h:1/metrics"), Duration.ofMillis(200)))
                .commandLine(List.of("attach", "--pid", "42")).build();
        CapturePlan b = attach().metrics(new CapturePlan.Scrape(URI.create("http://h:1/metrics"), Duration.ofMillis(200)))
                .commandLine(List.of("attach", "--pid", "42")).build();
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(a.toString(), b.toString());
        assertTrue(a.toString().contains("rootPid=42") && a.toString().contains("http://h:1/metrics"), a.toString());
        assertNotEquals(a, attach().build());
        assertEquals(a, a.toBuilder().build());
        assertEquals(CapturePlan.Mode.FEEDS, a.toBuilder().mode(CapturePlan.Mode.FEEDS).build().mode());
    }

    @Test
    void theOptionsKeepTheirOrderAndLaterChangesToTheGivenMapDoNotReachThePlan() {
        Map<String, String> opts = new LinkedHashMap<>();
        opts.put("z", "1");
        opts.put("a", "2");
        CapturePlan p = attach().options(opts).build();
        opts.put("m", "3");
        assertEquals(List.of("z", "a"), List.copyOf(p.options().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> p.options().put("x", "y"));
    }

    @Test
    void buildRefusesPartsThatDoNotMakeAPlan() {
        assertThrows(IllegalArgumentException.class, () -> attach().output(null).build());
        assertThrows(IllegalArgumentException.class, () -> attach().rootPid(0).build());
        assertThrows(IllegalArgumentException.class, () -> attach().arm(null).build());
        assertThrows(IllegalArgumentException.class, () -> attach().ringBytes(-1).build());
        assertThrows(IllegalArgumentException.class, () -> attach().duration(Duration.ofSeconds(-1)).build());
        assertThrows(IllegalArgumentException.class,
                () -> attach().metrics(new CapturePlan.Scrape(URI.create("http://h:1/metrics"), Duration.ZERO)).build());
        assertThrows(NullPointerException.class, () -> CapturePlan.builder(null));
        // FEEDS has no agents: neither a tree nor what to arm is needed.
        CapturePlan feeds = CapturePlan.builder(CapturePlan.Mode.FEEDS).output(Path.of("f.vprof")).build();
        assertEquals(0, feeds.rootPid());
    }

    @Test
    void aRunCaptureIsGivenTheCommandItStartedBesideThePlan() throws Exception {
        CapturePlan run = CapturePlan.builder(CapturePlan.Mode.RUN).rootPid(42).arm(ARM).output(Path.of("r.vprof"))
                .build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Started.nothing().check(run));
        assertTrue(e.getMessage().contains("needs the command"), e.getMessage());
        Process sleep = new ProcessBuilder("sleep", "5").start();
        try {
            assertThrows(IllegalArgumentException.class, () -> Started.command(sleep, null).check(run),
                    "the plan's root pid is the command's");
            CapturePlan ours = run.toBuilder().rootPid((int) sleep.pid()).build();
            Started.command(sleep, null).check(ours);
        } finally {
            sleep.destroyForcibly();
        }
    }
}
