#!/usr/bin/env bash
# Integration tests of vprof-inject against the small targets of inject_target.c.
#   inject_test.sh path/to/vprof-inject dir-with-test-binaries [test-name...]
# Each test waits for its targets through marker files (bounded polls, no timing assertions)
# and runs every injection under `timeout` so that a deadlock fails the test instead of
# hanging the build. Each test runs in a subshell under `set -e`; its processes are killed
# when it ends.
set -u
INJECT=$(realpath "$1")
BIN=$(realpath "$2")
WORK=$(mktemp -d /tmp/vprof-inject-test.XXXXXX)
chmod 755 "$WORK"
STARTED=()
passed=0 failed=0 skipped=0
trap 'rm -rf "$WORK"' EXIT

kill_started() {
    for p in "${STARTED[@]}"; do kill -9 "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
}

die() { echo "    $*"; exit 1; }

# wait_file FILE: up to 20 s for FILE to appear.
wait_file() {
    for _ in $(seq 2000); do [ -e "$1" ] && return 0; sleep 0.01; done
    die "timed out waiting for $1"
}

# wait_asleep PID: until the process's one thread sleeps in a system call (state S). A target
# that has just written its ready file may still be on its way to the call it waits in, and a
# thread seen first there and then in the call has moved: the injector then reads busy, not stuck.
wait_asleep() {
    local stat
    for _ in $(seq 2000); do
        stat=$(cat "/proc/$1/stat" 2>/dev/null) || die "process $1 is gone"
        stat=${stat##*) }
        [ "${stat%% *}" = S ] && return 0
        sleep 0.01
    done
    die "timed out waiting for process $1 to sleep"
}

newdir() { local d="$WORK/$1"; mkdir -p "$d"; chmod 755 "$d"; echo "$d"; }

# inject ARGS...: runs vprof-inject bounded by 60 s; sets rc, out, err.
inject() { run_cmd "$INJECT" "$@"; }

# run_cmd CMD ARGS...: the same for any command line (wrappers around vprof-inject).
run_cmd() {
    rc=0
    timeout 60 "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
    out=$(cat "$WORK/out")
    err=$(cat "$WORK/err")
}

# finish PID CODE: lets the target run to its end and checks its exit code.
finish() {
    local code=0
    wait "$1" || code=$?
    [ "$code" -eq "$2" ] || die "target exit code $code, wanted $2"
}

expect_rc() {
    [ "$rc" -eq "$1" ] || die "exit $rc, wanted $1; stdout: $out; stderr: $err"
}

# start_target MODE HOW PREFIX: starts `inject_target MODE DIR HOW` in a new directory, waits
# until it is ready, and sets d, lib (a fresh copy of inject_lib.so in d), pid, and tid (from
# the file DIR/PREFIX-TID the target touches).
start_target() {
    d=$(newdir "$1-$2"); lib="$d/lib$1.so"; cp "$BIN/inject_lib.so" "$lib"
    "$BIN/inject_target" "$1" "$d" "$2" >/dev/null 2>&1 & pid=$!; STARTED+=($pid)
    wait_file "$d/ready"
    for _ in $(seq 2000); do ls "$d" | grep -q "^$3-" && break; sleep 0.01; done
    tid=$(cd "$d" && ls "$3"-* | sed "s/^$3-//")
}

anon_exec_mappings() { grep -E ' ..xp 00000000 00:00 0 *$' "/proc/$1/maps" | wc -l; }

# ---- tests ----

# Two injections, one borrowing the main thread (blocked in nanosleep: restarted through
# restart_syscall) and one the reader thread (blocked in read: restarted with -ERESTARTSYS).
# A system call that returned EINTR, or any register not restored, would change the output.
plainTargetLoadsTheLibraryAndFinishesUnchanged() {
    local ref run lib lib2 pid code reader
    ref=$(newdir plain-ref); run=$(newdir plain-run)
    "$BIN/inject_target" wait "$ref" >"$ref/stdout" 2>&1 & pid=$!
    wait_file "$ref/ready"
    touch "$ref/go"; code=0; wait $pid || code=$?; echo $code >"$ref/code"

    lib="$run/libinjected.so"; cp "$BIN/inject_lib.so" "$lib"
    "$BIN/inject_target" wait "$run" >"$run/stdout" 2>&1 & pid=$!; STARTED+=($pid)
    wait_file "$run/ready"
    local anon_before; anon_before=$(anon_exec_mappings $pid)
    inject --pid $pid --lib "$lib" --thread $pid
    expect_rc 0
    [[ "$out" == "injected $lib into $pid (borrowed thread $pid, safe by its call chain of "*" frames)" ]] \
        || die "unexpected output: $out"
    [ -e "$lib.loaded.$pid" ] || die "the constructor did not run in the target"
    grep -q "$lib" "/proc/$pid/maps" || die "$lib is not in /proc/$pid/maps"
    reader=$(cd "$run" && ls reader-tid-* | sed 's/reader-tid-//')
    lib2="$run/libinjected2.so"; cp "$BIN/inject_lib.so" "$lib2"
    inject --pid $pid --lib "$lib2" --thread $reader
    expect_rc 0
    [ -e "$lib2.loaded.$pid" ] || die "the constructor did not run when borrowing the reader thread"
    [ "$(anon_exec_mappings $pid)" -eq "$anon_before" ] || die "the scratch pages were left mapped"
    grep -q '^TracerPid:[[:space:]]*0$' "/proc/$pid/status" || die "the target is still traced"
    touch "$run/go"; code=0; wait $pid || code=$?
    [ "$code" = "$(cat "$ref/code")" ] || die "exit code $code, uninjected run: $(cat "$ref/code")"
    diff "$ref/stdout" "$run/stdout" >/dev/null || die "output differs: $(diff "$ref/stdout" "$run/stdout")"
}

secondInjectionOfTheSameLibraryIsRefused() {
    local d pid lib
    d=$(newdir twice); lib="$d/libonce.so"; cp "$BIN/inject_lib.so" "$lib"
    "$BIN/inject_target" wait "$d" >/dev/null 2>&1 & pid=$!; STARTED+=($pid)
    wait_file "$d/ready"
    inject --pid $pid --lib "$lib"; expect_rc 0
    rm "$lib.loaded.$pid"
    inject --pid $pid --lib "$lib"; expect_rc 8
    [[ "$err" == *"already loaded"* ]] || die "message does not say already loaded: $err"
    [ ! -e "$lib.loaded.$pid" ] || die "the library was initialized a second time"
    # The same file name from another directory is refused too: it would be a second agent.
    mkdir "$d/other"; cp "$lib" "$d/other/libonce.so"
    inject --pid $pid --lib "$d/other/libonce.so"; expect_rc 8
    touch "$d/go"; finish $pid 42
}

# 100 injections into ONE busy target, each with a fresh copy of the library: every thread
# spends its life in malloc/free or dlopen/dlclose, so each injection has to find a safe
# point among them, and its loader thread races the churning dlopen. One long-lived target
# also accumulates what 100 injections leave behind (threads come and go, 100 libraries)
# and still has to finish with its integrity checks passing.
hundredInjectionsIntoABusyTargetNeitherDeadlockNorCorrupt() {
    local d pid i lib t0 t1 code
    d=$(newdir busy)
    "$BIN/inject_target" busy "$d" "$BIN/inject_tiny_lib.so" >"$d/stdout" 2>&1 & pid=$!; STARTED+=($pid)
    wait_file "$d/ready"
    t0=$(date +%s%N)
    for i in $(seq 100); do
        lib="$d/libbusy$i.so"; cp "$BIN/inject_lib.so" "$lib"
        inject --pid $pid --lib "$lib" --timeout-ms 20000
        [ "$rc" -eq 0 ] || die "injection $i: exit $rc: $err"
        [ -e "$lib.loaded.$pid" ] || die "injection $i: constructor did not run"
    done
    t1=$(date +%s%N)
    echo "    100 injections into a busy target: $(( (t1 - t0) / 100000000 )) ms wall per iteration (cp + vprof-inject)" >&3
    touch "$d/stop"; code=0; wait $pid || code=$?
    [ $code -eq 0 ] || die "busy target exit $code: $(cat "$d/stdout")"
    [ "$(cat "$d/stdout")" = "busy target: integrity ok" ] || die "busy target said: $(cat "$d/stdout")"
}

# A live frame holding dead return addresses into malloc and fork (what every forked worker
# keeps) refused the thread forever while safety came from a scan of every stack word. Decided
# from the real call chain, the thread is safe, and it is said which evidence decided.
staleWordsOnTheStackDoNotRefuseAThreadWhoseCallChainIsSafe() {
    local d pid lib code
    d=$(newdir stale); lib="$d/libstale.so"; cp "$BIN/inject_lib.so" "$lib"
    "$BIN/inject_target" stale "$d" >"$d/stdout" 2>&1 & pid=$!; STARTED+=($pid)
    wait_file "$d/ready"
    inject --pid $pid --explain; expect_rc 0
    echo "$out" | grep -q "^thread $pid (inject_target): safe; decided by its call chain of" \
        || die "main thread not judged safe by its call chain: $out"
    echo "$out" | grep -q "stale_frame_then_wait" || die "the walk missed the frame with the dead words: $out"
    inject --pid $pid --lib "$lib" --thread $pid --timeout-ms 2000; expect_rc 0
    [[ "$out" == *"safe by its call chain of"* ]] || die "does not say what decided: $out"
    [ -e "$lib.loaded.$pid" ] || die "the constructor did not run"
    touch "$d/go"; code=0; wait $pid || code=$?
    [ $code -eq 42 ] || die "target exit $code: $(cat "$d/stdout")"
    grep -q "interrupted" "$d/stdout" && die "a system call was not restarted: $(cat "$d/stdout")"
    true
}

# The unwinder follows a signal handler down into the code it interrupted: a handler that
# blocks on top of a library constructor (inside dlopen, holding the loader lock) is refused
# because the loader's frames are on the chain below the signal frame, not by a stack scan.
aSignalHandlerOnTopOfTheLoaderIsRefusedThroughTheSignalFrame() {
    local d pid
    d=$(newdir signal)
    "$BIN/inject_target" signal "$d" "$BIN/inject_hang_lib.so" >/dev/null 2>&1 & pid=$!; STARTED+=($pid)
    wait_file "$d/ready"
    kill -USR1 $pid
    wait_file "$d/in-handler"
    inject --pid $pid --explain; expect_rc 0
    echo "$out" | grep -q "not safe: the dynamic loader (ld-.*) is on its call chain (frame [0-9]*); decided by its call chain of" \
        || die "not refused by the call chain: $out"
    echo "$out" | grep -q "blocking_handler" || die "no handler frame: $out"
    echo "$out" | grep -q "<signal frame>" || die "no signal frame: $out"
    echo "$out" | grep -q "inject_hang_forever" || die "did not unwind past the signal frame: $out"
    inject --pid $pid --lib "$BIN/inject_lib.so" --timeout-ms 300
    [ "$rc" -eq 11 ] || die "exit $rc, wanted 11 (stuck): $err"
    [[ "$err" == *"none of which moved meanwhile"* ]] || die "does not say the thread is stuck: $err"
}

# Code without unwind tables (JIT code) stops the walk; the rest of the stack is then scanned,
# which is said, and a word into malloc there refuses the thread while a clean stack does not.
codeWithoutUnwindTablesFallsBackToTheStackScan() {
    local d pid tid lib
    for how in clean stale; do
        start_target nocfi $how nocfi-tid
        inject --pid $pid --lib "$lib" --thread $tid --timeout-ms 300
        if [ $how = clean ]; then
            expect_rc 0
            [[ "$out" == *"then a scan of the stack above, since no unwind table for"*"(anonymous memory)"* ]] \
                || die "does not say the scan decided: $out"
            [ -e "$lib.loaded.$pid" ] || die "the constructor did not run"
        else
            [ "$rc" -eq 11 ] || die "exit $rc, wanted 11: $err"
            [[ "$err" == *"a word on its stack points into malloc"*"then a scan of the stack above"* ]] \
                || die "does not name the scan and the word: $err"
            ! grep -q libnocfi "/proc/$pid/maps" || die "loaded anyway"
        fi
        touch "$d/stop"; finish $pid 0
    done
}

# glibc's aligned_alloc jumps (a tail call) into internal code that holds the malloc arena lock
# while it mmaps: no frame of an exported lock-taking function is left on the stack, and a
# stack scan saw nothing. The call instruction in the caller's frame names the function that
# was called; a seccomp user-notification filter holds the thread inside that mmap meanwhile.
aTailCallIntoTheAllocatorIsRefusedByItsCallSite() {
    local d pid tid
    d=$(newdir memalign)
    "$BIN/inject_target" memalign "$d" >/dev/null 2>&1 & pid=$!; STARTED+=($pid)
    for _ in $(seq 2000); do [ -e "$d/ready" ] || [ -e "$d/no-user-notif" ] && break; sleep 0.01; done
    [ -e "$d/no-user-notif" ] && { echo "    skipped: this kernel has no seccomp user notification"; exit 2; }
    wait_file "$d/ready"
    tid=$(cd "$d" && ls alloc-tid-* | sed 's/alloc-tid-//')
    inject --pid $pid --explain; expect_rc 0
    echo "$out" | grep -q "^thread $tid (inject_target): not safe: memalign (libc.so.6) was called and went on in internal code that takes its locks" \
        || die "the allocating thread was not refused by its call site: $out"
    inject --pid $pid --lib "$BIN/inject_lib.so" --thread $tid --timeout-ms 300; expect_rc 11
    ! grep -q inject_lib.so "/proc/$pid/maps" || die "loaded anyway"
    touch "$d/stop"; finish $pid 0
}

# sem_clockwait jumps to its slow path, so its own frame is gone too: the call site, followed
# through the PLT, shows an exported function that takes no lock (safe); a call through a
# function pointer in a register cannot be followed (unsafe, and said so).
tailCallsOutOfWaitingFunctionsAreFollowedThroughThePlt() {
    local d pid tid lib
    for how in direct pointer; do
        start_target semwait $how sem-tid
        inject --pid $pid --explain; expect_rc 0
        if [ $how = direct ]; then
            echo "$out" | grep -q "^thread $tid (inject_target): safe; decided by its call chain" || die "not safe: $out"
            inject --pid $pid --lib "$lib" --thread $tid --timeout-ms 2000; expect_rc 0
        else
            echo "$out" | grep -q "^thread $tid (inject_target): not safe: .*entered through a call that cannot be followed" \
                || die "not refused: $out"
        fi
        touch "$d/stop"; finish $pid 0
    done
}

# A CPython process shaped like a vLLM worker (inject_pytarget.py): a main thread busy in
# Python code under the GIL and in "CUDA" through ctypes, two Python threads that keep waking,
# libcuda's helper threads. Injected at any safe thread, it finishes with exactly the output of
# an uninjected run (its checksums catch a lost register or FP state).
aCPythonWorkerIsInjectedAndFinishesUnchanged() {
    local ref run pid lib code py sim
    py=$(command -v python3) || { echo "    skipped: no python3"; exit 2; }
    # Under make check-asan/check-tsan the simulated GPU library is sanitized; CPython is
    # not, so the sanitizer's runtime must be loaded first (CPython's own leaks are not ours).
    local pyrun=("$py")
    if [ -n "${SANITIZER_PRELOAD:-}" ]; then
        pyrun=(env "LD_PRELOAD=$SANITIZER_PRELOAD" "ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0" "$py")
        # ThreadSanitizer needs a position-independent executable; Debian's python3 is not one.
        "${pyrun[@]}" -c pass >/dev/null 2>&1 || { echo "    skipped: python3 does not start with $(basename "$SANITIZER_PRELOAD") preloaded"; exit 2; }
    fi
    sim="$(dirname "$INJECT")/libvprof-simgpu.so"
    [ -e "$sim" ] || die "$sim is not built"
    ref=$(newdir py-ref); run=$(newdir py-run)
    "${pyrun[@]}" "$BIN/inject_pytarget.py" "$sim" "$ref" 60000 >"$ref/stdout" 2>&1 || die "reference run failed: $(cat "$ref/stdout")"
    lib="$run/libpy.so"; cp "$BIN/inject_lib.so" "$lib"
    "${pyrun[@]}" "$BIN/inject_pytarget.py" "$sim" "$run" 60000 >"$run/stdout" 2>&1 & pid=$!; STARTED+=($pid)
    wait_file "$run/ready"
    inject --pid $pid --list-cuda; expect_rc 0
    [ "$out" = "$pid" ] || die "--list-cuda does not name the CPython target: $out"
    inject --pid $pid --lib "$lib" --timeout-ms 5000; expect_rc 0
    [ -e "$lib.loaded.$pid" ] || die "the constructor did not run"
    code=0; wait $pid || code=$?
    [ $code -eq 0 ] || die "exit $code: $(cat "$run/stdout")"
    [ "$(tail -1 "$run/stdout")" = "$(tail -1 "$ref/stdout")" ] \
        || die "result changed: $(tail -1 "$run/stdout") vs $(tail -1 "$ref/stdout")"
}

listCudaNamesOnlyTheWorkersThatMapLibcuda() {
    local d pid
    d=$(newdir tree)
    cp "$BIN/inject_tiny_lib.so" "$d/libcuda.so.1"
    "$BIN/inject_target" tree "$d" "$d/libcuda.so.1" >/dev/null 2>&1 & pid=$!; STARTED+=($pid)
    wait_file "$d/ready"
    inject --pid $pid --list-cuda; expect_rc 0
    [ "$(echo "$out" | sort)" = "$(sort "$d/children")" ] || die "listed [$out], workers are [$(cat "$d/children" | tr '\n' ' ')]"
    ! grep -q libcuda "/proc/$pid/maps" || die "the parent should not map libcuda"
    touch "$d/stop"; finish $pid 0
}

dlopenFailureInTheTargetReportsDlerror() {
    local d pid
    d=$(newdir badlib)
    "$BIN/inject_target" wait "$d" >"$d/stdout" 2>&1 & pid=$!; STARTED+=($pid)
    wait_file "$d/ready"
    inject --pid $pid --lib "$BIN/inject_bad_lib.so"; expect_rc 9
    [[ "$err" == *"undefined symbol: vprof_symbol_that_does_not_exist"* ]] || die "no dlerror text: $err"
    touch "$d/go"; finish $pid 42
}

# The only thread sits in a library constructor (inside dlopen, holding the loader lock),
# blocked in nanosleep: blocked in a system call, yet unsafe. The injector must notice the
# loader frames on its stack, keep its hands off and give up when its time is out.
noSafePointMeansTimeoutAndAnUntouchedTarget() {
    local d pid
    d=$(newdir hang)
    "$BIN/inject_target" hang "$d" "$BIN/inject_hang_lib.so" >/dev/null 2>&1 & pid=$!; STARTED+=($pid)
    wait_file "$d/ready"
    wait_asleep $pid
    inject --pid $pid --lib "$BIN/inject_lib.so" --timeout-ms 300; expect_rc 11
    [[ "$err" == *"no thread of process $pid was at a safe point within 300 ms"* ]] || die "message does not explain: $err"
    [[ "$err" == *"the dynamic loader"*"is on its call chain"*"decided by its call chain"* ]] || die "no reason: $err"
    kill -0 $pid || die "the target died"
    grep -q '^TracerPid:[[:space:]]*0$' "/proc/$pid/status" || die "the target is still traced"
    ! grep -q inject_lib.so "/proc/$pid/maps" || die "the library was loaded anyway"
}

missingProcessIsExit3() {
    local pid
    true & pid=$!; wait $pid
    inject --pid $pid --lib "$BIN/inject_lib.so"; expect_rc 3
    [[ "$err" == *"no such process $pid"* ]] || die "unclear message: $err"
}

targetTracedByADebuggerIsExit7() {
    local d pid tracer
    d=$(newdir traced); mkdir "$d/t"
    "$BIN/inject_target" wait "$d" >/dev/null 2>&1 & pid=$!; STARTED+=($pid)
    wait_file "$d/ready"
    "$BIN/inject_target" trace $pid "$d/t" & tracer=$!; STARTED+=($tracer)
    wait_file "$d/t/ready"
    inject --pid $pid --lib "$BIN/inject_lib.so"; expect_rc 7
    [[ "$err" == *"already traced by process $tracer"* ]] || die "unclear message: $err"
    inject --pid $pid --check; expect_rc 7
    kill -9 $tracer; wait $tracer 2>/dev/null || true
    touch "$d/go"; finish $pid 42
}

ptraceForbiddenBySeccompIsExit6WithTheContainerRemedy() {
    local d pid
    d=$(newdir seccomp)
    "$BIN/inject_target" wait "$d" >/dev/null 2>&1 & pid=$!; STARTED+=($pid)
    wait_file "$d/ready"
    inject --check --pid $pid
    expect_rc 0
    # LeakSanitizer needs ptrace for its exit-time scan, which this filter forbids.
    local noleaks="ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0"
    run_cmd env "$noleaks" "$BIN/inject_target" noptrace "$INJECT" --pid $pid --check
    expect_rc 6
    [[ "$err" == *"--cap-add=SYS_PTRACE"* ]] || die "no remedy: $err"
    run_cmd env "$noleaks" "$BIN/inject_target" noptrace "$INJECT" --pid $pid --lib "$BIN/inject_lib.so"
    expect_rc 6
    touch "$d/go"; finish $pid 42
}

# Needs root to act as two users: the injector runs as nobody against a root process, and
# both run as nobody with a target that made itself non-dumpable.
otherUsersAndNonDumpableProcessesAreExit4() {
    local d pid nobody=65534
    [ "$(id -u)" -eq 0 ] || { echo "    skipped: needs root to switch users"; exit 2; }
    d=$(newdir users)
    cp "$INJECT" "$BIN/inject_lib.so" "$BIN/inject_target" "$d/"
    "$BIN/inject_target" wait "$d" >/dev/null 2>&1 & pid=$!; STARTED+=($pid)
    wait_file "$d/ready"
    run_cmd "$d/inject_target" as-user $nobody "$d/vprof-inject" --pid $pid --lib "$d/inject_lib.so"
    expect_rc 4
    [[ "$err" == *"belongs to another user"* ]] || die "unclear message: $err"
    touch "$d/go"; finish $pid 42

    mkdir "$d/nd"; chmod 777 "$d/nd"
    "$d/inject_target" as-user $nobody "$d/inject_target" nondumpable "$d/nd" >/dev/null 2>&1 & pid=$!; STARTED+=($pid)
    wait_file "$d/nd/ready"
    run_cmd "$d/inject_target" as-user $nobody "$d/vprof-inject" --pid $pid --check
    expect_rc 4
    [[ "$err" == *"non-dumpable"* ]] || die "unclear message: $err"
    touch "$d/nd/stop"; finish $pid 0
}

# ---- runner ----
exec 3>&1
ALL_TESTS="plainTargetLoadsTheLibraryAndFinishesUnchanged secondInjectionOfTheSameLibraryIsRefused \
         hundredInjectionsIntoABusyTargetNeitherDeadlockNorCorrupt \
         staleWordsOnTheStackDoNotRefuseAThreadWhoseCallChainIsSafe \
         aSignalHandlerOnTopOfTheLoaderIsRefusedThroughTheSignalFrame \
         codeWithoutUnwindTablesFallsBackToTheStackScan \
         aTailCallIntoTheAllocatorIsRefusedByItsCallSite \
         tailCallsOutOfWaitingFunctionsAreFollowedThroughThePlt \
         aCPythonWorkerIsInjectedAndFinishesUnchanged \
         listCudaNamesOnlyTheWorkersThatMapLibcuda dlopenFailureInTheTargetReportsDlerror \
         noSafePointMeansTimeoutAndAnUntouchedTarget missingProcessIsExit3 \
         targetTracedByADebuggerIsExit7 ptraceForbiddenBySeccompIsExit6WithTheContainerRemedy \
         otherUsersAndNonDumpableProcessesAreExit4"
shift 2
for t in ${*:-$ALL_TESTS}; do
    r=0
    ( set -e; trap kill_started EXIT; $t ) || r=$?
    if [ $r -eq 0 ]; then passed=$((passed + 1)); echo "ok $t"
    elif [ $r -eq 2 ]; then skipped=$((skipped + 1)); echo "skip $t"
    else failed=$((failed + 1)); echo "FAIL $t"; fi
done
if [ $skipped -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"
else echo "$passed passed, $failed failed"; fi
[ $failed -eq 0 ]
