/* shmem_c11.h - the C11 type-generic interfaces of OpenSHMEM 1.5 (included
 * by shmem.h; kolo's own text, the names and arguments are the spec's).
 *
 * Every generic family in both of its forms: the default-context form and
 * the context-first form, which has one argument more (shmem_put(dest, src,
 * n, pe) and shmem_put(ctx, dest, src, n, pe)); the number of arguments
 * picks the form, the type the data argument points to picks the typed
 * routine. The selection lists name base C types; the other names of the
 * spec's type tables are typedefs of them on LP64 Linux (int8_t is signed
 * char, int16_t short, int32_t int, int64_t and ptrdiff_t long, uint*_t and
 * size_t the unsigned ones) and select the same routine as the typed name
 * would: shmem_atomic_and on an int32_t * calls shmem_int32_atomic_and.
 * A type a family does not take is a compile error (no association).
 *
 * shmem_sync(team) and the deprecated shmem_sync(PE_start, logPE_stride,
 * PE_size, pSync) are told apart the same way.
 */
#ifndef KOLO_SHMEM_C11_H
#define KOLO_SHMEM_C11_H

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)

/* ---- argument counting ------------------------------------------------------------- */
#define KSHMEM_NARGS(...) KSHMEM_NARGS_(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define KSHMEM_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, N, ...) N
#define KSHMEM_CAT(a, b) KSHMEM_CAT_(a, b)
#define KSHMEM_CAT_(a, b) a##b
/* family F called with n arguments: kshmem_F_<n>(...) */
#define KSHMEM_BY_NARGS(f, ...) KSHMEM_CAT(f, KSHMEM_NARGS(__VA_ARGS__))(__VA_ARGS__)

/* the end of every selection list: a type no program uses, so that a list
 * needs no special last element; selecting it is impossible */
struct kshmem_no_type {
    int unused;
};

/* ---- selection lists: X(C type, TYPENAME, prefix, operation) ----------------------- */
#define KSHMEM_SEL(T, N, P, op) T : P##N##_##op,
/* standard RMA types (rma_intro: Standard RMA Types and Names) */
#define KSHMEM_GL_RMA(X, P, op)                                                                    \
    X(float, float, P, op) X(double, double, P, op) X(long double, longdouble, P, op)              \
    X(char, char, P, op) X(signed char, schar, P, op) X(short, short, P, op) X(int, int, P, op)    \
    X(long, long, P, op) X(long long, longlong, P, op) X(unsigned char, uchar, P, op)              \
    X(unsigned short, ushort, P, op) X(unsigned int, uint, P, op)                                  \
    X(unsigned long, ulong, P, op) X(unsigned long long, ulonglong, P, op)
/* standard AMO types */
#define KSHMEM_GL_AMO_STD(X, P, op)                                                                \
    X(int, int, P, op) X(long, long, P, op) X(long long, longlong, P, op)                          \
    X(unsigned int, uint, P, op) X(unsigned long, ulong, P, op)                                    \
    X(unsigned long long, ulonglong, P, op)
/* extended AMO types: the standard ones and float, double */
#define KSHMEM_GL_AMO_EXT(X, P, op)                                                                \
    X(float, float, P, op) X(double, double, P, op) KSHMEM_GL_AMO_STD(X, P, op)
/* bitwise AMO types: int32_t and int64_t are int and long */
#define KSHMEM_GL_AMO_BIT(X, P, op)                                                                \
    X(unsigned int, uint, P, op) X(unsigned long, ulong, P, op)                                    \
    X(unsigned long long, ulonglong, P, op) X(int, int32, P, op) X(long, int64, P, op)
/* point-to-point synchronisation: the standard AMO types and (deprecated) short, ushort */
#define KSHMEM_GL_P2P(X, P, op)                                                                    \
    KSHMEM_GL_AMO_STD(X, P, op) X(short, short, P, op) X(unsigned short, ushort, P, op)
