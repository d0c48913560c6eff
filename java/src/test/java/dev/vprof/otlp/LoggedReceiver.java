package dev.vprof.otlp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * A receiver on loopback ports of its own that drops what it receives, and the JUL records
 * (where grpc-java and Netty print) logged while it runs, for tests of what it says and logs.
 */
final class LoggedReceiver implements AutoCloseable {
    /** The records kept so far; synchronize on it to iterate. */
    final List<LogRecord> logged = Collections.synchronizedList(new ArrayList<>());
    final OtlpReceiver receiver;
    private final Handler capture;

    /** Keeps the root logger's records that {@code keep} accepts until {@link #close}. */
    LoggedReceiver(int maxBody, Predicate<LogRecord> keep) throws IOException {
        capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (keep.test(r)) {
                    logged.add(r);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger.getLogger("").addHandler(capture);
        receiver = OtlpReceiver.start(new OtlpReceiverConfig(new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", 0), null, maxBody), spans -> { }, w -> { });
    }

    @Override
    public void close() {
        receiver.close();
        Logger.getLogger("").removeHandler(capture);
    }
}
