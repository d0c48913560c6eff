package dev.vprof.cli;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The commands' one ObjectMapper, made on first use: picocli builds every command at start, and
 * a mapper in a command's static field cost each vprof invocation (an export, a report) about
 * 0.1-0.2 s of CPU before it did anything, JSON or not.
 */
final class Json {
    private Json() {}

    static final ObjectMapper MAPPER = new ObjectMapper();
}
