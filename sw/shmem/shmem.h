/* shmem.h - OpenSHMEM 1.5 for kolo (libkolo_shmem).
 *
 * The names and signatures are those of the OpenSHMEM 1.5 specification;
 * this text is kolo's own. The typed families are generated from the type
 * tables below (KSHMEM_*_TYPES), one line per type as in the spec's tables.
 * docs/shmem.md says what is supported and how it maps onto the NI.
 *
 * Build programs with sw/shmem/oshcc and run them with kolo-run -n N ./prog.
 */
#ifndef KOLO_SHMEM_H
#define KOLO_SHMEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#include <complex> /* the complex reductions take std::complex<double>, <float> */
extern "C" {
#endif

/* ---- library constants ------------------------------------------------------ */
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN 256
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING "kolo OpenSHMEM on libkolo"
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

/* pSync / pWrk sizes of the active-set collectives (kolo keeps its own
 * synchronisation state; the arrays are accepted and left untouched) */
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_BARRIER_SYNC_SIZE 4
#define SHMEM_BCAST_SYNC_SIZE 4
#define SHMEM_COLLECT_SYNC_SIZE 4
#define SHMEM_REDUCE_SYNC_SIZE 4
#define SHMEM_ALLTOALL_SYNC_SIZE 4
#define SHMEM_ALLTOALLS_SYNC_SIZE 4
#define SHMEM_SYNC_SIZE 4
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 1
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

/* contexts */
#define SHMEM_CTX_PRIVATE (1L << 0)
#define SHMEM_CTX_SERIALIZED (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)

/* ---- handles ----------------------------------------------------------------- */
typedef struct kshmem_team *shmem_team_t;
typedef struct kshmem_ctx *shmem_ctx_t;

extern struct kshmem_team kshmem_team_world, kshmem_team_shared;
extern struct kshmem_ctx kshmem_ctx_default;
#define SHMEM_TEAM_WORLD (&kshmem_team_world)
#define SHMEM_TEAM_SHARED (&kshmem_team_shared)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
#define SHMEM_CTX_DEFAULT (&kshmem_ctx_default)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)

typedef struct {
    int num_contexts;
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

/* ---- type tables (X(type, TYPENAME)) ---------------------------------------- */
#define KSHMEM_RMA_TYPES(X)                                                                        \
    X(float, float)                                                                                \
    X(double, double)                                                                              \
    X(long double, longdouble)                                                                     \
    X(char, char)                                                                                  \
    X(signed char, schar)                                                                          \
    X(short, short)                                                                                \
    X(int, int)                                                                                    \
    X(long, long)                                                                                  \
    X(long long, longlong)                                                                         \
    X(unsigned char, uchar)                                                                        \
    X(unsigned short, ushort)                                                                      \
    X(unsigned int, uint)                                                                          \
    X(unsigned long, ulong)                                                                        \
    X(unsigned long long, ulonglong)                                                               \
    X(int8_t, int8)                                                                                \
    X(int16_t, int16)                                                                              \
    X(int32_t, int32)                                                                              \
    X(int64_t, int64)                                                                              \
    X(uint8_t, uint8)                                                                              \
    X(uint16_t, uint16)                                                                            \
    X(uint32_t, uint32)                                                                            \
    X(uint64_t, uint64)                                                                            \
    X(size_t, size)                                                                                \
    X(ptrdiff_t, ptrdiff)

/* standard AMO types: fetch, set, swap, compare_swap, (fetch_)inc, (fetch_)add */
#define KSHMEM_AMO_STD_TYPES(X)                                                                    \
    X(int, int)                                                                                    \
    X(long, long)                                                                                  \
    X(long long, longlong)                                                                         \
    X(unsigned int, uint)                                                                          \
    X(unsigned long, ulong)                                                                        \
    X(unsigned long long, ulonglong)                                                               \
    X(int32_t, int32)                                                                              \
    X(int64_t, int64)                                                                              \
    X(uint32_t, uint32)                                                                            \
    X(uint64_t, uint64)                                                                            \
    X(size_t, size)                                                                                \
    X(ptrdiff_t, ptrdiff)

/* extended AMO types (fetch, set, swap) beyond the standard ones */
#define KSHMEM_AMO_EXT_TYPES(X)                                                                    \
    X(float, float)                                                                                \
    X(double, double)

/* bitwise AMO types: (fetch_)and, (fetch_)or, (fetch_)xor */
#define KSHMEM_AMO_BIT_TYPES(X)                                                                    \
    X(unsigned int, uint)                                                                          \
    X(unsigned long, ulong)                                                                        \
    X(unsigned long long, ulonglong)                                                               \
    X(int32_t, int32)                                                                              \
    X(int64_t, int64)                                                                              \
    X(uint32_t, uint32)                                                                            \
    X(uint64_t, uint64)

/* point-to-point synchronisation types: wait_until, test */
#define KSHMEM_P2P_TYPES(X)                                                                        \
    X(short, short)                                                                                \
    X(int, int)                                                                                    \
    X(long, long)                                                                                  \
    X(long long, longlong)                                                                         \
    X(unsigned short, ushort)                                                                      \
    X(unsigned int, uint)                                                                          \
    X(unsigned long, ulong)                                                                        \
    X(unsigned long long, ulonglong)                                                               \
    X(int32_t, int32)                                                                              \
    X(int64_t, int64)                                                                              \
    X(uint32_t, uint32)                                                                            \
    X(uint64_t, uint64)                                                                            \
    X(size_t, size)                                                                                \
    X(ptrdiff_t, ptrdiff)

/* team reductions: and/or/xor */
#define KSHMEM_REDUCE_BIT_TYPES(X)                                                                 \
    X(unsigned char, uchar)                                                                        \
    X(unsigned short, ushort)                                                                      \
    X(unsigned int, uint)                                                                          \
    X(unsigned long, ulong)                                                                        \
    X(unsigned long long, ulonglong)                                                               \
    X(int8_t, int8)                                                                                \
    X(int16_t, int16)                                                                              \
    X(int32_t, int32)                                                                              \
    X(int64_t, int64)                                                                              \
    X(uint8_t, uint8)                                                                              \
    X(uint16_t, uint16)                                                                            \
    X(uint32_t, uint32)                                                                            \
    X(uint64_t, uint64)                                                                            \
    X(size_t, size)

/* team reductions: max/min/sum/prod */
#define KSHMEM_REDUCE_ARITH_TYPES(X)                                                               \
    X(char, char)                                                                                  \
    X(signed char, schar)                                                                          \
    X(short, short)                                                                                \
    X(int, int)                                                                                    \
    X(long, long)                                                                                  \
    X(long long, longlong)                                                                         \
    X(ptrdiff_t, ptrdiff)                                                                          \
    X(unsigned char, uchar)                                                                        \
    X(unsigned short, ushort)                                                                      \
    X(unsigned int, uint)                                                                          \
    X(unsigned long, ulong)                                                                        \
    X(unsigned long long, ulonglong)                                                               \
    X(int8_t, int8)                                                                                \
    X(int16_t, int16)                                                                              \
    X(int32_t, int32)                                                                              \
    X(int64_t, int64)                                                                              \
    X(uint8_t, uint8)                                                                              \
    X(uint16_t, uint16)                                                                            \
    X(uint32_t, uint32)                                                                            \
    X(uint64_t, uint64)                                                                            \
    X(size_t, size)                                                                                \
    X(float, float)                                                                                \
    X(double, double)                                                                              \
    X(long double, longdouble)

/* active-set reductions (deprecated *_to_all) */
#define KSHMEM_TOALL_BIT_TYPES(X)                                                                  \
    X(short, short)                                                                                \
    X(int, int)                                                                                    \
    X(long, long)                                                                                  \
    X(long long, longlong)
#define KSHMEM_TOALL_ARITH_TYPES(X)                                                                \
    X(short, short)                                                                                \
    X(int, int)                                                                                    \
    X(long, long)                                                                                  \
    X(long long, longlong)                                                                         \
    X(float, float)                                                                                \
    X(double, double)                                                                              \
    X(long double, longdouble)

/* sized RMA: X(bits) */
#define KSHMEM_SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* ---- setup, query, exit ------------------------------------------------------- */
void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_global_exit(int status);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
/* OpenSHMEM 1.5 (teams): dest on team member pe; NULL unless load/store can reach it */
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);
/* deprecated names */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);
int shmem_initialized(void); /* kolo extension: 1 between init and finalize */
void shmem_pcontrol(int level, ...); /* profiling control: accepted, ignored */

