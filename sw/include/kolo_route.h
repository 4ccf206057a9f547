/* kolo_route.h - the one routing implementation of kolo.
 *
 * Coordinates, node ids, header route state, default routing tables, the
 * path a packet takes through the routers, and the deadlock check of a whole
 * table set. Freestanding C99: no libc calls, no allocation (callers pass
 * workspace), so the same file builds for firmware, reference model and tools.
 * Bit layouts mirror rtl/include/kolo_defs.vh and docs/packet-format.md.
 */
#ifndef KOLO_ROUTE_H
#define KOLO_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- ports --------------------------------------------------------------- */
enum kolo_port {
    KOLO_PORT_XP = 0,
    KOLO_PORT_XM = 1,
    KOLO_PORT_YP = 2,
    KOLO_PORT_YM = 3,
    KOLO_PORT_ZP = 4,
    KOLO_PORT_ZM = 5,
    KOLO_PORT_LOCAL = 6,
    KOLO_NUM_PORTS = 7
};
#define KOLO_PORT_DIM(p) ((p) >> 1)     /* 0 x, 1 y, 2 z (network ports only) */
#define KOLO_PORT_MINUS(p) ((p) & 1)    /* 1 for X-, Y-, Z- */

/* ---- topology ------------------------------------------------------------ */
#define KOLO_MAX_DIM 16
#define KOLO_MAX_NODES 4096
#define KOLO_MAX_PAYLOAD 32 /* payload flits of 8 bytes */
#define KOLO_MAX_PKT 34     /* flits, two header flits included */

typedef struct {
    uint8_t size[3]; /* x, y, z: 1..16 each */
} kolo_topo;

typedef struct {
    uint8_t c[3]; /* x, y, z */
} kolo_coord;

/* node id = {z[11:8], y[7:4], x[3:0]}; node index = x + X*(y + Y*z) */
uint16_t kolo_node_id(kolo_coord c);
kolo_coord kolo_node_coord(uint16_t id);
int kolo_topo_valid(const kolo_topo *t);            /* 1 if every size in 1..16 */
unsigned kolo_topo_nodes(const kolo_topo *t);
int kolo_node_in_topo(const kolo_topo *t, uint16_t id);
unsigned kolo_node_index(const kolo_topo *t, uint16_t id);
uint16_t kolo_node_id_of_index(const kolo_topo *t, unsigned index);
/* neighbour through a network port (wraps around the ring) */
uint16_t kolo_neighbor(const kolo_topo *t, uint16_t id, int port);
/* 1 if the port exists in this topology (dimension size > 1) */
int kolo_port_present(const kolo_topo *t, int port);

/* ---- route state (header flit 0 bits [58:36]) and table entries ----------- */
/* A table entry is the route state in bits [22:0] plus KOLO_RE_VALID in bit
 * 31 ("destination reachable"). The NI copies bits [22:0] into the header. */
typedef uint32_t kolo_route_entry;

#define KOLO_RS_SIGN(d) (1u << (d))              /* d = 0 x, 1 y, 2 z; 1 = minus */
#define KOLO_RS_HOPS_SHIFT(d) (3u + 4u * (d))     /* 4-bit hop count per dim */
#define KOLO_RS_FS_VALID (1u << 15)
#define KOLO_RS_FS_PORT_SHIFT 16
#define KOLO_RS_LS_VALID (1u << 19)
#define KOLO_RS_LS_PORT_SHIFT 20
#define KOLO_RS_MASK 0x7fffffu
#define KOLO_RE_VALID (1u << 31)

static inline unsigned kolo_rs_hops(uint32_t rs, int d) {
    return (rs >> KOLO_RS_HOPS_SHIFT(d)) & 0xfu;
}
static inline uint32_t kolo_rs_set_hops(uint32_t rs, int d, unsigned h) {
    return (rs & ~(0xfu << KOLO_RS_HOPS_SHIFT(d))) | ((h & 0xfu) << KOLO_RS_HOPS_SHIFT(d));
}
static inline int kolo_rs_minus(uint32_t rs, int d) { return (rs >> d) & 1u; }
static inline int kolo_rs_fs_port(uint32_t rs) { return (rs >> KOLO_RS_FS_PORT_SHIFT) & 7u; }
static inline int kolo_rs_ls_port(uint32_t rs) { return (rs >> KOLO_RS_LS_PORT_SHIFT) & 7u; }

