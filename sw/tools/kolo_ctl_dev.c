/* kolo_ctl_dev.c - kolo-ctl on a real card (kolo-ctl --device=URI COMMAND):
 * the same commands as against kolo-sim, answered from the node's own
 * registers through libkolo (BAR0: the NI's CSRs, and the service block's
 * registers in the window at KOLO_SVC_HOST_BASE, docs/registers.md), so they
 * work over any device libkolo opens: "vfio:<bdf>" (a PCIe card) or
 * "uart:<tty>[@baud]" (the ECP5 board's UART bridge). A device reaches its
 * own node only; the tables other nodes keep are their own kolo-ctl's.
 * Output lines are those of the simulator's answers (kolo-ctl.c), so
 * scripts read both alike. Over a UART also: console (the service
 * processor's log) and bridge (the bridge's counters). */
#define _GNU_SOURCE
#include "kolo_ni_model.h" /* before kolo.h */
#include "kolo.h"
#include "kolo_hmsg.h"
#include "kolo_svc_regs.h"
#include "kolo_uart.h"
#include "kolo_uart_regs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const port_names[6] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-"};

static void node_name(uint16_t id, char *b, size_t n) {
    snprintf(b, n, "(%u,%u,%u)", id & 15u, (id >> 4) & 15u, (id >> 8) & 15u);
}

typedef struct {
    kolo_dev *d;
    int failed;
} ctl;

static uint32_t svc(ctl *c, uint32_t off) {
    uint64_t v = 0;
    if (kolo_dev_read_reg(c->d, KOLO_SVC_HOST_BASE + off, 4, &v)) {
        if (!c->failed)
            fprintf(stderr, "kolo-ctl: reading service register %#x failed\n", off);
        c->failed = 1;
    }
    return (uint32_t)v;
}

static uint64_t csr(ctl *c, uint32_t off) {
    uint64_t v = 0;
    if (kolo_dev_read_reg(c->d, off, 8, &v)) {
        if (!c->failed)
            fprintf(stderr, "kolo-ctl: reading NI register %#x failed\n", off);
        c->failed = 1;
    }
    return v;
}

/* NODE: an index or x,y,z; over a device it must name the device's node */
static int own_node(ctl *c, const char *arg) {
    uint16_t me = kolo_dev_node_id(c->d), id;
    unsigned x, y, z;
    char *end;
    if (sscanf(arg, "%u,%u,%u", &x, &y, &z) == 3) {
        id = (uint16_t)(x | y << 4 | z << 8);
    } else {
        unsigned long i = strtoul(arg, &end, 0);
        if (*end || !*arg) {
            fprintf(stderr, "kolo-ctl: bad NODE '%s' (index or x,y,z)\n", arg);
            return 0;
        }
        id = kolo_dev_node_of_index(c->d, (unsigned)i);
    }
    if (id != me) {
        char a[32];
        node_name(me, a, sizeof a);
        fprintf(stderr, "kolo-ctl: over a device only its own node %s is reachable (NODE '%s' is another)\n",
                a, arg);
        return 0;
    }
    return 1;
}

static int cmd_status(ctl *c) {
    uint8_t dims[3];
    char n[32];
    kolo_dev_torus(c->d, dims);
    uint16_t me = kolo_dev_node_id(c->d);
    node_name(me, n, sizeof n);
    uint32_t st = svc(c, KOLO_SVC_SYS_FW_STATE), ep = svc(c, KOLO_SVC_RT_EPOCH);
    uint32_t down = svc(c, KOLO_SVC_RTR_PORT_DOWN), en = svc(c, KOLO_SVC_RTR_PORT_EN);
    if (c->failed)
        return 1;
    static const char *const stage[16] = {"reset", "boot", "links", "running", "recomputing", "5", "6", "7",
                                          "8", "9", "10", "11", "12", "13", "14", "FAILED"};
    char ni[32] = "no NI"; /* a chip without one (the ECP5 board) opens with version 0 */
    if (kolo_dev_version(c->d))
        snprintf(ni, sizeof ni, "NI version %u.%u", kolo_dev_version(c->d) >> 8, kolo_dev_version(c->d) & 0xff);
    printf("ok\ndevice %s, torus %ux%ux%u, %s, firmware %s\n", kolo_dev_backend(c->d), dims[0], dims[1],
           dims[2], ni, stage[st & 15u]);
    printf("node index  coords      state  epoch  faults  ports down\n");
    char dl[40] = "";
    for (int p = 0; p < 6; p++)
        if ((down >> p & 1) && (en >> p & 1))
            snprintf(dl + strlen(dl), sizeof dl - strlen(dl), "%s%s", *dl ? " " : "", port_names[p]);
    unsigned idx = (me & 15u) + dims[0] * (((me >> 4) & 15u) + dims[1] * ((me >> 8) & 15u));
    /* the node answers, so it is up (the simulator's column) */
    printf("%10u  %-10s  %-5s  %5u  %#06x  %s\n", idx, n, "up", ep & 0xffffu, st >> 16, *dl ? dl : "-");
    return 0;
}