/* deprecated AMO generics: int, long, long long (+ float, double for fetch, set, swap) */
#define KSHMEM_GL_DEP(X, P, op) X(int, int, P, op) X(long, long, P, op) X(long long, longlong, P, op)
#define KSHMEM_GL_DEP_EXT(X, P, op) X(float, float, P, op) X(double, double, P, op) KSHMEM_GL_DEP(X, P, op)
/* team reductions (Reduction Types ... for Team-Based Reductions) */
#define KSHMEM_GL_RED_BIT(X, P, op)                                                                \
    X(unsigned char, uchar, P, op) X(unsigned short, ushort, P, op) X(unsigned int, uint, P, op)   \
    X(unsigned long, ulong, P, op) X(unsigned long long, ulonglong, P, op)                         \
    X(signed char, int8, P, op) X(short, int16, P, op) X(int, int32, P, op) X(long, int64, P, op)
#define KSHMEM_GL_RED_MINMAX(X, P, op) KSHMEM_GL_RMA(X, P, op)
#define KSHMEM_GL_RED_SUM(X, P, op)                                                                \
    KSHMEM_GL_RMA(X, P, op) X(double _Complex, complexd, P, op) X(float _Complex, complexf, P, op)

/* the routine for the type of *(x) from list L: P<TYPENAME>_<op> */
#define KSHMEM_G(L, x, P, op) _Generic(*(x), L(KSHMEM_SEL, P, op) struct kshmem_no_type: 0)

/* ---- RMA ------------------------------------------------------------------------------ */
/* a family whose default form has n arguments, selected by argument a (1-based) */
#define kshmem_put_4(d, s, n, pe) KSHMEM_G(KSHMEM_GL_RMA, d, shmem_, put)(d, s, n, pe)
#define kshmem_put_5(c, d, s, n, pe) KSHMEM_G(KSHMEM_GL_RMA, d, shmem_ctx_, put)(c, d, s, n, pe)
#define shmem_put(...) KSHMEM_BY_NARGS(kshmem_put_, __VA_ARGS__)
#define kshmem_get_4(d, s, n, pe) KSHMEM_G(KSHMEM_GL_RMA, d, shmem_, get)(d, s, n, pe)
#define kshmem_get_5(c, d, s, n, pe) KSHMEM_G(KSHMEM_GL_RMA, d, shmem_ctx_, get)(c, d, s, n, pe)
#define shmem_get(...) KSHMEM_BY_NARGS(kshmem_get_, __VA_ARGS__)
#define kshmem_put_nbi_4(d, s, n, pe) KSHMEM_G(KSHMEM_GL_RMA, d, shmem_, put_nbi)(d, s, n, pe)
#define kshmem_put_nbi_5(c, d, s, n, pe)                                                           \
    KSHMEM_G(KSHMEM_GL_RMA, d, shmem_ctx_, put_nbi)(c, d, s, n, pe)
#define shmem_put_nbi(...) KSHMEM_BY_NARGS(kshmem_put_nbi_, __VA_ARGS__)
#define kshmem_get_nbi_4(d, s, n, pe) KSHMEM_G(KSHMEM_GL_RMA, d, shmem_, get_nbi)(d, s, n, pe)
#define kshmem_get_nbi_5(c, d, s, n, pe)                                                           \
    KSHMEM_G(KSHMEM_GL_RMA, d, shmem_ctx_, get_nbi)(c, d, s, n, pe)
#define shmem_get_nbi(...) KSHMEM_BY_NARGS(kshmem_get_nbi_, __VA_ARGS__)
#define kshmem_p_3(d, v, pe) KSHMEM_G(KSHMEM_GL_RMA, d, shmem_, p)(d, v, pe)
#define kshmem_p_4(c, d, v, pe) KSHMEM_G(KSHMEM_GL_RMA, d, shmem_ctx_, p)(c, d, v, pe)
#define shmem_p(...) KSHMEM_BY_NARGS(kshmem_p_, __VA_ARGS__)
#define kshmem_g_2(s, pe) KSHMEM_G(KSHMEM_GL_RMA, s, shmem_, g)(s, pe)
#define kshmem_g_3(c, s, pe) KSHMEM_G(KSHMEM_GL_RMA, s, shmem_ctx_, g)(c, s, pe)
#define shmem_g(...) KSHMEM_BY_NARGS(kshmem_g_, __VA_ARGS__)
#define kshmem_iput_6(d, s, dst, sst, n, pe)                                                       \
    KSHMEM_G(KSHMEM_GL_RMA, d, shmem_, iput)(d, s, dst, sst, n, pe)
