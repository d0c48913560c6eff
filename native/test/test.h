/*
 * test.h: the runner and assertions of vprof's C tests. Include it in one
 * test program; everything is static.
 *
 *   TEST(recordsSurviveManyWrapsInOrder) { ... }   a case: static void, named for the behaviour
 *
 *   EXPECT_EQ(a, b)  EXPECT_NE  EXPECT_LT  EXPECT_LE  EXPECT_GT  EXPECT_GE
 *   EXPECT_STREQ(a, b)          two NUL-terminated strings are equal
 *   EXPECT_CONTAINS(text, part) text has part in it (strstr)
 *   EXPECT(cond)                any other condition (only the expression is printed)
 *       The case fails and goes on.
 *   ASSERT_EQ ... ASSERT_CONTAINS, ASSERT(cond), FAIL(fmt, ...)
 *       The case fails and stops there (a longjmp back to the runner), so an
 *       ASSERT works in helpers too. On a thread other than the case's an
 *       ASSERT cannot stop the case: it fails it and goes on, as an EXPECT;
 *       in a process the case forked it ends that process with status 1.
 *   SKIP(fmt, ...)              the case stops and counts as skipped, saying why
 *
 * A case that ends without having checked anything (no EXPECT, ASSERT or FAIL
 * reached, on any of its threads) fails: "made no assertion", since a test that
 * cannot fail shows nothing. Checks made in a process the case forked count
 * there, not here: the case asserts on that process's exit status instead.
 *
 * A failure names the place, the case, the expression and both values:
 *   test/ring_test.c:74: recordsSurviveManyWrapsInOrder: EXPECT_EQ(oc.count, seq) failed:
 *       oc.count is 9999, seq is 10000
 * Each operand is evaluated once; the comparison is C's own, with the usual
 * arithmetic conversions, exactly as `a == b` written out.
 *
 *   int main(int argc, char **argv)
 *   {
 *       static const struct test_case cases[] = { CASE(a), FORKED(b), FRESH(c) };
 *       return test_main(argc, argv, cases, TEST_COUNT(cases));
 *   }
 *
 * A program that needs nothing done before its cases writes that main as
 *
 *   TEST_MAIN(
 *       CASE(a),
 *       FORKED(b),
 *       FRESH(c),
 *   )
 *
 * CASE runs in this process, FORKED in a forked child (its state dies with
 * it), FRESH in a new process (this program run again with the case's name:
 * state that lasts for a process, such as a library's one-time init, starts
 * anew: `prog --case NAME`). `prog NAME...` runs the named cases only. Output: "ok   name",
 * "FAIL name", "skip name: why", then "N passed, M failed[, K skipped]";
 * the exit status is 1 when a case failed.
 */
#ifndef VPROF_TEST_H
#define VPROF_TEST_H

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEST(name) static void name(void)

/* Everything here is static, and a program uses what it needs. */
#define TEST_HELPER_ static __attribute__((unused))

enum test_how { TEST_HERE, TEST_IN_FORK, TEST_IN_NEW_PROCESS };
struct test_case {
    const char *name;
    void (*fn)(void);
    enum test_how how;
};
#define CASE(name)   { #name, name, TEST_HERE }
#define FORKED(name) { #name, name, TEST_IN_FORK }
#define FRESH(name)  { #name, name, TEST_IN_NEW_PROCESS }
#define TEST_COUNT(cases) (sizeof (cases) / sizeof (cases)[0])

/* The main shown above, with the cases given (a trailing comma is allowed). */
#define TEST_MAIN(...)                                                   \
    int main(int argc, char **argv)                                      \
    {                                                                    \
        static const struct test_case cases[] = { __VA_ARGS__ };         \
        return test_main(argc, argv, cases, TEST_COUNT(cases));          \
    }

/*
 * Called after every case, in the runner's process, with whether it failed
 * (a front end kills the target a failed case left running). Optional.
 */
static void (*test_after_each)(int failed);

/* This program's path, set by test_main (a case that runs the program again uses it). */
static char test_self[4096];

/* ---- the running case ---- */

enum { TEST_EXIT_SKIPPED = 77 }; /* a FORKED or FRESH case that skipped (automake's number) */

static struct {
    const char *name;
    pid_t pid;
    pthread_t thread;
    int failed;  /* atomic: an EXPECT may fail on another thread */
    int skipped;
    long checks; /* atomic: EXPECTs, ASSERTs and FAILs reached in this case */
    jmp_buf stop;
} test_now;

