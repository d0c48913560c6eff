"""vprof GPU self-test: a short PyTorch workload whose kernels vprof and torch.profiler
both record, for `vprof selftest --gpu` to compare.

  python torch_selftest.py vprof          bracket the workload with torch.cuda.profiler.start/stop
                                          (cudaProfilerStart/Stop), for vprof --capture-range=cudaProfilerApi
  python torch_selftest.py torch          record the same workload with torch.profiler and print
                                          its kernel names and counts as JSON
  python torch_selftest.py same-process   torch.profiler and vprof in ONE process (docs/cupti-field-facts.md R1),
                                          under vprof --capture-range=cudaProfilerApi --capture-range-end=repeat:2:
                                          1. a torch.profiler run before any vprof range;
                                          2. vprof range 1 around the workload (vprof must count it exactly:
                                             the agent takes its CUPTI buffer callbacks back at a range begin);
                                          3. vprof range 2 with a torch.profiler run inside it (exact counts,
                                             or vprof's loud warning that another client took its records).
                                          Prints torch.profiler's own counts of both runs as JSON.

The last line on stdout is the JSON the self-test reads.
"""
import json
import sys
import time

import torch

# Longer than the agent's drain window (VPROF_DRAIN_MAX_MS, 2 s): a range begun sooner would cut
# the previous one short while it still waits for records.
RANGE_GAP_S = 2.5


def workload(x, w):
    for _ in range(20):
        y = torch.nn.functional.linear(x, w)
        y = torch.nn.functional.silu(y)
        x = torch.nn.functional.layer_norm(y, y.shape[-1:])
    return x


def kernel_counts(prof):
    """Kernel names and counts torch.profiler recorded (copies and sets left out)."""
    counts = {}
    for evt in prof.events():
        if evt.device_type == torch.autograd.DeviceType.CUDA and not evt.name.startswith(("Memcpy", "Memset")):
            counts[evt.name] = counts.get(evt.name, 0) + 1
    return counts


def profiled(x, w):
    """The workload under torch.profiler; its kernel counts."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        workload(x, w)
        torch.cuda.synchronize()
    return kernel_counts(prof)


def vprof_range(body):
    """body() inside cudaProfilerStart/Stop, synchronized before the stop; its result."""
    torch.cuda.profiler.start()
    result = body()
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()
    return result


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "vprof"
    torch.manual_seed(0)
    dev = torch.device("cuda")
    x = torch.randn(64, 1024, device=dev)
    w = torch.randn(1024, 1024, device=dev)
    workload(x, w)  # warm-up: cuBLAS handles, lazy module loading
    torch.cuda.synchronize()
    if mode == "vprof":
        vprof_range(lambda: workload(x, w))
        print(json.dumps({"mode": "vprof"}))
    elif mode == "torch":
        print(json.dumps({"mode": "torch", "kernels": profiled(x, w)}))
    elif mode == "same-process":
        before = profiled(x, w)
        vprof_range(lambda: workload(x, w))
        time.sleep(RANGE_GAP_S)
        during = vprof_range(lambda: profiled(x, w))
        time.sleep(RANGE_GAP_S)  # vprof's second range drains before the process exits
        print(json.dumps({"mode": "same-process", "torch_before": before, "torch_during": during}))
    else:
        print("usage: torch_selftest.py vprof|torch|same-process", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
