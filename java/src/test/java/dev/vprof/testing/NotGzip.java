package dev.vprof.testing;

import io.grpc.Compressor;
import io.grpc.CompressorRegistry;
import java.io.OutputStream;

/** For the gRPC receivers' abuse tests: a client whose messages go out flagged compressed but are not gzip. */
public final class NotGzip {
    private NotGzip() {}

    /** A registry whose "gzip" compressor does not compress, so the message's bytes go out as they are. */
    public static CompressorRegistry registry() {
        Compressor notGzip = new Compressor() {
            @Override
            public String getMessageEncoding() {
                return "gzip";
            }

            @Override
            public OutputStream compress(OutputStream os) {
                return os;
            }
        };
        CompressorRegistry compressors = CompressorRegistry.newEmptyInstance();
        compressors.register(notGzip);
        return compressors;
    }
}
