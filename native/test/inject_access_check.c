/* Unit test of the permission verdicts of vprof-inject (src/inject/access.c): every refusal
 * maps to its exit code and names its remedy. Facts are built by hand, so the Yama and
 * LSM rows run here even though this kernel has no Yama and the tests run as root. */
#include "inject/access.h"
#include "inject/inject.h"

#include <stdio.h>
#include <string.h>

static int passed, failed;

static struct access_facts allowed(void) {
    struct access_facts f = {0};
    f.pid = 1234;
    f.yama_scope = -1;
    f.same_ids = 1;
    f.target_dumpable = 1;
    f.ptrace_works = 1;
    return f;
}

static void expect(const char *name, const struct access_facts *f, int after_eperm, int code,
                   const char *remedy) {
    char msg[1024];
    int got = access_verdict(f, after_eperm, msg, sizeof msg);
    if (got == code && (!remedy || strstr(msg, remedy))) {
        passed++;
        printf("ok %s\n", name);
    } else {
        failed++;
        printf("FAIL %s: exit %d (wanted %d), message: %s\n", name, got, code, msg);
    }
}

int main(void) {
    struct access_facts f = allowed();
    expect("sameUserWithoutYamaIsAllowed", &f, 0, EXIT_INJECTED, "same user");

    f = allowed(); f.tracer = 99;
    expect("tracedTargetIsRefusedWithExit7", &f, 0, EXIT_ALREADY_TRACED, "already traced by process 99");

    f = allowed(); f.ptrace_works = 0; f.seccomp_mode = 2;
    expect("seccompBanIsRefusedWithExit6AndNamesCapAdd", &f, 0, EXIT_SECCOMP, "--cap-add=SYS_PTRACE");

    f = allowed(); f.same_ids = 0;
    expect("otherUsersProcessIsRefusedWithExit4", &f, 0, EXIT_PERMISSION, "CAP_SYS_PTRACE");

    f = allowed(); f.same_ids = 0; f.cap_sys_ptrace = 1;
    expect("capSysPtraceAllowsOtherUsersProcess", &f, 0, EXIT_INJECTED, NULL);

    f = allowed(); f.target_dumpable = 0;
    expect("nonDumpableTargetIsRefusedWithExit4", &f, 0, EXIT_PERMISSION, "non-dumpable");

    f = allowed(); f.yama_scope = 1;
    expect("yamaScope1RefusesNonDescendantWithExit5AndTheEchoRemedy", &f, 0, EXIT_YAMA,
           "echo 0 | sudo tee /proc/sys/kernel/yama/ptrace_scope");

    f = allowed(); f.yama_scope = 1; f.is_descendant = 1;
    expect("yamaScope1AllowsADescendant", &f, 0, EXIT_INJECTED, NULL);

    f = allowed(); f.yama_scope = 1; f.cap_sys_ptrace = 1;
    expect("yamaScope1AllowsCapSysPtrace", &f, 0, EXIT_INJECTED, NULL);

    f = allowed(); f.yama_scope = 2;
    expect("yamaScope2NeedsCapSysPtrace", &f, 0, EXIT_YAMA, "ptrace_scope");

    f = allowed(); f.yama_scope = 2; f.ptrace_works = 0;
    expect("yamaScope2IsBlamedBeforeSeccompWhenTheProbeFails", &f, 0, EXIT_YAMA, NULL);

    f = allowed(); f.yama_scope = 3; f.cap_sys_ptrace = 1;
    expect("yamaScope3RefusesEvenRoot", &f, 0, EXIT_YAMA, "until reboot");

    f = allowed();
    expect("unexplainedEpermIsReportedAsPermission", &f, 1, EXIT_PERMISSION, "LSM");

    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
