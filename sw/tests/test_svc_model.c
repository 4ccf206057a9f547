/* test_svc_model.c - the service block model against docs/registers.md:
 * identity and reset values, read-only and unmapped accesses (SLVERR and
 * BAD_ACCESS), host write gating, time latch, link events (up, down,
 * miscabled, error threshold, short downs), event FIFO overflow and lost count, IRQ
 * sources, the double-buffered routing table, the host mailbox (cleared,
 * both sides, host gate, untouched by switches), the mailbox both ways
 * (busy, errors, overflow). */
#include <stdio.h>
#include <string.h>

#include "kolo_svc_model.h"

static int failures, checks;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond) && ++failures <= 30) fprintf(stderr, "%s:%d: FAIL %s\n", __FILE__, __LINE__, #cond); \
    } while (0)

static struct {
    unsigned sends, switches, accept;
    uint16_t dst;
    uint32_t rs, w[64];
    unsigned n;
    kolo_route_entry table[64];
    uint16_t epoch;
    uint8_t en, lb, pen;
} env_seen;

static int send_cb(void *ctx, uint16_t dst, uint32_t rs, const uint32_t *w, unsigned n) {
    (void)ctx;
    if (!env_seen.accept) return 0;
    env_seen.sends++;
    env_seen.dst = dst;
    env_seen.rs = rs;
    env_seen.n = n;
    memcpy(env_seen.w, w, n * 4);
    return 1;
}
static void switch_cb(void *ctx, const kolo_route_entry *t, unsigned n, uint16_t epoch) {
    (void)ctx;
    env_seen.switches++;
    memcpy(env_seen.table, t, (n < 64 ? n : 64) * sizeof *t);
    env_seen.epoch = epoch;
}
static void ctrl_cb(void *ctx, uint8_t en, uint8_t lb, uint8_t pen) {
    (void)ctx;
    env_seen.en = en, env_seen.lb = lb, env_seen.pen = pen;
}

static uint32_t R(kolo_svc_model *m, uint32_t a) {
    uint32_t v = 0xdeadbeef;
    CHECK(kolo_svc_read(m, a, &v, 0) == 0);
    return v;
}
static void W(kolo_svc_model *m, uint32_t a, uint32_t v) { CHECK(kolo_svc_write(m, a, v, 0) == 0); }

