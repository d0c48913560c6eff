package dev.vprof.mcp;

/**
 * What a tool could not do, as the one sentence the assistant reads (a tool error, {@code isError}),
 * never a stack trace; the server goes on serving the next call.
 */
final class ToolFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ToolFailure(String sentence) {
        super(sentence, null, false, false);
    }
}
