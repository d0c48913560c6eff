package dev.vprof.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The vprof command line. SKELETON: the CLI work fills in the subcommands. */
@Command(name = "vprof", mixinStandardHelpOptions = true, version = "vprof 0.1.0",
        description = "Low-overhead GPU profiling for LLM inference servers.")
public final class Main implements Runnable {
    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Main()).execute(args));
    }
}
