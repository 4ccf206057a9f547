/* main_fw.c - the service-processor firmware image for kolo_sp: boots the
 * firmware (fw/kolo_fw.c) over the service block and runs its loop forever.
 * The loop wakes at least every KOLO_RV32_HEARTBEAT_CYCLES core cycles even
 * when the firmware has nothing due, so that SYS_FW_HEARTBEAT counts and the
 * heartbeat LED toggles while it is alive (default 2^25: 7.5 toggles a
 * second at 250 MHz; simulations build it with a shorter period). Tori up to
 * KOLO_RV32_CHECK_NODES nodes get the whole-set checks; larger ones check
 * their own table's paths (kolo_fw_init). The settle period (fault news to
 * recomputation) is KOLO_RV32_SETTLE_CYCLES, longer than the native 400:
 * on this core one recomputation of a small torus takes 100000 to 550000
 * cycles (docs/sim.md), and the news of one fault (both ends of a link, the
 * neighbours of a dead node) arrives over a few thousand cycles; computing
 * at the first record would mean computing again for the next.
 * KOLO_RV32_HOST_MSG=1 builds the image that serves host messages
 * (kolo_fw_config.host_msg: host writes open, the host-message area of
 * kolo_fw_msg.h; docs/firmware.md "Host messages"): for boards whose host
 * has no NI and reaches its node through the service window only (the
 * ECP5 board: kolo_fw_rv32_hmsg). */
#include "kolo_fw.h"
#include "kolo_rv32.h"

#define KOLO_RV32_CHECK_NODES 64u
#define KOLO_RV32_WS_BYTES (24u * 1024u)
#ifndef KOLO_RV32_SETTLE_CYCLES
#define KOLO_RV32_SETTLE_CYCLES 16384u
#endif
#ifndef KOLO_RV32_HOST_MSG
#define KOLO_RV32_HOST_MSG 0
#endif
#ifndef KOLO_RV32_HEARTBEAT_CYCLES
#define KOLO_RV32_HEARTBEAT_CYCLES (1u << 25)
#endif

kolo_hal *kolo_rv32_hal(void);

static kolo_fw rv32_fw;
static uint64_t rv32_ws[KOLO_RV32_WS_BYTES / sizeof(uint64_t)];
static kolo_route_entry rv32_set[KOLO_RV32_CHECK_NODES * KOLO_RV32_CHECK_NODES];

void kolo_rv32_main(void) {
    kolo_fw_config cfg;
    int beat = 0;
    uint64_t next_beat;
    kolo_rv32_puts("kolo firmware " KOLO_FW_VERSION " (RV32IM, kolo_sp)\n");
    kolo_fw_default_config(&cfg);
    cfg.settle = KOLO_RV32_SETTLE_CYCLES;
    cfg.host_msg = KOLO_RV32_HOST_MSG;
    if (kolo_fw_init(&rv32_fw, kolo_rv32_hal(), &cfg, rv32_ws, sizeof rv32_ws, rv32_set,
                     sizeof rv32_set / sizeof rv32_set[0])) {
        kolo_rv32_puts("kolo firmware: init failed (torus too large for this image?)\n");
        for (;;) __asm__ volatile("wfi");
    }
    next_beat = kolo_hal_time(kolo_rv32_hal()) + KOLO_RV32_HEARTBEAT_CYCLES;
    for (;;) {
        uint64_t due;
        kolo_fw_step(&rv32_fw);
        if (kolo_hal_time(kolo_rv32_hal()) >= next_beat) {
            kolo_rv32_heartbeat(beat ^= 1);
            next_beat += KOLO_RV32_HEARTBEAT_CYCLES;
        }
        due = kolo_fw_deadline(&rv32_fw);
        kolo_hal_wait(kolo_rv32_hal(), due < next_beat ? due : next_beat);
    }
}
