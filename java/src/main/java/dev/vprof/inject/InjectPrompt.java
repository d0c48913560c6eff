package dev.vprof.inject;

import java.io.Console;

/** Asks the person at the terminal whether to inject into a process. */
@FunctionalInterface
public interface InjectPrompt {
    /** True for yes. */
    boolean confirm(String question);

    /** The terminal's prompt (default answer: no), or null when vprof does not run on a terminal. */
    // null still comes back where there is no console at all; isTerminal() covers the JDK 22+ one that is no terminal.
    @SuppressWarnings("SystemConsoleNull")
    static InjectPrompt terminal() {
        Console c = System.console();
        if (c == null || !c.isTerminal()) {
            return null;
        }
        return question -> {
            String answer = c.readLine("%s", question);
            return answer != null && (answer.strip().equalsIgnoreCase("y") || answer.strip().equalsIgnoreCase("yes"));
        };
    }
}
