package dev.vprof.engine;

import dev.vprof.nativelib.NativeAccessException;
import dev.vprof.nativelib.Posix;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * SIGINT, SIGTERM and SIGHUP, wherever vprof runs.
 *
 * <p>During a capture each of the three asks the capture to stop (by the signal's name) and it
 * ends as it would at --duration, so that a capture ended the documented way, with a complete
 * file, exits 0 instead of the JVM's 130, 143 or 129. Without this the JVM would start its
 * shutdown and the shutdown hook would finish the file under the signal's exit status. A second
 * signal while the file is being finished is handled the same way (the first one wins), never as
 * an abort that loses the file's last chunk. Outside a capture the shutdown hooks run and the
 * command exits with the code {@link #exitOnStop} was given (INTERRUPTED, 130, for all three).
 *
 * <p><b>Inherited as ignored.</b> A background job of a non-interactive shell ({@code vprof attach
 * ... &} in a script, many CI runners) starts with SIGINT ignored, and {@code nohup} starts its
 * command with SIGHUP ignored. The JVM keeps an inherited SIG_IGN for its shutdown signals: it
 * neither installs its own handler at start nor lets {@code sun.misc.Signal.handle} install one
 * (it answers SIG_IGN and changes nothing), so {@code kill -INT} did nothing. Measured with
 * {@code /proc/self/status}: {@code bash -c 'java ... &'} starts with {@code SigIgn:
 * 0000000000000002}; {@code Signal.handle} alone leaves it so and the signal is lost; after
 * sigaction(2) sets SIG_DFL, {@code SigIgn} is 0, {@code Signal.handle} installs its handler and
 * {@code kill -INT} reaches it. So SIGINT and SIGTERM are taken back from an inherited SIG_IGN,
 * as {@code perf record} takes its handlers whatever it inherited ({@link #exitOnStop} at the
 * start of every command, {@link #exitOnStop}; {@link #install} for a capture run in-process). SIGHUP is left ignored
 * when it came ignored: that is what {@code nohup} asks for.
 *
 * <p>The JDK's only signal API is jdk.unsupported's {@code sun.misc.Signal}. It is reached by
 * reflection, so the strict build (every lint a warning, every warning an error) has no
 * internal-API warning to carry, and a JDK without it leaves the shutdown hook to finish the file.
 */
public final class StopSignals {
    /** The signals a capture stops on, by sun.misc.Signal's names; SIGHUP last (see the class comment). */
    private static final String[] NAMES = {"INT", "TERM", "HUP"};

    private final List<Object> signals = new ArrayList<>();
    private final List<Object> previous = new ArrayList<>();
    private final Method handle;
    /** Where a signal goes; null until {@link #forwardTo} when installed by {@link #installPending}. */
    private Consumer<String> target;
    /** The first signal that came while {@link #target} was null. */
    private String pending;

    private StopSignals(Method handle) {
        this.handle = handle;
    }

    /**
     * At the start of a command: SIGINT, SIGTERM and SIGHUP end the command with {@code status}
     * (the exit-code table's INTERRUPTED, one code whichever of the three it was) after the
     * shutdown hooks ran, which remove the outputs not yet complete; {@code first} gets the
     * signal's name ("SIGINT") before that, on the JVM's signal thread. SIGINT and SIGTERM that came
     * ignored are taken back, so that {@code kill -INT} ends a {@code vprof export} started in the
     * background of a script as it ends one in a terminal; a SIGHUP that came ignored ({@code nohup})
     * stays ignored. A capture installs its own handlers over these ({@link #install}) and puts them
     * back when it is over ({@link #restore}).
     */
    public static void exitOnStop(int status, Consumer<String> first) {
        Api api = Api.find();
        if (api == null) {
            return;
        }
        for (String name : NAMES) {
            int number = number(name);
            if (name.equals("HUP")) {
                if (ignored(number)) {
                    continue;
                }
            } else {
                reclaim(number);
            }
            try {
                api.handle.invoke(null, api.signal(name), api.handler(name, () -> {
                    first.accept("SIG" + name);
                    Runtime.getRuntime().exit(status);
                }));
            } catch (ReflectiveOperationException e) {
                // -Xrs or a VM that keeps the signal: its default action (the process ends) stays
            }
        }
    }

    private static boolean ignored(int number) {
        try {
            return Posix.signalIgnored(number);
        } catch (NativeAccessException | LinkageError | IllegalStateException e) {
            return false;
        }
    }

    /**
     * Installs the handlers; {@code stop} gets "SIGINT", "SIGTERM" or "SIGHUP". Null when the JVM
     * refuses them all.
     */
    public static StopSignals install(Consumer<String> stop) {
        return install(NAMES, stop);
    }

    /**
     * {@code vprof watch}: SIGUSR1 asks for a dump ({@code kill -USR1 <watch pid>}, as {@code jcmd}
     * users ask the JVM's flight recorder); {@code dump} runs on the JVM's signal thread and must
     * return at once. Null when the JVM refuses the signal.
     */
    public static StopSignals installDump(Runnable dump) {
        return install(new String[] {"USR1"}, name -> dump.run());
    }

    /**
     * The capture's handlers, installed before the capture that acts on them exists: its feeds
     * open first (the OTLP receiver listens, and may accept spans, before the file is created),
     * and a Ctrl-C after "listening" ended the JVM with nothing written. A signal that comes now
     * is kept and handed to the capture by {@link #forwardTo}, so it ends as a complete file.
     */
    public static StopSignals installPending() {
        return install(NAMES, null);
    }

    /** From now on signals go to {@code stop}; one that came before is passed on at once. */
    public void forwardTo(Consumer<String> stop) {
        String early;
        synchronized (this) {
            target = stop;
            early = pending;
        }
        if (early != null) {
            stop.accept(early);
        }
    }

    private void deliver(String why) {
        Consumer<String> to;
        synchronized (this) {
            to = target;
            if (to == null && pending == null) {
                pending = why;
            }
        }
        if (to != null) {
            to.accept(why);
        }
    }

    private static StopSignals install(String[] names, Consumer<String> stop) {
        Api api = Api.find();
        if (api == null) {
            return null; // no signal API: the shutdown hook still finishes the file
        }
        StopSignals s = new StopSignals(api.handle);
        s.target = stop;
        for (String name : names) {
            try {
                boolean wasIgnored = (name.equals("INT") || name.equals("TERM")) && reclaim(number(name));
                Object sig = api.signal(name);
                Object old = api.handle.invoke(null, sig, api.handler(name, () -> s.deliver("SIG" + name)));
                s.signals.add(sig);
                // What came ignored goes back to ignored when the capture is over.
                s.previous.add(wasIgnored ? api.ignore : old);
            } catch (InvocationTargetException e) {
                // -Xrs, or a signal the VM keeps (IllegalArgumentException): the shutdown hook still finishes the file
            } catch (ReflectiveOperationException e) {
                return s.signals.isEmpty() ? null : s;
            }
        }
        return s.signals.isEmpty() ? null : s;
    }

    /** The handlers the JVM had before, back in place (the capture is over). */
    public void restore() {
        for (int i = 0; i < signals.size(); i++) {
            try {
                handle.invoke(null, signals.get(i), previous.get(i));
            } catch (ReflectiveOperationException e) {
                // nothing more to undo
            }
        }
    }

    /** Sets a signal that came ignored back to SIG_DFL, so that the JVM will install a handler; whether it was ignored. */
    private static boolean reclaim(int number) {
        try {
            if (!Posix.signalIgnored(number)) {
                return false;
            }
            // Until the JVM's handler is in place (microseconds), the signal's default action
            // would end the process without the shutdown hook; the ignored signal was lost before.
            Posix.defaultSignal(number);
            return true;
        } catch (NativeAccessException | LinkageError | IllegalStateException e) {
            return false; // no native access: the JVM's behaviour stays as it was
        }
    }

    private static int number(String name) {
        return switch (name) {
            case "INT" -> Posix.SIGINT;
            case "TERM" -> Posix.SIGTERM;
            default -> Posix.SIGHUP;
        };
    }

    /** sun.misc.Signal and SignalHandler, reached by reflection. */
    private record Api(Class<?> signalClass, Class<?> handlerClass, Method handle, Object ignore) {
        static Api find() {
            try {
                Class<?> signalClass = Class.forName("sun.misc.Signal");
                Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
                return new Api(signalClass, handlerClass, signalClass.getMethod("handle", signalClass, handlerClass),
                        handlerClass.getField("SIG_IGN").get(null));
            } catch (ReflectiveOperationException | LinkageError e) {
                return null;
            }
        }

        Object signal(String name) throws ReflectiveOperationException {
            return signalClass.getConstructor(String.class).newInstance(name);
        }

        Object handler(String name, Runnable action) {
            return Proxy.newProxyInstance(StopSignals.class.getClassLoader(), new Class<?>[] {handlerClass},
                    (proxy, method, args) -> {
                        if (method.getName().equals("handle")) {
                            action.run();
                            return null;
                        }
                        return switch (method.getName()) {
                            case "hashCode" -> System.identityHashCode(proxy);
                            case "equals" -> proxy == args[0];
                            default -> "vprof on SIG" + name;
                        };
                    });
        }
    }
}
