package dev.vprof.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link WireWriter} and {@link WireReader} against protobuf's own codec
 * ({@link CodedOutputStream}, {@link CodedInputStream}): every value vprof writes is the byte
 * sequence protobuf writes for it, and every sequence protobuf writes reads back as its value.
 * The values are the edges of each encoding (varint byte boundaries, negative numbers as 10-byte
 * varints, zigzag extremes, NaN and infinities) and a seeded random sample.
 */
class WireCodecTest {
    private static final long[] EDGES = {0, 1, 127, 128, 16_383, 16_384, (1L << 21) - 1, 1L << 21, (1L << 28) - 1,
            1L << 28, (1L << 35) - 1, 1L << 35, (1L << 42) - 1, 1L << 49, (1L << 56) - 1, 1L << 56, (1L << 63) - 1,
            Long.MAX_VALUE, Long.MIN_VALUE, -1, -2, Integer.MAX_VALUE, Integer.MIN_VALUE, 0xFFFF_FFFFL};

    private static long[] values() {
        Random rnd = new Random(7);
        long[] v = new long[EDGES.length + 2000];
        System.arraycopy(EDGES, 0, v, 0, EDGES.length);
        for (int i = EDGES.length; i < v.length; i++) {
            v[i] = rnd.nextLong() >> rnd.nextInt(64); // every magnitude, both signs
        }
        return v;
    }

    /** A field's tag as protobuf defines it: the field number, then three bits of wire type. */
    private static int tag(int field, int wireType) {
        return field << 3 | wireType;
    }

    private interface ProtoWrite {
        void write(CodedOutputStream out) throws Exception;
    }

    private static byte[] proto(ProtoWrite w) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        w.write(out);
        out.flush();
        return bytes.toByteArray();
    }

    @Test
    void scalarFieldsAreProtobufsBytesAndReadBackFromThem() throws Exception {
        for (long v : values()) {
            WireWriter w = new WireWriter();
            w.uint(1, v);
            w.fixed64(2, v);
            w.float64(3, Double.longBitsToDouble(v));
            w.tag(4, WireType.VARINT);
            w.zigzag(v);
            w.tag(5, WireType.I32);
            w.fixed32((int) v);
            w.bool(6, (v & 1) == 1);
            byte[] expected = proto(out -> {
                out.writeUInt64(1, v);
                out.writeFixed64(2, v);
                out.writeDouble(3, Double.longBitsToDouble(v));
                out.writeSInt64(4, v);
                out.writeFixed32(5, (int) v);
                out.writeBool(6, (v & 1) == 1);
            });
            assertArrayEquals(expected, w.toByteArray(), "value " + v);

            WireReader r = new WireReader(expected, "test");
            assertEquals(tag(1, WireFormat.WIRETYPE_VARINT), r.readTag());
            assertEquals(v, r.readVarint());
            assertEquals(tag(2, WireFormat.WIRETYPE_FIXED64), r.readTag());
            assertEquals(v, r.readFixed64());
            assertEquals(tag(3, WireFormat.WIRETYPE_FIXED64), r.readTag());
            assertEquals(Double.doubleToRawLongBits(Double.longBitsToDouble(v)), Double.doubleToRawLongBits(r.readDouble()));
            assertEquals(tag(4, WireFormat.WIRETYPE_VARINT), r.readTag());
            assertEquals(v, r.readZigzag());
            assertEquals(tag(5, WireFormat.WIRETYPE_FIXED32), r.readTag());
            assertEquals((int) v, r.readFixed32());
            assertEquals(tag(6, WireFormat.WIRETYPE_VARINT), r.readTag());
            assertEquals((v & 1) == 1 ? 1 : 0, r.readVarint());
            assertTrue(r.atEnd());
        }
    }

    @Test
    void varintSizesAreProtobufs() {
        for (long v : values()) {
            assertEquals(CodedOutputStream.computeUInt64SizeNoTag(v), WireWriter.varintSize(v), "value " + v);
        }
        for (int field : new int[] {1, 15, 16, 2047, 2048, (1 << 29) - 1}) {
            assertEquals(CodedOutputStream.computeTagSize(field), WireWriter.tagSize(field), "field " + field);
        }
    }

    @Test
    void stringsBytesAndNestedMessagesAreProtobufs() throws Exception {
        String text = "vllm::rms_norm_kernel<c10::BFloat16> \u00e9\u4e2d\ud83d\ude80";
        byte[] blob = new byte[300]; // a length that takes a two-byte varint
        new Random(3).nextBytes(blob);
        for (int innerSize : new int[] {0, 5, 127, 128, 20_000}) {
            byte[] innerBytes = new byte[innerSize];
            WireWriter w = new WireWriter();
            w.string(1, text);
            w.bytes(2, blob);
            int mark = w.beginMessage(3); // written in place, its length fixed up afterwards
            w.bytes(1, innerBytes);
            w.endMessage(mark);
            WireWriter child = new WireWriter();
            child.uint(7, 42);
            w.message(4, child);
            byte[] inner = proto(out -> out.writeByteArray(1, innerBytes));
            byte[] expected = proto(out -> {
                out.writeString(1, text);
                out.writeByteArray(2, blob);
                out.writeByteArray(3, inner);
                out.writeByteArray(4, proto(o -> o.writeUInt64(7, 42)));
            });
            assertArrayEquals(expected, w.toByteArray(), "inner message of " + innerSize + " bytes");

            WireReader r = new WireReader(expected, "test");
            r.expect(r.readTag(), WireType.LEN, "text");
            assertEquals(text, r.readString());
            r.readTag();
            assertArrayEquals(blob, r.readBytes());
            r.readTag();
            int old = r.pushLimit();
            r.readTag();
            assertArrayEquals(innerBytes, r.readBytes());
            r.popLimit(old);
            r.skip(r.readTag()); // a field this reader does not know: skipped whole
            assertTrue(r.atEnd());
        }
        WireWriter nine = new WireWriter();
        nine.string(9, text);
        CodedInputStream in = CodedInputStream.newInstance(nine.toByteArray());
        assertEquals(tag(9, WireFormat.WIRETYPE_LENGTH_DELIMITED), in.readTag());
        assertEquals(text, in.readString());
        assertEquals(text.getBytes(StandardCharsets.UTF_8).length + 2, in.getTotalBytesRead());
    }

    @Test
    void damagedInputIsRefusedWithThePlaceNotReadPast() throws Exception {
        byte[] tenBytes = proto(out -> out.writeUInt64NoTag(-1L)); // the longest varint
        byte[] overlong = new byte[11];
        System.arraycopy(tenBytes, 0, overlong, 0, 10);
        overlong[9] |= (byte) 0x80; // an 11th byte promised
        assertThrows(WireFormatException.class, () -> new WireReader(overlong, "test").readVarint());
        byte[] cut = proto(out -> out.writeString(1, "truncated string"));
        byte[] shorter = Arrays.copyOf(cut, cut.length - 3);
        WireReader r = new WireReader(shorter, "test");
        r.readTag();
        WireFormatException e = assertThrows(WireFormatException.class, r::readString);
        assertTrue(e.getMessage().contains("test at byte"), e.getMessage());
        assertThrows(WireFormatException.class, () -> new WireReader(proto(out -> out.writeUInt32NoTag(0)), "test").readTag(),
                "field number 0 is not a tag");
    }
}
