/* uart_board_model.h - a model of a board behind the UART bridge, for the
 * host-side tests: the bridge's frame protocol as rtl/board/kolo_uart_host.v
 * implements it (sync search, crc8 check, a pause inside a frame drops it,
 * the last seq and its kept response answered again without executing,
 * BRIDGE registers, CONSOLE frames) in front of a BAR0 register file, served
 * on a file descriptor (a pty master or a socket) by a thread. Faults are
 * injected on the line at seeded random: request bytes corrupted, answer
 * bytes corrupted or lost, answers delayed; and the chip can be told to
 * answer some addresses with an error or not at all. */
#ifndef UART_BOARD_MODEL_H
#define UART_BOARD_MODEL_H

#include <pthread.h>
#include <stdint.h>

#define UBM_BAR0_WORDS 16384 /* 64 KB of BAR0 */

typedef struct ubm {
    int fd;
    pthread_t thread;
    volatile int stop;
    pthread_mutex_t lock;
    /* the chip */
    uint32_t bar0[UBM_BAR0_WORDS];
    uint32_t writes[UBM_BAR0_WORDS]; /* how often each word was written */
    uint32_t err_lo, err_hi;         /* [lo, hi): error completions */
    uint32_t dead_lo, dead_hi;       /* [lo, hi): no answer (bridge status TIMEOUT) */
    /* faults on the line, percent per frame */
    unsigned corrupt_req, corrupt_rsp, lose_rsp;
    unsigned delay_ms;   /* each answer this late */
    int mute;            /* answer nothing at all */
    int collide_first;   /* the bridge kept a READ32 answer with the seq of the first frame */
    uint64_t rng;
    /* the bridge */
    int have_last;
    uint8_t last_op, last_seq, last_status;
    uint32_t last_data;
    uint32_t baud;
    unsigned long executed, crc_errors, resends, timeouts, frames_dropped;
    /* console bytes to send between answers */
    uint8_t con[4096];
    unsigned con_len;
} ubm;

/* Start serving fd (taken over) with seed for the faults. */
int ubm_start(ubm *m, int fd, uint64_t seed);
void ubm_stop(ubm *m);
/* Queue console bytes (sent in CONSOLE frames of up to 4). */
void ubm_console(ubm *m, const char *s);

#endif