/* ---- teams ------------------------------------------------------------------------ */
int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t *xaxis_config,
                        long xaxis_mask, shmem_team_t *xaxis_team,
                        const shmem_team_config_t *yaxis_config, long yaxis_mask,
                        shmem_team_t *yaxis_team);
void shmem_team_destroy(shmem_team_t team);
int shmem_team_sync(shmem_team_t team);

/* ---- contexts --------------------------------------------------------------------- */
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);

/* ---- symmetric heap ----------------------------------------------------------------- */
void *shmem_malloc(size_t size);
void *shmem_malloc_with_hints(size_t size, long hints);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);
/* deprecated */
void *shmalloc(size_t size);
void shfree(void *ptr);
void *shrealloc(void *ptr, size_t size);
void *shmemalign(size_t alignment, size_t size);

/* ---- RMA ------------------------------------------------------------------------------- */
#define KSHMEM_DECL_RMA(T, N)                                                                      \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe);                         \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);    \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe);                         \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);    \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe);                     \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,         \
                                 int pe);                                                          \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe);                     \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,         \
                                 int pe);                                                          \
    void shmem_##N##_p(T *dest, T value, int pe);                                                  \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe);                             \
    T shmem_##N##_g(const T *source, int pe);                                                      \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe);                                 \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,   \
                          int pe);                                                                 \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,            \
                              ptrdiff_t sst, size_t nelems, int pe);                               \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,   \
                          int pe);                                                                 \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,            \
                              ptrdiff_t sst, size_t nelems, int pe);                               \
    void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,       \
                                uint64_t signal, int sig_op, int pe);                              \
    void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,      \
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);      \
    void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,   \
                                    uint64_t signal, int sig_op, int pe);                          \
    void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,  \
                                        uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
