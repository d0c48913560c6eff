package dev.vprof.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The first stage of a parse: lines, the scanning within one, errors named by their line. */
class ExpositionCursorTest {
    private static List<String> lines(String text) {
        ExpositionCursor c = new ExpositionCursor(text);
        List<String> out = new ArrayList<>();
        while (c.hasLine()) {
            c.nextLine();
            out.add(c.lineNo + ":" + c.line());
        }
        return out;
    }

    @Test
    void linesEndAtNewlineOrCrlfAndTheLastNeedsNoNewline() {
        assertEquals(List.of("1:a 1", "2:b 2"), lines("a 1\nb 2\n"));
        assertEquals(List.of("1:a 1", "2:", "3:b 2"), lines("a 1\r\n\r\nb 2"));
        assertEquals(List.of("1:a\r1"), lines("a\r1"), "a carriage return inside a line is kept");
        assertEquals(List.of("1:"), lines("\n"));
        assertEquals(List.of(), lines(""));
    }

    @Test
    void eachLineStartsAtItsFirstCharacter() {
        ExpositionCursor c = new ExpositionCursor("first\n  second\n");
        c.nextLine();
        c.skipToken();
        c.nextLine();
        assertEquals(6, c.pos, "the position moved to the new line's start");
        assertEquals(6, c.lineStart);
        assertEquals(14, c.end);
        c.skipBlanks();
        assertEquals("second", c.token());
        assertTrue(c.atEnd());
        assertFalse(c.hasLine());
    }

    @Test
    void blanksAreSpacesAndTabsOnly() {
        ExpositionCursor c = new ExpositionCursor(" \t x\u00a0y");
        c.nextLine();
        assertTrue(c.atBlank());
        c.skipBlanks();
        assertEquals(3, c.pos);
        assertEquals('x', c.peek());
        assertEquals("x\u00a0y", c.token(), "a no-break space is not a blank");
        assertFalse(c.atBlank());
        assertFalse(c.at('y'), "at() past the end of the line is false");
    }

    @Test
    void aLineOfBlanksIsBlankWhateverThePosition() {
        ExpositionCursor c = new ExpositionCursor(" \t \r\nx\n");
        c.nextLine();
        c.skipBlanks();
        assertTrue(c.lineIsBlank());
        c.nextLine();
        assertFalse(c.lineIsBlank());
    }

    @Test
    void metricNamesAreScannedToTheirLastNameCharacter() {
        ExpositionCursor c = new ExpositionCursor("vllm:num_requests_running{a=\"1\"} 2");
        c.nextLine();
        assertEquals("vllm:num_requests_running", c.scanMetricName());
        assertTrue(c.at('{'));
        ExpositionCursor digit = new ExpositionCursor("1abc 2");
        digit.nextLine();
        assertNull(digit.scanMetricName(), "a name does not start with a digit");
        assertEquals(0, digit.pos, "and the position stays where it was");
        assertTrue(ExpositionCursor.isNameChar(':'));
        assertFalse(ExpositionCursor.isLabelNameStart(':'), "label names have no colon");
        assertTrue(ExpositionCursor.isLabelNameChar('9'));
        assertFalse(ExpositionCursor.isLabelNameStart('9'));
    }

    @Test
    void errorsNameTheirLineAndQuoteItWithoutItsLineEnd() {
        ExpositionCursor c = new ExpositionCursor("ok 1\r\nbad line\r\n");
        c.nextLine();
        c.nextLine();
        c.skipToken();
        c.error("no value");
        c.errorAt(7, "found later");
        assertEquals(List.of(new ParseError(2, "no value", "bad line"), new ParseError(7, "found later", "")), c.errors);
        assertEquals("bad", c.since(c.lineStart));
    }
}
