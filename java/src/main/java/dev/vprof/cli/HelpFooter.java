package dev.vprof.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.IHelpSectionRenderer;

/**
 * Renders a command's footer (its examples) so that a command line is never wrapped: picocli
 * wraps every footer line at the help width, which breaks an example in two and makes it
 * useless to copy and paste. Indented lines (the examples, and comments about them) are printed
 * as written; unindented prose is wrapped at the help width as before.
 *
 * <p>It also puts every command's help in one order: "Usage: vprof NAME ..." first, then the
 * command's one-line summary (its header, which the command list under {@code vprof --help}
 * shows), then the description. picocli prints a header above the usage line, so commands with
 * one began differently from those without.
 */
final class HelpFooter implements IHelpSectionRenderer {

    /** Installs the renderer on {@code cl} and every subcommand under it. */
    static void install(CommandLine cl) {
        cl.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER, new HelpFooter());
        List<String> order = new ArrayList<>(cl.getHelpSectionKeys());
        List<String> header = List.of(CommandLine.Model.UsageMessageSpec.SECTION_KEY_HEADER_HEADING,
                CommandLine.Model.UsageMessageSpec.SECTION_KEY_HEADER);
        order.removeAll(header);
        order.addAll(order.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_SYNOPSIS) + 1, header);
        cl.setHelpSectionKeys(order);
        for (CommandLine sub : cl.getSubcommands().values()) {
            install(sub);
        }
    }

    @Override
    public String render(Help help) {
        String[] footer = help.commandSpec().usageMessage().footer();
        if (footer.length == 0) {
            return "";
        }
        int width = help.commandSpec().usageMessage().width();
        StringBuilder out = new StringBuilder();
        for (String raw : footer) {
            for (String line : raw.replace("%n", "\n").replace("%%", "%").split("\n", -1)) {
                if (line.startsWith(" ") || line.length() <= width) {
                    out.append(line).append(System.lineSeparator());
                } else {
                    wrap(out, line, width);
                }
            }
        }
        return out.toString();
    }

    private static void wrap(StringBuilder out, String prose, int width) {
        List<String> words = new ArrayList<>(List.of(prose.split(" ")));
        StringBuilder line = new StringBuilder();
        for (String w : words) {
            if (!line.isEmpty() && line.length() + 1 + w.length() > width) {
                out.append(line).append(System.lineSeparator());
                line.setLength(0);
            }
            if (!line.isEmpty()) {
                line.append(' ');
            }
            line.append(w);
        }
        out.append(line).append(System.lineSeparator());
    }
}