static int cmd_links(ctl *c) {
    uint32_t en = svc(c, KOLO_SVC_RTR_PORT_EN);
    if (c->failed)
        return 1;
    printf("ok\nport  state  peer       crc_err  replays  tx_frames  rx_frames  downs\n");
    for (int p = 0; p < 6; p++) {
        if (!(en >> p & 1)) {
            printf("%-4s  absent (port not enabled: RTR_PORT_EN)\n", port_names[p]);
            continue;
        }
        uint32_t s = svc(c, KOLO_SVC_LINK_STATUS(p)), peer = svc(c, KOLO_SVC_LINK_PEER(p));
        static const char *const states[4] = {"DOWN", "train", "up", "retrn"};
        const char *state = (s & KOLO_SVC_LINK_STATUS_MISCABLED_MASK)
                                ? "MISC"
                                : states[(s & KOLO_SVC_LINK_STATUS_STATE_MASK) >> KOLO_SVC_LINK_STATUS_STATE_SHIFT];
        char pn[40] = "-";
        if (peer & KOLO_SVC_LINK_PEER_VALID_MASK) {
            node_name((uint16_t)(peer & KOLO_SVC_LINK_PEER_ID_MASK), pn, sizeof pn);
            snprintf(pn + strlen(pn), sizeof pn - strlen(pn), "%s",
                     port_names[((peer & KOLO_SVC_LINK_PEER_PORT_MASK) >> KOLO_SVC_LINK_PEER_PORT_SHIFT) % 6]);
        }
        printf("%-4s  %-5s  %-9s  %7u  %7u  %9u  %9u  %5u\n", port_names[p], state, pn,
               svc(c, KOLO_SVC_LINK_CRC_ERRORS(p)), svc(c, KOLO_SVC_LINK_REPLAYS(p)),
               svc(c, KOLO_SVC_LINK_TX_FRAMES(p)), svc(c, KOLO_SVC_LINK_RX_FRAMES(p)),
               svc(c, KOLO_SVC_LINK_DOWN_COUNT(p)));
    }
    return c->failed;
}

static int cmd_counters(ctl *c) {
    printf("ok\nrouter: ports down %#04x, packets dropped at down links %u\n", svc(c, KOLO_SVC_RTR_PORT_DOWN),
           svc(c, KOLO_SVC_RTR_FAULT_DROPS));
    if (!kolo_dev_version(c->d))
        printf("NI: none on this chip\n");
    else
        printf("NI: tx %" PRIu64 " rx %" PRIu64 " nak_sent %" PRIu64 " nak_rcvd %" PRIu64 " bad %" PRIu64
               " dma_err %" PRIu64 "\n",
               csr(c, KOLO_CSR_STAT_TX_PKTS), csr(c, KOLO_CSR_STAT_RX_PKTS), csr(c, KOLO_CSR_STAT_NAK_SENT),
               csr(c, KOLO_CSR_STAT_NAK_RCVD), csr(c, KOLO_CSR_STAT_BAD_PKTS), csr(c, KOLO_CSR_STAT_DMA_ERR));
    printf("mailbox: sent %u, received %u, rx drops %u; events lost %u; table switches %u, unreachable ops "
           "%u\n",
           svc(c, KOLO_SVC_MBX_TX_COUNT), svc(c, KOLO_SVC_MBX_RX_COUNT), svc(c, KOLO_SVC_MBX_RX_DROPS),
           svc(c, KOLO_SVC_EVT_LOST), svc(c, KOLO_SVC_RT_SWITCHES), svc(c, KOLO_SVC_RT_UNREACHABLE));
    return c->failed;
}