__attribute__((format(printf, 4, 5)))
TEST_HELPER_ void test_report_(const char *file, int line, int fatal, const char *fmt, ...)
{
    fflush(stdout);
    fprintf(stderr, "  %s:%d: %s: ", file, line, test_now.name != NULL ? test_now.name : "?");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    __atomic_store_n(&test_now.failed, 1, __ATOMIC_RELAXED);
    if (!fatal || test_now.name == NULL)
        return;
    if (getpid() != test_now.pid) /* a process the case forked: it ends, failed */
        _exit(1);
    if (pthread_equal(pthread_self(), test_now.thread))
        longjmp(test_now.stop, 1);
}

__attribute__((format(printf, 1, 2), noreturn))
TEST_HELPER_ void test_skip_(const char *fmt, ...)
{
    fflush(stdout);
    printf("skip %s: ", test_now.name);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    test_now.skipped = 1;
    longjmp(test_now.stop, 1);
}

/* Every check counts, whether it holds or not; see "made no assertion". */
#define TEST_CHECKED_() __atomic_add_fetch(&test_now.checks, 1, __ATOMIC_RELAXED)

/* Whether the running case has failed so far (to print what it was looking at). */
TEST_HELPER_ int test_case_has_failed(void)
{
    return __atomic_load_n(&test_now.failed, __ATOMIC_RELAXED);
}

/* ---- values, printed by their C type ---- */

typedef struct { char text[96]; } test_value_;

TEST_HELPER_ test_value_ test_signed_(long long v)
{
    test_value_ s;
    snprintf(s.text, sizeof s.text, "%lld", v);
    return s;
}

TEST_HELPER_ test_value_ test_unsigned_(unsigned long long v)
{
    test_value_ s;
    /* flags and masks read better in hex as well */
    if (v > 0xffffu)
        snprintf(s.text, sizeof s.text, "%llu (0x%llx)", v, v);
    else
        snprintf(s.text, sizeof s.text, "%llu", v);
    return s;
}

TEST_HELPER_ test_value_ test_char_(char v)
{
    test_value_ s;
    if (v >= 0x20 && v < 0x7f)
        snprintf(s.text, sizeof s.text, "'%c'", v);
    else
        snprintf(s.text, sizeof s.text, "%d", (int)v);
    return s;
}

TEST_HELPER_ test_value_ test_double_(long double v)
{
    test_value_ s;
    snprintf(s.text, sizeof s.text, "%.17Lg", v);
    return s;
}

TEST_HELPER_ test_value_ test_pointer_(const volatile void *v)
{
    test_value_ s;
    snprintf(s.text, sizeof s.text, "%p", (const void *)v);
    return s;
}

#define TEST_VALUE_(v) _Generic((v),                                                      \
    _Bool: test_unsigned_, char: test_char_,                                              \
    signed char: test_signed_, short: test_signed_, int: test_signed_,                    \
    long: test_signed_, long long: test_signed_,                                          \
    unsigned char: test_unsigned_, unsigned short: test_unsigned_,                        \
    unsigned int: test_unsigned_, unsigned long: test_unsigned_,                          \
    unsigned long long: test_unsigned_,                                                   \
    float: test_double_, double: test_double_, long double: test_double_,                 \
    default: test_pointer_)(v)

/*
 * One comparison. The operands are copied once (__auto_type decays arrays as
 * the expression would); -Wsign-compare is silenced for the copies only:
 * `x == 1` with an unsigned x is quiet because 1 is a constant, and the copy
 * of 1 is not one any more.
 */
#define TEST_COMPARE_(fatal, macro, a, op, b) do {                                        \
    TEST_CHECKED_();                                                                      \
    _Pragma("GCC diagnostic push")                                                        \
    _Pragma("GCC diagnostic ignored \"-Wsign-compare\"")                                  \
    __auto_type test_a_ = (a);                                                            \
    __auto_type test_b_ = (b);                                                            \
    if (!(test_a_ op test_b_))                                                            \
        test_report_(__FILE__, __LINE__, fatal, "%s(%s, %s) failed: %s is %s, %s is %s",   \
                     macro, #a, #b, #a, TEST_VALUE_(test_a_).text, #b, TEST_VALUE_(test_b_).text); \
    _Pragma("GCC diagnostic pop")                                                         \
} while (0)

