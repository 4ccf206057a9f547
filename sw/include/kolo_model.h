/* kolo_model.h - reference model and scoreboard of the kolo network.
 *
 * Says what must happen to every injected packet: where it is delivered, by
 * which path when it is deterministic ("ordered"), and in which order ordered
 * packets between one source and one destination arrive. Testbenches report
 * injections, observed hops and deliveries; the model answers with an error
 * code and a message for the first thing that disagrees. Hosted C11 (malloc).
 */
#ifndef KOLO_MODEL_H
#define KOLO_MODEL_H

#include <stdint.h>

#include "kolo_route.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kolo_model kolo_model;

/* tables: tables[index(src) * nodes + index(dst)], copied by the model */
kolo_model *kolo_model_new(const kolo_topo *t, const kolo_route_entry *tables);
void kolo_model_free(kolo_model *m);

/* A packet as the testbench built it. id must be unique per model. */
typedef struct {
    uint64_t id;
    uint16_t src, dst;
    uint8_t vnet;    /* 0 request, 1 response */
    uint8_t ordered; /* deterministic VC0 path, FIFO per (src, dst, vnet) */
    uint8_t op;
    uint8_t len;     /* payload flits 0..32 */
    uint64_t header[2];               /* flits as injected */
    uint64_t payload[KOLO_MAX_PAYLOAD];
} kolo_pkt;

/* Build both header flits the way an NI does: route state from the model's
 * table for (src, dst). addr is the 48-bit remote address. Returns KOLO_OK or
 * KOLO_E_ARG (destination unreachable or outside the torus, len > 32). */
int kolo_model_make_header(const kolo_model *m, kolo_pkt *p, uint64_t addr, uint8_t tag, uint8_t key);

/* Register an injected packet (after make_header, with payload filled). */
int kolo_model_inject(kolo_model *m, const kolo_pkt *p);

/* The monitor saw the head of packet id leave router `node` through network
 * port `port` on VC `vc` (0..3). Checked at once: for ordered packets the hop
 * must be the next one of the predicted path and vc class 0; for adaptive ones
 * the move must be legal (productive, or the deterministic port). */
int kolo_model_hop(kolo_model *m, uint64_t id, uint16_t node, int port, int vc);

/* Packet delivered at node's local port: headers as received (flit 0's route
 * state is the rewritten one) and payload. Checks: known id, not delivered
 * before, right node, length, header fields, payload, ordering, and that the
 * number of hops seen equals the predicted path length. */
int kolo_model_deliver(kolo_model *m, uint16_t node, const uint64_t header[2],
                       const uint64_t *payload, int len);

/* Added by sw/model: tables may be NULL in kolo_model_new (default tables).
 * kolo_model_check_hops(m, 0) turns off the hop count check at delivery, for
 * testbenches that do not monitor hops (on by default). Duplicate deliveries
 * are recognised among the last 65536 deliveries; older ones read as unknown.
 * Every delivery of a known id retires it, whether it passed or not.
 * kolo_model_hop: on VC class 0 only the deterministic port is legal; the
 * local port is not a hop (KOLO_E_SB_PATH); port or vc out of range and
 * inconsistent injections give KOLO_E_ARG. */
void kolo_model_check_hops(kolo_model *m, int enable);

/* Packets injected and not yet delivered. */
uint64_t kolo_model_pending(const kolo_model *m);
/* Message of the last error (empty if none). */
const char *kolo_model_last_error(const kolo_model *m);

typedef struct {
    uint64_t injected, delivered, hops_checked, errors;
    uint64_t dropped; /* reported lost to a failed link (kolo_model_drop) */
} kolo_model_stats;
void kolo_model_get_stats(const kolo_model *m, kolo_model_stats *s);
/* Packet id was dropped whole at router `node` before output `port` because
 * that link was down: not a loss error (the NIs' end-to-end protocol sends it
 * again under a new id); it leaves its ordered flow. A later delivery of the
 * id is a duplicate. KOLO_OK, or KOLO_E_SB_UNKNOWN / KOLO_E_SB_DUP. */
int kolo_model_drop(kolo_model *m, uint64_t id, uint16_t node, int port);

/* Packet id is carried by testbenches in header flit 1's address field:
 * addr = id & 0xffffffffffff. The model finds packets by that value. */
#define KOLO_MODEL_ID_MASK 0xffffffffffffull

#define KOLO_E_SB_UNKNOWN (-20)   /* no such packet */
#define KOLO_E_SB_DUP (-21)       /* delivered twice */
#define KOLO_E_SB_NODE (-22)      /* delivered at the wrong node */
#define KOLO_E_SB_DATA (-23)      /* header or payload differs */
#define KOLO_E_SB_ORDER (-24)     /* ordered packet overtook an earlier one */
#define KOLO_E_SB_PATH (-25)      /* hop differs from the predicted path */
#define KOLO_E_SB_HOPS (-26)      /* wrong number of hops */

#ifdef __cplusplus
}
#endif
#endif
