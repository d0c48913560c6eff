package dev.vprof.cli;

/** The outputs the output-safety tests write, one name for each kind in both of them. */
final class OutputKinds {
    private OutputKinds() {
    }

    /**
     * The file name ending of the output of {@code kind}: import, an export format (perfetto,
     * chrome, kineto, sqlite), merge, or else an HTML page (report's or diff's).
     */
    static String extension(String kind) {
        return switch (kind) {
            case "import" -> ".vprof";
            case "perfetto" -> ".pftrace";
            case "chrome", "kineto" -> ".json";
            case "sqlite" -> ".sqlite";
            case "merge" -> ".tar";
            default -> ".html";
        };
    }
}