/* A string for a failure message: quoted, cut at 300 bytes, or (null). */
typedef struct { char text[320]; } test_quoted_;
TEST_HELPER_ test_quoted_ test_quote_(const char *s)
{
    test_quoted_ q;
    if (s == NULL)
        snprintf(q.text, sizeof q.text, "(null)");
    else
        snprintf(q.text, sizeof q.text, "\"%.300s\"%s", s, strlen(s) > 300 ? "..." : "");
    return q;
}

#define TEST_STREQ_(fatal, macro, a, b) do {                                              \
    TEST_CHECKED_();                                                                      \
    const char *test_a_ = (a), *test_b_ = (b);                                            \
    if (test_a_ == NULL || test_b_ == NULL || strcmp(test_a_, test_b_) != 0)              \
        test_report_(__FILE__, __LINE__, fatal, "%s(%s, %s) failed: %s is %s, %s is %s",   \
                     macro, #a, #b, #a, test_quote_(test_a_).text, #b, test_quote_(test_b_).text); \
} while (0)

#define TEST_CONTAINS_(fatal, macro, hay, part) do {                                      \
    TEST_CHECKED_();                                                                      \
    const char *test_a_ = (hay), *test_b_ = (part);                                      \
    if (test_a_ == NULL || test_b_ == NULL || strstr(test_a_, test_b_) == NULL)           \
        test_report_(__FILE__, __LINE__, fatal, "%s(%s, %s) failed: %s has no %s", macro, #hay,  \
                     #part, test_quote_(test_a_).text, test_quote_(test_b_).text);        \
} while (0)

#define TEST_TRUE_(fatal, macro, cond) do {                                               \
    TEST_CHECKED_();                                                                      \
    if (!(cond))                                                                          \
        test_report_(__FILE__, __LINE__, fatal, "%s(%s) failed", macro, #cond);           \
} while (0)

#define EXPECT(cond)                TEST_TRUE_(0, "EXPECT", cond)
#define EXPECT_EQ(a, b)             TEST_COMPARE_(0, "EXPECT_EQ", a, ==, b)
#define EXPECT_NE(a, b)             TEST_COMPARE_(0, "EXPECT_NE", a, !=, b)
#define EXPECT_LT(a, b)             TEST_COMPARE_(0, "EXPECT_LT", a, <, b)
#define EXPECT_LE(a, b)             TEST_COMPARE_(0, "EXPECT_LE", a, <=, b)
#define EXPECT_GT(a, b)             TEST_COMPARE_(0, "EXPECT_GT", a, >, b)
#define EXPECT_GE(a, b)             TEST_COMPARE_(0, "EXPECT_GE", a, >=, b)
#define EXPECT_STREQ(a, b)          TEST_STREQ_(0, "EXPECT_STREQ", a, b)
#define EXPECT_CONTAINS(text, part) TEST_CONTAINS_(0, "EXPECT_CONTAINS", text, part)

#define ASSERT(cond)                TEST_TRUE_(1, "ASSERT", cond)
#define ASSERT_EQ(a, b)             TEST_COMPARE_(1, "ASSERT_EQ", a, ==, b)
#define ASSERT_NE(a, b)             TEST_COMPARE_(1, "ASSERT_NE", a, !=, b)
#define ASSERT_LT(a, b)             TEST_COMPARE_(1, "ASSERT_LT", a, <, b)
#define ASSERT_LE(a, b)             TEST_COMPARE_(1, "ASSERT_LE", a, <=, b)
#define ASSERT_GT(a, b)             TEST_COMPARE_(1, "ASSERT_GT", a, >, b)
#define ASSERT_GE(a, b)             TEST_COMPARE_(1, "ASSERT_GE", a, >=, b)
#define ASSERT_STREQ(a, b)          TEST_STREQ_(1, "ASSERT_STREQ", a, b)
#define ASSERT_CONTAINS(text, part) TEST_CONTAINS_(1, "ASSERT_CONTAINS", text, part)

#define FAIL(...)                   (TEST_CHECKED_(), test_report_(__FILE__, __LINE__, 1, __VA_ARGS__))
#define SKIP(...)                   test_skip_(__VA_ARGS__)

/* ---- the runner ---- */

enum test_verdict { TEST_PASSED, TEST_FAILED, TEST_SKIPPED };

