package dev.vprof.cli;

/**
 * What each signal does, in one wording for every long-running command's help
 * ({@code engine.StopSignals} does it).
 */
final class SignalHelp {
    private SignalHelp() {}

    /** For the commands that capture (run, attach, capture). */
    static final String CAPTURE = "Signals: SIGINT (Ctrl-C), SIGTERM and SIGHUP end the capture as --duration does: "
            + "what was recorded is written, the file is finished and vprof exits 0 (run: with CMD's status); a "
            + "second signal while it finishes changes nothing. They work in a script's background job too, which starts with "
            + "SIGINT ignored. SIGHUP stays ignored under nohup, as nohup asks.";

    /** For the commands that only read or send (triage, bench). */
    static final String STOP = "Signals: SIGINT (Ctrl-C), SIGTERM and SIGHUP stop it at once, with nothing printed "
            + "after them.";
}
