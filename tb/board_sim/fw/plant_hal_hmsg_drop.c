/* plant_hal_hmsg_drop.c - a planted bug for the board simulation
 * (tb_board_sim_ecp5 --plant=hmsg-drop, mk/board_sim.mk): the RV32
 * firmware's HAL (fw/rv32/hal.c) with one fault, so that the firmware
 * receiving host messages loses every second one: word 0 of every second
 * MGMT message of kind HOST read from the mailbox comes back with COUNT 0,
 * which the firmware refuses as malformed (HMSG_RX_BAD) and drops. The
 * firmware itself is the shipped one; only this test image has the fault.
 * The simulation must fail on it (messages missing at board 1's host). */
#define kolo_hal_read32 kolo_hal_read32_unplanted
#define kolo_hal_write32 kolo_hal_write32_unplanted
#include "../../../fw/rv32/hal.c"
#undef kolo_hal_read32
#undef kolo_hal_write32

#include "kolo_fw_msg.h"

uint32_t kolo_hal_read32(kolo_hal *h, uint32_t addr);
void kolo_hal_write32(kolo_hal *h, uint32_t addr, uint32_t value);

static int next_is_w0 = 1;      /* the next MBX_RX_DATA read is a packet's word 0 */
static unsigned host_msgs_seen; /* kind HOST messages read so far */

uint32_t kolo_hal_read32(kolo_hal *h, uint32_t addr) {
    uint32_t v = kolo_hal_read32_unplanted(h, addr);
    if (addr != KOLO_SVC_MBX_RX_DATA) return v;
    if (next_is_w0) {
        next_is_w0 = 0;
        if (KOLO_FWM_W0_MAGIC_GET(v) == KOLO_FWM_MAGIC && KOLO_FWM_W0_KIND_GET(v) == KOLO_FWM_MSG_HOST &&
            (++host_msgs_seen & 1u) == 0)
            v &= ~KOLO_FWM_W0_COUNT_MASK;
    }
    return v;
}

/* a pop (the firmware pops every packet it took) starts the next packet */
void kolo_hal_write32(kolo_hal *h, uint32_t addr, uint32_t value) {
    if (addr == KOLO_SVC_MBX_RX_POP) next_is_w0 = 1;
    kolo_hal_write32_unplanted(h, addr, value);
}