/* Runs one case in this process. */
TEST_HELPER_ enum test_verdict test_run_here_(const struct test_case *c)
{
    test_now.name = c->name;
    test_now.pid = getpid();
    test_now.thread = pthread_self();
    test_now.failed = 0;
    test_now.skipped = 0;
    test_now.checks = 0;
    if (setjmp(test_now.stop) == 0)
        c->fn();
    fflush(stdout);
    if (!test_now.skipped && __atomic_load_n(&test_now.checks, __ATOMIC_RELAXED) == 0) {
        fprintf(stderr, "  %s: made no assertion (a case must check something: EXPECT, ASSERT or FAIL)\n",
                c->name);
        __atomic_store_n(&test_now.failed, 1, __ATOMIC_RELAXED);
    }
    fflush(stderr);
    if (__atomic_load_n(&test_now.failed, __ATOMIC_RELAXED))
        return TEST_FAILED;
    return test_now.skipped ? TEST_SKIPPED : TEST_PASSED;
}

TEST_HELPER_ int test_exit_status_(enum test_verdict v)
{
    return v == TEST_PASSED ? 0 : v == TEST_SKIPPED ? TEST_EXIT_SKIPPED : 1;
}

TEST_HELPER_ enum test_verdict test_verdict_of_(pid_t pid, const char *name)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "  %s: waitpid: %s\n", name, strerror(errno));
            return TEST_FAILED;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return TEST_PASSED;
    if (WIFEXITED(status) && WEXITSTATUS(status) == TEST_EXIT_SKIPPED)
        return TEST_SKIPPED;
    if (WIFSIGNALED(status))
        fprintf(stderr, "  %s: its process died of signal %d\n", name, WTERMSIG(status));
    else if (WEXITSTATUS(status) != 1)
        fprintf(stderr, "  %s: its process exited %d\n", name, WEXITSTATUS(status));
    return TEST_FAILED;
}

TEST_HELPER_ enum test_verdict test_run_(const struct test_case *c, const char *self)
{
    fflush(stdout);
    fflush(stderr);
    if (c->how == TEST_HERE)
        return test_run_here_(c);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "  %s: fork: %s\n", c->name, strerror(errno));
        return TEST_FAILED;
    }
    if (pid == 0) {
        if (c->how == TEST_IN_FORK) /* exit, not _exit: atexit handlers (an agent's) run */
            exit(test_exit_status_(test_run_here_(c)));
        execl(self, self, "--case", c->name, (char *)NULL);
        fprintf(stderr, "  %s: cannot run %s again: %s\n", c->name, self, strerror(errno));
        _exit(1);
    }
    return test_verdict_of_(pid, c->name);
}

TEST_HELPER_ int test_main(int argc, char **argv, const struct test_case *cases, size_t n)
{
    ssize_t len = readlink("/proc/self/exe", test_self, sizeof test_self - 1);
    if (len <= 0) {
        fprintf(stderr, "%s: cannot read /proc/self/exe\n", argv[0]);
        return 2;
    }
    test_self[len] = '\0';
    /* `--case NAME`: the new process of a FRESH case; the exit status is the verdict. */
    const int child = argc == 3 && strcmp(argv[1], "--case") == 0;
    for (int a = child ? 2 : 1; a < argc; a++) {
        size_t i = 0;
        while (i < n && strcmp(cases[i].name, argv[a]) != 0)
            i++;
        if (i == n) {
            fprintf(stderr, "%s: no case named %s\n", argv[0], argv[a]);
            return 2;
        }
    }
    int passed = 0, failed = 0, skipped = 0;
    for (size_t i = 0; i < n; i++) {
        int wanted = argc < 2;
        for (int a = child ? 2 : 1; a < argc && !wanted; a++)
            wanted = strcmp(cases[i].name, argv[a]) == 0;
        if (!wanted)
            continue;
        if (child)
            return test_exit_status_(test_run_here_(&cases[i]));
        const enum test_verdict v = test_run_(&cases[i], test_self);
        if (v == TEST_PASSED) {
            passed++;
            printf("ok   %s\n", cases[i].name);
        } else if (v == TEST_FAILED) {
            failed++;
            printf("FAIL %s\n", cases[i].name);
        } else {
            skipped++; /* the case said why */
        }
        fflush(stdout);
        if (test_after_each != NULL)
            test_after_each(v == TEST_FAILED);
    }
    test_now.name = NULL;
    if (skipped)
        printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    else
        printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

#endif /* VPROF_TEST_H */