int main(void) {
    kolo_topo t = {{4, 4, 4}};
    uint16_t me = kolo_node_id((kolo_coord){{1, 2, 3}});
    kolo_svc_env env = {NULL, send_cb, switch_cb, ctrl_cb};
    CHECK(kolo_svc_new(0x0fff, &t, &env) == NULL); /* not in the torus */
    kolo_svc_model *m = kolo_svc_new(me, &t, &env);
    CHECK(m != NULL);

    /* identity and resets */
    CHECK(R(m, KOLO_SVC_SYS_ID) == 0x4B4F4C53u);
    CHECK(R(m, KOLO_SVC_SYS_VERSION) == KOLO_SVC_MAP_VERSION);
    CHECK(R(m, KOLO_SVC_SYS_NODE_ID) == me);
    CHECK(R(m, KOLO_SVC_SYS_TORUS) == 0x333u);
    CHECK(R(m, KOLO_SVC_RTR_PORT_EN) == 0x3fu);
    CHECK(R(m, KOLO_SVC_LINK_CTRL(3)) == KOLO_SVC_LINK_CTRL_ENABLE_MASK);
    CHECK(R(m, KOLO_SVC_LINK_ERR_THRESH(5)) == KOLO_SVC_LINK_ERR_THRESH_RESET);
    CHECK(R(m, KOLO_SVC_RT_ENTRIES) == 64u);

    /* bad accesses: SLVERR and counted; nothing changes */
    uint32_t v;
    CHECK(kolo_svc_write(m, KOLO_SVC_SYS_ID, 1, 0) == -1);
    CHECK(kolo_svc_write(m, KOLO_SVC_SYS_SCRATCH + 1, 1, 0) == -1);
    CHECK(kolo_svc_read(m, 0x0ffc, &v, 0) == -1);
    CHECK(kolo_svc_read(m, KOLO_SVC_SPACE, &v, 0) == -1);
    CHECK(kolo_svc_write(m, KOLO_SVC_LINK_STATUS(0), 1, 0) == -1);
    CHECK(R(m, KOLO_SVC_SYS_BAD_ACCESS) == 5u);
    CHECK(R(m, KOLO_SVC_SYS_ID) == 0x4B4F4C53u);

    /* host writes: refused until the service processor allows them, never to HOST_ACCESS */
    CHECK(kolo_svc_write(m, KOLO_SVC_SYS_SCRATCH, 0x1234, 1) == -1);
    CHECK(R(m, KOLO_SVC_SYS_SCRATCH) == 0);
    W(m, KOLO_SVC_SYS_HOST_ACCESS, 1);
    CHECK(kolo_svc_write(m, KOLO_SVC_SYS_SCRATCH, 0x1234, 1) == 0);
    CHECK(R(m, KOLO_SVC_SYS_SCRATCH) == 0x1234u);
    CHECK(kolo_svc_write(m, KOLO_SVC_SYS_HOST_ACCESS, 0, 1) == -1);
    CHECK(R(m, KOLO_SVC_SYS_HOST_ACCESS) == 1u);
    CHECK(R(m, KOLO_SVC_SYS_HOST_REFUSED) == 2u);
    CHECK(kolo_svc_read(m, KOLO_SVC_SYS_SCRATCH, &v, 1) == 0 && v == 0x1234u);

    /* host mailbox: 0 after reset, both sides read and write it, host writes gated */
    unsigned zero = 0;
    for (unsigned i = 0; i < KOLO_SVC_HMBOX_WORD_COUNT; i++)
        zero += kolo_svc_read(m, KOLO_SVC_HMBOX_WORD(i), &v, 1) == 0 && v == 0;
    CHECK(zero == KOLO_SVC_HMBOX_WORD_COUNT);
    CHECK(kolo_svc_write(m, KOLO_SVC_HMBOX_WORD(1), 0x11, 1) == 0);
    W(m, KOLO_SVC_HMBOX_WORD(KOLO_SVC_HMBOX_WORD_COUNT - 1), 0x63);
    CHECK(R(m, KOLO_SVC_HMBOX_WORD(1)) == 0x11u);
    CHECK(kolo_svc_read(m, KOLO_SVC_HMBOX_WORD(KOLO_SVC_HMBOX_WORD_COUNT - 1), &v, 1) == 0 && v == 0x63u);
    W(m, KOLO_SVC_SYS_HOST_ACCESS, 0);
    CHECK(kolo_svc_write(m, KOLO_SVC_HMBOX_WORD(1), 0x22, 1) == -1 && R(m, KOLO_SVC_HMBOX_WORD(1)) == 0x11u);
    CHECK(R(m, KOLO_SVC_SYS_HOST_REFUSED) == 3u);
    W(m, KOLO_SVC_SYS_HOST_ACCESS, 1);

    /* time: TIME_LO latches TIME_HI */
    kolo_svc_set_time(m, 0x123456789abcull);
    CHECK(R(m, KOLO_SVC_SYS_TIME_LO) == 0x56789abcu);
    kolo_svc_set_time(m, 0x999900000000ull);
    CHECK(R(m, KOLO_SVC_SYS_TIME_HI) == 0x1234u);

    /* links: up with the right peer, a miscabled peer, down, error threshold */
    W(m, KOLO_SVC_EVT_IRQ_EN, KOLO_SVC_EVT_IRQ_EN_EVENTS_MASK);
    CHECK(!kolo_svc_irq(m));
    uint16_t xp = kolo_neighbor(&t, me, KOLO_PORT_XP);
    kolo_svc_set_link(m, KOLO_PORT_XP, 1, xp, KOLO_PORT_XM);
    CHECK(kolo_svc_irq(m));
    CHECK(R(m, KOLO_SVC_LINK_STATUS(0)) == (KOLO_SVC_LINK_STATUS_UP_MASK | 2u << 4));
    CHECK(R(m, KOLO_SVC_LINK_PEER(0)) == (xp | (uint32_t)KOLO_PORT_XM << 12 | 1u << 15));
    uint32_t e = R(m, KOLO_SVC_EVT_DATA);
    CHECK((e & 0xfu) == KOLO_SVC_EVT_LINK_UP && ((e >> 4) & 7u) == 0);
    CHECK(R(m, KOLO_SVC_EVT_DATA) == 0); /* empty */
    CHECK(!kolo_svc_irq(m));
    kolo_svc_set_link(m, KOLO_PORT_YP, 1, 0x000, KOLO_PORT_YM); /* wrong node */
    e = R(m, KOLO_SVC_EVT_DATA);
    CHECK((e & 0xfu) == KOLO_SVC_EVT_MISCABLED && ((e >> 4) & 7u) == KOLO_PORT_YP);
    CHECK(R(m, KOLO_SVC_LINK_STATUS(2)) & KOLO_SVC_LINK_STATUS_MISCABLED_MASK);
    CHECK(!(R(m, KOLO_SVC_LINK_STATUS(2)) & KOLO_SVC_LINK_STATUS_UP_MASK));
    kolo_svc_set_link(m, KOLO_PORT_XP, 0, 0, 0);
    e = R(m, KOLO_SVC_EVT_DATA);
    CHECK((e & 0xfu) == KOLO_SVC_EVT_LINK_DOWN);
    CHECK(R(m, KOLO_SVC_LINK_DOWN_COUNT(0)) == 1u);
    W(m, KOLO_SVC_LINK_ERR_THRESH(1), 10);
    kolo_svc_link_count(m, 1, 9, 0, 0, 0);
    kolo_svc_link_check(m, 1);
    CHECK(R(m, KOLO_SVC_EVT_STATUS) == 0);
    kolo_svc_link_count(m, 1, 1, 3, 100, 99);
    kolo_svc_link_check(m, 1);
    kolo_svc_link_count(m, 1, 2, 0, 0, 0);
    kolo_svc_link_check(m, 1); /* raised once */
    e = R(m, KOLO_SVC_EVT_DATA);
    CHECK((e & 0xfu) == KOLO_SVC_EVT_ERR_THRESHOLD && (e >> 8) == 10u);
    CHECK(R(m, KOLO_SVC_EVT_DATA) == 0);
    CHECK(R(m, KOLO_SVC_LINK_CRC_ERRORS(1)) == 12u && R(m, KOLO_SVC_LINK_RX_FRAMES(1)) == 99u);
    W(m, KOLO_SVC_LINK_CTRL(1), KOLO_SVC_LINK_CTRL_ENABLE_MASK | KOLO_SVC_LINK_CTRL_CLEAR_MASK);
    CHECK(R(m, KOLO_SVC_LINK_CRC_ERRORS(1)) == 0u);
    CHECK(R(m, KOLO_SVC_LINK_CTRL(1)) == KOLO_SVC_LINK_CTRL_ENABLE_MASK); /* CLEAR reads 0 */
    W(m, KOLO_SVC_LINK_CTRL(4), KOLO_SVC_LINK_CTRL_LOOPBACK_MASK);
    CHECK(env_seen.en == 0x2f && env_seen.lb == 0x10);
    kolo_svc_link_count(m, 1, 0, 0, 0, 0);
    kolo_svc_link_check(m, 1);
    CHECK(R(m, KOLO_SVC_EVT_STATUS) == 0); /* CLEAR rearmed it, but 0 < 10 */
    W(m, KOLO_SVC_LINK_ERR_THRESH(1), 0);  /* 0: never */
    kolo_svc_link_count(m, 1, 50, 0, 0, 0);
    kolo_svc_link_check(m, 1);
    CHECK(R(m, KOLO_SVC_EVT_STATUS) == 0);
    W(m, KOLO_SVC_LINK_CTRL(1), KOLO_SVC_LINK_CTRL_ENABLE_MASK | KOLO_SVC_LINK_CTRL_CLEAR_MASK);

    /* an up link that reports a wrong peer: LINK_DOWN, then MISCABLED */
    uint16_t xm = kolo_neighbor(&t, me, KOLO_PORT_XM);
    kolo_svc_set_link(m, KOLO_PORT_XM, 1, xm, KOLO_PORT_XP);
    CHECK((R(m, KOLO_SVC_EVT_DATA) & 0xfu) == KOLO_SVC_EVT_LINK_UP);
    kolo_svc_set_link(m, KOLO_PORT_XM, 1, 0x000, KOLO_PORT_XP);
    CHECK((R(m, KOLO_SVC_EVT_DATA) & 0xfu) == KOLO_SVC_EVT_LINK_DOWN);
    CHECK((R(m, KOLO_SVC_EVT_DATA) & 0xfu) == KOLO_SVC_EVT_MISCABLED);
    CHECK(R(m, KOLO_SVC_LINK_STATUS(1)) == (KOLO_SVC_LINK_STATUS_MISCABLED_MASK | 1u << 4));
    kolo_svc_set_link(m, KOLO_PORT_XM, 1, 0x000, KOLO_PORT_XP); /* the same again: nothing */
    CHECK(R(m, KOLO_SVC_EVT_STATUS) == 0);
    kolo_svc_set_link(m, KOLO_PORT_XM, 0, 0, 0);
    CHECK(R(m, KOLO_SVC_EVT_STATUS) == 0 && R(m, KOLO_SVC_LINK_STATUS(1)) == 0);

    /* short downs (issue 18): a down and an up in consecutive calls raise LINK_DOWN (DOWN_COUNT + 1)
     * and LINK_UP, on two ports one after the other too; a burst of downs, one LINK_DOWN each (the
     * RTL's down latch reports at least the first; the RTL's unit test feeds this model its actions) */
    {
        uint16_t zp = kolo_neighbor(&t, me, KOLO_PORT_ZP), zm = kolo_neighbor(&t, me, KOLO_PORT_ZM);
        kolo_svc_set_link(m, KOLO_PORT_ZP, 1, zp, KOLO_PORT_ZM);
        kolo_svc_set_link(m, KOLO_PORT_ZM, 1, zm, KOLO_PORT_ZP);
        uint32_t d4 = R(m, KOLO_SVC_LINK_DOWN_COUNT(4)), d5 = R(m, KOLO_SVC_LINK_DOWN_COUNT(5));
        while (R(m, KOLO_SVC_EVT_DATA)) {
        }
        kolo_svc_set_link(m, KOLO_PORT_ZP, 0, 0, 0);
        kolo_svc_set_link(m, KOLO_PORT_ZP, 1, zp, KOLO_PORT_ZM);
        CHECK(R(m, KOLO_SVC_EVT_DATA) == (KOLO_SVC_EVT_LINK_DOWN | 4u << 4));
        CHECK((R(m, KOLO_SVC_EVT_DATA) & 0x7fu) == (KOLO_SVC_EVT_LINK_UP | 4u << 4));
        CHECK(R(m, KOLO_SVC_LINK_DOWN_COUNT(4)) == d4 + 1);
        kolo_svc_set_link(m, KOLO_PORT_ZP, 0, 0, 0);
        kolo_svc_set_link(m, KOLO_PORT_ZP, 1, zp, KOLO_PORT_ZM);
        kolo_svc_set_link(m, KOLO_PORT_ZM, 0, 0, 0);
        kolo_svc_set_link(m, KOLO_PORT_ZM, 1, zm, KOLO_PORT_ZP);
        CHECK(R(m, KOLO_SVC_EVT_DATA) == (KOLO_SVC_EVT_LINK_DOWN | 4u << 4));
        CHECK((R(m, KOLO_SVC_EVT_DATA) & 0x7fu) == (KOLO_SVC_EVT_LINK_UP | 4u << 4));
        CHECK(R(m, KOLO_SVC_EVT_DATA) == (KOLO_SVC_EVT_LINK_DOWN | 5u << 4));
        CHECK((R(m, KOLO_SVC_EVT_DATA) & 0x7fu) == (KOLO_SVC_EVT_LINK_UP | 5u << 4));
        CHECK(R(m, KOLO_SVC_LINK_DOWN_COUNT(4)) == d4 + 2 && R(m, KOLO_SVC_LINK_DOWN_COUNT(5)) == d5 + 1);
        for (int i = 0; i < 3; i++) {
            kolo_svc_set_link(m, KOLO_PORT_ZM, 0, 0, 0);
            kolo_svc_set_link(m, KOLO_PORT_ZM, 1, zm, KOLO_PORT_ZP);
        }
        CHECK(R(m, KOLO_SVC_LINK_DOWN_COUNT(5)) == d5 + 4);
        CHECK((R(m, KOLO_SVC_EVT_STATUS) & 0xffu) == 6u);
        kolo_svc_set_link(m, KOLO_PORT_ZP, 0, 0, 0);
        kolo_svc_set_link(m, KOLO_PORT_ZM, 0, 0, 0);
        while (R(m, KOLO_SVC_EVT_DATA)) {
        }
    }

    /* partial byte strobes: SLVERR, BAD_ACCESS, nothing written */
    uint32_t bad0 = R(m, KOLO_SVC_SYS_BAD_ACCESS);
    CHECK(kolo_svc_write_strb(m, KOLO_SVC_SYS_SCRATCH, 0x55, 0x3, 0) == -1);
    CHECK(kolo_svc_write_strb(m, KOLO_SVC_SYS_SCRATCH, 0x55, 0x0, 1) == -1);
    CHECK(R(m, KOLO_SVC_SYS_BAD_ACCESS) == bad0 + 2 && R(m, KOLO_SVC_SYS_SCRATCH) == 0x1234u);
    CHECK(kolo_svc_write_strb(m, KOLO_SVC_SYS_SCRATCH, 0x1234, 0xf, 0) == 0);

    /* event FIFO overflow: 32 kept, the rest lost and counted */
    for (int i = 0; i < 40; i++) kolo_svc_set_link(m, KOLO_PORT_ZP, (i & 1) == 0, kolo_neighbor(&t, me, 4), 5);
    CHECK((R(m, KOLO_SVC_EVT_STATUS) & 0xffu) == KOLO_SVC_EVT_DEPTH);
    CHECK(R(m, KOLO_SVC_EVT_STATUS) & KOLO_SVC_EVT_STATUS_OVERFLOW_MASK);
    CHECK(R(m, KOLO_SVC_EVT_LOST) == 8u);
    for (int i = 0; i < KOLO_SVC_EVT_DEPTH; i++) {
        e = R(m, KOLO_SVC_EVT_DATA);
        CHECK((e & 0xfu) == (i & 1 ? KOLO_SVC_EVT_LINK_DOWN : KOLO_SVC_EVT_LINK_UP));
    }
    W(m, KOLO_SVC_EVT_CTRL, KOLO_SVC_EVT_CTRL_CLEAR_MASK);
    CHECK(R(m, KOLO_SVC_EVT_STATUS) == 0);

    /* routing table: shadow writes are invisible until EPOCH switches */
    for (unsigned i = 0; i < 64; i++) W(m, KOLO_SVC_RT_SHADOW_ENTRY(i), 0x80000000u | i);
    uint16_t ep;
    CHECK(kolo_svc_active_table(m, &ep)[5] == 0);
    CHECK(R(m, KOLO_SVC_RT_SHADOW_ENTRY(5)) == 0x80000005u);
    W(m, KOLO_SVC_RT_EPOCH, 7);
    CHECK(env_seen.switches == 1 && env_seen.epoch == 7 && env_seen.table[63] == 0x8000003fu);
    CHECK(kolo_svc_active_table(m, &ep)[5] == 0x80000005u && ep == 7);
    CHECK(R(m, KOLO_SVC_RT_EPOCH) == (7u | 1u << 16));
    CHECK(R(m, KOLO_SVC_RT_SWITCHES) == 1u);
    W(m, KOLO_SVC_RT_SHADOW_ENTRY(5), 0); /* the new shadow starts as a copy */
    CHECK(R(m, KOLO_SVC_RT_SHADOW_ENTRY(6)) == 0x80000006u);
    W(m, KOLO_SVC_RT_EPOCH, 8);
    CHECK(kolo_svc_active_table(m, &ep)[5] == 0 && kolo_svc_active_table(m, &ep)[6] == 0x80000006u);
    /* indexes beyond RT_ENTRIES are storage: not copied at a switch */
    W(m, KOLO_SVC_RT_SHADOW_ENTRY(100), 0x100);
    W(m, KOLO_SVC_RT_EPOCH, 9);
    CHECK(R(m, KOLO_SVC_RT_SHADOW_ENTRY(100)) == 0 && R(m, KOLO_SVC_RT_SHADOW_ENTRY(6)) == 0x80000006u);
    /* three switches later the host mailbox is as it was */
    CHECK(R(m, KOLO_SVC_HMBOX_WORD(1)) == 0x11u && R(m, KOLO_SVC_HMBOX_WORD(KOLO_SVC_HMBOX_WORD_COUNT - 1)) == 0x63u);

    /* mailbox transmit: busy while the network refuses, errors counted */
    W(m, KOLO_SVC_MBX_TX_SEND, 1); /* empty */
    CHECK(R(m, KOLO_SVC_MBX_TX_ERRORS) == 1u);
    W(m, KOLO_SVC_MBX_TX_DST, xp);
    W(m, KOLO_SVC_MBX_TX_RS, 0x8);
    W(m, KOLO_SVC_MBX_TX_DATA, 0x11);
    W(m, KOLO_SVC_MBX_TX_DATA, 0x22);
    CHECK(R(m, KOLO_SVC_MBX_TX_STATUS) == 2u << 8);
    env_seen.accept = 0;
    W(m, KOLO_SVC_MBX_TX_SEND, 1);
    CHECK(R(m, KOLO_SVC_MBX_TX_STATUS) & KOLO_SVC_MBX_TX_STATUS_BUSY_MASK);
    W(m, KOLO_SVC_MBX_TX_DATA, 0x33); /* refused while busy */
    W(m, KOLO_SVC_MBX_TX_SEND, 1);
    CHECK(R(m, KOLO_SVC_MBX_TX_ERRORS) == 3u);
    W(m, KOLO_SVC_MBX_TX_DST, 0x321); /* the packet keeps what it was sent with */
    W(m, KOLO_SVC_MBX_TX_RS, 0x9);
    env_seen.accept = 1;
    kolo_svc_mgmt_retry(m);
    CHECK(env_seen.sends == 1 && env_seen.n == 2 && env_seen.w[1] == 0x22 && env_seen.dst == xp && env_seen.rs == 8);
    CHECK(R(m, KOLO_SVC_MBX_TX_STATUS) == 0 && R(m, KOLO_SVC_MBX_TX_COUNT) == 1u);
    for (int i = 0; i < 65; i++) W(m, KOLO_SVC_MBX_TX_DATA, (uint32_t)i); /* 65th refused */
    CHECK(R(m, KOLO_SVC_MBX_TX_ERRORS) == 4u);
    W(m, KOLO_SVC_MBX_TX_SEND, 1);
    CHECK(env_seen.n == 64 && env_seen.w[63] == 63u && env_seen.dst == 0x321 && env_seen.rs == 9);

    /* mailbox receive: packets in order, words popped, overflow dropped */
    W(m, KOLO_SVC_EVT_IRQ_EN, KOLO_SVC_EVT_IRQ_EN_MBX_MASK);
    CHECK(!kolo_svc_irq(m));
    uint32_t words[3] = {1, 2, 3};
    CHECK(kolo_svc_mgmt_deliver(m, 0x123, words, 0) == -1);
    CHECK(kolo_svc_mgmt_deliver(m, 0x123, words, 65) == -1);
    for (unsigned i = 0; i < KOLO_SVC_MBX_RX_PKTS; i++) {
        words[0] = i;
        CHECK(kolo_svc_mgmt_deliver(m, (uint16_t)(0x100 + i), words, 3) == 0);
    }
    CHECK(kolo_svc_irq(m));
    CHECK(kolo_svc_mgmt_deliver(m, 0x200, words, 3) == -1);
    CHECK(R(m, KOLO_SVC_MBX_RX_DROPS) == 1u);
    e = R(m, KOLO_SVC_EVT_DATA);
    CHECK((e & 0xfu) == KOLO_SVC_EVT_MBX_OVERFLOW && (e >> 8) == 0x200u);
    CHECK(R(m, KOLO_SVC_MBX_RX_STATUS) == (KOLO_SVC_MBX_RX_PKTS | 3u << 16));
    CHECK(R(m, KOLO_SVC_MBX_RX_SRC) == 0x100u);
    CHECK(R(m, KOLO_SVC_MBX_RX_DATA) == 0u && R(m, KOLO_SVC_MBX_RX_DATA) == 2u && R(m, KOLO_SVC_MBX_RX_DATA) == 3u);
    CHECK(R(m, KOLO_SVC_MBX_RX_DATA) == 0u); /* past the end */
    W(m, KOLO_SVC_MBX_RX_POP, 1);
    CHECK(R(m, KOLO_SVC_MBX_RX_SRC) == 0x101u);
    CHECK(R(m, KOLO_SVC_MBX_RX_DATA) == 1u);
    CHECK(R(m, KOLO_SVC_MBX_RX_STATUS) == ((KOLO_SVC_MBX_RX_PKTS - 1) | 2u << 16));
    for (unsigned i = 1; i < KOLO_SVC_MBX_RX_PKTS; i++) W(m, KOLO_SVC_MBX_RX_POP, 1);
    CHECK(R(m, KOLO_SVC_MBX_RX_STATUS) == 0 && !kolo_svc_irq(m));
    W(m, KOLO_SVC_MBX_RX_POP, 1); /* on empty: nothing */
    CHECK(R(m, KOLO_SVC_MBX_RX_COUNT) == KOLO_SVC_MBX_RX_PKTS);

    /* service processor faults: counted, last pc and cause, SP_FAULT event; read-only */
    CHECK(R(m, KOLO_SVC_SYS_SP_FAULTS) == 0u);
    kolo_svc_sp_fault(m, 2, 0x80001234u);
    kolo_svc_sp_fault(m, 0x17, 0x80400008u); /* cause keeps 4 bits */
    CHECK(R(m, KOLO_SVC_SYS_SP_FAULTS) == 2u);
    CHECK(R(m, KOLO_SVC_SYS_SP_FAULT_PC) == 0x80400008u && R(m, KOLO_SVC_SYS_SP_FAULT_CAUSE) == 7u);
    e = R(m, KOLO_SVC_EVT_DATA);
    CHECK((e & 0xffu) == KOLO_SVC_EVT_SP_FAULT && (e >> 8) == ((0x1234u >> 2) << 4 | 2u));
    e = R(m, KOLO_SVC_EVT_DATA);
    CHECK((e & 0xffu) == KOLO_SVC_EVT_SP_FAULT && (e >> 8) == (((0x80400008u >> 2) & 0xfffffu) << 4 | 7u));
    CHECK(kolo_svc_write(m, KOLO_SVC_SYS_SP_FAULTS, 0, 0) == -1);

    /* router counters in */
    uint32_t of[7] = {1, 2, 3, 4, 5, 6, 7};
    kolo_svc_set_router(m, 0x41, 2, 3, 4, of);
    CHECK(R(m, KOLO_SVC_RTR_PORT_DOWN) == 1u && R(m, KOLO_SVC_RTR_FAULT_DROPS) == 4u);
    CHECK(R(m, KOLO_SVC_RTR_OUT_FLITS(6)) == 7u);
    W(m, KOLO_SVC_RTR_PORT_EN, 0xff);
    CHECK(R(m, KOLO_SVC_RTR_PORT_EN) == 0x3fu && env_seen.pen == 0x3f);

    kolo_svc_free(m);
    printf("svc-model: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
