package dev.vprof.trace;

/**
 * The copy kind and memory kinds of a Kineto memcpy, from its name ({@code "Memcpy HtoD (Pinned ->
 * Device)"}): Kineto writes CUPTI's kinds as words, vprof's MEMCPY record holds CUPTI's numbers
 * (CUpti_ActivityMemcpyKind, CUpti_ActivityMemoryKind).
 */
final class CopyKinds {
    private CopyKinds() {}

    static int copyKind(String name) {
        int at = name.indexOf("Memcpy ");
        if (at < 0) {
            return 0;
        }
        int from = at + 7;
        int to = name.indexOf(' ', from);
        String word = to < 0 ? name.substring(from) : name.substring(from, to);
        return switch (word) {
            case "HtoD" -> 1;
            case "DtoH" -> 2;
            case "HtoA" -> 3;
            case "AtoH" -> 4;
            case "AtoA" -> 5;
            case "AtoD" -> 6;
            case "DtoA" -> 7;
            case "DtoD" -> 8;
            case "HtoH" -> 9;
            case "PtoP" -> 10;
            default -> 0;
        };
    }

    /** The source ({@code source}) or destination memory kind named in the parentheses, 0 when none. */
    static int memoryKind(String name, boolean source) {
        int open = name.indexOf('(');
        int arrow = name.indexOf("->", open + 1);
        int close = name.indexOf(')', arrow + 1);
        if (open < 0 || arrow < 0 || close < 0) {
            return 0;
        }
        String word = (source ? name.substring(open + 1, arrow) : name.substring(arrow + 2, close)).trim();
        return switch (word) {
            case "Pageable" -> 1;
            case "Pinned" -> 2;
            case "Device" -> 3;
            case "Array" -> 4;
            case "Managed" -> 5;
            case "Device Static" -> 6;
            case "Managed Static" -> 7;
            default -> 0;
        };
    }
}
