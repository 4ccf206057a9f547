/* test_uart.c - the host's end of the UART bridge (kolo_uart.h, libkolo's
 * "uart:" backend) against a model of the board (uart_board_model.c: the
 * bridge's protocol as the RTL implements it, a BAR0 register file):
 *   - the codec: crc8 check value, frames round-trip, a flipped bit refused;
 *   - requests over a socket pair: reads, writes, bridge registers, every
 *     status mapped to its error code, unaligned addresses refused here;
 *   - a noisy line (request and answer bytes corrupted, answers lost, seeded
 *     at random): every request answered right, every write done exactly
 *     once (the model counts), resends and crc errors counted on both sides;
 *   - a session that starts on the seq the bridge kept from an earlier one;
 *   - a board that does not answer: KOLO_E_TIMEOUT naming the likely causes;
 *   - console bytes between answers, in order;
 *   - over a pseudo-terminal: kolo_uart_open_tty (termios raw 8N1) and
 *     kolo_open("uart:<pty>@115200"): the device's facts read over the line,
 *     DMA refused, bad device strings refused with their reason.
 * Usage: test_uart [--seed=N] */
#define _GNU_SOURCE
#include "kolo_ni_model.h" /* before kolo.h: kolo.h takes its status codes from it */
#include "kolo.h"
#include "kolo_uart.h"
#include "kolo_uart_regs.h"
#include "test_util.h"
#include "uart_board_model.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

typedef struct {
    int fd;
} sock_io;

static int s_write(void *user, const uint8_t *b, size_t n) {
    sock_io *s = (sock_io *)user;
    return write(s->fd, b, n) == (ssize_t)n ? 0 : -1;
}

static long s_read(void *user, uint8_t *b, size_t n, unsigned timeout_ms) {
    sock_io *s = (sock_io *)user;
    struct pollfd p = {s->fd, POLLIN, 0};
    int r = poll(&p, 1, (int)timeout_ms);
    if (r <= 0)
        return r;
    ssize_t k = read(s->fd, b, n);
    return k > 0 ? k : -1;
}

static void s_close(void *user) {
    sock_io *s = (sock_io *)user;
    close(s->fd);
    free(s);
}

/* a link to a fresh model over a socket pair */
static kolo_uart *link_to(ubm *m, uint64_t seed, unsigned attempt_ms, unsigned tries, char *err, size_t errlen) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
        return NULL;
    ubm_start(m, sv[1], seed);
    sock_io *s = (sock_io *)malloc(sizeof *s);
    s->fd = sv[0];
    kolo_uart_io io = {s_write, s_read, s_close, s, NULL};
    return kolo_uart_open_io(&io, attempt_ms, tries, err, errlen);
}

static void test_codec(void) {
    /* CRC-8 (poly 0x07, init 0, no reflection): check value of "123456789" */
    CHECK_EQ(kolo_uart_crc8((const uint8_t *)"123456789", 9), 0xF4, "crc8 check value");
    uint8_t f[KOLO_UART_REQ_BYTES], op, seq;
    uint32_t a, d;
    kolo_uart_encode_req(f, KOLO_UART_OP_WRITE32, 7, 0x8010, 0xCAFEF00D);
    CHECK_EQ(f[0], 0xA5, "request sync");
    CHECK_EQ(f[3] | f[4] << 8, 0x8010, "address little-endian");
    CHECK(kolo_uart_decode_req(f, &op, &seq, &a, &d) && op == 2 && seq == 7 && a == 0x8010 && d == 0xCAFEF00D,
          "request round trip");
    for (int bit = 0; bit < 88; bit++) { /* every single-bit error after the sync byte is caught */
        uint8_t g[KOLO_UART_REQ_BYTES];
        memcpy(g, f, sizeof g);
        g[1 + bit / 8] ^= (uint8_t)(1u << (bit % 8));
        if (kolo_uart_decode_req(g, &op, &seq, &a, &d))
            CHECK(0, "bit %d flipped, frame still accepted", bit);
    }
    uint8_t r[KOLO_UART_RSP_BYTES], st;
    kolo_uart_encode_rsp(r, KOLO_UART_OP_READ32, 9, KOLO_UART_ST_OK, 0x12345678);
    CHECK(r[0] == 0x5A && kolo_uart_decode_rsp(r, &op, &seq, &st, &d) && op == 1 && seq == 9 && st == 0 &&
              d == 0x12345678,
          "answer round trip");
    r[5] ^= 0x10;
    CHECK(!kolo_uart_decode_rsp(r, &op, &seq, &st, &d), "a corrupted answer is refused");
}

