package dev.vprof.capture;

import java.util.List;
import java.util.Map;

/** What the capture file says about itself: host, when, how it was taken. */
public record CaptureMetadata(
        String host,
        long startEpochNs,
        String vprofVersion,
        List<String> commandLine,
        Map<String, String> options) {}
