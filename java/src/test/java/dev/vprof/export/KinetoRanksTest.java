package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.timeline.ListTimeline;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.util.List;
import org.junit.jupiter.api.Test;

class KinetoRanksTest {

    /** A process that ran one kernel on {@code device}, or none when {@code device} is negative. */
    private static TimelineProcess process(ListTimeline t, int pid, int device) {
        TimelineProcess p = t.process(pid);
        if (device >= 0) {
            t.kernel(p.device(device).stream(7), t.intern("k"), 1, 2, 0, 1, 1, 1, 1, 1, 1, 0, 0);
        }
        return p;
    }

    private static KinetoRanks.Rank rank(int rank, int world, KinetoRanks.Source source) {
        return new KinetoRanks.Rank(rank, world, source);
    }

    /** {@code pids}, in order, hold the ranks from {@code first} on of a world of {@code world}, all from {@code source}. */
    private static void assertRanks(KinetoRanks r, int world, KinetoRanks.Source source, int first, int... pids) {
        for (int i = 0; i < pids.length; i++) {
            assertEquals(rank(first + i, world, source), r.of(pids[i]), "pid " + pids[i]);
        }
    }

    @Test
    void eachProcessKeepsTheRankAndWorldSizeOfItsEnvironment() {
        ListTimeline t = new ListTimeline();
        process(t, 300, 0).distributed(1, 1, 2);
        process(t, 200, 1).distributed(0, 0, 2);
        KinetoRanks r = KinetoRanks.assign(t.processes());
        assertRanks(r, 2, KinetoRanks.Source.RANK, 0, 200, 300);
        assertTrue(r.notes().isEmpty(), r.notes().toString());
    }

    @Test
    void processesWithoutARankAreNumberedByTheirLowestBusyDeviceThenPid() {
        ListTimeline t = new ListTimeline();
        process(t, 10, 3);
        process(t, 11, -1); // no GPU work: last
        process(t, 12, 0);
        process(t, 9, 3);
        t.process(12).device(7); // a DEVICE record only: not where the process ran
        KinetoRanks r = KinetoRanks.assign(t.processes());
        assertRanks(r, 4, KinetoRanks.Source.ORDER, 0, 12, 9, 10, 11);
    }

    @Test
    void localRankServesWhenRankIsMissing() {
        ListTimeline t = new ListTimeline();
        process(t, 50, 0).distributed(null, 1, null);
        process(t, 51, 1).distributed(null, 0, null);
        KinetoRanks r = KinetoRanks.assign(t.processes());
        assertRanks(r, 2, KinetoRanks.Source.LOCAL_RANK, 0, 51, 50);
    }

    @Test
    void aProcessOutsideTheJobGetsARankAboveItsWorldSizeNotAHoleInIt() {
        ListTimeline t = new ListTimeline();
        process(t, 70, 0).distributed(2, 2, 4); // ranks 2 and 3 of a 4-rank job were captured on this host
        process(t, 71, 1).distributed(3, 3, 4);
        process(t, 5, -1); // the API server: no RANK
        KinetoRanks r = KinetoRanks.assign(t.processes());
        assertRanks(r, 5, KinetoRanks.Source.RANK, 2, 70, 71);
        assertEquals(rank(4, 5, KinetoRanks.Source.ORDER), r.of(5));
    }

    @Test
    void twoProcessesClaimingOneRankBothKeepAFileAndTheLaterOneIsNoted() {
        ListTimeline t = new ListTimeline();
        process(t, 40, 0).distributed(0, 0, 1);
        process(t, 41, 1).distributed(0, 0, 1); // a second single-GPU server, also RANK=0
        KinetoRanks r = KinetoRanks.assign(t.processes());
        assertEquals(rank(0, 2, KinetoRanks.Source.RANK), r.of(40));
        assertEquals(rank(1, 2, KinetoRanks.Source.ORDER), r.of(41));
        assertEquals(1, r.notes().size());
        assertTrue(r.notes().getFirst().contains("pid 41 has RANK=0 like pid 40"), r.notes().getFirst());
    }

    @Test
    void aWorldSizeNoLargerThanTheRankIsNotBelieved() {
        ListTimeline t = new ListTimeline();
        process(t, 80, 0).distributed(5, 0, 2);
        assertEquals(rank(5, 6, KinetoRanks.Source.RANK), KinetoRanks.assign(t.processes()).of(80));
    }

    @Test
    void everyRankIsDistinctWhateverTheMix() {
        ListTimeline t = new ListTimeline();
        process(t, 1, 0).distributed(1, 1, 3);
        process(t, 2, 1).distributed(null, 1, null); // LOCAL_RANK 1 is taken by pid 1's RANK
        process(t, 3, 2);
        process(t, 4, -1).distributed(0, 0, 3);
        List<TimelineProcess> ps = t.processes();
        KinetoRanks r = KinetoRanks.assign(ps);
        assertEquals(ps.size(), r.ranks().size(), "one rank per process");
    }
}