static void test_requests(uint64_t seed) {
    static ubm m;
    memset(&m, 0, sizeof m);
    m.err_lo = 0x100;
    m.err_hi = 0x104;
    m.dead_lo = 0x200;
    m.dead_hi = 0x204;
    m.bar0[0x40 / 4] = 0x11223344;
    char err[256] = "";
    kolo_uart *u = link_to(&m, seed, 50, 4, err, sizeof err);
    CHECK(u != NULL, "open: %s", err);
    if (!u)
        return;
    uint32_t v = 0;
    CHECK_EQ(kolo_uart_read32(u, 0x40, &v), 0, "read");
    CHECK_EQ(v, 0x11223344, "read value");
    CHECK_EQ(kolo_uart_write32(u, 0x44, 0xA5A5005A), 0, "write");
    CHECK_EQ(m.bar0[0x44 / 4], 0xA5A5005A, "written (sync bytes in the data are data)");
    CHECK_EQ(kolo_uart_bridge_read(u, KOLO_UART_BRIDGE_ID, &v), 0, "bridge ID");
    CHECK_EQ(v, KOLO_UART_BRIDGE_ID_RESET, "bridge ID value");
    CHECK_EQ(kolo_uart_read32(u, 0x100, &v), KOLO_E_IO, "error completion -> KOLO_E_IO");
    CHECK(strstr(kolo_uart_error(u), "error completion"), "message: %s", kolo_uart_error(u));
    CHECK_EQ(kolo_uart_read32(u, 0x200, &v), KOLO_E_TIMEOUT, "chip silent -> KOLO_E_TIMEOUT");
    CHECK(strstr(kolo_uart_error(u), "bridge's time"), "message: %s", kolo_uart_error(u));
    CHECK_EQ(kolo_uart_bridge_read(u, 0x44, &v), KOLO_E_INVAL, "bridge address beyond the space -> BAD_OP");
    CHECK_EQ(kolo_uart_read32(u, 0x42, &v), KOLO_E_INVAL, "unaligned read refused here");
    unsigned long before = m.executed;
    CHECK_EQ(kolo_uart_write32(u, 0x46, 1), KOLO_E_INVAL, "unaligned write refused here");
    CHECK_EQ(m.executed, before, "an unaligned write never reaches the line");
    CHECK_EQ(kolo_uart_read32(u, 4u * UBM_BAR0_WORDS, &v), KOLO_E_INVAL, "beyond BAR0 -> BAD_OP");
    kolo_uart_close(u);
    ubm_stop(&m);
}

static void test_noisy(uint64_t seed) {
    static ubm m;
    memset(&m, 0, sizeof m);
    m.corrupt_req = 15;
    m.corrupt_rsp = 15;
    m.lose_rsp = 10;
    char err[256] = "";
    kolo_uart *u = link_to(&m, seed, 15, 40, err, sizeof err);
    CHECK(u != NULL, "open on a noisy line: %s", err);
    if (!u)
        return;
    uint32_t shadow[64] = {0};
    int bad = 0;
    unsigned long nwrites = 0;
    for (int i = 0; i < 250; i++) {
        unsigned w = test_rand(64);
        if (test_rand(2)) {
            uint32_t val = (uint32_t)test_rand64();
            nwrites++;
            if (kolo_uart_write32(u, 4 * w, val))
                bad++;
            else
                shadow[w] = val;
        } else {
            uint32_t v = 0;
            if (kolo_uart_read32(u, 4 * w, &v) || v != shadow[w])
                bad++;
        }
    }
    CHECK_EQ(bad, 0, "every request on the noisy line answered right (%s)", kolo_uart_error(u));
    unsigned long writes = 0;
    for (int w = 0; w < 64; w++)
        writes += m.writes[w];
    kolo_uart_stats st;
    kolo_uart_get_stats(u, &st);
    /* exactly once: the model counts executed writes */
    CHECK_EQ(writes, nwrites, "each write executed exactly once");
    CHECK(st.resends > 0 && st.crc_errors > 0 && m.crc_errors > 0 && m.resends > 0,
          "faults happened and were seen: host resends %lu crc %lu, bridge crc %lu resends %lu", st.resends,
          st.crc_errors, m.crc_errors, m.resends);
    CHECK_EQ(m.executed, st.requests, "the bridge executed each request once (host got %lu answers)",
             st.requests);
    printf("test_uart: noisy line: %lu requests, %lu resends, %lu bad answers, %lu bad requests, %lu writes\n",
           st.requests, st.resends, st.crc_errors, m.crc_errors, writes);
    kolo_uart_close(u);
    ubm_stop(&m);
}

static void test_session_and_dead(uint64_t seed) {
    static ubm m;
    memset(&m, 0, sizeof m);
    m.collide_first = 1;
    m.bar0[1] = 77;
    char err[256] = "";
    kolo_uart *u = link_to(&m, seed, 50, 4, err, sizeof err);
    CHECK(u != NULL, "open when the bridge kept the first seq: %s", err);
    if (u) {
        uint32_t v = 0;
        CHECK(kolo_uart_read32(u, 4, &v) == 0 && v == 77, "in step after the session start: %u", v);
        kolo_uart_close(u);
    }
    ubm_stop(&m);
    memset(&m, 0, sizeof m);
    m.mute = 1;
    err[0] = 0;
    u = link_to(&m, seed, 20, 3, err, sizeof err);
    CHECK(u == NULL && strstr(err, "no answer from the board after 3 attempts"), "dead board: %s", err);
    ubm_stop(&m);
}

