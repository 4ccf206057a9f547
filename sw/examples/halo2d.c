/* halo2d.c - Jacobi iterations on a 2D grid split over a PX x PY grid of
 * PEs (periodic, like the torus), with a one-cell halo exchanged every step:
 * rows go with put-with-signal (shmem_putmem_signal), columns with strided
 * shmem_double_iput followed by a fence and an atomic add on the
 * neighbour's signal word. Each PE waits for its four signals
 * (shmem_signal_wait_until) and computes; there is no barrier in the loop.
 * The result is checked on PE 0 against the same iterations on the whole
 * grid (gathered with fcollect). Standard OpenSHMEM C.
 * Run: kolo-run -n 8 ./halo2d [local size] [steps] */
#include <math.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int px, py, me, npes, myx, myy, nl, steps;

static int pe_of(int x, int y) { return ((y + py) % py) * px + (x + px) % px; }

/* periodic boundary: the global grid is a torus, like the machine */
static double init_value(int gx, int gy, int n) {
    return sin(6.283185307179586 * gx / n) * cos(6.283185307179586 * gy / n) + 0.01 * ((gx * 7 + gy * 13) % 11);
}

int main(int argc, char **argv) {
    double *u, *v, *all, *ref, *rv;
    uint64_t *sig;
    int i, j, s, n, ok = 1;
    double err = 0;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    nl = argc > 1 ? atoi(argv[1]) : 32;
    steps = argc > 2 ? atoi(argv[2]) : 10;
    for (px = (int)sqrt((double)npes); npes % px; px--)
        ;
    py = npes / px;
    myx = me % px;
    myy = me / px;
    /* local block with halo: (nl+2) x (nl+2), row-major, symmetric */
    u = (double *)shmem_calloc((size_t)(nl + 2) * (nl + 2), sizeof(double));
    v = (double *)shmem_calloc((size_t)(nl + 2) * (nl + 2), sizeof(double));
    sig = (uint64_t *)shmem_calloc(2, sizeof(uint64_t)); /* halos received, per buffer */
    all = (double *)shmem_malloc((size_t)nl * nl * npes * sizeof(double));
#define AT(a, r, c) (a)[(size_t)(r) * (nl + 2) + (c)]
    n = nl * px; /* global size (x); y: nl * py */
    for (i = 1; i <= nl; i++)
        for (j = 1; j <= nl; j++)
            AT(u, i, j) = init_value(myx * nl + j - 1, myy * nl + i - 1, n);
    shmem_barrier_all();
    for (s = 0; s < steps; s++) {
        double *cur = (s & 1) ? v : u, *nxt = (s & 1) ? u : v;
        uint64_t *cs = &sig[s & 1];
        int up = pe_of(myx, myy - 1), down = pe_of(myx, myy + 1);
        int left = pe_of(myx - 1, myy), right = pe_of(myx + 1, myy);
        /* columns (strided) -> left's right halo and right's left halo,
         * then (fence) one signal to each */
        shmem_double_iput(&AT(cur, 1, nl + 1), &AT(cur, 1, 1), nl + 2, nl + 2, nl, left);
        shmem_double_iput(&AT(cur, 1, 0), &AT(cur, 1, nl), nl + 2, nl + 2, nl, right);
        shmem_fence();
        shmem_uint64_atomic_add(cs, 1, left);
        shmem_uint64_atomic_add(cs, 1, right);
        /* rows: first row -> up's bottom halo, last row -> down's top halo,
         * each with its signal */
        shmem_putmem_signal(&AT(cur, nl + 1, 1), &AT(cur, 1, 1), nl * sizeof(double), cs, 1,
                            SHMEM_SIGNAL_ADD, up);
        shmem_putmem_signal(&AT(cur, 0, 1), &AT(cur, nl, 1), nl * sizeof(double), cs, 1,
                            SHMEM_SIGNAL_ADD, down);
        /* four halos in; the buffer's counter grows by 4 every other step */
        shmem_signal_wait_until(cs, SHMEM_CMP_GE, (uint64_t)4 * (s / 2 + 1));
        for (i = 1; i <= nl; i++)
            for (j = 1; j <= nl; j++)
                AT(nxt, i, j) = 0.25 * (AT(cur, i - 1, j) + AT(cur, i + 1, j) + AT(cur, i, j - 1) +
                                        AT(cur, i, j + 1));
        /* no barrier: a neighbour writes into cur's halos again only in step
         * s + 2, which it reaches only with my signals of step s + 1, sent
         * after I am done with cur */
    }
    /* gather the interiors on everyone, check on PE 0 against a serial run */
    {
        double *mine = (double *)malloc((size_t)nl * nl * sizeof(double));
        double *fin = (steps & 1) ? v : u;
        for (i = 0; i < nl; i++)
            memcpy(mine + (size_t)i * nl, &AT(fin, i + 1, 1), nl * sizeof(double));
        shmem_double_fcollect(SHMEM_TEAM_WORLD, all, mine, (size_t)nl * nl);
        free(mine);
    }
    if (me == 0) {
        int ny = nl * py, gx, gy;
        ref = (double *)malloc((size_t)n * ny * sizeof(double));
        rv = (double *)malloc((size_t)n * ny * sizeof(double));
        for (gy = 0; gy < ny; gy++)
            for (gx = 0; gx < n; gx++)
                ref[(size_t)gy * n + gx] = init_value(gx, gy, n);
        for (s = 0; s < steps; s++) {
            for (gy = 0; gy < ny; gy++)
                for (gx = 0; gx < n; gx++)
                    rv[(size_t)gy * n + gx] =
                        0.25 * (ref[(size_t)((gy + ny - 1) % ny) * n + gx] + ref[(size_t)((gy + 1) % ny) * n + gx] +
                                ref[(size_t)gy * n + (gx + n - 1) % n] + ref[(size_t)gy * n + (gx + 1) % n]);
            memcpy(ref, rv, (size_t)n * ny * sizeof(double));
        }
        for (gy = 0; gy < ny; gy++)
            for (gx = 0; gx < n; gx++) {
                int p = (gy / nl) * px + gx / nl;
                double got = all[(size_t)p * nl * nl + (size_t)(gy % nl) * nl + gx % nl];
                double d = fabs(got - ref[(size_t)gy * n + gx]);
                if (d > err)
                    err = d;
            }
        ok = err < 1e-12;
        printf("halo2d: %dx%d PEs, %dx%d grid, %d steps, max error %.3g: %s\n", px, py, n, ny, steps,
               err, ok ? "ok" : "WRONG");
        free(ref);
        free(rv);
    }
    shmem_free(all);
    shmem_free(sig);
    shmem_free(v);
    shmem_free(u);
    shmem_finalize();
    return ok ? 0 : 1;
}