#define kshmem_iput_7(c, d, s, dst, sst, n, pe)                                                    \
    KSHMEM_G(KSHMEM_GL_RMA, d, shmem_ctx_, iput)(c, d, s, dst, sst, n, pe)
#define shmem_iput(...) KSHMEM_BY_NARGS(kshmem_iput_, __VA_ARGS__)
#define kshmem_iget_6(d, s, dst, sst, n, pe)                                                       \
    KSHMEM_G(KSHMEM_GL_RMA, d, shmem_, iget)(d, s, dst, sst, n, pe)
#define kshmem_iget_7(c, d, s, dst, sst, n, pe)                                                    \
    KSHMEM_G(KSHMEM_GL_RMA, d, shmem_ctx_, iget)(c, d, s, dst, sst, n, pe)
#define shmem_iget(...) KSHMEM_BY_NARGS(kshmem_iget_, __VA_ARGS__)
#define kshmem_put_signal_7(d, s, n, sa, sv, so, pe)                                               \
    KSHMEM_G(KSHMEM_GL_RMA, d, shmem_, put_signal)(d, s, n, sa, sv, so, pe)
#define kshmem_put_signal_8(c, d, s, n, sa, sv, so, pe)                                            \
    KSHMEM_G(KSHMEM_GL_RMA, d, shmem_ctx_, put_signal)(c, d, s, n, sa, sv, so, pe)
#define shmem_put_signal(...) KSHMEM_BY_NARGS(kshmem_put_signal_, __VA_ARGS__)
#define kshmem_put_signal_nbi_7(d, s, n, sa, sv, so, pe)                                           \
    KSHMEM_G(KSHMEM_GL_RMA, d, shmem_, put_signal_nbi)(d, s, n, sa, sv, so, pe)
#define kshmem_put_signal_nbi_8(c, d, s, n, sa, sv, so, pe)                                        \
    KSHMEM_G(KSHMEM_GL_RMA, d, shmem_ctx_, put_signal_nbi)(c, d, s, n, sa, sv, so, pe)
#define shmem_put_signal_nbi(...) KSHMEM_BY_NARGS(kshmem_put_signal_nbi_, __VA_ARGS__)

/* ---- atomics ------------------------------------------------------------------------------ */
/* (dest|source, pe) and (ctx, dest|source, pe) */
#define KSHMEM_AMO_2(L, op, x, pe) KSHMEM_G(L, x, shmem_, op)(x, pe)
#define KSHMEM_AMO_C2(L, op, c, x, pe) KSHMEM_G(L, x, shmem_ctx_, op)(c, x, pe)
/* (dest, value, pe), (ctx, dest, value, pe); (fetch, dest, pe) selects by dest too */
#define KSHMEM_AMO_3(L, op, x, v, pe) KSHMEM_G(L, x, shmem_, op)(x, v, pe)
#define KSHMEM_AMO_C3(L, op, c, x, v, pe) KSHMEM_G(L, x, shmem_ctx_, op)(c, x, v, pe)
/* (fetch, dest, value, pe), (dest, cond, value, pe) */
#define KSHMEM_AMO_4(L, op, f, x, v, pe) KSHMEM_G(L, f, shmem_, op)(f, x, v, pe)
#define KSHMEM_AMO_C4(L, op, c, f, x, v, pe) KSHMEM_G(L, f, shmem_ctx_, op)(c, f, x, v, pe)
/* (fetch, dest, cond, value, pe) */
#define KSHMEM_AMO_5(L, op, f, x, cd, v, pe) KSHMEM_G(L, f, shmem_, op)(f, x, cd, v, pe)
#define KSHMEM_AMO_C5(L, op, c, f, x, cd, v, pe) KSHMEM_G(L, f, shmem_ctx_, op)(c, f, x, cd, v, pe)