KSHMEM_RMA_TYPES(KSHMEM_DECL_RMA)

#define KSHMEM_DECL_SIZED(B)                                                                       \
    void shmem_put##B(void *dest, const void *source, size_t nelems, int pe);                      \
    void shmem_ctx_put##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
    void shmem_get##B(void *dest, const void *source, size_t nelems, int pe);                      \
    void shmem_ctx_get##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
    void shmem_put##B##_nbi(void *dest, const void *source, size_t nelems, int pe);                \
    void shmem_ctx_put##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,    \
                                int pe);                                                           \
    void shmem_get##B##_nbi(void *dest, const void *source, size_t nelems, int pe);                \
    void shmem_ctx_get##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,    \
                                int pe);                                                           \
    void shmem_iput##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,               \
                       size_t nelems, int pe);                                                     \
    void shmem_ctx_iput##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,         \
                           ptrdiff_t sst, size_t nelems, int pe);                                  \
    void shmem_iget##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,               \
                       size_t nelems, int pe);                                                     \
    void shmem_ctx_iget##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,         \
                           ptrdiff_t sst, size_t nelems, int pe);                                  \
    void shmem_put##B##_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,  \
                               uint64_t signal, int sig_op, int pe);                               \
    void shmem_ctx_put##B##_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, \
                                   uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);       \
    void shmem_put##B##_signal_nbi(void *dest, const void *source, size_t nelems,                  \
                                   uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);       \
    void shmem_ctx_put##B##_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source,            \
                                       size_t nelems, uint64_t *sig_addr, uint64_t signal,         \
                                       int sig_op, int pe);
