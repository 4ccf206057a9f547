/* kolo_ni_model.h - C reference model of the network interface
 * (docs/ni.md): what the NI must do, at the level of host memory, MMIO and
 * packets. It executes descriptors and PIO writes, sends and receives the
 * packets of docs/ni.md section 1, checks windows, runs atomics, writes
 * completion entries, and keeps the counters of section 2.
 *
 * It is functional, not cycle-accurate: kolo_ni_step does a bounded amount
 * of work per call (at most one packet sent, one packet received and
 * executed), so a simulator that steps it once per core cycle gets a
 * plausible rate. It serves as the NI of every node in kolo-sim's model mode
 * and as the scoreboard's oracle for the RTL NI.
 *
 * Host memory and the network are reached through the callbacks of
 * kolo_ni_env; the model never touches memory by itself.
 */
#ifndef KOLO_NI_MODEL_H
#define KOLO_NI_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "kolo_model.h" /* kolo_pkt */
#include "kolo_route.h" /* kolo_topo, kolo_route_entry */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- constants of docs/ni.md: op codes, status codes, header fields and
 * BAR0 offsets come from rtl/regs/kolo_ni_regs.toml (generated header) ---- */
#include "kolo_ni_regs.h"

/* short names for the generated field masks */
#define KOLO_E2E_CTRL_EN KOLO_CSR_E2E_CTRL_EN_MASK
#define KOLO_E2E_CTRL_SWITCH KOLO_CSR_E2E_CTRL_SWITCH_MASK
#define KOLO_WIN_READ KOLO_WIN_CTRL_READ_MASK
#define KOLO_WIN_WRITE KOLO_WIN_CTRL_WRITE_MASK
#define KOLO_WIN_ATOMIC KOLO_WIN_CTRL_ATOMIC_MASK
#define KOLO_WIN_ENABLE KOLO_WIN_CTRL_ENABLE_MASK
#define KOLO_PIO_PAGE(c) (KOLO_PIO_STRIDE * (c))

/* descriptor, completion entry: byte images as in host memory */
typedef struct {
    uint8_t op, flags;
    uint16_t dst; /* bits 11:0 */
    uint32_t len;
    uint64_t raddr_key; /* raddr bits 47:0, key bits 55:48 */
    uint64_t w2;        /* laddr / operand / inline bytes 0..7 */
    uint64_t w3;        /* compare / inline bytes 8..15 */
} kolo_desc;
typedef struct {
    uint16_t index;
    uint8_t status, op;
    uint32_t phase; /* bit 0 */
    uint64_t result;
} kolo_cqe;


/* ---- the model ----------------------------------------------------------- */
typedef struct kolo_ni kolo_ni;

typedef struct {
    void *user;
    /* host memory of this node; return 0, or -1 when the access fails (the
     * NI then reports KOLO_ST_LOCAL_DMA / KOLO_ST_REMOTE_DMA) */
    int (*dma_read)(void *user, uint64_t addr, void *buf, size_t len);
    int (*dma_write)(void *user, uint64_t addr, const void *buf, size_t len);
    /* hand a packet to the router's local port: header[0..1] and payload as
     * in kolo_pkt; vnet and ordered filled; return 0 if taken, -1 if the
     * network cannot take it now (the NI retries later) */
    int (*send)(void *user, const kolo_pkt *p);
    void (*msi)(void *user, unsigned vector); /* may be NULL */
} kolo_ni_env;

kolo_ni *kolo_ni_new(const kolo_topo *t, uint16_t node_id, const kolo_ni_env *env);
void kolo_ni_free(kolo_ni *ni);

/* Host MMIO. size 4 or 8 for BAR0, 64 for BAR2; bad accesses are dropped
 * and counted (ERR_CSR). mmio_read returns 0, or -1 for an access the
 * endpoint answers with a completer abort (size not 4/8, BAR2). */
void kolo_ni_mmio_write(kolo_ni *ni, int bar, uint64_t offset, const void *data, unsigned size);
int kolo_ni_mmio_read(kolo_ni *ni, int bar, uint64_t offset, unsigned size, uint64_t *value);

/* A packet from the router's local port (header[0..1], payload, len).
 * Returns 0 if taken, -1 if the NI cannot take it now (retry later).
 * Malformed packets are taken, dropped and counted. */
int kolo_ni_receive(kolo_ni *ni, const kolo_pkt *p);

/* One cycle's worth of work; returns non-zero if anything happened. CYCLES
 * (BAR0 0x88) reads the number of calls. */
int kolo_ni_step(kolo_ni *ni);
/* 1 when nothing is queued, in flight or pending inside this NI */
int kolo_ni_idle(const kolo_ni *ni);

/* Service side (firmware issue): node id / torus registers. */
void kolo_ni_set_node(kolo_ni *ni, const kolo_topo *t, uint16_t node_id);

/* ---- added by sw/model (kolo_ni_model.c) ----------------------------------
 * Model choices (docs/ni.md leaves them open):
 * - kolo_ni_new and kolo_ni_set_node load the default routing table of the
 *   topology (kolo_table_default) into BAR0 0x4000; the kernel/firmware may
 *   overwrite it.
 * - SQ_PI and CQ_CI are indices mod 2^16 (bits 15:0 used, 31:16 ignored);
 *   STATUS bits 31:16 is the SQ consumer index mod 2^16. Enabling a context
 *   resets all its indices to 0 (the host clears the CQ first). CQ log2 size
 *   is limited to 15 like the SQ's.
 * - A completion entry's index is the SQ slot (index mod SQ entries).
 * - Any operation that ends with an error writes a completion entry, with
 *   or without COMPLETE.
 * - RX_PKTS counts every packet taken by kolo_ni_receive (bad ones included),
 *   TX_PKTS every packet handed to env->send.
 * - kolo_ni_step does not receive: the caller hands packets to
 *   kolo_ni_receive (at most one per cycle for a plausible rate).
 * - Packets sent get kolo_pkt.id = node id << 48 | running count (tracing).
 */
