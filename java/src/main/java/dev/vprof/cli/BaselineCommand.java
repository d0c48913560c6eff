package dev.vprof.cli;

import dev.vprof.diff.Baselines;
import dev.vprof.diff.DiffException;
import dev.vprof.diff.DiffText;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `vprof baseline save|list|rm`: named captures for `vprof diff --baseline NAME NEW` (docs/diff.md). */
@Command(name = "baseline", mixinStandardHelpOptions = true,
        header = "Store, list and remove named baseline captures for vprof diff --baseline.",
        description = {"Baselines are copies of captures (a .vprof file, a PyTorch trace or a folder of rank traces) "
                + "kept under $XDG_DATA_HOME/vprof/baselines (else ~/.local/share/vprof/baselines), one folder per "
                + "name, so a CI job can diff each new capture against the last good one: "
                + "vprof diff --baseline NAME --fail-on-regression NEW."},
        footer = {"", "Examples:",
                "  vprof baseline save main-h100 capture.vprof",
                "  vprof baseline list",
                "  vprof diff --baseline main-h100 --fail-on-regression new.vprof",
                "  vprof baseline rm main-h100"},
        subcommands = {BaselineCommand.Save.class, BaselineCommand.ListBaselines.class, BaselineCommand.Remove.class})
public final class BaselineCommand extends VprofCommand {
    public BaselineCommand() {
        super(ExitCode.OK, ExitCode.CANNOT);
    }

    @Override
    public Integer call() {
        throw new CliException("say what to do: vprof baseline save NAME FILE, list, or rm NAME");
    }

    static Path folder() {
        return Baselines.folder(System.getenv());
    }

    @Command(name = "save", mixinStandardHelpOptions = true, description = "store FILE as the baseline NAME")
    static final class Save extends VprofCommand {
        Save() {
            super(ExitCode.OK, ExitCode.CANNOT);
        }

        @Parameters(index = "0", paramLabel = "NAME", description = "letters, digits, '.', '_' or '-'")
        String name;

        @Parameters(index = "1", paramLabel = "FILE", description = "the capture, trace or folder of rank traces")
        Path file;

        @Option(names = "--force", description = "replace an existing baseline of that name")
        boolean force;

        @Override
        public Integer call() {
            try {
                Baselines.Entry e = Baselines.save(folder(), name, file, force);
                spec.commandLine().getOut().printf(Locale.ROOT, "saved baseline %s: %s (%d bytes)%n", e.name(),
                        DiffText.escape(e.capture().toString()), e.bytes());
                return ExitCode.OK.code();
            } catch (DiffException e) {
                throw new CliException(e.getMessage(), e);
            } catch (IOException e) {
                throw new CliException("cannot save the baseline " + name + " in " + folder() + ": " + e.getMessage()
                        + "; check that the folder is writable and has room", e);
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "the stored baselines")
    static final class ListBaselines extends VprofCommand {
        ListBaselines() {
            super(ExitCode.OK, ExitCode.CANNOT);
        }

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try {
                List<Baselines.Entry> all = Baselines.list(folder());
                if (all.isEmpty()) {
                    out.println("no baselines in " + folder() + " (vprof baseline save NAME FILE stores one)");
                }
                for (Baselines.Entry e : all) {
                    out.printf(Locale.ROOT, "%-24s %12d bytes  %s%n", e.name(), e.bytes(), DiffText.escape(e.source()));
                }
                return ExitCode.OK.code();
            } catch (DiffException e) {
                throw new CliException(e.getMessage(), e);
            } catch (IOException e) {
                throw new CliException("cannot list " + folder() + ": " + e.getMessage(), e);
            }
        }
    }

    @Command(name = "rm", mixinStandardHelpOptions = true, description = "remove the baseline NAME")
    static final class Remove extends VprofCommand {
        Remove() {
            super(ExitCode.OK, ExitCode.CANNOT);
        }

        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Override
        public Integer call() {
            try {
                Baselines.remove(folder(), name);
                spec.commandLine().getOut().println("removed baseline " + name);
                return ExitCode.OK.code();
            } catch (DiffException e) {
                throw new CliException(e.getMessage(), e);
            } catch (IOException e) {
                throw new CliException("cannot remove the baseline " + name + ": " + e.getMessage(), e);
            }
        }
    }
}