KSHMEM_SIZES(KSHMEM_DECL_SIZED)

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                         uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                             uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* ---- atomics ----------------------------------------------------------------------------- */
#define KSHMEM_DECL_AMO_FSS(T, N) /* fetch, set, swap */                                          \
    T shmem_##N##_atomic_fetch(const T *source, int pe);                                           \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe);                      \
    void shmem_##N##_atomic_set(T *dest, T value, int pe);                                         \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe);                    \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe);                                           \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe);                      \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe);                          \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source, int pe);     \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe);                          \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
#define KSHMEM_DECL_AMO_STD(T, N)                                                                  \
    KSHMEM_DECL_AMO_FSS(T, N)                                                                      \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe);                           \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe);      \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe);          \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond,       \
                                                 T value, int pe);                                 \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe);                                               \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe);                          \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe);                              \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe);         \
    void shmem_##N##_atomic_inc(T *dest, int pe);                                                  \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe);                             \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe);                                      \
    T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe);                 \
    void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe);                     \
    void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe); \
    void shmem_##N##_atomic_add(T *dest, T value, int pe);                                         \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe);                    \
    /* deprecated names */                                                                         \
    T shmem_##N##_fetch(const T *source, int pe);                                                  \
    void shmem_##N##_set(T *dest, T value, int pe);                                                \
    T shmem_##N##_swap(T *dest, T value, int pe);                                                  \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe);                                         \
    T shmem_##N##_finc(T *dest, int pe);                                                           \
    void shmem_##N##_inc(T *dest, int pe);                                                         \
    T shmem_##N##_fadd(T *dest, T value, int pe);                                                  \
    void shmem_##N##_add(T *dest, T value, int pe);
#define KSHMEM_DECL_AMO_BIT(T, N)                                                                  \
    T shmem_##N##_atomic_fetch_and(T *dest, T value, int pe);                                      \
    T shmem_ctx_##N##_atomic_fetch_and(shmem_ctx_t ctx, T *dest, T value, int pe);                 \
    void shmem_##N##_atomic_fetch_and_nbi(T *fetch, T *dest, T value, int pe);                     \
    void shmem_ctx_##N##_atomic_fetch_and_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe); \
    void shmem_##N##_atomic_and(T *dest, T value, int pe);                                         \
    void shmem_ctx_##N##_atomic_and(shmem_ctx_t ctx, T *dest, T value, int pe);                    \
    T shmem_##N##_atomic_fetch_or(T *dest, T value, int pe);                                       \
    T shmem_ctx_##N##_atomic_fetch_or(shmem_ctx_t ctx, T *dest, T value, int pe);                  \
    void shmem_##N##_atomic_fetch_or_nbi(T *fetch, T *dest, T value, int pe);                      \
    void shmem_ctx_##N##_atomic_fetch_or_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe); \
    void shmem_##N##_atomic_or(T *dest, T value, int pe);                                          \
    void shmem_ctx_##N##_atomic_or(shmem_ctx_t ctx, T *dest, T value, int pe);                     \
    T shmem_##N##_atomic_fetch_xor(T *dest, T value, int pe);                                      \
    T shmem_ctx_##N##_atomic_fetch_xor(shmem_ctx_t ctx, T *dest, T value, int pe);                 \
    void shmem_##N##_atomic_fetch_xor_nbi(T *fetch, T *dest, T value, int pe);                     \
    void shmem_ctx_##N##_atomic_fetch_xor_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe); \
    void shmem_##N##_atomic_xor(T *dest, T value, int pe);                                         \
    void shmem_ctx_##N##_atomic_xor(shmem_ctx_t ctx, T *dest, T value, int pe);