#define KOLO_NI_NUM_TAGS 256  /* transaction tags, shared by all contexts */
#define KOLO_NI_PIO_DEPTH 4   /* PIO operations buffered per context */
#define KOLO_NI_RESP_QUEUE 32 /* target responses queued when env->send refuses */

/* header flit 0 bits 63:59 (docs/ni.md section 1; fields KOLO_H0_* of kolo_ni_regs.h) */
#define KOLO_H0_EXT_SHIFT KOLO_H0_LASTB_SHIFT
#define KOLO_H0_LASTB(h0) (((h0) & KOLO_H0_LASTB_MASK) >> KOLO_H0_LASTB_SHIFT) /* PUT, GET_RESP */
#define KOLO_H0_ASIZE(h0) (((h0) & KOLO_H0_ASIZE_MASK) >> KOLO_H0_ASIZE_SHIFT) /* atomics */
#define KOLO_H0_FETCH KOLO_H0_FETCH_MASK /* atomics: answer with the old value */

/* byte images (32-byte descriptor, 16-byte completion entry, little-endian).
 * kolo_desc.dst is stored as 16 bits (descriptor bits 31:16), so bits 15:12
 * are the reserved bits 31:28; raddr_key bits 63:56 the reserved 127:120.
 * kolo_cqe.phase holds entry bits 63:32 (phase in bit 0, the rest 0). */
void kolo_desc_pack(const kolo_desc *d, uint8_t out[32]);
void kolo_desc_unpack(const uint8_t in[32], kolo_desc *d);
void kolo_cqe_pack(const kolo_cqe *e, uint8_t out[16]);
void kolo_cqe_unpack(const uint8_t in[16], kolo_cqe *e);

/* 1 if a write at (bar, offset) would be taken now. A BAR2 PIO write needs a
 * free PIO slot of its context; PCIe flow control holds the write (and every
 * later MMIO of that host) back until then. A PIO write made while this is 0
 * is dropped and counted in ERR_CSR. Every other write is always taken. */
int kolo_ni_mmio_write_ready(const kolo_ni *ni, int bar, uint64_t offset);

/* ---- end-to-end reliability (docs/ni.md section 10) --------------------------
 * With e2e enabled (on every NI of the torus), the initiator keeps each
 * request until its response, sends it again over the current route after
 * `timeout` cycles without one (kolo_ni_step calls), at most `max_retries`
 * times, then completes the operation with KOLO_ST_TIMEOUT (KOLO_ST_BAD_DST
 * when the destination has become unreachable). Header flit 0 bit 63 carries
 * a generation bit that alternates per (tag, destination); the target remembers per (source, tag) the
 * generation it executed last and the response it sent, and answers a
 * repeated request from that record without executing it again (GET_REQ is
 * read again). Responses echo the bit; one that matches no outstanding
 * request is a duplicate and dropped. Off: the NI behaves as before. */
#define KOLO_H0_GEN KOLO_H0_GEN_MASK
#define KOLO_NI_E2E_TIMEOUT KOLO_CSR_E2E_TIMEOUT_RESET /* cycles (80 us at 250 MHz) */
#define KOLO_NI_E2E_RETRIES \
    ((KOLO_CSR_E2E_CTRL_RESET & KOLO_CSR_E2E_CTRL_RETRIES_MASK) >> KOLO_CSR_E2E_CTRL_RETRIES_SHIFT)
/* after any change of a route entry (new tables around a fault), unanswered
 * requests are sent again after timeout / KOLO_NI_E2E_ROUTE_DIV: they or their
 * responses may have been lost on the old paths */
#define KOLO_NI_E2E_ROUTE_DIV 8u
typedef struct {
    int enable;
    uint32_t timeout;     /* cycles without a response before a request is sent again */
    uint32_t max_retries; /* retransmissions before KOLO_ST_TIMEOUT */
} kolo_ni_e2e_cfg;
typedef struct {
    uint64_t retransmits;   /* requests sent again */
    uint64_t dup_requests;  /* requests seen again at the target (answered from the record) */
    uint64_t dup_responses; /* responses dropped: no outstanding request/generation */
    uint64_t timeouts;      /* operations given up after max_retries */
    uint64_t unreachable;   /* operations given up: destination no longer routable */
} kolo_ni_e2e_stats;
void kolo_ni_set_e2e(kolo_ni *ni, const kolo_ni_e2e_cfg *cfg);
void kolo_ni_get_e2e(const kolo_ni *ni, kolo_ni_e2e_cfg *cfg, kolo_ni_e2e_stats *st);
/* The service processor switched the routing table (RT_EPOCH), even if this
 * NI's own entries did not change: a response to one of its requests may have
 * been lost on another node's old path. Same effect as an entry change. */
void kolo_ni_e2e_route_switch(kolo_ni *ni);
/* Target records: has[i] = 1 (i < n) for every source node index of which
 * this NI holds at least one record; returns how many sources that is. Memory
 * (docs/ni.md 10, "C model: records for every source"): 40 bytes per node of the torus, plus
 * 4 KiB per source that has sent a request here (records for every source of
 * a 16x16x16 torus: 4096 x 4 KiB = 16 MiB per NI at most). */
unsigned kolo_ni_e2e_sources(const kolo_ni *ni, uint8_t *has, unsigned n);
/* requests sent and waiting for a response; *oldest = the longest wait (cycles) */
unsigned kolo_ni_outstanding_age(const kolo_ni *ni, uint64_t *oldest);

#ifdef __cplusplus
}
#endif
#endif
