package dev.vprof.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PyTorch judge on recorded outputs of torch_selftest.py and vprof's reports. */
class TorchCheckTest {
    private static final String REFERENCE = "{\"ampere_sgemm_64x64_nn\":20,\"silu_kernel\":20,\"layer_norm_kernel\":20}";

    private static JsonNode json(String s) throws Exception {
        return SelfCli.parse(s);
    }

    private static JsonNode range(long kernels, String warnings) throws Exception {
        return json("""
                {"index":1,"kernels":%d,"top_kernels":[{"name":"ampere_sgemm_64x64_nn","count":20},
                 {"name":"silu_kernel","count":20},{"name":"layer_norm_kernel","count":%d}],
                 "fidelity":{"warnings":%s}}""".formatted(kernels, kernels - 40, warnings));
    }

    private static Row row(List<Row> rows, String prefix) {
        return rows.stream().filter(r -> r.check().startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError(prefix + " not in " + rows));
    }

    @Test
    void equalCountsInTwoProcessesMatchNameByName() throws Exception {
        List<Row> rows = TorchCheck.compare("pytorch", json(REFERENCE), 60,
                Map.of("ampere_sgemm_64x64_nn", 20L, "silu_kernel", 20L, "layer_norm_kernel", 20L));
        assertTrue(rows.stream().allMatch(r -> r.verdict() == CheckOutcome.OK), rows.toString());
        List<Row> off = TorchCheck.compare("pytorch", json(REFERENCE), 59,
                Map.of("ampere_sgemm_64x64_nn", 20L, "silu_kernel", 19L, "layer_norm_kernel", 20L));
        assertEquals(CheckOutcome.MISMATCH, row(off, "pytorch: names").verdict());
        assertTrue(row(off, "pytorch: names").actual().contains("silu_kernel: torch 20, vprof 19"));
    }

    @Test
    void torchProfilerInsideTheRangeIsExactOrSaidLoudly() throws Exception {
        JsonNode result = json("{\"mode\":\"same-process\",\"torch_before\":" + REFERENCE + ",\"torch_during\":{}}");
        List<Row> exact = TorchCheck.sameProcess(json(REFERENCE), 0, result, range(60, "[]"), range(60, "[]"));
        assertTrue(exact.stream().noneMatch(Row::failed), exact.toString());
        List<Row> loud = TorchCheck.sameProcess(json(REFERENCE), 0, result, range(60, "[]"),
                range(40, "[\"records_missing\",\"drain_timeout\"]"));
        assertEquals(CheckOutcome.OK, row(loud, "pytorch same process r2").verdict());
        assertTrue(row(loud, "pytorch same process r2").actual().contains("said loudly"));
        assertEquals("60 / 0 (alone: 60)", row(loud, "pytorch same process: torch.profiler's own").actual());
    }

    @Test
    void fewerKernelsInsideTheRangeWithoutAWarningIsASilentLoss() throws Exception {
        List<Row> rows = TorchCheck.sameProcess(json(REFERENCE), 0, null, range(60, "[]"), range(40, "[]"));
        Row r2 = row(rows, "pytorch same process r2");
        assertEquals(CheckOutcome.MISMATCH, r2.verdict());
        assertTrue(r2.actual().contains("silent loss"));
    }

    @Test
    void theRangeAfterATorchProfilerRunMustBeExact() throws Exception {
        // R1: if vprof did not take its buffer callbacks back, this range's records went to Kineto.
        List<Row> rows = TorchCheck.sameProcess(json(REFERENCE), 0, null,
                range(0, "[\"no_records\",\"buffers_taken_by_another_client\"]"), range(60, "[]"));
        assertEquals(CheckOutcome.MISMATCH, row(rows, "pytorch same process r1 (torch.profiler ran before it): kernels").verdict());
        assertEquals(CheckOutcome.MISMATCH, row(rows, "pytorch same process r1: warnings").verdict());
    }

    @Test
    void aProgramThatDiesWithBothIsAMismatch() throws Exception {
        List<Row> rows = TorchCheck.sameProcess(json(REFERENCE), 1, null, null, null);
        assertEquals(CheckOutcome.MISMATCH, row(rows, "pytorch same process: the program runs on").verdict());
        assertEquals(3, rows.stream().filter(Row::failed).count());
    }
}
