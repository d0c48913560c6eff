"""vprof GPU self-test: a short PyTorch workload whose kernels vprof and torch.profiler
both record, for `vprof selftest --gpu` to compare.

  python torch_selftest.py vprof   bracket the workload with torch.cuda.profiler.start/stop
                                   (cudaProfilerStart/Stop), for vprof --capture-range=cudaProfilerApi
  python torch_selftest.py torch   record the same workload with torch.profiler and print
                                   its kernel names and counts as JSON

Only one CUPTI subscriber may exist per process, so the two recordings run in two
processes over the same deterministic workload.
"""
import json
import sys

import torch


def workload(x, w):
    for _ in range(20):
        y = torch.nn.functional.linear(x, w)
        y = torch.nn.functional.silu(y)
        x = torch.nn.functional.layer_norm(y, y.shape[-1:])
    return x


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "vprof"
    torch.manual_seed(0)
    dev = torch.device("cuda")
    x = torch.randn(64, 1024, device=dev)
    w = torch.randn(1024, 1024, device=dev)
    workload(x, w)  # warm-up: cuBLAS handles, lazy module loading
    torch.cuda.synchronize()
    if mode == "vprof":
        torch.cuda.profiler.start()
        workload(x, w)
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
        print(json.dumps({"mode": "vprof"}))
    else:
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            workload(x, w)
            torch.cuda.synchronize()
        counts = {}
        for evt in prof.events():
            if evt.device_type == torch.autograd.DeviceType.CUDA and not evt.name.startswith(("Memcpy", "Memset")):
                counts[evt.name] = counts.get(evt.name, 0) + 1
        print(json.dumps({"mode": "torch", "kernels": counts}))


if __name__ == "__main__":
    main()
