package dev.vprof.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What every {@code vprof} command has: picocli's spec of it (its parse result, its out and err,
 * injected before {@code call()}) and the rows of {@link ExitCode} it returns, which {@link Main}
 * lists under its --help. Declared once here, so a command states only its own rows.
 */
abstract class VprofCommand implements Callable<Integer>, ExitCode.Returns {
    private final List<ExitCode> returns;

    @Spec
    CommandSpec spec;

    VprofCommand(ExitCode... returns) {
        this.returns = List.of(returns);
    }

    @Override
    public final List<ExitCode> exitCodes() {
        return returns;
    }
}
