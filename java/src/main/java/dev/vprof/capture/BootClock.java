package dev.vprof.capture;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Where a capture's host had booted, on its wall clock: CLOCK_REALTIME − CLOCK_BOOTTIME. Every
 * time vprof puts on a timeline is epoch ns (CLOCK_REALTIME); this is what turns one into the
 * host's CLOCK_BOOTTIME, the clock Perfetto joins traces of one machine on. It comes from the
 * agents' CLOCK_SYNC pairs (the lowest pid that has one), else from the front end's own pair at
 * the start ({@link CaptureMetadata#bootOffsetNs()}); a source with neither (a PyTorch trace, a
 * capture from before boot times were read) has none, and nothing may claim one for it.
 *
 * @param realtimeMinusBoottimeNs the boot instant in epoch ns
 * @param source where it was read: {@link #AGENT} or {@link #FRONT_END}
 */
public record BootClock(long realtimeMinusBoottimeNs, String source) {
    public static final String AGENT = "the agent's clock pairs";
    public static final String FRONT_END = "the front end's clock pair";

    /** CLOCK_BOOTTIME at epoch time {@code epochNs}. */
    public long toBoottimeNs(long epochNs) {
        return epochNs - realtimeMinusBoottimeNs;
    }

    /** The capture's boot clock from its fitted clocks and metadata; empty where it recorded none. */
    public static Optional<BootClock> of(Map<Integer, ClockMapping> clocks, Optional<CaptureMetadata> metadata) {
        for (ClockMapping c : new TreeMap<>(clocks).values()) {
            OptionalLong b = c.bootOffsetNs();
            if (b.isPresent()) {
                return Optional.of(new BootClock(b.getAsLong(), AGENT));
            }
        }
        OptionalLong b = metadata.map(CaptureMetadata::bootOffsetNs).orElse(OptionalLong.empty());
        return b.isPresent() ? Optional.of(new BootClock(b.getAsLong(), FRONT_END)) : Optional.empty();
    }

    /** {@link #of(Map, Optional)} of an open capture (its clock pass runs if it has not yet). */
    public static Optional<BootClock> of(CaptureReader reader) {
        return of(reader.clocks(), reader.metadata());
    }
}