#define kshmem_atomic_fetch_2(...) KSHMEM_AMO_2(KSHMEM_GL_AMO_EXT, atomic_fetch, __VA_ARGS__)
#define kshmem_atomic_fetch_3(...) KSHMEM_AMO_C2(KSHMEM_GL_AMO_EXT, atomic_fetch, __VA_ARGS__)
#define shmem_atomic_fetch(...) KSHMEM_BY_NARGS(kshmem_atomic_fetch_, __VA_ARGS__)
#define kshmem_atomic_set_3(...) KSHMEM_AMO_3(KSHMEM_GL_AMO_EXT, atomic_set, __VA_ARGS__)
#define kshmem_atomic_set_4(...) KSHMEM_AMO_C3(KSHMEM_GL_AMO_EXT, atomic_set, __VA_ARGS__)
#define shmem_atomic_set(...) KSHMEM_BY_NARGS(kshmem_atomic_set_, __VA_ARGS__)
#define kshmem_atomic_swap_3(...) KSHMEM_AMO_3(KSHMEM_GL_AMO_EXT, atomic_swap, __VA_ARGS__)
#define kshmem_atomic_swap_4(...) KSHMEM_AMO_C3(KSHMEM_GL_AMO_EXT, atomic_swap, __VA_ARGS__)
#define shmem_atomic_swap(...) KSHMEM_BY_NARGS(kshmem_atomic_swap_, __VA_ARGS__)
#define kshmem_atomic_compare_swap_4(...)                                                          \
    KSHMEM_AMO_4(KSHMEM_GL_AMO_STD, atomic_compare_swap, __VA_ARGS__)
#define kshmem_atomic_compare_swap_5(...)                                                          \
    KSHMEM_AMO_C4(KSHMEM_GL_AMO_STD, atomic_compare_swap, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) KSHMEM_BY_NARGS(kshmem_atomic_compare_swap_, __VA_ARGS__)