static void test_console(uint64_t seed) {
    static ubm m;
    memset(&m, 0, sizeof m);
    char err[256] = "";
    kolo_uart *u = link_to(&m, seed, 50, 4, err, sizeof err);
    CHECK(u != NULL, "open: %s", err);
    if (!u)
        return;
    const char *msg = "kolo sp: node 0,0,0 up; links X+ X- training\n";
    ubm_console(&m, msg);
    uint32_t v;
    for (int i = 0; i < 20; i++)
        kolo_uart_read32(u, 0, &v); /* console frames arrive between answers */
    kolo_uart_poll(u, 50);
    char got[128] = "";
    size_t n = kolo_uart_console_take(u, (uint8_t *)got, sizeof got - 1);
    got[n] = 0;
    CHECK(!strcmp(got, msg), "console bytes in order: '%s'", got);
    kolo_uart_close(u);
    ubm_stop(&m);
}

static void test_pty(uint64_t seed) {
    static ubm m;
    memset(&m, 0, sizeof m);
    int mfd, sfd;
    char name[128];
    if (openpty(&mfd, &sfd, name, NULL, NULL)) {
        CHECK(0, "openpty: %s", strerror(errno));
        return;
    }
    /* the slave stays open here (a pty master reads EIO while no slave is
     * open); the library opens it again by path, as a user's program would */
    {
        struct termios t; /* the master side raw too (no echo on the model's side) */
        tcgetattr(mfd, &t);
        cfmakeraw(&t);
        tcsetattr(mfd, TCSANOW, &t);
    }
    m.bar0[KOLO_CSR_ID / 4] = KOLO_NI_ID;
    m.bar0[KOLO_CSR_VERSION / 4] = KOLO_NI_VERSION;
    m.bar0[KOLO_CSR_NODE_ID / 4] = 0x001;  /* x = 1 */
    m.bar0[KOLO_CSR_TORUS / 4] = 0x001;    /* 2x1x1 */
    m.bar0[KOLO_CSR_NUM_CTX / 4] = 16;
    m.bar0[0x8000 / 4] = 0x4B4F4C53;       /* the service window's SYS_ID */
    ubm_start(&m, mfd, seed);
    char uri[200], err[400] = "";
    snprintf(uri, sizeof uri, "uart:%s@115200", name);
    kolo_dev *d = NULL;
    int rc = kolo_open(uri, &d, err, sizeof err);
    CHECK(rc == 0, "kolo_open(%s): %d %s", uri, rc, err);
    if (d) {
        CHECK_EQ(kolo_dev_node_id(d), 1, "node id over the line");
        uint8_t dims[3];
        kolo_dev_torus(d, dims);
        CHECK(dims[0] == 2 && dims[1] == 1 && dims[2] == 1, "torus %ux%ux%u", dims[0], dims[1], dims[2]);
        CHECK(!strcmp(kolo_dev_backend(d), "uart"), "backend %s", kolo_dev_backend(d));
        uint64_t v = 0;
        CHECK(kolo_dev_read_reg(d, 0x8000, 4, &v) == 0 && v == 0x4B4F4C53, "service window: %#llx",
              (unsigned long long)v);
        CHECK(kolo_dev_read_reg(d, KOLO_CSR_ID, 8, &v) == 0 && v == ((uint64_t)KOLO_NI_VERSION << 32 | KOLO_NI_ID),
              "a 64-bit register as two words: %#llx", (unsigned long long)v);
        CHECK(kolo_dev_uart(d) != NULL, "the link of a uart device");
        void *p = kolo_dma_alloc(d, 4096);
        CHECK(p == NULL, "no DMA over a serial line");
        kolo_close(d);
    }
    ubm_stop(&m);
    close(sfd);
    /* bad device strings */
    struct {
        const char *uri, *want;
    } bad[] = {
        {"uart:", "want uart:<serial device>"},
        {"uart:/dev/ttyS0@fast", "bad baud rate"},
        {"uart:/dev/ttyS0@123", "not a rate"},
        {"uart:/nonexistent/tty", "No such file"},
        {"uart:/dev/null", "not a serial device"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        d = NULL;
        rc = kolo_open(bad[i].uri, &d, err, sizeof err);
        CHECK(rc != 0 && d == NULL && strstr(err, bad[i].want), "%s: %d '%s' (want '%s')", bad[i].uri, rc, err,
              bad[i].want);
    }
}

int main(int argc, char **argv) {
    uint64_t seed = test_seed(argc, argv, "test_uart");
    test_codec();
    test_requests(seed);
    test_noisy(seed);
    test_session_and_dead(seed);
    test_console(seed);
    test_pty(seed);
    return test_finish("test_uart");
}