/* The deterministic (escape) output port for a packet with route state rs,
 * exactly as the router computes it: first step if pending, then direction
 * order +X +Y +Z -X -Y -Z while hops remain, then last step if pending, then
 * KOLO_PORT_LOCAL. */
int kolo_route_det_port(uint32_t rs);
/* Bit mask of the ports a VC1 (adaptive) packet may take: every dimension
 * with hops left, in its sign's direction, when no first step is pending.
 * Zero when the only move is the deterministic one (first/last step, eject). */
unsigned kolo_route_adaptive_mask(uint32_t rs);
/* The route state after leaving through port: clears a pending first step,
 * else decrements the hop count of that port's dimension, else clears a
 * pending last step. The router rewrites header flit 0 the same way. */
uint32_t kolo_route_advance(uint32_t rs, int port);

/* Default entry: shortest direction in each ring, no first or last step.
 * src == dst gives hops 0. A distance tie (exactly half of an even ring) goes
 * minus when kolo_route_tie_minus(t, d, src, dst) says so, else plus. */
kolo_route_entry kolo_route_default(const kolo_topo *t, uint16_t src, uint16_t dst);
/* The direction of a distance tie in dimension d between coordinates a (the
 * start) and b (the end): 1 = minus. Parity of the two other coordinates of a
 * and b, plus a's coordinate d in a ring longer than 2; it
 * splits the tied traffic of uniform patterns half and half over the two
 * directions of every ring (docs/routing.md, "Distance ties"). The default
 * tables and the detours of the fault tables both use it. */
int kolo_route_tie_minus(const kolo_topo *t, int d, kolo_coord a, kolo_coord b);
/* Fill table[kolo_node_index(dst)] for every dst of the torus. */
void kolo_table_default(const kolo_topo *t, uint16_t src, kolo_route_entry *table);
/* Fill tables[index(src) * nodes + index(dst)] for every pair. */
void kolo_tableset_default(const kolo_topo *t, kolo_route_entry *tables);

/* ---- paths ----------------------------------------------------------------*/
typedef struct {
    uint16_t node;    /* router the packet leaves */
    uint8_t port;     /* output port taken (KOLO_PORT_LOCAL = ejection) */
    uint8_t entering; /* 1 when this hop enters a ring (bubble rule applies) */
} kolo_hop;

/* Deterministic (VC0) path of a packet injected at src with route state rs.
 * Fills up to max hops, the last being the ejection at the destination.
 * Returns the number of hops, or a negative KOLO_E* code. The first hop is
 * always "entering" (injection); a later hop is "continuing" only if it leaves
 * through the same port as the previous hop (same ring, same direction). */
int kolo_route_path(const kolo_topo *t, uint16_t src, uint32_t rs, kolo_hop *hops, int max);
/* Added by sw/route: details of kolo_route_path.
 * - Only bits [22:0] of rs are used, so a table entry may be passed as is.
 * - hops may be NULL: the path is followed and its length returned, max ignored.
 * - Errors: KOLO_E_ARG (bad topology or src, or a hop count beyond its ring,
 *   which the router flags too), KOLO_E_PORT (a port absent in the topology,
 *   or a pending first/last step whose port is not a network port),
 *   KOLO_E_NOSPACE (more than max hops), KOLO_E_LOOP (over KOLO_PATH_MAX).
 * - The ejection node is hops[n-1].node; kolo_route_path_to checks it. */
#define KOLO_PATH_MAX 52 /* hops bound: first step + 3 * 15 + last step + ejection < 52 */
/* As kolo_route_path, and KOLO_E_WRONG if the packet ejects anywhere but dst. */
int kolo_route_path_to(const kolo_topo *t, uint16_t src, uint16_t dst, uint32_t rs,
                       kolo_hop *hops, int max);

#define KOLO_OK 0
#define KOLO_E_ARG (-1)      /* bad argument */
#define KOLO_E_PORT (-2)     /* route uses a port absent in this topology */
#define KOLO_E_LOOP (-3)     /* more hops than the bound */
#define KOLO_E_WRONG (-4)    /* ejects at a node other than the destination */
#define KOLO_E_CYCLE (-5)    /* deadlock check found a cycle */
#define KOLO_E_NOSPACE (-6)  /* workspace too small */
#define KOLO_E_CERT (-9)     /* a deadlock certificate does not hold for the table set */
const char *kolo_route_strerror(int code);