#define kshmem_atomic_fetch_inc_2(...) KSHMEM_AMO_2(KSHMEM_GL_AMO_STD, atomic_fetch_inc, __VA_ARGS__)
#define kshmem_atomic_fetch_inc_3(...) KSHMEM_AMO_C2(KSHMEM_GL_AMO_STD, atomic_fetch_inc, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) KSHMEM_BY_NARGS(kshmem_atomic_fetch_inc_, __VA_ARGS__)
#define kshmem_atomic_inc_2(...) KSHMEM_AMO_2(KSHMEM_GL_AMO_STD, atomic_inc, __VA_ARGS__)
#define kshmem_atomic_inc_3(...) KSHMEM_AMO_C2(KSHMEM_GL_AMO_STD, atomic_inc, __VA_ARGS__)
#define shmem_atomic_inc(...) KSHMEM_BY_NARGS(kshmem_atomic_inc_, __VA_ARGS__)
#define kshmem_atomic_fetch_add_3(...) KSHMEM_AMO_3(KSHMEM_GL_AMO_STD, atomic_fetch_add, __VA_ARGS__)
#define kshmem_atomic_fetch_add_4(...) KSHMEM_AMO_C3(KSHMEM_GL_AMO_STD, atomic_fetch_add, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) KSHMEM_BY_NARGS(kshmem_atomic_fetch_add_, __VA_ARGS__)
#define kshmem_atomic_add_3(...) KSHMEM_AMO_3(KSHMEM_GL_AMO_STD, atomic_add, __VA_ARGS__)
#define kshmem_atomic_add_4(...) KSHMEM_AMO_C3(KSHMEM_GL_AMO_STD, atomic_add, __VA_ARGS__)
#define shmem_atomic_add(...) KSHMEM_BY_NARGS(kshmem_atomic_add_, __VA_ARGS__)
/* bitwise */
#define kshmem_atomic_fetch_and_3(...) KSHMEM_AMO_3(KSHMEM_GL_AMO_BIT, atomic_fetch_and, __VA_ARGS__)
#define kshmem_atomic_fetch_and_4(...) KSHMEM_AMO_C3(KSHMEM_GL_AMO_BIT, atomic_fetch_and, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) KSHMEM_BY_NARGS(kshmem_atomic_fetch_and_, __VA_ARGS__)
#define kshmem_atomic_and_3(...) KSHMEM_AMO_3(KSHMEM_GL_AMO_BIT, atomic_and, __VA_ARGS__)
#define kshmem_atomic_and_4(...) KSHMEM_AMO_C3(KSHMEM_GL_AMO_BIT, atomic_and, __VA_ARGS__)
#define shmem_atomic_and(...) KSHMEM_BY_NARGS(kshmem_atomic_and_, __VA_ARGS__)
#define kshmem_atomic_fetch_or_3(...) KSHMEM_AMO_3(KSHMEM_GL_AMO_BIT, atomic_fetch_or, __VA_ARGS__)
#define kshmem_atomic_fetch_or_4(...) KSHMEM_AMO_C3(KSHMEM_GL_AMO_BIT, atomic_fetch_or, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) KSHMEM_BY_NARGS(kshmem_atomic_fetch_or_, __VA_ARGS__)
#define kshmem_atomic_or_3(...) KSHMEM_AMO_3(KSHMEM_GL_AMO_BIT, atomic_or, __VA_ARGS__)
#define kshmem_atomic_or_4(...) KSHMEM_AMO_C3(KSHMEM_GL_AMO_BIT, atomic_or, __VA_ARGS__)
#define shmem_atomic_or(...) KSHMEM_BY_NARGS(kshmem_atomic_or_, __VA_ARGS__)
#define kshmem_atomic_fetch_xor_3(...) KSHMEM_AMO_3(KSHMEM_GL_AMO_BIT, atomic_fetch_xor, __VA_ARGS__)
#define kshmem_atomic_fetch_xor_4(...) KSHMEM_AMO_C3(KSHMEM_GL_AMO_BIT, atomic_fetch_xor, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) KSHMEM_BY_NARGS(kshmem_atomic_fetch_xor_, __VA_ARGS__)
#define kshmem_atomic_xor_3(...) KSHMEM_AMO_3(KSHMEM_GL_AMO_BIT, atomic_xor, __VA_ARGS__)
#define kshmem_atomic_xor_4(...) KSHMEM_AMO_C3(KSHMEM_GL_AMO_BIT, atomic_xor, __VA_ARGS__)
#define shmem_atomic_xor(...) KSHMEM_BY_NARGS(kshmem_atomic_xor_, __VA_ARGS__)
/* non-blocking fetching atomics: (fetch, dest, ...) */
#define kshmem_atomic_fetch_nbi_3(...) KSHMEM_AMO_3(KSHMEM_GL_AMO_EXT, atomic_fetch_nbi, __VA_ARGS__)
#define kshmem_atomic_fetch_nbi_4(...) KSHMEM_AMO_C3(KSHMEM_GL_AMO_EXT, atomic_fetch_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) KSHMEM_BY_NARGS(kshmem_atomic_fetch_nbi_, __VA_ARGS__)
#define kshmem_atomic_swap_nbi_4(...) KSHMEM_AMO_4(KSHMEM_GL_AMO_EXT, atomic_swap_nbi, __VA_ARGS__)
#define kshmem_atomic_swap_nbi_5(...) KSHMEM_AMO_C4(KSHMEM_GL_AMO_EXT, atomic_swap_nbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) KSHMEM_BY_NARGS(kshmem_atomic_swap_nbi_, __VA_ARGS__)
#define kshmem_atomic_compare_swap_nbi_5(...)                                                      \
    KSHMEM_AMO_5(KSHMEM_GL_AMO_STD, atomic_compare_swap_nbi, __VA_ARGS__)
#define kshmem_atomic_compare_swap_nbi_6(...)                                                      \
    KSHMEM_AMO_C5(KSHMEM_GL_AMO_STD, atomic_compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...)                                                         \
    KSHMEM_BY_NARGS(kshmem_atomic_compare_swap_nbi_, __VA_ARGS__)
#define kshmem_atomic_fetch_inc_nbi_3(...)                                                         \
    KSHMEM_AMO_3(KSHMEM_GL_AMO_STD, atomic_fetch_inc_nbi, __VA_ARGS__)
#define kshmem_atomic_fetch_inc_nbi_4(...)                                                         \
    KSHMEM_AMO_C3(KSHMEM_GL_AMO_STD, atomic_fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) KSHMEM_BY_NARGS(kshmem_atomic_fetch_inc_nbi_, __VA_ARGS__)