static int parse_u32(const char *s, uint32_t *v) {
    char *end;
    unsigned long long x = strtoull(s, &end, 0);
    if (!*s || *end || x > 0xffffffffull)
        return 0;
    *v = (uint32_t)x;
    return 1;
}

static int cmd_console(ctl *c, double seconds) {
    kolo_uart *u = kolo_dev_uart(c->d);
    if (!u) {
        fprintf(stderr, "kolo-ctl: console: the service processor's console comes over the UART only "
                        "(uart:<tty>); on a PCIe card it is on the board's USB-UART\n");
        return 1;
    }
    printf("ok\n");
    fflush(stdout);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        kolo_uart_poll(u, 50);
        uint8_t b[256];
        size_t n;
        while ((n = kolo_uart_console_take(u, b, sizeof b)) > 0)
            fwrite(b, 1, n, stdout);
        fflush(stdout);
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (seconds > 0 && (t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 >= seconds)
            return 0;
    }
}

static int cmd_bridge(ctl *c) {
    kolo_uart *u = kolo_dev_uart(c->d);
    if (!u) {
        fprintf(stderr, "kolo-ctl: bridge: not a uart: device\n");
        return 1;
    }
    static const struct {
        const char *name;
        uint32_t addr;
    } regs[] = {{"baud", KOLO_UART_BRIDGE_BAUD},
                {"crc_errors", KOLO_UART_BRIDGE_CRC_ERRORS},
                {"frame_errors", KOLO_UART_BRIDGE_FRAME_ERRORS},
                {"resends", KOLO_UART_BRIDGE_RESENDS},
                {"timeouts", KOLO_UART_BRIDGE_TIMEOUTS},
                {"tlp_drops", KOLO_UART_BRIDGE_TLP_DROPS},
                {"console_drops", KOLO_UART_BRIDGE_CONSOLE_DROPS}};
    uint32_t id = 0, ver = 0;
    if (kolo_uart_bridge_read(u, KOLO_UART_BRIDGE_ID, &id) || kolo_uart_bridge_read(u, KOLO_UART_BRIDGE_VERSION, &ver)) {
        fprintf(stderr, "kolo-ctl: bridge: %s\n", kolo_uart_error(u));
        return 1;
    }
    printf("ok\nbridge %s version %u.%u:", id == KOLO_UART_BRIDGE_ID_RESET ? "KOUB" : "(unknown id)", ver >> 8,
           ver & 0xff);
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++) {
        uint32_t v = 0;
        if (kolo_uart_bridge_read(u, regs[i].addr, &v)) {
            fprintf(stderr, "\nkolo-ctl: bridge: %s\n", kolo_uart_error(u));
            return 1;
        }
        printf(" %s %u", regs[i].name, v);
    }
    kolo_uart_stats st;
    kolo_uart_get_stats(u, &st);
    printf("\nhost: requests %lu, resends %lu, bad answers %lu, console bytes %lu\n", st.requests, st.resends,
           st.crc_errors, st.console_bytes);
    return 0;
}

/* kolo-ctl --device=uart:<tty>[@baud] msg send NODE TEXT | recv | counters:
 * host messages through the node's firmware (kolo_hmsg.h). The link is
 * opened without kolo_open's NI probe: the board that needs host messages
 * (ECP5) has no NI. Exit 0 ok, 1 refused (the error's text), 2 usage, 3 no
 * link. */