/* ---- deadlock check --------------------------------------------------------
 * Channel dependency graph of the deterministic (VC0, escape) paths of every
 * valid entry of a table set, with each unidirectional ring (dimension,
 * direction, the two other coordinates) contracted to one vertex: moves that
 * continue in a ring are made safe by the bubble rule; a dependency from one
 * ring to another is a turn. Any cycle among rings is reported.
 * tables: tables[index(src) * nodes + index(dst)]; entries without
 * KOLO_RE_VALID are skipped. Returns KOLO_OK, KOLO_E_CYCLE (report filled),
 * or the path error of the first bad entry (report->src/dst filled). */
typedef struct {
    uint16_t dim, minus, a, b; /* ring: dimension, direction, other two coordinates
                                  (a, b in x, y, z order: x ring a = y, b = z) */
} kolo_ring;

typedef struct {
    int n_rings;           /* rings in the reported cycle */
    kolo_ring rings[64];   /* first 64 of them, in dependency order */
    uint16_t src, dst;     /* entry at fault, for path errors */
    /* Added by sw/route: what was checked (filled on success too). */
    uint32_t paths;        /* valid entries whose paths were followed */
    uint32_t turns;        /* distinct (node, in port, out port) turns found */
    uint32_t graph_rings;  /* rings (graph vertices) of the topology */
} kolo_deadlock_report;

/* bytes of workspace kolo_deadlock_check needs for topology t */
size_t kolo_deadlock_workspace_size(const kolo_topo *t);
int kolo_deadlock_check(const kolo_topo *t, const kolo_route_entry *tables, void *workspace,
                        size_t workspace_size, kolo_deadlock_report *report);

/* ---- deadlock certificates ----------------------------------------------------
 * What an accepted table set's freedom from deadlock rests on, in a form that
 * a separate checker verifies (kolo_deadlock_cert_check, sw/route/kolo_cert.c):
 * - rank: a total order of the rings of the topology that every dependency
 *   between two rings follows: a packet that leaves one router through a port
 *   of ring r and the next router through a port of another ring r' (a turn,
 *   or a U-turn into the opposite direction) has rank[r] < rank[r'];
 * - bubble: the rings named as bubble rings, in which some packet continues
 *   (leaves two routers in a row through the same ring and direction). The
 *   cyclic dependencies inside such a ring are broken by the routers' bubble
 *   rule (a packet enters a ring's escape VC only with room for two maximum
 *   packets), proved on the router RTL in formal/ (formal/README.md).
 * Rings are indexed by slot (dim * 2 + minus) * 256 + a * 16 + b (kolo_ring's
 * fields; a, b the other two coordinates in x, y, z order), which is
 * port * 256 + a * 16 + b for the port that travels the ring. */
#define KOLO_RING_SLOTS 1536
#define KOLO_RANK_NONE 0xffffu
typedef struct {
    kolo_topo topo;
    uint16_t n_rings;                /* rings of the topology: ranks 0 .. n_rings-1 */
    uint16_t n_bubble;               /* rings named bubble rings */
    uint16_t rank[KOLO_RING_SLOTS];  /* KOLO_RANK_NONE: not a ring of the topology */
    uint8_t bubble[KOLO_RING_SLOTS]; /* 1: bubble ring */
} kolo_deadlock_cert;
/* ring slot of the ring a packet travels when it leaves node through network
 * port; KOLO_RING_SLOTS for any other port */
unsigned kolo_ring_slot_of(uint16_t node, int port);
/* kolo_deadlock_check that also fills cert (when not NULL) if the set passes */
int kolo_deadlock_check_cert(const kolo_topo *t, const kolo_route_entry *tables, void *workspace,
                             size_t workspace_size, kolo_deadlock_report *report,
                             kolo_deadlock_cert *cert);

