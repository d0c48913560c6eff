#!/usr/bin/env bash
# The C test runner (test/test.h) holds its own rules: a case that checks nothing fails with
# "made no assertion", a case that checks something passes (also when the check is made on
# another thread or in a FORKED case), and a SKIP is not a failure. Builds a small program of
# such cases and reads what the runner printed.
#   runner_selftest.sh [CC]
set -u
cc=${1:-${CC:-gcc}}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/vprof-runner.XXXXXX)
trap 'rm -rf "$work"' EXIT
cat >"$work/cases.c" <<'C'
#include "test.h"
TEST(checksNothing) { int x = 1; (void)x; }
TEST(checksSomething) { EXPECT_EQ(1 + 1, 2); }
static void *on_thread(void *arg) { (void)arg; EXPECT(1); return NULL; }
TEST(checksOnAnotherThread) { pthread_t t; pthread_create(&t, NULL, on_thread, NULL); pthread_join(t, NULL); }
TEST(skipsSaying) { SKIP("nothing to run here"); }
TEST(forkedChecksNothing) { }
TEST(forkedChecksSomething) { ASSERT_STREQ("a", "a"); }
int main(int argc, char **argv)
{
    static const struct test_case cases[] = { CASE(checksNothing), CASE(checksSomething),
        CASE(checksOnAnotherThread), CASE(skipsSaying), FORKED(forkedChecksNothing), FORKED(forkedChecksSomething) };
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
C
"$cc" -std=gnu11 -Wall -Wextra -Werror -pthread -I"$here" -o "$work/cases" "$work/cases.c" || { echo "FAIL the cases do not build"; exit 1; }
"$work/cases" >"$work/out" 2>"$work/err"; status=$?
failed=0
expect() { # PATTERN FILE WHAT
    if grep -q -- "$1" "$2"; then echo "ok   $3"; else echo "FAIL $3: no '$1' in $(basename "$2")"; failed=$((failed + 1)); fi
}
expect '^FAIL checksNothing$' "$work/out" "a case that checks nothing fails"
expect 'checksNothing: made no assertion' "$work/err" "and says it made no assertion"
expect '^FAIL forkedChecksNothing$' "$work/out" "a FORKED case that checks nothing fails too"
expect '^ok   checksSomething$' "$work/out" "a case that checks something passes"
expect '^ok   checksOnAnotherThread$' "$work/out" "a check on another thread counts"
expect '^ok   forkedChecksSomething$' "$work/out" "a check in a FORKED case counts"
expect '^skip skipsSaying: nothing to run here$' "$work/out" "a SKIP is no failure"
expect '^3 passed, 2 failed, 1 skipped$' "$work/out" "the counts"
[ "$status" = 1 ] && echo "ok   exit status 1" || { echo "FAIL exit status $status, not 1"; failed=$((failed + 1)); }
echo "runner self-test: $failed failed"
[ "$failed" = 0 ]
