/* t_init.c - setup and query calls, teams, contexts.
 * shmem_init/finalize, init_thread/query_thread, my_pe/n_pes (+ deprecated),
 * pe_accessible, addr_accessible, ptr, info_get_version/name,
 * team_my_pe/n_pes/get_config/translate_pe/split_strided/split_2d/sync/destroy,
 * ctx_create/destroy/get_team, team_create_ctx (team-relative PE numbers). */
#include "shmem_test.h"

static long gvar = 42;
static int bss_arr[100];

int main(void) {
    int me, n, prov = -1, major = 0, minor = 0, i;
    char name[SHMEM_MAX_NAME_LEN];
    long local_var = 0;
    long *heap;
    shmem_team_t even = SHMEM_TEAM_INVALID, row = SHMEM_TEAM_INVALID, col = SHMEM_TEAM_INVALID;
    shmem_team_config_t cfg = {0};
    shmem_ctx_t ctx;
    t_name = "t_init";

    CHECK(shmem_my_pe() == -1, "my_pe before init");
    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &prov) == 0, "init_thread");
    CHECK(prov == SHMEM_THREAD_MULTIPLE, "provided %d", prov);
    start_pes(0); /* start_pes after init does nothing (a second shmem_init is an error) */
    me = shmem_my_pe();
    n = shmem_n_pes();
    shmem_query_thread(&prov);
    CHECK(prov == SHMEM_THREAD_MULTIPLE, "query_thread");
    CHECK(n >= 1 && me >= 0 && me < n, "me %d n %d", me, n);
    CHECK(_my_pe() == me && _num_pes() == n, "deprecated names");
    CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me, "team world my_pe");
    CHECK(shmem_team_n_pes(SHMEM_TEAM_WORLD) == n, "team world n_pes");
    CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) == 1 && shmem_team_my_pe(SHMEM_TEAM_SHARED) == 0,
          "team shared is this PE");
    CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1 && shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1,
          "invalid team");
    CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &cfg) == 0, "config");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_SHARED, 0, SHMEM_TEAM_WORLD) == me, "translate shared");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, n, SHMEM_TEAM_WORLD) == -1, "translate out of range");

    CHECK(shmem_pe_accessible(0) && shmem_pe_accessible(n - 1), "pe_accessible");
    CHECK(!shmem_pe_accessible(n) && !shmem_pe_accessible(-1), "pe not accessible");
    CHECK(shmem_addr_accessible(&gvar, (me + 1) % n), "global data symmetric");
    CHECK(shmem_addr_accessible(&bss_arr[99], 0), "bss symmetric");
    CHECK(!shmem_addr_accessible(&local_var, 0), "stack not symmetric");
    CHECK(!shmem_addr_accessible(&gvar, n), "bad PE");
    CHECK(shmem_ptr(&gvar, me) == &gvar, "ptr to self");
    CHECK(n == 1 || shmem_ptr(&gvar, (me + 1) % n) == NULL, "no ptr to others");
    CHECK(shmem_ptr(&local_var, me) == NULL, "no ptr to private memory");
    shmem_info_get_version(&major, &minor);
    CHECK(major == 1 && minor == 5, "version %d.%d", major, minor);
    CHECK(SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION == 5, "version macros");
    shmem_info_get_name(name);
    CHECK(strstr(name, "kolo") != NULL, "name '%s'", name);

    /* global data really is symmetric: read a neighbour's */
    gvar = 1000 + me;
    shmem_barrier_all();
    CHECK(shmem_long_g(&gvar, (me + 1) % n) == 1000 + (me + 1) % n, "g of neighbour's global");
    heap = (long *)shmem_malloc(sizeof(long));
    *heap = me;
    shmem_barrier_all();
    CHECK(shmem_long_g(heap, (me + n - 1) % n) == (me + n - 1) % n, "g of neighbour's heap");

    /* teams: the even PEs */
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, &cfg, 0, &even) == 0,
          "split even");
    if (me % 2 == 0) {
        long sum = 0, one = me;
        CHECK(even != SHMEM_TEAM_INVALID, "member of even");
        CHECK(shmem_team_my_pe(even) == me / 2, "even index");
        CHECK(shmem_team_n_pes(even) == (n + 1) / 2, "even size");
        CHECK(shmem_team_translate_pe(even, 1 % ((n + 1) / 2), SHMEM_TEAM_WORLD) == 2 * (1 % ((n + 1) / 2)),
              "translate even->world");
        CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, even) == me / 2, "world->even");
        CHECK(shmem_team_sync(even) == 0, "team sync");
        {
            static long src, dst;
            src = one;
            shmem_long_sum_reduce(even, &dst, &src, 1);
            for (i = 0; i < n; i += 2)
                sum += i;
            CHECK(dst == sum, "sum over even team %ld want %ld", dst, sum);
        }
        /* a context on the team: PE numbers are team-relative */
        CHECK(shmem_team_create_ctx(even, 0, &ctx) == 0, "team ctx");
        {
            shmem_team_t t;
            int nb = (shmem_team_my_pe(even) + 1) % shmem_team_n_pes(even);
            static int slot;
            CHECK(shmem_ctx_get_team(ctx, &t) == 0 && t == even, "ctx team");
            shmem_team_sync(even);
            shmem_ctx_int_p(ctx, &slot, me, nb); /* to team PE nb = world 2*nb */
            shmem_ctx_quiet(ctx);
            shmem_team_sync(even);
            CHECK(slot == 2 * ((shmem_team_my_pe(even) + shmem_team_n_pes(even) - 1) %
                              shmem_team_n_pes(even)),
                  "ctx put with team PE numbers: got %d", slot);
        }
        shmem_ctx_destroy(ctx);
        shmem_team_destroy(even);
    } else {
        CHECK(even == SHMEM_TEAM_INVALID, "odd PE not in even team");
        CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, SHMEM_TEAM_SHARED) == 0, "self in shared");
    }
    /* 2d split: rows of 2 */
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, &cfg, 0, &row, &cfg, 0, &col) == 0, "split 2d");
    CHECK(row != SHMEM_TEAM_INVALID && col != SHMEM_TEAM_INVALID, "row and column");
    CHECK(shmem_team_my_pe(row) == me % 2, "row index");
    CHECK(shmem_team_n_pes(row) == (n - me / 2 * 2 < 2 ? n - me / 2 * 2 : 2), "row size");
    CHECK(shmem_team_my_pe(col) == me / 2, "column index");
    CHECK(shmem_team_n_pes(col) == (n - me % 2 + 1) / 2, "column size");
    {
        static int rsrc, rdst;
        rsrc = 1;
        shmem_int_sum_reduce(col, &rdst, &rsrc, 1);
        CHECK(rdst == shmem_team_n_pes(col), "column reduce");
    }
    shmem_team_destroy(row);
    shmem_team_destroy(col);
    shmem_team_destroy(SHMEM_TEAM_INVALID); /* no operation (destroying WORLD is an error: t_errors) */

    /* contexts */
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0 && ctx != SHMEM_CTX_INVALID, "ctx create");
    {
        static long box;
        shmem_team_t t;
        CHECK(shmem_ctx_get_team(ctx, &t) == 0 && t == SHMEM_TEAM_WORLD, "ctx world");
        shmem_ctx_long_p(ctx, &box, 7 + me, (me + 1) % n);
        shmem_ctx_fence(ctx);
        shmem_ctx_quiet(ctx);
        shmem_barrier_all();
        CHECK(box == 7 + (me + n - 1) % n, "ctx put");
        CHECK(shmem_ctx_long_g(ctx, &box, me) == 7 + (me + n - 1) % n, "ctx g self");
        /* fence, quiet and destroy on SHMEM_CTX_INVALID do nothing (RMA on it is an
         * error: t_errors) */
        shmem_ctx_fence(SHMEM_CTX_INVALID);
        shmem_ctx_quiet(SHMEM_CTX_INVALID);
        shmem_ctx_destroy(SHMEM_CTX_INVALID);
        CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &t) != 0 && t == SHMEM_TEAM_INVALID, "invalid ctx team");
    }
    shmem_ctx_destroy(ctx);
    shmem_free(heap);
    T_FINISH();
}
