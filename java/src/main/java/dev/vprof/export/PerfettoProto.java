package dev.vprof.export;

/**
 * Field numbers and enum values of the Perfetto trace protos that the writer emits, taken from
 * protos/perfetto/trace/ in the Perfetto repository (file named above each group). Only the fields
 * used here are listed; everything is proto2, so absent fields cost nothing.
 */
final class PerfettoProto {
    private PerfettoProto() {}

    // trace.proto: message Trace
    static final int TRACE_PACKET = 1;

    // trace_packet.proto: message TracePacket
    static final int PACKET_TIMESTAMP = 8;
    static final int PACKET_COMPRESSED_PACKETS = 50; // zlib-deflated bytes of a Trace (repeated packets)
    static final int PACKET_TIMESTAMP_CLOCK_ID = 58;
    static final int PACKET_CLOCK_SNAPSHOT = 6;
    static final int PACKET_TRUSTED_SEQUENCE_ID = 10;
    static final int PACKET_TRACK_EVENT = 11;
    static final int PACKET_INTERNED_DATA = 12;
    static final int PACKET_SEQUENCE_FLAGS = 13;
    static final int PACKET_DEFAULTS = 59;
    static final int PACKET_TRACK_DESCRIPTOR = 60;
    static final int SEQ_INCREMENTAL_STATE_CLEARED = 1;
    static final int SEQ_NEEDS_INCREMENTAL_STATE = 2;

    // trace_packet_defaults.proto: message TracePacketDefaults
    static final int DEFAULTS_TIMESTAMP_CLOCK_ID = 58;
    static final int DEFAULTS_TRACK_EVENT_DEFAULTS = 11;
    // track_event.proto: message TrackEventDefaults
    static final int EVENT_DEFAULTS_TRACK_UUID = 11;

    // clock_snapshot.proto: message ClockSnapshot, ClockSnapshot.Clock
    static final int SNAPSHOT_CLOCKS = 1;
    static final int SNAPSHOT_PRIMARY_TRACE_CLOCK = 2;
    static final int CLOCK_ID = 1;
    static final int CLOCK_TIMESTAMP = 2;
    static final int CLOCK_IS_INCREMENTAL = 3;
    // builtin_clock.proto: BuiltinClock
    static final int CLOCK_REALTIME = 1;
    static final int CLOCK_BOOTTIME = 6;
    /** First of the sequence-scoped clock ids (64..127): valid only on the sequence that defines it. */
    static final int CLOCK_SEQUENCE_INCREMENTAL = 64;

    // track_event.proto: message TrackEvent
    static final int EVENT_TYPE = 9;
    static final int EVENT_NAME_IID = 10;
    static final int EVENT_NAME = 23;
    static final int EVENT_TRACK_UUID = 11;
    static final int EVENT_DEBUG_ANNOTATIONS = 4;
    static final int EVENT_DOUBLE_COUNTER_VALUE = 44;
    static final int EVENT_FLOW_IDS = 47;
    static final int TYPE_SLICE_BEGIN = 1;
    static final int TYPE_SLICE_END = 2;
    static final int TYPE_COUNTER = 4;

    // debug_annotation.proto: message DebugAnnotation
    static final int ANNOTATION_NAME_IID = 1;
    static final int ANNOTATION_NAME = 10;
    static final int ANNOTATION_UINT_VALUE = 3;
    static final int ANNOTATION_INT_VALUE = 4;
    static final int ANNOTATION_STRING_VALUE = 6;
    static final int ANNOTATION_STRING_VALUE_IID = 17;

    // interned_data.proto: message InternedData; EventName/DebugAnnotationName/InternedString {iid=1, name|str=2}
    static final int INTERNED_EVENT_NAMES = 2;
    static final int INTERNED_ANNOTATION_NAMES = 3;
    static final int INTERNED_ANNOTATION_STRING_VALUES = 29;
    static final int INTERNED_IID = 1;
    static final int INTERNED_NAME = 2;

    // track_descriptor.proto: message TrackDescriptor
    static final int TRACK_UUID = 1;
    static final int TRACK_NAME = 2;
    static final int TRACK_PROCESS = 3;
    static final int TRACK_THREAD = 4;
    static final int TRACK_PARENT_UUID = 5;
    static final int TRACK_COUNTER = 8;

    // process_descriptor.proto: message ProcessDescriptor
    static final int PROCESS_PID = 1;
    static final int PROCESS_CMDLINE = 2;
    static final int PROCESS_NAME = 6;

    // thread_descriptor.proto: message ThreadDescriptor
    static final int THREAD_PID = 1;
    static final int THREAD_TID = 2;
    static final int THREAD_NAME = 5;

    // counter_descriptor.proto: message CounterDescriptor
    static final int COUNTER_UNIT = 3;
    static final int UNIT_TIME_NS = 1;
    static final int UNIT_COUNT = 2;
}