#define kshmem_atomic_fetch_add_nbi_4(...)                                                         \
    KSHMEM_AMO_4(KSHMEM_GL_AMO_STD, atomic_fetch_add_nbi, __VA_ARGS__)
#define kshmem_atomic_fetch_add_nbi_5(...)                                                         \
    KSHMEM_AMO_C4(KSHMEM_GL_AMO_STD, atomic_fetch_add_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) KSHMEM_BY_NARGS(kshmem_atomic_fetch_add_nbi_, __VA_ARGS__)
#define kshmem_atomic_fetch_and_nbi_4(...)                                                         \
    KSHMEM_AMO_4(KSHMEM_GL_AMO_BIT, atomic_fetch_and_nbi, __VA_ARGS__)
#define kshmem_atomic_fetch_and_nbi_5(...)                                                         \
    KSHMEM_AMO_C4(KSHMEM_GL_AMO_BIT, atomic_fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) KSHMEM_BY_NARGS(kshmem_atomic_fetch_and_nbi_, __VA_ARGS__)
#define kshmem_atomic_fetch_or_nbi_4(...)                                                          \
    KSHMEM_AMO_4(KSHMEM_GL_AMO_BIT, atomic_fetch_or_nbi, __VA_ARGS__)
#define kshmem_atomic_fetch_or_nbi_5(...)                                                          \
    KSHMEM_AMO_C4(KSHMEM_GL_AMO_BIT, atomic_fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) KSHMEM_BY_NARGS(kshmem_atomic_fetch_or_nbi_, __VA_ARGS__)
#define kshmem_atomic_fetch_xor_nbi_4(...)                                                         \
    KSHMEM_AMO_4(KSHMEM_GL_AMO_BIT, atomic_fetch_xor_nbi, __VA_ARGS__)
#define kshmem_atomic_fetch_xor_nbi_5(...)                                                         \
    KSHMEM_AMO_C4(KSHMEM_GL_AMO_BIT, atomic_fetch_xor_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) KSHMEM_BY_NARGS(kshmem_atomic_fetch_xor_nbi_, __VA_ARGS__)
/* deprecated names (no context form) */
#define shmem_fetch(s, pe) KSHMEM_AMO_2(KSHMEM_GL_DEP_EXT, fetch, s, pe)
#define shmem_set(d, v, pe) KSHMEM_AMO_3(KSHMEM_GL_DEP_EXT, set, d, v, pe)
#define shmem_swap(d, v, pe) KSHMEM_AMO_3(KSHMEM_GL_DEP_EXT, swap, d, v, pe)
#define shmem_cswap(d, c, v, pe) KSHMEM_AMO_4(KSHMEM_GL_DEP, cswap, d, c, v, pe)
#define shmem_finc(d, pe) KSHMEM_AMO_2(KSHMEM_GL_DEP, finc, d, pe)
#define shmem_inc(d, pe) KSHMEM_AMO_2(KSHMEM_GL_DEP, inc, d, pe)
#define shmem_fadd(d, v, pe) KSHMEM_AMO_3(KSHMEM_GL_DEP, fadd, d, v, pe)
#define shmem_add(d, v, pe) KSHMEM_AMO_3(KSHMEM_GL_DEP, add, d, v, pe)

/* ---- point-to-point synchronisation (no context forms) ----------------------------------------- */
/* shmem_wait_until(long *, ...) is also a deprecated function: the macro
 * takes precedence and handles long the same way */
