/* t_signal.c - put with signal: shmem_put_signal / _nbi (typed, sized,
 * putmem, ctx), SHMEM_SIGNAL_SET and SHMEM_SIGNAL_ADD, signal_fetch,
 * signal_wait_until. A ring of rounds: each PE sends a block with a signal to
 * its right neighbour and waits for the one from its left; when the signal
 * shows, the whole block must be there. Several senders adding to one
 * signal word count up exactly. */
#include "shmem_test.h"

#define LEN 700
static long blk[LEN];
static uint64_t sig;
static uint64_t many;
static uint64_t zero_sig;

int main(void) {
    int me, npes, r, i, to, from;
    uint64_t expect = 0;
    long src[LEN];
    t_name = "t_signal";
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    to = (me + 1) % npes;
    from = (me + npes - 1) % npes;
    CHECK(shmem_signal_fetch(&sig) == 0, "initial signal");
    shmem_barrier_all();
    for (r = 1; r <= 24; r++) {
        size_t n = (size_t)(r * 29 % LEN) + 1;
        int kind = r % 8, op = (r & 1) ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET;
        uint64_t want = op == SHMEM_SIGNAL_ADD ? expect + 1 : (uint64_t)r * 10;
        uint64_t sv = op == SHMEM_SIGNAL_ADD ? 1 : (uint64_t)r * 10, got;
        for (i = 0; i < (int)n; i++)
            src[i] = r * 100000L + me * 1000L + i;
        switch (kind) {
        case 0: shmem_long_put_signal(blk, src, n, &sig, sv, op, to); break;
        case 1: shmem_long_put_signal_nbi(blk, src, n, &sig, sv, op, to); break;
        case 2: shmem_putmem_signal(blk, src, n * sizeof(long), &sig, sv, op, to); break;
        case 3: shmem_putmem_signal_nbi(blk, src, n * sizeof(long), &sig, sv, op, to); break;
        case 4: shmem_put64_signal(blk, src, n, &sig, sv, op, to); break;
        case 5: shmem_put32_signal_nbi(blk, src, 2 * n, &sig, sv, op, to); break;
        case 6: shmem_ctx_long_put_signal(SHMEM_CTX_DEFAULT, blk, src, n, &sig, sv, op, to); break;
        default: shmem_ctx_putmem_signal_nbi(SHMEM_CTX_DEFAULT, blk, src, n * 8, &sig, sv, op, to); break;
        }
        if (kind == 0 || kind == 2 || kind == 4 || kind == 6)
            memset(src, 0, n * sizeof(long)); /* blocking: source reusable */
        got = shmem_signal_wait_until(&sig, SHMEM_CMP_GE, want);
        CHECK(got == want, "round %d: signal %llu want %llu", r, (unsigned long long)got,
              (unsigned long long)want);
        expect = want;
        for (i = 0; i < (int)n; i++)
            if (blk[i] != r * 100000L + from * 1000L + i)
                break;
        CHECK(i == (int)n, "round %d (kind %d, %zu longs): block[%d] = %ld when the signal came", r,
              kind, n, i, blk[i < (int)n ? i : 0]);
        shmem_barrier_all(); /* nobody overwrites blk before its owner has looked */
    }
    /* every PE adds (pe + 1) to PE 0's word with an empty-looking block */
    shmem_putmem_signal(blk + 1, src, 8, &many, (uint64_t)me + 1, SHMEM_SIGNAL_ADD, 0);
    if (me == 0) {
        uint64_t want = (uint64_t)npes * (npes + 1) / 2;
        CHECK(shmem_signal_wait_until(&many, SHMEM_CMP_EQ, want) == want, "sum of adds");
    }
    shmem_barrier_all();
    /* a zero-length put with signal still signals */
    shmem_putmem_signal(blk, src, 0, &zero_sig, 5, SHMEM_SIGNAL_SET, to);
    CHECK(shmem_signal_wait_until(&zero_sig, SHMEM_CMP_EQ, 5) == 5, "zero-length put_signal");
    shmem_barrier_all();
    /* signal to self */
    shmem_long_put_signal(blk, src, 4, &zero_sig, 2, SHMEM_SIGNAL_ADD, me);
    CHECK(shmem_signal_wait_until(&zero_sig, SHMEM_CMP_GE, 7) == 7, "signal to self");
    CHECK(blk[3] == src[3], "data to self");
    T_FINISH();
}
