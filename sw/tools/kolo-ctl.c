/* kolo-ctl - look at and poke the service side of a running kolo torus:
 * link states, counters, routing tables, firmware events of any node, and in
 * simulation, fault injection. Talks to kolo-sim's control socket (one
 * command per connection; the simulator formats the answer).
 *
 *   kolo-ctl [--sim=SOCKET] COMMAND [ARGS]      (kolo-ctl help: the commands)
 *
 * The socket: --sim, else $KOLO_SIM_CTL (kolo-sim sets it for its PEs), else
 * the one /tmp/kolo-sim.*.ctl present. Exit: 0 ok, 1 the command failed,
 * 2 usage, 3 no simulator reachable.
 *
 *   kolo-ctl --device=URI COMMAND [ARGS]        a real card (kolo_ctl_dev.c)
 *
 * URI as for kolo_open: vfio:<bdf> (a PCIe card), uart:<tty>[@baud] (the
 * ECP5 board over its UART); the commands read the node's own registers
 * (exit 3: the device cannot be opened). */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static const char usage[] =
    "usage: kolo-ctl [--sim=SOCKET | --device=URI] COMMAND [ARGS]\n"
    "  --device=URI: a card (vfio:<bdf>, uart:<tty>[@baud]): its own node only\n"
    "commands (NODE: node index, or x,y,z; PORT: 0..5 or X+ X- Y+ Y- Z+ Z-):\n"
    "  status                      every node: firmware stage, table epoch, fault digest, ports down\n"
    "  links NODE                  each link: state, peer, CRC errors, replays, frames, downs\n"
    "  counters NODE               router and NI counters, mailbox and event counters\n"
    "  table NODE                  the active routing table, decoded\n"
    "  events NODE                 the node firmware's recent log\n"
    "  read NODE ADDR              a service register (docs/registers.md)\n"
    "  write NODE ADDR VALUE       as the host through BAR0 (needs SYS_HOST_ACCESS.WRITE_EN)\n"
    "  fail-link NODE PORT         simulation: the cable on that port fails (both directions)\n"
    "  restore-link NODE PORT      simulation: it works again\n"
    "  fail-node NODE              simulation: the node dies (router, links, firmware)\n"
    "  restore-node NODE           simulation: it comes back and reboots\n"
    "  console [SECONDS]           --device=uart:...: the service processor's console\n"
    "  bridge                      --device=uart:...: the UART bridge's counters\n"
    "  msg send NODE TEXT          --device=uart:...: a host message (1..32 bytes) to NODE's host\n"
    "  msg recv                    --device=uart:...: take the oldest host message for this node\n"
    "  msg counters                --device=uart:...: the firmware's host-message counters\n"
    "  help                        this text\n";

static int find_socket(char *out, size_t len) {
    const char *e = getenv("KOLO_SIM_CTL");
    if (e && *e) {
        snprintf(out, len, "%s", e);
        return 0;
    }
    glob_t g;
    int rc = glob("/tmp/kolo-sim.*.ctl", 0, NULL, &g);
    if (rc != 0 || g.gl_pathc == 0) {
        fprintf(stderr, "kolo-ctl: no running kolo-sim found (no /tmp/kolo-sim.*.ctl; give --sim=SOCKET)\n");
        globfree(&g);
        return -1;
    }
    if (g.gl_pathc > 1) {
        fprintf(stderr, "kolo-ctl: several simulators run; choose one with --sim=:\n");
        for (size_t i = 0; i < g.gl_pathc; i++) fprintf(stderr, "  %s\n", g.gl_pathv[i]);
        globfree(&g);
        return -1;
    }
    snprintf(out, len, "%s", g.gl_pathv[0]);
    globfree(&g);
    return 0;
}

int kolo_ctl_device(const char *uri, int argc, char **argv);

int main(int argc, char **argv) {
    char path[108] = "";
    const char *device = NULL;
    int i = 1;
    if (i < argc && !strncmp(argv[i], "--sim=", 6)) {
        snprintf(path, sizeof path, "%s", argv[i] + 6);
        i++;
    } else if (i < argc && !strncmp(argv[i], "--device=", 9)) {
        device = argv[i] + 9;
        i++;
    }
    if (i >= argc || !strcmp(argv[i], "help") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
        fputs(usage, i >= argc ? stderr : stdout);
        return i >= argc ? 2 : 0;
    }
    if (device)
        return kolo_ctl_device(device, argc - i, argv + i);
    if (!*path && find_socket(path, sizeof path)) return 3;
    char cmd[1024];
    size_t n = 0;
    for (int k = i; k < argc; k++) {
        int w = snprintf(cmd + n, sizeof cmd - n, "%s%s", k > i ? " " : "", argv[k]);
        if (w < 0 || (size_t)w >= sizeof cmd - n) {
            fprintf(stderr, "kolo-ctl: command too long\n");
            return 2;
        }
        n += (size_t)w;
    }
    if (n + 1 >= sizeof cmd) return 2;
    cmd[n++] = '\n';
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a)) {
        fprintf(stderr, "kolo-ctl: cannot reach %s: %s\n", path, strerror(errno));
        return 3;
    }
    if (write(fd, cmd, n) != (ssize_t)n) {
        fprintf(stderr, "kolo-ctl: write: %s\n", strerror(errno));
        return 3;
    }
    char buf[4096];
    ssize_t r;
    int first = 1, failed = 0, any = 0;
    while ((r = read(fd, buf, sizeof buf)) > 0) {
        if (first) {
            failed = strncmp(buf, "ok", 2) != 0;
            first = 0;
        }
        any = 1;
        fwrite(buf, 1, (size_t)r, failed ? stderr : stdout);
    }
    close(fd);
    if (!any) {
        fprintf(stderr, "kolo-ctl: no answer from %s\n", path);
        return 3;
    }
    return failed ? 1 : 0;
}
