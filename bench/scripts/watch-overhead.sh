#!/usr/bin/env bash
# vprof watch's cost, side by side in one run, on the CUPTI test double (never a GPU figure):
# the target's CPU per kernel launch with no agent, with a dormant agent, watched armed all the
# time, and watched with --armed 10%; and in the armed run the watch's own CPU per second and the
# disk bytes per second its window takes, at about 300 k kernels/s.
#
# The target is `vprof-simgpu --serve` (each step 200 kernels, their simulated durations cut to
# 2 % so the GPU keeps up), fed 1500 steps a second from this script for SECONDS; its CPU is
# utime+stime from /proc/PID/stat over the steps, read once it has answered every one.
#
# Usage: bench/scripts/watch-overhead.sh [SECONDS]   (default 20; about 4 x SECONDS + 1 minute)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
native=native/target/native
[ -x "$native/vprof-simgpu" ] || make -C native >/dev/null
./vprof --version >/dev/null # builds the front end once
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "watch-overhead: ${seconds}s per case, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
python3 - "$seconds" "$native" "$work" <<'EOF'
import os, subprocess, sys, threading, time
seconds, native, work = int(sys.argv[1]), sys.argv[2], sys.argv[3]
KPS, STEP_K = 1500, 200
tick = os.sysconf("SC_CLK_TCK")

def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / tick  # utime + stime, seconds

def run(case, agent, watch_args):
    env = dict(os.environ)
    env.pop("VPROF_ARM", None)
    if agent:
        env["CUDA_INJECTION64_PATH"] = os.path.abspath(f"{native}/libvprof.so")
    else:
        env.pop("CUDA_INJECTION64_PATH", None)
    sim = subprocess.Popen([f"{native}/vprof-simgpu", "--serve", "--bare", "--kernels-per-step", str(STEP_K),
                            "--slow", "ernel:0.02"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=open(f"{work}/{case}.sim.err", "w"), env=env)
    watch = None
    wdir = f"{work}/{case}.w"
    if agent:
        region = f"/dev/shm/vprof.{sim.pid}"
        # a command before any step initializes the simulated CUDA, so the agent makes its region
        sim.stdin.write(b"step 1 1\n"); sim.stdin.flush(); sim.stdout.readline()
        while not os.path.exists(region):
            time.sleep(0.05)
    if watch_args is not None:
        log = open(f"{work}/{case}.watch.err", "w")
        watch = subprocess.Popen(["./vprof", "watch", "--pid", str(sim.pid), "--dir", wdir, "--keep", "10m",
                                  "--segment", "10s", "--max-disk", "8g"] + watch_args, stdout=log, stderr=log)
        while "recording the last" not in open(f"{work}/{case}.watch.err").read():
            time.sleep(0.1)
        time.sleep(1)
    done = [0]
    def replies():
        for line in sim.stdout:
            done[0] += 1
    threading.Thread(target=replies, daemon=True).start()
    steps = seconds * KPS
    c0 = cpu(sim.pid); w0 = cpu(watch.pid) if watch else 0; t0 = time.time()
    batch = b"step 1 1\n" * (KPS // 10)
    for i in range(seconds * 10):
        sim.stdin.write(batch); sim.stdin.flush()
        time.sleep(max(0, t0 + (i + 1) / 10 - time.time()))
    while done[0] < steps:
        time.sleep(0.01)
    wall = time.time() - t0
    c1 = cpu(sim.pid); w1 = cpu(watch.pid) if watch else 0
    kernels = steps * STEP_K
    row = {"case": case, "ns_per_launch": (c1 - c0) * 1e9 / kernels, "kps": kernels / wall}
    if watch:
        segs = f"{wdir}/segments"
        size = sum(os.path.getsize(f"{segs}/{f}") for f in os.listdir(segs) if f.endswith(".vprof"))
        row["watch_cpu_per_s"] = (w1 - w0) / wall
        row["disk_bytes_per_s"] = size / wall
    sim.stdin.write(b"exit\n"); sim.stdin.close(); sim.wait()
    if watch:
        watch.wait(timeout=60)
        row["watch_exit"] = watch.returncode
    return row

rows = [run("no agent", False, None), run("dormant agent", True, None),
        run("watch, armed 100%", True, []), run("watch, --armed 10%", True, ["--armed", "10%", "--armed-cycle", "10s"])]
base = rows[0]["ns_per_launch"]
print("| case | target CPU per launch | ratio to no agent | kernels/s reached | watch CPU (cores) | window disk/s |")
print("|---|---:|---:|---:|---:|---:|")
for r in rows:
    extra = (f"{r['watch_cpu_per_s']:.3f} | {r['disk_bytes_per_s'] / 1e6:.1f} MB/s" if "watch_cpu_per_s" in r else " | ")
    print(f"| {r['case']} | {r['ns_per_launch']:.1f} ns | {r['ns_per_launch'] / base:.2f} | {r['kps'] / 1e3:.0f} k | {extra} |")
EOF
echo "watch-overhead: load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