typedef struct {
    uint32_t paths;      /* valid entries whose paths were walked */
    uint32_t hops;       /* network hops walked */
    uint32_t turns;      /* dependencies between two rings checked against the ranks */
    uint32_t continuing; /* dependencies inside a ring checked against the bubble rings */
    uint16_t src, dst;   /* on failure: the entry whose path breaks the certificate */
    uint16_t from, to;   /* ... and the ring slots of the dependency (to = from: not a bubble ring) */
} kolo_cert_report;
/* The separate checker: walks every valid entry's deterministic path hop by
 * hop (kolo_route_det_port, kolo_route_advance, kolo_neighbor: the routing
 * function formal/route proves equal to the router RTL) and checks each
 * dependency against the certificate; also that the ranks are a permutation
 * of the topology's rings and that bubble rings are rings of it. KOLO_OK, or
 * KOLO_E_CERT (report says where), or the path error of a bad entry
 * (KOLO_E_ARG, KOLO_E_PORT, KOLO_E_WRONG). */
int kolo_deadlock_cert_check(const kolo_topo *t, const kolo_route_entry *tables,
                             const kolo_deadlock_cert *cert, kolo_cert_report *report);


/* ---- routing around faults -------------------------------------------------
 * A fault set names links and nodes that carry nothing. kolo_tableset_faults
 * keeps every default route that avoids the faults and gives each broken pair
 * the shortest other route (other ring directions, and/or a first and a last
 * step) whose path uses only usable links and whose turns keep the ring
 * dependency graph acyclic; pairs without one are left unreachable (entry 0).
 * Deterministic: every node computing the same fault set gets the same set,
 * and kolo_table_faults(src) is exactly row src of it. See routing.md
 * section "Routing around faults". */
#define KOLO_E_UNROUTED (-7) /* a pair the live links connect has no valid entry */
#define KOLO_E_FAULT (-8)    /* a valid entry crosses a failed link or node, or leaves/reaches a dead one */

typedef struct {
    uint8_t port_down[KOLO_MAX_NODES]; /* by node index: bit p = the link leaving through port p is down */
    uint8_t node_down[KOLO_MAX_NODES]; /* 1 = node failed: it carries nothing, its links count as down */
} kolo_faults;

void kolo_faults_clear(kolo_faults *f);
/* the link leaving node index n through network port p, and its other end
 * (the neighbour's port p^1): down = 1 or up = 0. KOLO_E_ARG on bad input. */
int kolo_faults_set_link(kolo_faults *f, const kolo_topo *t, unsigned n, int port, int down);
int kolo_faults_set_node(kolo_faults *f, const kolo_topo *t, unsigned n, int down);
/* 1 if a packet may leave node index n through network port p: the port is
 * present, its link is up and both routers are alive */
int kolo_faults_link_usable(const kolo_faults *f, const kolo_topo *t, unsigned n, int port);

typedef struct {
    uint32_t pairs;          /* (src, dst) pairs of live nodes, src != dst */
    uint32_t default_routes; /* pairs whose default route avoided every fault */
    uint32_t detoured;       /* pairs given another route */
    uint32_t unreachable;    /* pairs left without a valid entry */
    uint32_t rejected_cycle; /* candidate routes refused: they would close a cycle */
} kolo_ft_report;

size_t kolo_ft_workspace_size(const kolo_topo *t);
/* row src (node id) of kolo_tableset_faults, in O(nodes) memory */
int kolo_table_faults(const kolo_topo *t, const kolo_faults *f, uint16_t src, kolo_route_entry *table,
                      void *ws, size_t ws_size, kolo_ft_report *rep);
/* tables[index(src) * nodes + index(dst)] for every pair */
int kolo_tableset_faults(const kolo_topo *t, const kolo_faults *f, kolo_route_entry *tables, void *ws,
                         size_t ws_size, kolo_ft_report *rep);

typedef struct {
    uint32_t pairs_connected; /* live pairs (src != dst) the usable links connect */
    uint32_t pairs_routed;    /* pairs with a valid entry */
    uint32_t bad_entries;     /* entries that failed (the first is src/dst) */
    uint16_t src, dst;
} kolo_conn_report;
size_t kolo_conn_workspace_size(const kolo_topo *t);
/* Every valid entry's deterministic path uses only usable links and ejects
 * at its destination; entries from or to dead nodes are not valid; every
 * live pair the usable links connect has a valid entry. KOLO_OK,
 * KOLO_E_FAULT, KOLO_E_UNROUTED, or the path error of a bad entry. */
int kolo_connectivity_check(const kolo_topo *t, const kolo_faults *f, const kolo_route_entry *tables,
                            void *ws, size_t ws_size, kolo_conn_report *rep);

#ifdef __cplusplus
}
#endif
#endif