static int cmd_msg(const char *uri, int argc, char **argv) {
    const char *sub = argc > 1 ? argv[1] : "";
    int want = !strcmp(sub, "send") ? 4 : !strcmp(sub, "recv") || !strcmp(sub, "counters") ? 2 : -1;
    if (want < 0 || argc != want) {
        fprintf(stderr, "kolo-ctl: usage: msg send NODE TEXT | msg recv | msg counters (kolo-ctl help)\n");
        return 2;
    }
    if (want == 4 && (!*argv[3] || strlen(argv[3]) > KOLO_FWM_HMSG_MAX_BYTES)) {
        fprintf(stderr, "kolo-ctl: msg send: TEXT of %zu bytes: 1..%d (%s)\n", strlen(argv[3]),
                KOLO_FWM_HMSG_MAX_BYTES, kolo_strerror(KOLO_E_LEN));
        return 2;
    }
    unsigned x = 0, y = 0, z = 0;
    unsigned long idx = 0;
    int by_coords = 0;
    if (want == 4) {
        char *end;
        if (sscanf(argv[2], "%u,%u,%u", &x, &y, &z) == 3 && x < 16 && y < 16 && z < 16) {
            by_coords = 1;
        } else {
            idx = strtoul(argv[2], &end, 0);
            if (!*argv[2] || *end || idx > 4095) {
                fprintf(stderr, "kolo-ctl: bad NODE '%s' (index or x,y,z)\n", argv[2]);
                return 2;
            }
        }
    }
    if (strncmp(uri, "uart:", 5)) {
        fprintf(stderr, "kolo-ctl: msg: over the UART only (--device=uart:<tty>[@baud]): a card with an NI "
                        "sends with PUT (docs/api.md)\n");
        return 2;
    }
    char path[256], err[320] = "";
    unsigned baud = 1000000;
    const char *at = strrchr(uri + 5, '@');
    size_t n = at ? (size_t)(at - (uri + 5)) : strlen(uri + 5);
    if (!n || n >= sizeof path || (at && !(baud = (unsigned)strtoul(at + 1, NULL, 10)))) {
        fprintf(stderr, "kolo-ctl: bad device '%s' (uart:<tty>[@baud])\n", uri);
        return 2;
    }
    memcpy(path, uri + 5, n);
    path[n] = 0;
    kolo_uart *u = kolo_uart_open_tty(path, baud, 0, 0, err, sizeof err);
    if (!u) {
        fprintf(stderr, "kolo-ctl: %s: %s\n", uri, err);
        return 3;
    }
    int rc, r = 0;
    if (want == 4) {
        uint32_t torus = 0;
        uint16_t node = (uint16_t)(x | y << 4 | z << 8);
        if (!by_coords) {
            rc = kolo_uart_read32(u, KOLO_SVC_HOST_BASE + KOLO_SVC_SYS_TORUS, &torus);
            unsigned dx = (torus & 15u) + 1, dy = ((torus >> 4) & 15u) + 1;
            node = (uint16_t)((idx % dx) | ((idx / dx) % dy) << 4 | (idx / dx / dy) << 8);
            if (rc) node = 0xfff;
        }
        rc = kolo_host_msg_send(u, node, argv[3], strlen(argv[3]));
        if (!rc) {
            char nn[32];
            node_name(node, nn, sizeof nn);
            printf("ok\nsent %zu bytes to %s\n", strlen(argv[3]), nn);
        }
    } else if (!strcmp(sub, "recv")) {
        uint8_t b[KOLO_FWM_HMSG_MAX_BYTES];
        size_t len = 0;
        uint16_t src = 0;
        rc = kolo_host_msg_recv(u, &src, b, sizeof b, &len);
        if (!rc) {
            char nn[32];
            node_name(src, nn, sizeof nn);
            printf("ok\nfrom %s, %zu bytes: ", nn, len);
            for (size_t i = 0; i < len; i++) {
                if (b[i] >= 0x20 && b[i] < 0x7f && b[i] != '\\')
                    putchar(b[i]);
                else
                    printf("\\x%02x", b[i]);
            }
            printf("\n");
        }
    } else {
        kolo_hmsg_counters c;
        rc = kolo_host_msg_counters(u, &c);
        if (!rc)
            printf("ok\nhost messages: sent %u, refused %u, received %u, dropped %u (queue full), bad %u, waiting %u\n",
                   c.tx_sent, c.tx_refused, c.rx_received, c.rx_dropped, c.rx_bad, c.rx_queued);
    }
    if (rc) {
        const char *why = rc == KOLO_E_AGAIN && !strcmp(sub, "recv") ? "no message waiting (queue empty)"
                          : rc == KOLO_E_AGAIN   ? "the firmware is not running yet, try again"
                          : rc == KOLO_E_BUSY    ? "the firmware's transmit queue is full, try again"
                          : rc == KOLO_E_NOSYS   ? "the firmware serves no host messages (image kolo_fw_rv32_hmsg)"
                          : rc == KOLO_E_TIMEOUT ? "the firmware did not answer"
                                                 : kolo_strerror(rc);
        fprintf(stderr, "kolo-ctl: msg %s: %s (%d)\n", sub, why, rc);
        r = 1;
    }
    kolo_uart_close(u);
    return r;
}

