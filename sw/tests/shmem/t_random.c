/* t_random.c - seeded random traffic between all PEs, checked exactly.
 * Each target holds one region (bytes), one word and one signal per writer
 * PE, and only that PE writes them. In each round every PE makes random puts
 * (blocking, nbi, p, iput, put with signal), atomics (add, xor, fetch_add,
 * compare_swap on its word of the target) and gets, to random targets:
 *  - as initiator it keeps a copy of what its region/word/signal at each
 *    target must hold, and checks every get and every fetched value at once;
 *  - as target it replays every other PE's random stream after the round's
 *    barrier and compares its whole memory.
 * argv[1]: rounds (default 60). argv[2], if given: a file; after the rounds
 * the program goes on until that file exists (PE 0 looks after each round
 * and tells the others: a run kept alive while a test does things to it,
 * sim-fault-ctl). SEED=<n> replays a run. */
#include <unistd.h>

#include "shmem_test.h"

#define REG 512 /* bytes per writer region */
#define MAXPE 64
static unsigned char mem[MAXPE * REG];
static uint64_t words[MAXPE];
static uint64_t sigs[MAXPE];

typedef struct {
    int kind, target;
    size_t off, len;
    uint64_t val, cmp;
    unsigned char data[128];
} op_t;

static void gen(op_t *o, int npes) {
    size_t i;
    o->kind = (int)t_rand(10);
    o->target = (int)t_rand((unsigned)npes);
    o->len = 1 + t_rand(t_rand(4) ? 16 : 128);
    o->off = t_rand((unsigned)(REG - o->len + 1));
    o->val = t_rand64();
    o->cmp = t_rand(2) ? 0 : t_rand64();
    for (i = 0; i < o->len; i++)
        o->data[i] = (unsigned char)t_rand64();
}

/* the effect of op o on (region, word, signal) of its writer at its target;
 * returns the old word value for the fetching ones */
static uint64_t apply(const op_t *o, unsigned char *reg, uint64_t *w, uint64_t *s) {
    uint64_t old = *w;
    size_t i;
    switch (o->kind) {
    case 0: case 1: memcpy(reg + o->off, o->data, o->len); break;
    case 2: reg[o->off] = o->data[0]; break;
    case 3:
        for (i = 0; i < o->len / 2 && o->off + 2 * i < REG; i++)
            reg[o->off + 2 * i] = o->data[i];
        break;
    case 4: case 6: *w += o->val; break;
    case 5: *w ^= o->val; break;
    case 7: if (*w == o->cmp) *w = o->val; break;
    case 8: memcpy(reg + o->off, o->data, o->len); *s += o->val & 0xffff; break;
    default: break; /* 9: a get */
    }
    return old;
}

static int stop; /* PE 0's word: the file exists */

int main(int argc, char **argv) {
    int me, npes, rounds = argc > 1 ? atoi(argv[1]) : 60, r, p, k;
    const char *until = argc > 2 ? argv[2] : NULL;
    uint64_t seed;
    static unsigned char shadow[MAXPE * REG], mine[MAXPE][REG];
    static uint64_t wshadow[MAXPE], sshadow[MAXPE], mw[MAXPE], ms[MAXPE];
    t_name = "t_random";
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > MAXPE) {
        fprintf(stderr, "t_random: at most %d PEs\n", MAXPE);
        shmem_global_exit(2);
    }
    seed = t_seed("t_random");
    for (r = 0; r < rounds || (until && !stop); r++) {
        int nops = 1 + (int)((seed + (uint64_t)r) % 6);
        t_stream(seed, r * MAXPE + me);
        for (k = 0; k < nops; k++) {
            op_t o;
            unsigned char *dst = mem + (size_t)me * REG; /* my region, at the target */
            uint64_t want_old, got;
            gen(&o, npes);
            want_old = apply(&o, mine[o.target], &mw[o.target], &ms[o.target]);
            switch (o.kind) {
            case 0: shmem_putmem(dst + o.off, o.data, o.len, o.target); break;
            case 1: shmem_putmem_nbi(dst + o.off, o.data, o.len, o.target); shmem_quiet(); break;
            case 2: shmem_char_p((char *)dst + o.off, (char)o.data[0], o.target); break;
            case 3: {
                size_t n = o.len / 2;
                while (n && o.off + 2 * (n - 1) >= REG)
                    n--;
                shmem_iput8(dst + o.off, o.data, 2, 1, n, o.target);
                break;
            }
            case 4: shmem_uint64_atomic_add(&words[me], o.val, o.target); break;
            case 5: shmem_uint64_atomic_xor(&words[me], o.val, o.target); break;
            case 6:
                got = shmem_uint64_atomic_fetch_add(&words[me], o.val, o.target);
                CHECK(got == want_old, "round %d: fetch_add old %#llx want %#llx", r,
                      (unsigned long long)got, (unsigned long long)want_old);
                break;
            case 7:
                got = shmem_uint64_atomic_compare_swap(&words[me], o.cmp, o.val, o.target);
                CHECK(got == want_old, "round %d: compare_swap old", r);
                break;
            case 8:
                shmem_putmem_signal(dst + o.off, o.data, o.len, &sigs[me], o.val & 0xffff,
                                    SHMEM_SIGNAL_ADD, o.target);
                break;
            default: {
                unsigned char back[REG];
                shmem_fence(); /* gets are not ordered after puts by fence: quiet */
                shmem_quiet();
                shmem_getmem(back, dst, REG, o.target);
                CHECK(!memcmp(back, mine[o.target], REG), "round %d: get of my region at %d", r,
                      o.target);
                CHECK(shmem_uint64_g(&words[me], o.target) == mw[o.target], "round %d: g of my word", r);
                CHECK(shmem_uint64_atomic_fetch(&sigs[me], o.target) == ms[o.target], "round %d: signal", r);
                break;
            }
            }
            /* puts to overlapping bytes of one target land in order only
             * with fence (or quiet) between them */
            shmem_fence();
        }
        shmem_barrier_all();
        /* replay everybody's stream for what lands here */
        for (p = 0; p < npes; p++) {
            t_stream(seed, r * MAXPE + p);
            for (k = 0; k < nops; k++) {
                op_t o;
                gen(&o, npes);
                if (o.target == me)
                    apply(&o, shadow + (size_t)p * REG, &wshadow[p], &sshadow[p]);
            }
        }
        for (p = 0; p < npes; p++) {
            CHECK(!memcmp(mem + (size_t)p * REG, shadow + (size_t)p * REG, REG),
                  "round %d: region of PE %d differs", r, p);
            CHECK(words[p] == wshadow[p], "round %d: word of PE %d %#llx want %#llx", r, p,
                  (unsigned long long)words[p], (unsigned long long)wshadow[p]);
            CHECK(sigs[p] == sshadow[p], "round %d: signal of PE %d", r, p);
        }
        shmem_barrier_all();
        if (t_failures > 10)
            break;
        if (until && r + 1 >= rounds) {
            int here = me == 0 && access(until, F_OK) == 0;
            shmem_int_broadcast(SHMEM_TEAM_WORLD, &stop, &here, 1, 0);
        }
    }
    T_FINISH();
}
