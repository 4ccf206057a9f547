/* uart_board_sim.c - a board behind the UART bridge on a pseudo-terminal, for
 * the kolo-ctl tests: uart_board_sim PATHFILE writes the terminal's path to
 * PATHFILE and serves the bridge protocol (uart_board_model.c) with the
 * registers of node (1,0,0) of a 2x1x1 torus: ports X+ and X- enabled, X+ up
 * to (0,0,0) X-, X- training, some counters, firmware running, a console
 * line every 200 ms. Runs until it is killed or its stdin closes.
 * --no-ni: the chip has no NI (the ECP5 board): BAR0 below the service
 * window answers ERROR; --no-ni --no-svc-id: the service block's ID reads 0
 * too (nothing kolo_open can recognise). */
#define _GNU_SOURCE
#include "kolo_ni_model.h"
#include "kolo_svc_regs.h"
#include "uart_board_model.h"

#include <poll.h>
#include <pty.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static ubm m;

static void svc(uint32_t off, uint32_t v) { m.bar0[(KOLO_SVC_HOST_BASE + off) / 4] = v; }

int main(int argc, char **argv) {
    int mfd, sfd;
    char name[128];
    int no_ni = 0, no_svc_id = 0;
    while (argc > 2 && !strncmp(argv[1], "--", 2)) {
        if (!strcmp(argv[1], "--no-ni"))
            no_ni = 1;
        else if (!strcmp(argv[1], "--no-svc-id"))
            no_svc_id = 1;
        else
            break;
        argv++, argc--;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: uart_board_sim [--no-ni [--no-svc-id]] PATHFILE\n");
        return 2;
    }
    if (openpty(&mfd, &sfd, name, NULL, NULL)) {
        perror("openpty");
        return 1;
    }
    struct termios t;
    tcgetattr(mfd, &t);
    cfmakeraw(&t);
    tcsetattr(mfd, TCSANOW, &t);
    m.bar0[KOLO_CSR_ID / 4] = KOLO_NI_ID;
    m.bar0[KOLO_CSR_VERSION / 4] = KOLO_NI_VERSION;
    m.bar0[KOLO_CSR_NODE_ID / 4] = 0x001;
    m.bar0[KOLO_CSR_TORUS / 4] = 0x001;
    m.bar0[KOLO_CSR_NUM_CTX / 4] = 16;
    m.bar0[KOLO_CSR_STAT_TX_PKTS / 4] = 1234;
    m.bar0[KOLO_CSR_STAT_RX_PKTS / 4] = 1200;
    m.bar0[KOLO_CSR_STAT_RX_PKTS / 4 + 1] = 1; /* a 64-bit counter past 2^32 */
    if (no_ni) { /* no NI registers: what the ECP5 chip answers below the service window */
        memset(m.bar0, 0, KOLO_SVC_HOST_BASE);
        m.err_lo = 0;
        m.err_hi = KOLO_SVC_HOST_BASE;
    }
    svc(KOLO_SVC_SYS_ID, no_svc_id ? 0 : KOLO_SVC_SYS_ID_RESET);
    svc(KOLO_SVC_SYS_NODE_ID, 0x001);
    svc(KOLO_SVC_SYS_TORUS, 0x001);
    svc(KOLO_SVC_SYS_FW_STATE, 3u | 2u << 16);
    svc(KOLO_SVC_RT_EPOCH, 7);
    svc(KOLO_SVC_RTR_PORT_EN, 0x03);
    svc(KOLO_SVC_RTR_PORT_DOWN, 0x3e);
    svc(KOLO_SVC_LINK_STATUS(0), 1u | 2u << KOLO_SVC_LINK_STATUS_STATE_SHIFT);
    svc(KOLO_SVC_LINK_PEER(0), KOLO_SVC_LINK_PEER_VALID_MASK | 1u << KOLO_SVC_LINK_PEER_PORT_SHIFT | 0x000);
    svc(KOLO_SVC_LINK_CRC_ERRORS(0), 3);
    svc(KOLO_SVC_LINK_TX_FRAMES(0), 5000);
    svc(KOLO_SVC_LINK_RX_FRAMES(0), 4999);
    svc(KOLO_SVC_LINK_STATUS(1), 1u << KOLO_SVC_LINK_STATUS_STATE_SHIFT);
    svc(KOLO_SVC_LINK_DOWN_COUNT(1), 2);
    svc(KOLO_SVC_MBX_TX_COUNT, 9);
    ubm_console(&m, "kolo fw: node (1,0,0) up, X+ to (0,0,0)\n");
    ubm_start(&m, mfd, 1);
    FILE *f = fopen(argv[1], "w");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fprintf(f, "%s\n", name);
    fclose(f);
    /* the console line again every 200 ms (each kolo-ctl is a new session) */
    for (;;) {
        struct pollfd p = {0, POLLIN, 0};
        char b[64];
        int r = poll(&p, 1, 200);
        if (r < 0 || (r > 0 && read(0, b, sizeof b) <= 0))
            break;
        if (!m.con_len)
            ubm_console(&m, "kolo fw: node (1,0,0) up, X+ to (0,0,0)\n");
    }
    ubm_stop(&m);
    close(sfd);
    return 0;
}
