package dev.vprof.aggregate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.trace.TraceOracle;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An independent count of a PyTorch trace's steps and of the kernels launched inside each, for
 * tests, from the trace's JSON alone: a step is a {@code ProfilerStep#N} user annotation (one that
 * starts before the previous step ended is not a new one); a kernel belongs to the step whose
 * interval holds the start of the runtime or driver call with its correlation id (HTA's rule), and
 * a kernel without such a call to the last step that started at or before the kernel itself.
 * Kernels that belong to no step are counted as outside.
 */
public final class StepOracle {
    private StepOracle() {}

    /** One step: its name as the trace writes it, its interval in µs and the kernels launched in it. */
    public record Step(String name, BigDecimal startUs, BigDecimal endUs, long kernels, long gpuNs) {}

    /** The steps in order of start, and the kernels (and their summed ns) that belong to none. */
    public record Steps(List<Step> steps, long outsideKernels, long outsideGpuNs) {
        public long kernels() {
            return outsideKernels + steps.stream().mapToLong(Step::kernels).sum();
        }
    }

    public static Steps of(Path trace) throws IOException {
        JsonNode events = TraceOracle.tree(trace).get("traceEvents");
        List<JsonNode> annotations = new ArrayList<>();
        Map<Long, BigDecimal> launchAt = new HashMap<>();
        for (JsonNode e : events) {
            if (!"X".equals(e.path("ph").asText())) {
                continue;
            }
            String cat = e.path("cat").asText();
            if (cat.equals("user_annotation") && e.path("name").asText().matches("ProfilerStep#\\d+")) {
                annotations.add(e);
            } else if ((cat.equals("cuda_runtime") || cat.equals("cuda_driver")) && e.path("args").has("correlation")) {
                launchAt.put(e.path("args").path("correlation").asLong(), e.get("ts").decimalValue());
            }
        }
        annotations.sort(Comparator.comparing((JsonNode e) -> e.get("ts").decimalValue()));
        List<JsonNode> chosen = new ArrayList<>();
        BigDecimal lastEnd = null;
        for (JsonNode a : annotations) {
            BigDecimal start = a.get("ts").decimalValue();
            if (lastEnd != null && start.compareTo(lastEnd) < 0) {
                continue;
            }
            chosen.add(a);
            lastEnd = start.add(a.get("dur").decimalValue());
        }
        long[] kernels = new long[chosen.size()];
        long[] ns = new long[chosen.size()];
        long outside = 0, outsideNs = 0;
        for (JsonNode e : events) {
            String cat = e.path("cat").asText();
            if (!"X".equals(e.path("ph").asText()) || !(cat.equals("kernel") || cat.equals("Kernel"))) {
                continue;
            }
            BigDecimal launch = launchAt.get(e.path("args").path("correlation").asLong(Long.MIN_VALUE));
            int at = -1;
            if (launch != null) {
                for (int i = 0; i < chosen.size(); i++) {
                    BigDecimal s = chosen.get(i).get("ts").decimalValue();
                    if (s.compareTo(launch) <= 0 && launch.compareTo(s.add(chosen.get(i).get("dur").decimalValue())) <= 0) {
                        at = i;
                    }
                }
            } else {
                BigDecimal t = e.get("ts").decimalValue();
                for (int i = 0; i < chosen.size(); i++) {
                    if (chosen.get(i).get("ts").decimalValue().compareTo(t) <= 0) {
                        at = i;
                    }
                }
            }
            long d = TraceOracle.ns(e.get("dur"));
            if (at < 0) {
                outside++;
                outsideNs += d;
            } else {
                kernels[at]++;
                ns[at] += d;
            }
        }
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < chosen.size(); i++) {
            JsonNode a = chosen.get(i);
            BigDecimal s = a.get("ts").decimalValue();
            steps.add(new Step(a.get("name").asText(), s, s.add(a.get("dur").decimalValue()), kernels[i], ns[i]));
        }
        return new Steps(steps, outside, outsideNs);
    }
}
