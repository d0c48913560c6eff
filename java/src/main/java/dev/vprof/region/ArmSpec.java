package dev.vprof.region;

import dev.vprof.bindings.VprofRing;

/**
 * What a capture asks of an agent: the arguments of an ARM command, and the same thing as the
 * {@code VPROF_ARM} environment value with which {@code vprof run} makes agents arm themselves
 * at initialization (so no kernel is missed before the front end finds the region).
 *
 * @param rangeMode   VPROF_RANGE_NONE, _PROFILER or _NVTX
 * @param repeat      ranges to record, 0 = unlimited
 * @param kinds       VPROF_KIND_* mask
 * @param bufferSize  CUPTI buffer bytes, 0 = the agent's default
 * @param captureId   the front end's id for this capture, echoed in RANGE records
 * @param rangeName   NVTX range name (nvtx mode), else empty
 * @param rangeDomain NVTX domain, empty = any
 */
public record ArmSpec(int rangeMode, int repeat, int kinds, int bufferSize, int captureId,
                      String rangeName, String rangeDomain) {

    public ArmSpec {
        rangeName = rangeName == null ? "" : rangeName;
        rangeDomain = rangeDomain == null ? "" : rangeDomain;
    }

    /**
     * {@code mode=<none|profiler|nvtx>,repeat=<n>,kinds=<mask>,buffer=<bytes>,frontend=<pid>,
     * capture=<id>[,name=NAME][,domain=DOM]}; the agent parses this at initialization.
     */
    public String toEnv(long frontendPid) {
        StringBuilder sb = new StringBuilder();
        sb.append("mode=").append(modeName())
          .append(",repeat=").append(Integer.toUnsignedString(repeat))
          .append(",kinds=").append(Integer.toUnsignedString(kinds))
          .append(",buffer=").append(Integer.toUnsignedString(bufferSize))
          .append(",frontend=").append(frontendPid)
          .append(",capture=").append(Integer.toUnsignedString(captureId));
        if (!rangeName.isEmpty()) {
            sb.append(",name=").append(rangeName);
        }
        if (!rangeDomain.isEmpty()) {
            sb.append(",domain=").append(rangeDomain);
        }
        return sb.toString();
    }

    public String modeName() {
        if (rangeMode == VprofRing.RANGE_PROFILER) return "profiler";
        if (rangeMode == VprofRing.RANGE_NVTX) return "nvtx";
        return "none";
    }
}