int kolo_ctl_device(const char *uri, int argc, char **argv) {
    char err[512] = "";
    if (!strcmp(argv[0], "msg"))
        return cmd_msg(uri, argc, argv);
    ctl c = {NULL, 0};
    const char *cmd = argv[0];
    int want = !strcmp(cmd, "status") || !strcmp(cmd, "bridge") ? 0
               : !strcmp(cmd, "links") || !strcmp(cmd, "counters") ? 1
               : !strcmp(cmd, "read")                               ? 2
               : !strcmp(cmd, "write")                              ? 3
               : !strcmp(cmd, "console")                            ? -1
                                                                    : -2;
    if (want == -2) {
        if (!strcmp(cmd, "table") || !strcmp(cmd, "events"))
            fprintf(stderr, "kolo-ctl: %s: not over a device (the node's firmware log: kolo-ctl console over "
                            "the UART, or the board's console)\n",
                    cmd);
        else if (strstr(cmd, "fail-") == cmd || strstr(cmd, "restore-") == cmd)
            fprintf(stderr, "kolo-ctl: %s: simulation only (pull the cable)\n", cmd);
        else
            fprintf(stderr, "kolo-ctl: unknown command '%s' (kolo-ctl help)\n", cmd);
        return 2;
    }
    if ((want >= 0 && argc - 1 != want) || (want == -1 && argc > 2)) {
        fprintf(stderr, "kolo-ctl: %s: wrong number of arguments (kolo-ctl help)\n", cmd);
        return 2;
    }
    int rc = kolo_open(uri, &c.d, err, sizeof err);
    if (rc) {
        fprintf(stderr, "kolo-ctl: %s\n", err);
        return 3;
    }
    int r = 1;
    if (!strcmp(cmd, "status"))
        r = cmd_status(&c);
    else if (!strcmp(cmd, "bridge"))
        r = cmd_bridge(&c);
    else if (!strcmp(cmd, "console"))
        r = cmd_console(&c, argc > 1 ? strtod(argv[1], NULL) : 0);
    else if (!own_node(&c, argv[1]))
        r = 1;
    else if (!strcmp(cmd, "links"))
        r = cmd_links(&c);
    else if (!strcmp(cmd, "counters"))
        r = cmd_counters(&c);
    else if (!strcmp(cmd, "read")) {
        uint32_t a;
        if (!parse_u32(argv[2], &a) || (a & 3) || a >= KOLO_SVC_SPACE) {
            fprintf(stderr, "kolo-ctl: read: bad ADDR '%s' (a 4-byte aligned service register offset)\n", argv[2]);
            r = 2;
        } else {
            uint32_t v = svc(&c, a);
            if (!c.failed)
                printf("ok\n%#010x\n", v);
            r = c.failed;
        }
    } else {
        uint32_t a, v;
        if (!parse_u32(argv[2], &a) || (a & 3) || a >= KOLO_SVC_SPACE || !parse_u32(argv[3], &v)) {
            fprintf(stderr, "kolo-ctl: usage: write NODE ADDR VALUE\n");
            r = 2;
        } else {
            /* a host write goes through the BAR0 window; the service block takes it only with
             * SYS_HOST_ACCESS.WRITE_EN set by the firmware, and reads back unchanged otherwise */
            uint64_t before = 0, after = 0;
            int ok = !kolo_dev_read_reg(c.d, KOLO_SVC_HOST_BASE + a, 4, &before);
            uint32_t vv = v;
            (void)before;
            ok = ok && !kolo_dev_write_reg(c.d, KOLO_SVC_HOST_BASE + a, 4, vv);
            ok = ok && !kolo_dev_read_reg(c.d, KOLO_SVC_HOST_BASE + a, 4, &after);
            if (!ok) {
                fprintf(stderr, "kolo-ctl: write of %#x failed\n", a);
                r = 1;
            } else {
                printf("ok\n");
                if ((uint32_t)after != v)
                    printf("note: reads back %#010x (read-only, self-clearing, or host writes disabled: "
                           "SYS_HOST_ACCESS)\n",
                           (uint32_t)after);
                r = 0;
            }
        }
    }
    kolo_close(c.d);
    return r;
}
