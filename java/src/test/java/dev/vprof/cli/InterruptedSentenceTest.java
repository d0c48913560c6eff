package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vprof.output.OutputFile;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one sentence a signal prints: it never says "nothing was left" of an output already in place. */
class InterruptedSentenceTest {
    private static final Path OUT = Path.of("o.sqlite");

    @Test
    void nothingBegunSaysNothingWasLeft() {
        assertEquals("vprof: export stopped by SIGINT; it had written nothing, and nothing was left behind",
                Interrupted.sentence("export", "SIGINT", new OutputFile.Abandoned(List.of(), List.of(), List.of())));
    }

    @Test
    void anOutputCutShortIsNamed() {
        assertEquals("vprof: export stopped by SIGTERM before o.sqlite was complete: nothing was left under that name",
                Interrupted.sentence("export", "SIGTERM", new OutputFile.Abandoned(List.of(OUT), List.of(), List.of())));
    }

    @Test
    void anOutputAlreadyInPlaceIsSaidToBeWhole() {
        assertEquals("vprof: export stopped by SIGINT after o.sqlite was complete: it is whole, and nothing else was left behind",
                Interrupted.sentence("export", "SIGINT", new OutputFile.Abandoned(List.of(), List.of(), List.of(OUT))));
        assertEquals("vprof: export stopped by SIGINT before b.json was complete: nothing was left under that name"
                        + " (o.sqlite was already complete, and is whole)",
                Interrupted.sentence("export", "SIGINT",
                        new OutputFile.Abandoned(List.of(Path.of("b.json")), List.of(), List.of(OUT))));
    }
}
