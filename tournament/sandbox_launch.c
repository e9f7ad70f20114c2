/* The last step of a bot's start inside its sandbox (tournament/sandbox.py; docs/tournament.md,
 * "Fair play"): bwrap execs this program, which sets what bwrap cannot and then execs the bot.
 *
 *     sandbox-launch [--nproc N] [--uid ID] -- PROGRAM [ARG...]
 *
 *   --nproc N  the process limit (RLIMIT_NPROC).  An unprivileged organiser's bot: inside its user
 *              namespace the limit counts that namespace's processes, so it is set here rather
 *              than on bwrap, whose count would be the organiser's.
 *   --uid ID   root organiser: drop to user and group ID with no supplementary groups, so the bot
 *              reads files as "others" do and can signal no other bot.
 *
 * Then every capability set is emptied (the inheritable one survives a change of user id) and
 * PROGRAM is executed, looked up on PATH if it has no slash.  One small exec: util-linux's setpriv
 * and prlimit did the same in two, measured at 1.7 ms of a bot's start against 0.5 ms here.
 *
 * Errors go to stderr, prefixed "sandbox-launch:", with exit status 126 (a step failed, or
 * PROGRAM is not executable) or 127 (PROGRAM not found), as a shell reports them. */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static int fail(const char *what) {
    fprintf(stderr, "sandbox-launch: %s: %s\n", what, strerror(errno));
    return 126;
}

static int number(const char *text, unsigned long *out) {
    char *end;
    errno = 0;
    *out = strtoul(text, &end, 10);
    return errno == 0 && *text != '\0' && *text != '-' && *end == '\0';
}

int main(int argc, char **argv) {
    unsigned long nproc = 0, uid = 0;
    int has_nproc = 0, has_uid = 0, i = 1;
    for (; i + 1 < argc && strcmp(argv[i], "--") != 0; i += 2) {
        if (strcmp(argv[i], "--nproc") == 0 && number(argv[i + 1], &nproc))
            has_nproc = 1;
        else if (strcmp(argv[i], "--uid") == 0 && number(argv[i + 1], &uid) && uid > 0 && uid < 0xffffffffUL)
            has_uid = 1;
        else
            break;
    }
    if (i >= argc || strcmp(argv[i], "--") != 0 || i + 1 >= argc) {
        fprintf(stderr, "usage: sandbox-launch [--nproc N] [--uid ID] -- PROGRAM [ARG...]\n");
        return 126;
    }
    if (has_nproc) {
        struct rlimit limit = {nproc, nproc};
        if (setrlimit(RLIMIT_NPROC, &limit) != 0)
            return fail("setrlimit(RLIMIT_NPROC)");
    }
    if (has_uid) {
        /* Groups first: after the user id changes, the right to change them is gone. */
        if (setgroups(0, NULL) != 0)
            return fail("setgroups");
        if (setresgid((gid_t)uid, (gid_t)uid, (gid_t)uid) != 0)
            return fail("setresgid");
        if (setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid) != 0)
            return fail("setresuid");
    }
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3];
    memset(none, 0, sizeof none);
    if (syscall(SYS_capset, &header, none) != 0)
        return fail("capset");
    execvp(argv[i + 1], argv + i + 1);
    int status = errno == ENOENT ? 127 : 126;
    fprintf(stderr, "sandbox-launch: cannot run %s: %s\n", argv[i + 1], strerror(errno));
    return status;
}
