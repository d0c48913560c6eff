package dev.vprof.wire;

/** The protobuf wire types vprof reads and writes (the low three bits of a field tag). */
public final class WireType {
    private WireType() {}

    public static final int VARINT = 0;
    /** fixed64, sfixed64, double. */
    public static final int I64 = 1;
    /** Length-delimited: bytes, strings, nested messages, packed repeated fields. */
    public static final int LEN = 2;
    /** Groups: deprecated, absent from the messages vprof reads; refused when skipping. */
    public static final int SGROUP = 3;
    public static final int EGROUP = 4;
    /** fixed32, sfixed32, float. */
    public static final int I32 = 5;
}
