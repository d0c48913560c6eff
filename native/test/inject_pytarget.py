"""A CPython process shaped like a vLLM GPU worker, for late-injection tests and figures.

    python3 inject_pytarget.py LIBVPROF_SIMGPU DIR STEPS

It loads the simulated GPU (libvprof-simgpu.so) through ctypes and initializes "CUDA", which
starts libcuda's helper threads (cuda-EvtHandlr in poll, a driver worker in a condition wait).
Then, like a worker's engine loop, the main thread runs STEPS steps: Python code that holds the
GIL (integer and float arithmetic: a lost register or FP state shows in the checksums), then
one step of GPU work through ctypes (which releases the GIL). Two Python threads keep waking
up, as a worker's RPC and metrics threads do: one waits on a queue, one sleeps; each takes the
GIL when it wakes. DIR/ready appears once CUDA is up; DIR/stop ends the loop early.

The last line on stdout is deterministic for given STEPS, whatever the timing:
    pytarget: steps=S kernels=K checksum=C fsum=F
so an injected run can be compared with an uninjected one. Exit status 0, or 1 when the
GPU's kernel count is not exactly 40 per step. Standard library only.
"""
import ctypes
import os
import queue
import sys
import threading
import time

KERNELS_PER_STEP = 40


def touch(path):
    with open(path, "w"):
        pass


def rpc_thread(inbox, stop):
    # An RPC thread: blocked in a timed queue wait (a condition variable, in C: sem/futex).
    while not stop.is_set():
        try:
            inbox.get(timeout=0.05)
        except queue.Empty:
            pass


def metrics_thread(stop, samples):
    # A metrics thread: sleeps, wakes, does a little Python work under the GIL.
    while not stop.is_set():
        time.sleep(0.02)
        samples.append(sum(range(100)))
        del samples[:-10]


def python_work(step, acc, facc):
    # What an engine step does on the CPU besides launching kernels: scheduling, sampling.
    for i in range(64):
        acc = (acc * 1000003 + step * 131 + i) % 2147483647
        facc = facc * 0.999 + (step % 97) * 0.5 + i * 1e-3
    return acc, facc


def main():
    lib_path, out_dir, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    lib = ctypes.CDLL(lib_path)
    lib.simgpu_open.restype = ctypes.c_int
    lib.simgpu_open.argtypes = [ctypes.c_uint64, ctypes.c_int, ctypes.c_int]
    lib.simgpu_run_steps.restype = ctypes.c_uint64
    lib.simgpu_run_steps.argtypes = [ctypes.c_int64]
    lib.simgpu_open(1, KERNELS_PER_STEP, 2)

    stop = threading.Event()
    inbox = queue.Queue()
    samples = []
    helpers = [threading.Thread(target=rpc_thread, args=(inbox, stop), name="rpc"),
               threading.Thread(target=metrics_thread, args=(stop, samples), name="metrics")]
    for t in helpers:
        t.start()
    touch(os.path.join(out_dir, "ready"))
    stop_file = os.path.join(out_dir, "stop")

    acc, facc, kernels, done = 7, 0.0, 0, 0
    for step in range(steps):
        acc, facc = python_work(step, acc, facc)
        kernels = lib.simgpu_run_steps(1)
        done += 1
        if step % 4096 == 0 and os.path.exists(stop_file):
            break
    stop.set()
    for t in helpers:
        t.join()
    print(f"pytarget: steps={done} kernels={kernels} checksum={acc} fsum={facc!r}", flush=True)
    return 0 if kernels == done * KERNELS_PER_STEP else 1


if __name__ == "__main__":
    sys.exit(main())
