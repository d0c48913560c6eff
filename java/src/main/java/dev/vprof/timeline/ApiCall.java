package dev.vprof.timeline;

import dev.vprof.capture.EventArgs;

/**
 * One CUDA runtime or driver call as a walk hands it out: a reusable view, filled for each call
 * and read by the sink before the next.
 */
public final class ApiCall extends SliceView {
    private ApiKind kind = ApiKind.RUNTIME;
    private int callbackId;

    /** This view as the call described; {@code correlationId} is CUPTI's 32-bit id (0: none). */
    public ApiCall set(ApiKind kind, int nameId, long startNs, long endNs, long correlationId, int callbackId) {
        slice(nameId, startNs, endNs, correlationId);
        this.kind = kind;
        this.callbackId = callbackId;
        return this;
    }

    /** This view with the source's fields no record holds (null: none). */
    public ApiCall args(EventArgs fields) {
        this.args = fields;
        return this;
    }

    public ApiKind kind() {
        return kind;
    }

    /** CUPTI's callback id of the API function. */
    public int callbackId() {
        return callbackId;
    }
}
