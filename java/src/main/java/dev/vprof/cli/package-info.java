/**
 * The {@code vprof} command line, commands only (picocli): each command parses and checks its
 * options, then hands the work to the package that does it (a {@link dev.vprof.engine.CapturePlan}
 * for {@code run}, {@code attach} and {@code capture}; a {@link dev.vprof.demo.DemoPlan} for {@code demo},
 * whose scenario takes its capture through the same plan; a {@link dev.vprof.capture.CaptureReader} for
 * {@code report} and {@code export}; the scraper and rules for {@code triage}) and prints what it
 * says. A command's error is one sentence a person can act on, with exit code 2
 * ({@link dev.vprof.cli.CliException}); a command line picocli cannot parse gets one line and a
 * pointer to {@code --help} ({@code UsageErrors}). Durations and sizes have one parser
 * ({@code Units}); the {@code --otlp*} options are one mixin ({@code OtlpOptions}) that resolves into
 * the receiver's {@link dev.vprof.otlp.OtlpReceiverConfig}. No command reaches into another's
 * internals.
 */
package dev.vprof.cli;
