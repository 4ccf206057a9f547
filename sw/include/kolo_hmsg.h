/* kolo_hmsg.h - host messages: a host hands its node's firmware a short
 * message (1..KOLO_FWM_HMSG_MAX_BYTES bytes) for the host of another node,
 * and takes the messages that came for it, through the host-message area
 * in the service block's host mailbox (HMBOX of the service window; the
 * layout: kolo_fw_msg.h, generated from rtl/regs/kolo_fw_msg.toml;
 * docs/firmware.md "Host messages"). A table switch leaves the area alone. For boards
 * whose host reaches its node only through the service window: the ECP5
 * board over its UART (kolo_uart.h), whose firmware image serves them
 * (kolo_fw_rv32_hmsg).
 *
 * Sends are not acknowledged end to end: OK means the firmware put the
 * message into the network (the links deliver it or count its loss); the
 * receiving firmware keeps KOLO_FWM_HMSG_RXQ messages for its host and
 * drops (and counts) what comes while that many wait. One host program at
 * a time per node: the area has one request slot and one receive slot. */
#ifndef KOLO_HMSG_H
#define KOLO_HMSG_H

#include <stddef.h>
#include <stdint.h>

#include "kolo_fw_msg.h"
#include "kolo_uart.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Register access of the service window (offsets as kolo_svc_regs.h's,
 * without KOLO_SVC_HOST_BASE): 0 or a KOLO_E_* code. wait (may be NULL)
 * runs between two looks at the firmware's answer. */
typedef struct kolo_hmsg_port {
    int (*read32)(void *user, uint32_t off, uint32_t *val);
    int (*write32)(void *user, uint32_t off, uint32_t val);
    void (*wait)(void *user);
    void *user;
} kolo_hmsg_port;

/* looks at TX_DONE a send makes before it gives up with KOLO_E_TIMEOUT */
#define KOLO_HMSG_POLLS 1000u

typedef struct kolo_hmsg_counters {
    uint32_t tx_sent, tx_refused, rx_received, rx_dropped, rx_bad, rx_queued;
} kolo_hmsg_counters;

/* Send len bytes to node (id {z,y,x}). Returns 0 (in the network), or
 *   KOLO_E_INVAL    NULL port or data
 *   KOLO_E_LEN      len 0 or above KOLO_FWM_HMSG_MAX_BYTES (nothing written)
 *   KOLO_E_NODE     node is not in the torus
 *   KOLO_E_NOROUTE  no route to node: its links are down (peer down or cut off)
 *   KOLO_E_BUSY     the firmware's transmit queue is full: try again
 *   KOLO_E_AGAIN    the firmware is not running yet: try again
 *   KOLO_E_NOSYS    the firmware serves no host messages (HMSG_ID)
 *   KOLO_E_TIMEOUT  the firmware did not answer in KOLO_HMSG_POLLS looks
 *   a register access's code (KOLO_E_IO, ...) */
int kolo_hmsg_send(const kolo_hmsg_port *p, uint16_t node, const void *data, size_t len);
/* Take the oldest message: its bytes into buf (cap bytes), its length and
 * source node. Returns 0, or KOLO_E_AGAIN (none waiting), KOLO_E_LEN (cap
 * too small: *len says how much is needed, the message stays), KOLO_E_INVAL,
 * KOLO_E_NOSYS, a register access's code. */
int kolo_hmsg_recv(const kolo_hmsg_port *p, uint16_t *src, void *buf, size_t cap, size_t *len);
int kolo_hmsg_get_counters(const kolo_hmsg_port *p, kolo_hmsg_counters *c);

/* The same over a UART link (kolo_uart.h): the ECP5 board's host. */
int kolo_host_msg_send(kolo_uart *u, uint16_t node, const void *data, size_t len);
int kolo_host_msg_recv(kolo_uart *u, uint16_t *src, void *buf, size_t cap, size_t *len);
int kolo_host_msg_counters(kolo_uart *u, kolo_hmsg_counters *c);

#ifdef __cplusplus
}
#endif
#endif
