/* torus_work.c - a small distributed job that checks its own results, for
 * runs where links and nodes fail underneath it (make demo).
 * Every round each PE
 *   - puts a 256-byte block stamped with (round, source, index) into a slot of
 *     each of its partners (PE +1, -1, +k, -k around the PE ring), then a flag
 *     with put-with-signal semantics (fence: the block before the flag);
 *   - takes a ticket with an atomic fetch-and-add on PE 0's counter and adds
 *     1 with an atomic add to a per-PE tally on its +1 partner;
 *   - gets the block its -1 partner wrote into the partner's own outbox and
 *     checks every word;
 *   - waits for its partners' flags of this round and checks every block.
 * At the end: the counter must equal npes * rounds, the tickets must be
 * exactly 0 .. npes*rounds-1 (their sum and xor: a lost or doubled atomic
 * shows), each tally must equal rounds. A wrong word anywhere fails the run.
 * Standard OpenSHMEM C: oshcc torus_work.c; kolo-run -n 8 ./torus_work [rounds] */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define WORDS 32
#define MAXPART 4

static long inbox[MAXPART][WORDS]; /* slot p: written by partner p */
static long inflag[MAXPART];       /* round number last written into slot p */
static long outbox[WORDS];         /* what others read with get */
static long counter;               /* on PE 0: tickets taken */
static long tally;                 /* atomic adds from my -1 partner */
static long ticket_sum, errors;
static unsigned long ticket_xor, xor_all;
static long sums[2];

static long stamp(long round, int src, int i) { return (round << 32) ^ ((long)src << 16) ^ (i * 2654435761L); }

int main(int argc, char **argv) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long rounds = argc > 1 ? atol(argv[1]) : 100;
    if (rounds < 1) rounds = 1;
    int k = n >= 8 ? 3 : 1;
    /* partners: +1, -1, +k, -k (fewer when they coincide) */
    int to[MAXPART], np = 0;
    int cand[MAXPART] = {(me + 1) % n, (me + n - 1) % n, (me + k) % n, (me + n - k) % n};
    for (int i = 0; i < MAXPART && n > 1; i++) {
        int dup = 0;
        for (int j = 0; j < np; j++) dup |= to[j] == cand[i];
        if (!dup && cand[i] != me) to[np++] = cand[i];
    }
    /* my slot index at each partner: the partner computes the same list */
    int slot_at[MAXPART];
    for (int j = 0; j < np; j++) {
        int q = to[j], qk = k, qn = 0, qto[MAXPART];
        int qc[MAXPART] = {(q + 1) % n, (q + n - 1) % n, (q + qk) % n, (q + n - qk) % n};
        for (int i = 0; i < MAXPART; i++) {
            int dup = 0;
            for (int m = 0; m < qn; m++) dup |= qto[m] == qc[i];
            if (!dup && qc[i] != q) qto[qn++] = qc[i];
        }
        slot_at[j] = -1;
        /* partner q receives from the PEs it sends to (the lists are symmetric) */
        for (int m = 0; m < qn; m++)
            if (qto[m] == me) slot_at[j] = m;
    }
    long block[WORDS];
    shmem_barrier_all();
    for (long r = 1; r <= rounds; r++) {
        for (int i = 0; i < WORDS; i++) outbox[i] = stamp(r, me, i) ^ 0x55;
        for (int j = 0; j < np; j++) {
            for (int i = 0; i < WORDS; i++) block[i] = stamp(r, me, i);
            shmem_long_put(inbox[slot_at[j]], block, WORDS, to[j]);
            shmem_fence();
            shmem_long_atomic_set(&inflag[slot_at[j]], r, to[j]);
        }
        long t = shmem_long_atomic_fetch_add(&counter, 1, 0);
        ticket_sum += t;
        ticket_xor ^= (unsigned long)t;
        shmem_long_atomic_add(&tally, 1, (me + 1) % n);
        shmem_barrier_all(); /* outboxes of this round are written */
        int left = (me + n - 1) % n;
        shmem_long_get(block, outbox, WORDS, left);
        for (int i = 0; i < WORDS; i++)
            if (block[i] != (stamp(r, left, i) ^ 0x55)) {
                if (errors++ < 5) printf("torus_work: PE %d round %ld: get from %d word %d wrong\n", me, r, left, i);
            }
        for (int j = 0; j < np; j++) {
            /* slot j holds what to[j] sent me (symmetric lists) */
            shmem_long_wait_until(&inflag[j], SHMEM_CMP_GE, r);
            for (int i = 0; i < WORDS; i++)
                if (inbox[j][i] != stamp(r, to[j], i)) {
                    if (errors++ < 5)
                        printf("torus_work: PE %d round %ld: block from %d word %d wrong\n", me, r, to[j], i);
                }
        }
        shmem_barrier_all(); /* everyone has checked this round before it is overwritten */
        if (me == 0 && (r % (rounds / 4 > 0 ? rounds / 4 : 1)) == 0)
            printf("torus_work: round %ld of %ld\n", r, rounds);
    }
    if (tally != rounds) {
        printf("torus_work: PE %d tally %ld, want %ld\n", me, tally, rounds);
        errors++;
    }
    /* tickets: together exactly 0 .. n*rounds-1 */
    shmem_long_atomic_add(&sums[0], ticket_sum, 0);
    shmem_ulong_atomic_xor(&xor_all, ticket_xor, 0);
    shmem_long_atomic_add(&sums[1], errors, 0);
    shmem_barrier_all();
    int ok = 1;
    if (me == 0) {
        long total = (long)n * rounds, want_sum = total * (total - 1) / 2;
        unsigned long want_xor = 0;
        for (long i = 0; i < total; i++) want_xor ^= (unsigned long)i;
        ok = counter == total && sums[0] == want_sum && xor_all == want_xor && sums[1] == 0;
        printf("torus_work: %d PEs, %ld rounds: counter %ld (want %ld), tickets sum %ld (want %ld) xor %s, "
               "%ld data errors: %s\n",
               n, rounds, counter, total, sums[0], want_sum, xor_all == want_xor ? "ok" : "WRONG", sums[1],
               ok ? "ok" : "WRONG");
    }
    shmem_finalize();
    return ok ? 0 : 1;
}
