/* Unit test of the permission verdicts of vprof-inject (src/inject/access.c): every refusal
 * maps to its exit code and names its remedy. Facts are built by hand, so the Yama and
 * LSM rows run here even though this kernel has no Yama and the tests run as root. */
#include "inject/access.h"
#include "inject/inject.h"

#include <stdio.h>
#include <string.h>

#include "test.h"

static struct access_facts allowed(void) {
    struct access_facts f = {0};
    f.pid = 1234;
    f.yama_scope = -1;
    f.same_ids = 1;
    f.target_dumpable = 1;
    f.ptrace_works = 1;
    return f;
}

/* The verdict for f: its exit code, and a message that names the remedy (when one is given). */
static void verdict_is(const struct access_facts *f, int after_eperm, int code, const char *remedy) {
    char msg[1024];
    EXPECT_EQ(access_verdict(f, after_eperm, msg, sizeof msg), code);
    if (remedy != NULL)
        EXPECT_CONTAINS(msg, remedy);
}

TEST(sameUserWithoutYamaIsAllowed) {
    struct access_facts f = allowed();
    verdict_is(&f, 0, EXIT_INJECTED, "same user");
}

TEST(tracedTargetIsRefusedWithExit7) {
    struct access_facts f = allowed();
    f.tracer = 99;
    verdict_is(&f, 0, EXIT_ALREADY_TRACED, "already traced by process 99");
}

TEST(seccompBanIsRefusedWithExit6AndNamesCapAdd) {
    struct access_facts f = allowed();
    f.ptrace_works = 0;
    f.seccomp_mode = 2;
    verdict_is(&f, 0, EXIT_SECCOMP, "--cap-add=SYS_PTRACE");
}

TEST(otherUsersProcessIsRefusedWithExit4) {
    struct access_facts f = allowed();
    f.same_ids = 0;
    verdict_is(&f, 0, EXIT_PERMISSION, "CAP_SYS_PTRACE");
}

TEST(capSysPtraceAllowsOtherUsersProcess) {
    struct access_facts f = allowed();
    f.same_ids = 0;
    f.cap_sys_ptrace = 1;
    verdict_is(&f, 0, EXIT_INJECTED, NULL);
}

TEST(nonDumpableTargetIsRefusedWithExit4) {
    struct access_facts f = allowed();
    f.target_dumpable = 0;
    verdict_is(&f, 0, EXIT_PERMISSION, "non-dumpable");
}

TEST(yamaScope1RefusesNonDescendantWithExit5AndTheEchoRemedy) {
    struct access_facts f = allowed();
    f.yama_scope = 1;
    verdict_is(&f, 0, EXIT_YAMA, "echo 0 | sudo tee /proc/sys/kernel/yama/ptrace_scope");
}

TEST(yamaScope1AllowsADescendant) {
    struct access_facts f = allowed();
    f.yama_scope = 1;
    f.is_descendant = 1;
    verdict_is(&f, 0, EXIT_INJECTED, NULL);
}

TEST(yamaScope1AllowsCapSysPtrace) {
    struct access_facts f = allowed();
    f.yama_scope = 1;
    f.cap_sys_ptrace = 1;
    verdict_is(&f, 0, EXIT_INJECTED, NULL);
}

TEST(yamaScope2NeedsCapSysPtrace) {
    struct access_facts f = allowed();
    f.yama_scope = 2;
    verdict_is(&f, 0, EXIT_YAMA, "ptrace_scope");
}

TEST(yamaScope2IsBlamedBeforeSeccompWhenTheProbeFails) {
    struct access_facts f = allowed();
    f.yama_scope = 2;
    f.ptrace_works = 0;
    verdict_is(&f, 0, EXIT_YAMA, NULL);
}

TEST(yamaScope3RefusesEvenRoot) {
    struct access_facts f = allowed();
    f.yama_scope = 3;
    f.cap_sys_ptrace = 1;
    verdict_is(&f, 0, EXIT_YAMA, "until reboot");
}

TEST(unexplainedEpermIsReportedAsPermission) {
    struct access_facts f = allowed();
    verdict_is(&f, 1, EXIT_PERMISSION, "LSM");
}

TEST_MAIN(
    CASE(sameUserWithoutYamaIsAllowed),
    CASE(tracedTargetIsRefusedWithExit7),
    CASE(seccompBanIsRefusedWithExit6AndNamesCapAdd),
    CASE(otherUsersProcessIsRefusedWithExit4),
    CASE(capSysPtraceAllowsOtherUsersProcess),
    CASE(nonDumpableTargetIsRefusedWithExit4),
    CASE(yamaScope1RefusesNonDescendantWithExit5AndTheEchoRemedy),
    CASE(yamaScope1AllowsADescendant),
    CASE(yamaScope1AllowsCapSysPtrace),
    CASE(yamaScope2NeedsCapSysPtrace),
    CASE(yamaScope2IsBlamedBeforeSeccompWhenTheProbeFails),
    CASE(yamaScope3RefusesEvenRoot),
    CASE(unexplainedEpermIsReportedAsPermission),
)
