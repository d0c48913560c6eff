package dev.vprof.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The OpenMetrics project's own parser cases (tests/testdata/parsers, kept unchanged under
 * src/test/resources/openmetrics-parsers with their licence): every valid case parses without an
 * error, at least 90 % of the invalid ones are flagged, and none makes the parser throw.
 */
class OpenMetricsParserCasesTest {
    private static final Path CASES = Path.of("src/test/resources/openmetrics-parsers");

    record Outcome(String name, boolean shouldParse, List<ParseError> errors, Throwable crash) {}

    static List<Outcome> runAll() throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<Outcome> all = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(CASES)) {
            for (Path d : dirs.filter(Files::isDirectory).sorted().toList()) {
                JsonNode t = json.readTree(d.resolve("test.json").toFile());
                byte[] body = Files.readAllBytes(d.resolve(t.path("file").asText("metrics")));
                boolean should = t.get("shouldParse").asBoolean();
                try {
                    Exposition e = new ExpositionParser().parse(body, ExpositionFormat.OPENMETRICS);
                    all.add(new Outcome(d.getFileName().toString(), should, e.errors(), null));
                } catch (RuntimeException | StackOverflowError x) {
                    all.add(new Outcome(d.getFileName().toString(), should, List.of(), x));
                }
            }
        }
        return all;
    }

    @Test
    void theProjectsOwnCasesParseAsTheyShould() throws IOException {
        List<Outcome> all = runAll();
        assertEquals(211, all.size(), "every case of the suite is here");
        List<String> crashed = all.stream().filter(o -> o.crash() != null).map(o -> o.name() + ": " + o.crash()).toList();
        List<String> validRejected = all.stream().filter(o -> o.shouldParse() && o.crash() == null && !o.errors().isEmpty())
                .map(o -> o.name() + ": " + o.errors().getFirst()).toList();
        List<Outcome> invalid = all.stream().filter(o -> !o.shouldParse()).toList();
        List<String> invalidAccepted = invalid.stream().filter(o -> o.crash() == null && o.errors().isEmpty())
                .map(Outcome::name).toList();
        long valid = (long) all.size() - invalid.size();
        long flagged = (long) invalid.size() - invalidAccepted.size();
        System.out.printf("OpenMetrics parser cases: %d valid, %d parse clean; %d invalid, %d flagged (%.1f %%); %d crashed%n",
                valid, valid - validRejected.size(), invalid.size(), flagged, 100.0 * flagged / invalid.size(), crashed.size());
        System.out.println("invalid cases accepted: " + invalidAccepted);
        assertEquals(List.of(), crashed, "no case makes the parser throw");
        assertEquals(List.of(), validRejected, "every valid case parses without an error");
        assertTrue(flagged * 10 >= invalid.size() * 9L, "at least 90 % of the invalid cases are flagged: " + flagged
                + " of " + invalid.size() + "; accepted: " + invalidAccepted);
    }
}