KSHMEM_AMO_STD_TYPES(KSHMEM_DECL_AMO_STD)
KSHMEM_AMO_EXT_TYPES(KSHMEM_DECL_AMO_FSS)
/* deprecated fetch, set, swap names of the extended types */
#define KSHMEM_DECL_AMO_FSS_DEP(T, N)                                                              \
    T shmem_##N##_fetch(const T *source, int pe);                                                  \
    void shmem_##N##_set(T *dest, T value, int pe);                                                \
    T shmem_##N##_swap(T *dest, T value, int pe);
KSHMEM_AMO_EXT_TYPES(KSHMEM_DECL_AMO_FSS_DEP)
KSHMEM_AMO_BIT_TYPES(KSHMEM_DECL_AMO_BIT)

/* ---- memory ordering, point-to-point synchronisation ------------------------------------- */
void shmem_fence(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_quiet(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);

#define KSHMEM_DECL_P2P(T, N)                                                                      \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                                    \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value);                                           \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,          \
                                    T cmp_value);                                                  \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,        \
                                      T cmp_value);                                                \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,                  \
                                       const int *status, int cmp, T cmp_value);                   \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value);    \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,              \
                                T cmp_value);                                                      \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status,     \
                                 int cmp, T cmp_value);                                            \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp,   \
                                           T *cmp_values);                                         \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                             T *cmp_values);                                       \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,           \
                                              const int *status, int cmp, T *cmp_values);          \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,          \
                                    T *cmp_values);                                                \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,       \
                                       T *cmp_values);                                             \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,                 \
                                        const int *status, int cmp, T *cmp_values);
KSHMEM_P2P_TYPES(KSHMEM_DECL_P2P)
/* deprecated */
void shmem_wait_until(long *ivar, int cmp, long cmp_value);
void shmem_wait(long *ivar, long cmp_value);
#define KSHMEM_DECL_WAIT(T, N) void shmem_##N##_wait(T *ivar, T cmp_value);
KSHMEM_DECL_WAIT(short, short)
KSHMEM_DECL_WAIT(int, int)
KSHMEM_DECL_WAIT(long, long)
KSHMEM_DECL_WAIT(long long, longlong)

/* ---- locks --------------------------------------------------------------------------------- */
void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);

/* ---- collectives ------------------------------------------------------------------------------ */
void shmem_barrier_all(void);
void shmem_sync_all(void);
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);

#define KSHMEM_DECL_COLL(T, N)                                                                     \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,          \
                              int PE_root);                                                        \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);           \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);          \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems);          \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,          \
                              ptrdiff_t sst, size_t nelems);
KSHMEM_RMA_TYPES(KSHMEM_DECL_COLL)
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems);

/* active-set (deprecated) forms */
void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
void shmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
void shmem_collect32(void *dest, const void *source, size_t nelems, int PE_start,
                     int logPE_stride, int PE_size, long *pSync);
void shmem_collect64(void *dest, const void *source, size_t nelems, int PE_start,
                     int logPE_stride, int PE_size, long *pSync);
