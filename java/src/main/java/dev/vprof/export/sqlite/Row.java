package dev.vprof.export.sqlite;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One row of a table in SQLite's record format (sqlite.org/fileformat2.html, "Record Format"): a
 * header of varints (its own size, then a serial type per column) and the values after it, integers
 * big-endian in the fewest bytes that hold them. Columns are set by position and keep their value
 * until set again, so a sink sets a table's constants once and only what changes per row.
 */
final class Row {
    private static final byte NULL = 0;
    private static final byte INT = 1;
    private static final byte TEXT = 2;

    private final byte[] kind;
    private final long[] ints;
    private final byte[][] texts;
    private final int[] serial;
    private final boolean format4;
    private int headerSize;

    /** A row of {@code columns} NULLs. {@code format4}: the file's schema format allows serial types 8 and 9. */
    Row(int columns, boolean format4) {
        this.kind = new byte[columns];
        this.ints = new long[columns];
        this.texts = new byte[columns][];
        this.serial = new int[columns];
        this.format4 = format4;
    }

    int columns() {
        return kind.length;
    }

    Row setNull(int column) {
        kind[column] = NULL;
        return this;
    }

    Row set(int column, long value) {
        kind[column] = INT;
        ints[column] = value;
        return this;
    }

    /** {@code value}, or NULL where {@code isNull}. */
    Row set(int column, long value, boolean isNull) {
        kind[column] = isNull ? NULL : INT;
        ints[column] = value;
        return this;
    }

    Row set(int column, String value) {
        if (value == null) {
            return setNull(column);
        }
        kind[column] = TEXT;
        texts[column] = value.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    /** Every column NULL again. */
    Row clear() {
        Arrays.fill(kind, NULL);
        Arrays.fill(texts, null);
        return this;
    }

    /** Works out the record's serial types; returns its size in bytes (the cell's payload). */
    int prepare() {
        int header = 0;
        int body = 0;
        for (int c = 0; c < kind.length; c++) {
            int t = switch (kind[c]) {
                case INT -> intType(ints[c]);
                case TEXT -> 13 + 2 * texts[c].length;
                default -> 0;
            };
            serial[c] = t;
            header += Varint.size(t);
            body += contentSize(t);
        }
        // The header's size counts its own varint.
        int size = header + 1;
        while (header + Varint.size(size) != size) {
            size = header + Varint.size(size);
        }
        headerSize = size;
        return headerSize + body;
    }

    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /** Writes the record {@link #prepare} sized at {@code at}; returns the offset after it. */
    int writeTo(byte[] page, int at) {
        at = Varint.put(page, at, headerSize);
        for (int t : serial) {
            if (t < 0x80) {
                page[at++] = (byte) t; // every integer type, and text of up to 57 bytes
            } else {
                at = Varint.put(page, at, t);
            }
        }
        for (int c = 0; c < kind.length; c++) {
            long v = ints[c];
            switch (serial[c]) {
                case 0, 8, 9 -> { }
                case 1 -> page[at++] = (byte) v;
                case 2 -> {
                    SHORT.set(page, at, (short) v);
                    at += 2;
                }
                case 3 -> {
                    page[at] = (byte) (v >> 16);
                    SHORT.set(page, at + 1, (short) v);
                    at += 3;
                }
                case 4 -> {
                    INT32.set(page, at, (int) v);
                    at += 4;
                }
                case 5 -> {
                    SHORT.set(page, at, (short) (v >> 32));
                    INT32.set(page, at + 2, (int) v);
                    at += 6;
                }
                case 6 -> {
                    LONG.set(page, at, v);
                    at += 8;
                }
                default -> {
                    byte[] s = texts[c];
                    System.arraycopy(s, 0, page, at, s.length);
                    at += s.length;
                }
            }
        }
        return at;
    }

    private int intType(long v) {
        if (format4 && (v == 0 || v == 1)) {
            return v == 0 ? 8 : 9;
        }
        if (v >= -128 && v <= 127) {
            return 1;
        }
        if (v >= -32768 && v <= 32767) {
            return 2;
        }
        if (v >= -8388608 && v <= 8388607) {
            return 3;
        }
        if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            return 4;
        }
        if (v >= -(1L << 47) && v < (1L << 47)) {
            return 5;
        }
        return 6;
    }

    /** Bytes of a value of serial type {@code t} (integers and text only: vprof writes no REAL or BLOB this way). */
    private static int contentSize(int t) {
        return switch (t) {
            case 0, 8, 9 -> 0;
            case 1, 2, 3, 4 -> t;
            case 5 -> 6;
            case 6 -> 8;
            default -> (t - 13) / 2;
        };
    }
}
