/* kolo_svc_model.h - C reference model of the service block of one node: the
 * registers of rtl/regs/kolo_svc_regs.toml (docs/registers.md) as the service
 * processor sees them over AXI4-Lite, and as the host sees them through BAR0.
 * The RTL (rtl/svc/kolo_svc.v) is checked against it; kolo-sim runs one per
 * node under the native firmware. The world around the block (links, router,
 * NI, network) is reached through the callbacks of kolo_svc_env and the
 * kolo_svc_set_* calls. C11, no allocation after kolo_svc_new.
 * Routing table: RT_EPOCH makes the shadow bank active and the new shadow a
 * copy of it over the torus's entries (indexes at or above RT_ENTRIES are
 * plain storage, as in the RTL). The host mailbox (HMBOX) is plain storage
 * both sides reach, zero after kolo_svc_new, untouched by table switches.
 */
#ifndef KOLO_SVC_MODEL_H
#define KOLO_SVC_MODEL_H

#include <stdint.h>

#include "kolo_route.h"
#include "kolo_svc_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KOLO_SVC_EVT_DEPTH 32   /* event FIFO entries */
#define KOLO_SVC_MBX_WORDS 64   /* words per MGMT packet (32 flits) */
#define KOLO_SVC_MBX_RX_PKTS 8  /* MGMT packets the receive buffer holds */

typedef struct kolo_svc_model kolo_svc_model;

typedef struct {
    void *ctx;
    /* The firmware sent a MGMT packet (TX_SEND): nwords 32-bit words (1..64),
     * explicit route state rs. Return 1 when the network took it, 0 to keep
     * the mailbox BUSY (kolo_svc_mgmt_retry offers it again). */
    int (*mgmt_send)(void *ctx, uint16_t dst, uint32_t rs, const uint32_t *words, unsigned nwords);
    /* RT_EPOCH written: the shadow bank becomes active; the NI must route
     * every packet it has not yet started with this table. */
    void (*route_switch)(void *ctx, const kolo_route_entry *table, unsigned entries, uint16_t epoch);
    /* LINK_CTRL or RTR_PORT_EN written: new enables (bit p = port p) and
     * loopback bits, for the links and the router. May be NULL. */
    void (*port_ctrl)(void *ctx, uint8_t link_enable, uint8_t loopback, uint8_t port_en);
} kolo_svc_env;

/* A block for node `node_id` of torus t. NULL on bad arguments. */
kolo_svc_model *kolo_svc_new(uint16_t node_id, const kolo_topo *t, const kolo_svc_env *env);
void kolo_svc_free(kolo_svc_model *m);

/* Bus accesses (32-bit, 4-byte aligned). host=1: through BAR0 (writes only
 * while SYS_HOST_ACCESS.WRITE_EN, never to HOST_ACCESS itself). Return 0, or
 * -1 for SLVERR (unmapped, misaligned, read-only written, refused host
 * write), counted in SYS_BAD_ACCESS / SYS_HOST_REFUSED. */
int kolo_svc_read(kolo_svc_model *m, uint32_t addr, uint32_t *data, int host);
int kolo_svc_write(kolo_svc_model *m, uint32_t addr, uint32_t data, int host);
/* A write with AXI byte strobes: any strobe other than 0xf is SLVERR and
 * counted in SYS_BAD_ACCESS (checked with the alignment, before the host
 * gate); 0xf is kolo_svc_write. */
int kolo_svc_write_strb(kolo_svc_model *m, uint32_t addr, uint32_t data, unsigned strb, int host);

/* The core clock: SYS_TIME counts it. */
void kolo_svc_set_time(kolo_svc_model *m, uint64_t cycle);
/* Link status of network port p from the link layer: changes raise events
 * (LINK_UP only with the expected peer, else MISCABLED; LINK_DOWN). An up
 * link that reports a wrong peer raises LINK_DOWN, then MISCABLED (the RTL
 * takes the two as two steps: set_link(p, 0, ...), then this call). Every
 * call applies at once, so every down of an up port raises LINK_DOWN
 * (DOWN_COUNT + 1), however soon the up follows. The RTL latches a down
 * until its event sequencer has taken it: every down after a LINK_UP is
 * reported before the next LINK_UP, but downs coming faster than its
 * sequencer (while one is latched, or after it was taken and before the
 * LINK_UP) raise nothing more (docs/svc.md, "Link events"). */
void kolo_svc_set_link(kolo_svc_model *m, int port, int up, uint16_t peer_id, int peer_port);
/* Link p counted events (the RTL's one-cycle pulses): add to CRC_ERRORS,
 * REPLAYS, TX_FRAMES, RX_FRAMES (LINK_CTRL.CLEAR zeroes them). Raises
 * nothing by itself: call kolo_svc_link_check after. */
void kolo_svc_link_count(kolo_svc_model *m, int port, uint32_t crc_errors, uint32_t replays, uint32_t tx_frames,
                         uint32_t rx_frames);
/* The error threshold check of link p: CRC_ERRORS >= ERR_THRESH != 0 raises
 * ERR_THRESHOLD once (INFO = CRC_ERRORS now; rearmed by writing ERR_THRESH
 * or CLEAR). The RTL runs it in its event sequencer, a few cycles after the
 * count at most. */
void kolo_svc_link_check(kolo_svc_model *m, int port);
void kolo_svc_set_router(kolo_svc_model *m, uint8_t port_down, uint32_t drop_route, uint32_t drop_bad,
                         uint32_t fault_drops, const uint32_t out_flits[7]);
/* Operations the NI completed with an error for an invalid entry (RT_UNREACHABLE). */
void kolo_svc_add_unreachable(kolo_svc_model *m, uint32_t n);
/* The service processor took a fault (kolo_sp's fault pulse: RISC-V
 * exception code `cause`, instruction address pc): SYS_SP_FAULTS + 1, the
 * last cause and pc, event SP_FAULT with INFO = pc[21:2] << 4 | cause. */
void kolo_svc_sp_fault(kolo_svc_model *m, unsigned cause, uint32_t pc);
/* A MGMT packet arrived for this node. 0 taken; -1 dropped (buffer full:
 * RX_DROPS, MBX_OVERFLOW event) or malformed (nwords 0 or > 64; not
 * counted). */
int kolo_svc_mgmt_deliver(kolo_svc_model *m, uint16_t src, const uint32_t *words, unsigned nwords);
/* Offer a BUSY mailbox packet to env.mgmt_send again (destination, route
 * state and words as they were at TX_SEND). */
void kolo_svc_mgmt_retry(kolo_svc_model *m);
/* The interrupt line. */
int kolo_svc_irq(const kolo_svc_model *m);
/* The active routing table (entries = nodes) and its epoch, for tools. */
const kolo_route_entry *kolo_svc_active_table(const kolo_svc_model *m, uint16_t *epoch);

#ifdef __cplusplus
}
#endif
#endif
