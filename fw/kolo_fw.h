/* kolo_fw.h - kolo service-processor firmware (docs/firmware.md).
 *
 * One instance per node. Non-blocking: kolo_fw_step does what is due (events,
 * mailbox, pending sends, a table recomputation) and returns; the platform
 * calls it again when the interrupt line rises or at kolo_fw_deadline(),
 * whichever comes first. Freestanding C99: no libc, no allocation; the
 * caller provides the instance memory and the routing workspace.
 */
#ifndef KOLO_FW_H
#define KOLO_FW_H

#include <stddef.h>
#include <stdint.h>

#include "kolo_fw_msg.h"
#include "kolo_hal.h"
#include "kolo_route.h"

#define KOLO_FW_VERSION "0.5.0"
#define KOLO_FW_TXQ 64        /* MGMT packets waiting for the mailbox */
#define KOLO_FW_MAX_CHECK_NODES 512 /* whole-set deadlock check up to this torus size */

/* MGMT message kinds, word 0 and the host-message area: kolo_fw_msg.h,
 * generated from rtl/regs/kolo_fw_msg.toml (docs/fw-msg.md) */

enum kolo_fw_stage {
    KOLO_FW_RESET = 0,
    KOLO_FW_BOOT = 1,
    KOLO_FW_LINKS = 2,
    KOLO_FW_RUNNING = 3,
    KOLO_FW_RECOMPUTING = 4,
    KOLO_FW_FAILED = 15
};

typedef struct {
    /* cycles the links may take to come up at boot before the missing ones
     * count as faults */
    uint64_t boot_link_timeout;
    /* cycles to wait after the last fault-set change before recomputing, so
     * that one failure seen as several events gives one table */
    uint64_t settle;
    /* modelled compute time of one table (simulation: the native build is
     * far faster than a PowerPC 440; 0 on a real board) */
    uint64_t compute_cycles;
    /* print a line per event (kolo_hal_log) */
    int verbose;
    /* serve host messages (docs/firmware.md "Host messages"): open host
     * writes (SYS_HOST_ACCESS) and the host-message area; boards whose
     * host has no NI (the ECP5 board) */
    int host_msg;
} kolo_fw_config;

typedef struct {
    uint32_t events, link_up, link_down, miscabled, err_threshold, mbx_overflow;
    uint32_t mgmt_sent, mgmt_received, mgmt_bad, records_new, records_stale;
    uint32_t recomputes, installs, check_failures, unreachable_dsts;
    uint32_t txq_full, sync_requests;
    uint32_t sp_faults;      /* SP_FAULT events: this service processor faulted */
    uint32_t unrouted_pairs; /* connected pairs the last table could not route */
    uint64_t last_install_time;  /* cycle of the last table switch */
    uint64_t last_change_time;   /* cycle the fault set last changed here */
    /* host messages (also in the area's counters, for the host) */
    uint32_t hmsg_tx_sent, hmsg_tx_refused, hmsg_rx_received, hmsg_rx_dropped, hmsg_rx_bad;
} kolo_fw_stats;

typedef struct {
    uint16_t src;
    uint8_t len;
    uint32_t w[KOLO_FWM_HMSG_WORDS];
} kolo_fw_hmsg;

typedef struct {
    uint16_t seq;       /* 0: never heard of */
    uint8_t down;       /* ports of the origin it reports down */
} kolo_fw_record;

typedef struct {
    uint16_t dst;
    uint32_t rs;
    uint8_t nwords;
    uint32_t w[64];
} kolo_fw_msg;

typedef struct kolo_fw {
    kolo_hal *hal;
    kolo_fw_config cfg;
    kolo_fw_stats stats;
    kolo_topo topo;
    uint16_t self;       /* node id */
    unsigned self_index;
    unsigned nodes;
    int stage;
    uint8_t present;     /* ports that exist in this torus */
    uint8_t local_down;  /* my ports that are down (or miscabled, or never came up) */
    uint8_t local_up;    /* my ports seen up */
    uint16_t epoch;
    uint64_t boot_time;
    uint64_t recompute_at;   /* 0: nothing pending */
    uint64_t install_at;     /* 0: no table waiting for its modelled compute time */
    uint16_t fault_digest;   /* of the fault set the pending/installed table is for */
    uint16_t installed_digest;
    kolo_fw_record rec[KOLO_MAX_NODES];
    /* MGMT transmit queue (ring) */
    kolo_fw_msg txq[KOLO_FW_TXQ];
    unsigned txq_head, txq_count;
    uint8_t pend[KOLO_MAX_NODES]; /* records still to send, bit p = through port p */
    unsigned pend_count;
    uint64_t last_sync_req;
    uint64_t tx_retry_at; /* the mailbox was busy: try the transmit queue again then */
    /* routing */
    kolo_faults faults;
    kolo_route_entry table[KOLO_MAX_NODES];
    void *ws;
    size_t ws_size;
    kolo_route_entry *set; /* whole table set for the checks (may be NULL) */
    size_t set_entries;
    kolo_ft_report last_report;
    /* host messages: on (cfg.host_msg; any torus size), the
     * last request answered, the receive queue (ring; head is shown in
     * RX_HEAD with rx_seq), the next poll of the area */
    int hmsg_on;
    uint8_t hmsg_tx_seq, hmsg_rx_seq, hmsg_tx_status;
    kolo_fw_hmsg hmsg_q[KOLO_FWM_HMSG_RXQ];
    unsigned hmsg_head, hmsg_count;
    uint64_t hmsg_poll_at;
} kolo_fw;

/* Workspace bytes kolo_fw_init needs for the routing functions on torus t
 * (read SYS_TORUS first, or use the largest torus the board supports), and
 * the entries of the whole-set buffer for the deadlock and connectivity
 * checks (0 above KOLO_FW_MAX_CHECK_NODES nodes: only the own table's paths
 * are checked then). */
size_t kolo_fw_workspace_size(const kolo_topo *t);
size_t kolo_fw_set_entries(const kolo_topo *t);

void kolo_fw_default_config(kolo_fw_config *cfg);
/* Boot: read identity and torus, enable the links and ports, install the
 * fault-free table. Returns 0, or -1 (bad torus, workspace too small; stage
 * FAILED, logged). */
int kolo_fw_init(kolo_fw *fw, kolo_hal *hal, const kolo_fw_config *cfg, void *ws, size_t ws_size,
                 kolo_route_entry *set, size_t set_entries);
/* Do what is due now. */
void kolo_fw_step(kolo_fw *fw);
/* When kolo_fw_step must run next at the latest (cycles; UINT64_MAX: only on
 * an interrupt). */
uint64_t kolo_fw_deadline(const kolo_fw *fw);
/* 16-bit digest of a fault set, as FW_STATE.FAULT_GEN shows it */
uint16_t kolo_fw_fault_digest(const kolo_faults *f, unsigned nodes);

#endif
