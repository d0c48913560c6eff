package dev.vprof.engine;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Ctrl-C and SIGTERM during a capture: the capture is asked to stop (by the signal's name) and
 * ends as it would at --duration, so that a capture ended the documented way, with a complete
 * file, exits 0 instead of the JVM's 130 or 143. Without this the JVM would start its shutdown
 * and the shutdown hook would finish the file under the signal's exit status. A second Ctrl-C
 * while the file is being finished is handled the same way (the first one wins), never as an
 * abort that loses the file's last chunk.
 *
 * <p>The JDK's only signal API is jdk.unsupported's {@code sun.misc.Signal}. It is reached by
 * reflection, so the strict build (every lint a warning, every warning an error) has no
 * internal-API warning to carry, and a JDK without it leaves the shutdown hook to finish the file.
 */
public final class StopSignals {
    private final List<Object> signals = new ArrayList<>();
    private final List<Object> previous = new ArrayList<>();
    private final Method handle;

    private StopSignals(Method handle) {
        this.handle = handle;
    }

    /** Installs the handlers; {@code stop} gets "SIGINT" or "SIGTERM". Null when the JVM refuses them. */
    public static StopSignals install(Consumer<String> stop) {
        return install(new String[] {"INT", "TERM"}, stop);
    }

    /**
     * {@code vprof watch}: SIGUSR1 asks for a dump ({@code kill -USR1 <watch pid>}, as {@code jcmd}
     * users ask the JVM's flight recorder); {@code dump} runs on the JVM's signal thread and must
     * return at once. Null when the JVM refuses the signal.
     */
    public static StopSignals installDump(Runnable dump) {
        return install(new String[] {"USR1"}, name -> dump.run());
    }

    private static StopSignals install(String[] names, Consumer<String> stop) {
        Class<?> signalClass;
        Class<?> handlerClass;
        Method handle;
        try {
            signalClass = Class.forName("sun.misc.Signal");
            handlerClass = Class.forName("sun.misc.SignalHandler");
            handle = signalClass.getMethod("handle", signalClass, handlerClass);
        } catch (ReflectiveOperationException | LinkageError e) {
            return null; // no signal API: the shutdown hook still finishes the file
        }
        StopSignals s = new StopSignals(handle);
        for (String name : names) {
            try {
                Object sig = signalClass.getConstructor(String.class).newInstance(name);
                Object handler = Proxy.newProxyInstance(StopSignals.class.getClassLoader(), new Class<?>[] {handlerClass},
                        (proxy, method, args) -> {
                            if (method.getName().equals("handle")) {
                                stop.accept("SIG" + name);
                                return null;
                            }
                            return switch (method.getName()) {
                                case "hashCode" -> System.identityHashCode(proxy);
                                case "equals" -> proxy == args[0];
                                default -> "vprof stop on SIG" + name;
                            };
                        });
                Object old = handle.invoke(null, sig, handler);
                s.signals.add(sig);
                s.previous.add(old);
            } catch (InvocationTargetException e) {
                // -Xrs, or a signal the VM keeps (IllegalArgumentException): the shutdown hook still finishes the file
            } catch (ReflectiveOperationException e) {
                return s.signals.isEmpty() ? null : s;
            }
        }
        return s;
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
}