#define shmem_wait_until(ivar, cmp, v) KSHMEM_G(KSHMEM_GL_P2P, ivar, shmem_, wait_until)(ivar, cmp, v)
#define shmem_test(ivar, cmp, v) KSHMEM_G(KSHMEM_GL_P2P, ivar, shmem_, test)(ivar, cmp, v)
#define KSHMEM_P2P_V(op, iv, ...) KSHMEM_G(KSHMEM_GL_P2P, iv, shmem_, op)(iv, __VA_ARGS__)
#define shmem_wait_until_all(ivars, ...) KSHMEM_P2P_V(wait_until_all, ivars, __VA_ARGS__)
#define shmem_wait_until_any(ivars, ...) KSHMEM_P2P_V(wait_until_any, ivars, __VA_ARGS__)
#define shmem_wait_until_some(ivars, ...) KSHMEM_P2P_V(wait_until_some, ivars, __VA_ARGS__)
#define shmem_test_all(ivars, ...) KSHMEM_P2P_V(test_all, ivars, __VA_ARGS__)
#define shmem_test_any(ivars, ...) KSHMEM_P2P_V(test_any, ivars, __VA_ARGS__)
#define shmem_test_some(ivars, ...) KSHMEM_P2P_V(test_some, ivars, __VA_ARGS__)
#define shmem_wait_until_all_vector(ivars, ...) KSHMEM_P2P_V(wait_until_all_vector, ivars, __VA_ARGS__)
#define shmem_wait_until_any_vector(ivars, ...) KSHMEM_P2P_V(wait_until_any_vector, ivars, __VA_ARGS__)
#define shmem_wait_until_some_vector(ivars, ...)                                                   \
    KSHMEM_P2P_V(wait_until_some_vector, ivars, __VA_ARGS__)
#define shmem_test_all_vector(ivars, ...) KSHMEM_P2P_V(test_all_vector, ivars, __VA_ARGS__)
#define shmem_test_any_vector(ivars, ...) KSHMEM_P2P_V(test_any_vector, ivars, __VA_ARGS__)
#define shmem_test_some_vector(ivars, ...) KSHMEM_P2P_V(test_some_vector, ivars, __VA_ARGS__)

/* ---- teams and collectives ---------------------------------------------------------------------- */
#define kshmem_sync_1(team) shmem_team_sync(team)
#define kshmem_sync_4(start, log_stride, size, psync) (shmem_sync)(start, log_stride, size, psync)
#define shmem_sync(...) KSHMEM_BY_NARGS(kshmem_sync_, __VA_ARGS__)

#define KSHMEM_COLL(L, op, team, d, ...) KSHMEM_G(L, d, shmem_, op)(team, d, __VA_ARGS__)
#define shmem_broadcast(team, d, ...) KSHMEM_COLL(KSHMEM_GL_RMA, broadcast, team, d, __VA_ARGS__)
#define shmem_collect(team, d, ...) KSHMEM_COLL(KSHMEM_GL_RMA, collect, team, d, __VA_ARGS__)
#define shmem_fcollect(team, d, ...) KSHMEM_COLL(KSHMEM_GL_RMA, fcollect, team, d, __VA_ARGS__)
#define shmem_alltoall(team, d, ...) KSHMEM_COLL(KSHMEM_GL_RMA, alltoall, team, d, __VA_ARGS__)
#define shmem_alltoalls(team, d, ...) KSHMEM_COLL(KSHMEM_GL_RMA, alltoalls, team, d, __VA_ARGS__)
#define shmem_and_reduce(team, d, ...) KSHMEM_COLL(KSHMEM_GL_RED_BIT, and_reduce, team, d, __VA_ARGS__)
#define shmem_or_reduce(team, d, ...) KSHMEM_COLL(KSHMEM_GL_RED_BIT, or_reduce, team, d, __VA_ARGS__)
#define shmem_xor_reduce(team, d, ...) KSHMEM_COLL(KSHMEM_GL_RED_BIT, xor_reduce, team, d, __VA_ARGS__)
#define shmem_max_reduce(team, d, ...)                                                             \
    KSHMEM_COLL(KSHMEM_GL_RED_MINMAX, max_reduce, team, d, __VA_ARGS__)
#define shmem_min_reduce(team, d, ...)                                                             \
    KSHMEM_COLL(KSHMEM_GL_RED_MINMAX, min_reduce, team, d, __VA_ARGS__)
#define shmem_sum_reduce(team, d, ...) KSHMEM_COLL(KSHMEM_GL_RED_SUM, sum_reduce, team, d, __VA_ARGS__)
#define shmem_prod_reduce(team, d, ...)                                                            \
    KSHMEM_COLL(KSHMEM_GL_RED_SUM, prod_reduce, team, d, __VA_ARGS__)

#endif /* C11 */
#endif