void shmem_fcollect32(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void shmem_fcollect64(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void shmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void shmem_alltoall64(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void shmem_alltoalls32(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                       int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_alltoalls64(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                       int PE_start, int logPE_stride, int PE_size, long *pSync);

#define KSHMEM_DECL_RED(T, N, OP)                                                                  \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce);
#define KSHMEM_DECL_RED_BIT(T, N)                                                                  \
    KSHMEM_DECL_RED(T, N, and) KSHMEM_DECL_RED(T, N, or) KSHMEM_DECL_RED(T, N, xor)
#define KSHMEM_DECL_RED_ARITH(T, N)                                                                \
    KSHMEM_DECL_RED(T, N, max)                                                                     \
    KSHMEM_DECL_RED(T, N, min) KSHMEM_DECL_RED(T, N, sum) KSHMEM_DECL_RED(T, N, prod)
KSHMEM_REDUCE_BIT_TYPES(KSHMEM_DECL_RED_BIT)
KSHMEM_REDUCE_ARITH_TYPES(KSHMEM_DECL_RED_ARITH)

#define KSHMEM_DECL_TOALL(T, N, OP)                                                                \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,           \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync);
#define KSHMEM_DECL_TOALL_BIT(T, N)                                                                \
    KSHMEM_DECL_TOALL(T, N, and) KSHMEM_DECL_TOALL(T, N, or) KSHMEM_DECL_TOALL(T, N, xor)
#define KSHMEM_DECL_TOALL_ARITH(T, N)                                                              \
    KSHMEM_DECL_TOALL(T, N, max)                                                                   \
    KSHMEM_DECL_TOALL(T, N, min) KSHMEM_DECL_TOALL(T, N, sum) KSHMEM_DECL_TOALL(T, N, prod)
KSHMEM_TOALL_BIT_TYPES(KSHMEM_DECL_TOALL_BIT)
KSHMEM_TOALL_ARITH_TYPES(KSHMEM_DECL_TOALL_ARITH)

/* complex sum and product (both tables). In C++ (g++, clang++) the names
 * take the compilers' _Complex extension, as C programs and the headers of
 * other implementations have them; std::complex<double>, <float> overloads
 * follow below (C++ lays them out as _Complex: real part, imaginary part) */
#ifndef __cplusplus
#define KSHMEM_REDUCE_COMPLEX_TYPES(X) X(double _Complex, complexd) X(float _Complex, complexf)
#else
__extension__ typedef double _Complex kshmem_complexd_t;
__extension__ typedef float _Complex kshmem_complexf_t;
#define KSHMEM_REDUCE_COMPLEX_TYPES(X) X(kshmem_complexd_t, complexd) X(kshmem_complexf_t, complexf)
#endif
#define KSHMEM_DECL_RED_COMPLEX(T, N)                                                              \
    KSHMEM_DECL_RED(T, N, sum)                                                                     \
    KSHMEM_DECL_RED(T, N, prod) KSHMEM_DECL_TOALL(T, N, sum) KSHMEM_DECL_TOALL(T, N, prod)
KSHMEM_REDUCE_COMPLEX_TYPES(KSHMEM_DECL_RED_COMPLEX)

/* ---- cache management (deprecated since OpenSHMEM 1.3; still in the
 * headers of other implementations): kolo's NI writes host memory
 * coherently, there is nothing to flush or invalidate: they do nothing */
void shmem_set_cache_inv(void);
void shmem_set_cache_line_inv(void *dest);
void shmem_clear_cache_inv(void);
void shmem_clear_cache_line_inv(void *dest);
void shmem_udcflush(void);
void shmem_udcflush_line(void *dest);

#ifdef __cplusplus
}
/* the complex reductions on std::complex (C++ only) */
#define KSHMEM_CXX_RED(C, N, OP)                                                                   \
    static inline int shmem_##N##_##OP##_reduce(shmem_team_t team, std::complex<C> *dest,         \
                                                const std::complex<C> *source, size_t nreduce) {   \
        return shmem_##N##_##OP##_reduce(team, reinterpret_cast<kshmem_##N##_t *>(dest),          \
                                         reinterpret_cast<const kshmem_##N##_t *>(source),         \
                                         nreduce);                                                 \
    }
KSHMEM_CXX_RED(double, complexd, sum)
KSHMEM_CXX_RED(double, complexd, prod)
KSHMEM_CXX_RED(float, complexf, sum)
KSHMEM_CXX_RED(float, complexf, prod)
#undef KSHMEM_CXX_RED
#endif

/* C11 type-generic interfaces: every generic family, default and context forms */
#ifndef KSHMEM_BUILDING_LIBRARY
#include "shmem_c11.h"
#endif
#endif
