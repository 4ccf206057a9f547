/* test_libkolo.c - unit tests of libkolo without the simulator.
 *
 * Length (~1240 lines): one test program whose cases share the two-NI world,
 * the fake /sys and /dev trees and the DMA-through-process_vm helpers; a split
 * by backend (VFIO paths, model world) is planned.
 *
 *  - error codes and messages, PCI address parsing, kolo_open's URI handling;
 *  - the VFIO backend's error paths against fake /sys and /dev trees
 *    (KOLO_VFIO_ROOT): no device, no IOMMU group, no /dev/vfio, a file that
 *    is not a VFIO container;
 *  - everything else against the C NI model in-process: a "world" of two NIs
 *    (2x1x1 torus, packets handed straight from one to the other), each driven
 *    by its own kolo_dev through kolo_open_backend. DMA goes through
 *    process_vm_readv/writev on this very process, as in kolo-sim, so bad
 *    addresses become DMA errors, not crashes. An "IOMMU" mode accepts DMA only
 *    inside ranges the library mapped (as VFIO would).
 * Covered: argument checks (every error code), contexts, windows, every put
 * path (PIO, inline, bounce, DMA, staged), gets, every atomic at 4 and 8
 * bytes, put with signal, fence, quiet, requests, KOLO_CTX_NOWAIT, producer
 * index wrap past 2^16, remote errors (key, bounds, rights, DMA) with the
 * guard bytes around the windows checked untouched, and a seeded random mix
 * checked against a shadow copy. SEED=<n> replays.
 */
#define _GNU_SOURCE
#include "kolo_ni_model.h"
#include "kolo.h"
#include "kolo_internal.h"
#include "test_util.h"
#include "test_kolo_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* ---- the world: NIs of the C model joined directly ---------------------------- */
#define W_MAX_NI 2
#define W_QCAP 4096

typedef struct world world;
typedef struct {
    world *w;
    int n; /* NI index */
} w_port;

struct world {
    kolo_topo topo;
    int nni;
    kolo_ni *ni[W_MAX_NI];
    w_port port[W_MAX_NI];
    kolo_pkt q[W_QCAP]; /* packets in flight */
    size_t qh, qn;
    int iommu; /* DMA only inside mapped ranges */
    test_iommu_table map; /* ranges libkolo mapped (iommu) */
    uint64_t steps, dma_errors;
    int map_fail; /* make the next dma_map fail */
    int no_flow_control; /* MMIO writes are not held back (a full PIO buffer drops them) */
    int refuse_bar2;     /* BAR2 writes fail, as the vfio backend's do (counted) */
    unsigned bar2_refused;
};

static int w_dma_ok(world *w, uint64_t addr, size_t len) {
    return !w->iommu || test_iommu_covers(&w->map, addr, len);
}

static int w_dma_read(void *u, uint64_t addr, void *buf, size_t len) {
    w_port *p = (w_port *)u;
    struct iovec l = {buf, len}, r = {(void *)(uintptr_t)addr, len};
    if (!w_dma_ok(p->w, addr, len) || process_vm_readv(getpid(), &l, 1, &r, 1, 0) != (ssize_t)len) {
        p->w->dma_errors++;
        return -1;
    }
    return 0;
}

static int w_dma_write(void *u, uint64_t addr, const void *buf, size_t len) {
    w_port *p = (w_port *)u;
    struct iovec l = {(void *)buf, len}, r = {(void *)(uintptr_t)addr, len};
    if (!w_dma_ok(p->w, addr, len) || process_vm_writev(getpid(), &l, 1, &r, 1, 0) != (ssize_t)len) {
        p->w->dma_errors++;
        return -1;
    }
    return 0;
}

static int w_send(void *u, const kolo_pkt *pk) {
    w_port *p = (w_port *)u;
    world *w = p->w;
    if (w->qn == W_QCAP)
        return -1;
    w->q[(w->qh + w->qn) % W_QCAP] = *pk;
    w->qn++;
    return 0;
}

static int w_ni_of_node(world *w, uint16_t node) {
    int i;
    for (i = 0; i < w->nni; i++)
        if (kolo_node_index(&w->topo, node) == (unsigned)i)
            return i;
    return -1;
}

static void w_step(world *w) {
    int i;
    size_t k, n = w->qn;
    w->steps++;
    for (i = 0; i < w->nni; i++)
        kolo_ni_step(w->ni[i]);
    /* deliver what is queued (in order; a refused one waits, later ones too) */
    for (k = 0; k < n; k++) {
        kolo_pkt *p = &w->q[w->qh];
        int d = w_ni_of_node(w, (uint16_t)(p->header[0] & 0xfff));
        if (d < 0) { /* nowhere: drop (the model's send should never do this) */
            w->qh = (w->qh + 1) % W_QCAP;
            w->qn--;
            continue;
        }
        if (kolo_ni_receive(w->ni[d], p))
            break;
        w->qh = (w->qh + 1) % W_QCAP;
        w->qn--;
    }
}

static int w_idle(world *w) {
    int i;
    if (w->qn)
        return 0;
    for (i = 0; i < w->nni; i++)
        if (!kolo_ni_idle(w->ni[i]))
            return 0;
    return 1;
}

static void w_init(world *w, int nni, int iommu) {
    int i;
    memset(w, 0, sizeof *w);
    w->topo.size[0] = (uint8_t)nni;
    w->topo.size[1] = w->topo.size[2] = 1;
    w->nni = nni;
    w->iommu = iommu;
    for (i = 0; i < nni; i++) {
        kolo_ni_env env;
        w->port[i].w = w;
        w->port[i].n = i;
        memset(&env, 0, sizeof env);
        env.user = &w->port[i];
        env.dma_read = w_dma_read;
        env.dma_write = w_dma_write;
        env.send = w_send;
        w->ni[i] = kolo_ni_new(&w->topo, kolo_node_id_of_index(&w->topo, (unsigned)i), &env);
        if (!w->ni[i]) {
            fprintf(stderr, "kolo_ni_new failed\n");
            exit(2);
        }
    }
}

static void w_free(world *w) {
    int i;
    for (i = 0; i < w->nni; i++)
        kolo_ni_free(w->ni[i]);
}

/* ---- the backend over one NI of the world --------------------------------------- */
static int b_write(void *u, int bar, uint64_t off, const void *data, unsigned size) {
    w_port *p = (w_port *)u;
    int n = 0;
    if (bar == 2 && p->w->refuse_bar2) {
        p->w->bar2_refused++;
        return -1;
    }
    while (!p->w->no_flow_control && !kolo_ni_mmio_write_ready(p->w->ni[p->n], bar, off)) {
        /* PCIe flow control, as kolo-sim does it */
        w_step(p->w);
        if (++n > 1000000)
            return -1;
    }
    kolo_ni_mmio_write(p->w->ni[p->n], bar, off, data, size);
    return 0;
}

static int b_read(void *u, int bar, uint64_t off, unsigned size, uint64_t *val) {
    w_port *p = (w_port *)u;
    return kolo_ni_mmio_read(p->w->ni[p->n], bar, off, size, val);
}

static void b_progress(void *u, unsigned long n) {
    w_port *p = (w_port *)u;
    (void)n;
    w_step(p->w);
}

static int b_map(void *u, void *addr, size_t len) {
    w_port *p = (w_port *)u;
    world *w = p->w;
    if (w->map_fail) {
        w->map_fail = 0;
        return -1;
    }
    return test_iommu_map(&w->map, addr, len);
}

static int b_unmap(void *u, void *addr, size_t len) {
    return test_iommu_unmap(&((w_port *)u)->w->map, addr, len);
}

static kolo_dev *open_dev(world *w, int i) {
    kolo_backend be = {"model", b_write, b_read, NULL, NULL, b_progress, NULL};
    kolo_dev *d = NULL;
    char err[256] = "";
    int rc;
    if (w->iommu) {
        be.dma_map = b_map;
        be.dma_unmap = b_unmap;
    }
    rc = kolo_open_backend(&be, &w->port[i], &d, err, sizeof err);
    CHECK(rc == 0 && d, "open_backend %d: %s (%s)", i, kolo_strerror(rc), err);
    if (!d)
        exit(1);
    return d;
}

/* ---- helpers ---------------------------------------------------------------------------- */
static uint8_t pattern(size_t i, unsigned salt) { return (uint8_t)(i * 131u + salt * 7u + (i >> 8)); }

/* ---- tests without a device ----------------------------------------------------------------- */
static void test_errors(void) {
    int codes[] = {KOLO_OK, KOLO_E_INVAL, KOLO_E_LEN, KOLO_E_NODE, KOLO_E_ALIGN, KOLO_E_NOTREG,
                   KOLO_E_AGAIN, KOLO_E_NOMEM, KOLO_E_NODEV, KOLO_E_BUSY, KOLO_E_IO, KOLO_E_STOPPED,
                   KOLO_E_NOSYS, KOLO_E_RANGE, KOLO_E_TIMEOUT, KOLO_E_ADDR, KOLO_E_NOROUTE,
                   KOLO_E_GONE, KOLO_E_BAD_OP,
                   KOLO_E_BAD_LEN, KOLO_E_BAD_DST, KOLO_E_BAD_ALIGN, KOLO_E_REMOTE_KEY,
                   KOLO_E_REMOTE_BOUNDS, KOLO_E_REMOTE_RIGHTS, KOLO_E_LOCAL_DMA, KOLO_E_REMOTE_DMA,
                   KOLO_E_BAD_DOORBELL, KOLO_E_BAD_CONFIG, KOLO_E_NET_TIMEOUT, KOLO_E_STATUS_OTHER};
    size_t i, j, n = sizeof codes / sizeof codes[0];
    const char *unknown = kolo_strerror(-9999);
    for (i = 0; i < n; i++) {
        const char *m = kolo_strerror(codes[i]);
        CHECK(m && *m && strcmp(m, unknown), "code %d has a message", codes[i]);
        for (j = 0; j < i; j++)
            CHECK(strcmp(m, kolo_strerror(codes[j])), "codes %d and %d share a message", codes[i],
                  codes[j]);
    }
    /* status codes map one to one */
    CHECK_EQ(KOLO_E_STATUS(KOLO_ST_OK), 0, "ok");
    CHECK_EQ(KOLO_E_STATUS(KOLO_ST_REMOTE_KEY), KOLO_E_REMOTE_KEY, "key");
    CHECK_EQ(KOLO_E_STATUS(KOLO_ST_TIMEOUT), KOLO_E_NET_TIMEOUT, "timeout");
    CHECK_EQ(KOLO_E_STATUS(200), KOLO_E_STATUS_OTHER, "unknown status");
    /* the routing library's codes are known too */
    CHECK(strcmp(kolo_strerror(-5), unknown), "routing code -5");
    CHECK_EQ(kolo_amo_fetches(KOLO_AMO_CSWAP), 1, "cswap fetches");
    CHECK_EQ(kolo_amo_fetches(KOLO_AMO_ADD), 0, "add does not");
    /* constants agree with the NI model's header */
    CHECK_EQ(KOLO_AMO_FETCH_AND, KOLO_D_FETCH_AND, "op codes");
    CHECK_EQ(KOLO_AMO_OR, KOLO_D_OR, "op codes");
    CHECK_EQ(KOLO_NUM_WIN, KOLO_NI_NUM_WIN, "windows");
}

static void test_bdf(void) {
    char out[16];
    struct {
        const char *in, *want;
    } ok[] = {{"0000:03:00.0", "0000:03:00.0"}, {"03:00.0", "0000:03:00.0"},
              {"ABCD:ef:1f.7", "abcd:ef:1f.7"}, {"00:1f.3", "0000:00:1f.3"}};
    const char *bad[] = {"", "3:00.0", "0000:03:00", "0000:03:20.0", "0000:03:00.8",
                         "0000:03:00.0x", "g0:00.0", " 03:00.0", "+3:00.0", "0000-03:00.0",
                         "00000:03:00.0"};
    size_t i;
    for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int rc = kolo_parse_bdf(ok[i].in, out);
        CHECK(rc == 0 && !strcmp(out, ok[i].want), "bdf %s -> %s (rc %d)", ok[i].in,
              rc ? "" : out, rc);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ(kolo_parse_bdf(bad[i], out), KOLO_E_INVAL, "bad bdf '%s'", bad[i]);
    CHECK_EQ(kolo_parse_bdf(NULL, out), KOLO_E_INVAL, "NULL bdf");
}

static char tmpdir[64];

static void mkpath(const char *fmt, ...) {
    char p[512], *s;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p, sizeof p, fmt, ap);
    va_end(ap);
    for (s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
}

static int open_msg(const char *uri, char *err, size_t n) {
    kolo_dev *d = (kolo_dev *)1;
    int rc;
    err[0] = 0;
    rc = kolo_open(uri, &d, err, n);
    CHECK(d == NULL, "%s: no device on failure", uri ? uri : "(null)");
    return rc;
}

static void test_open_errors(void) {
    char err[512], p[512];
    kolo_dev *d;
    int rc;
    unsetenv("KOLO_SIM_SHM");
    unsetenv("KOLO_DEVICE");
    CHECK_EQ(kolo_open("sim", NULL, err, sizeof err), KOLO_E_INVAL, "NULL out");
    rc = open_msg(NULL, err, sizeof err);
    CHECK(rc == KOLO_E_NODEV && strstr(err, "KOLO_DEVICE"), "no device: %d %s", rc, err);
    rc = open_msg("sim", err, sizeof err);
    CHECK(rc == KOLO_E_NODEV && strstr(err, "kolo-run"), "sim outside kolo-sim: %d %s", rc, err);
    setenv("KOLO_DEVICE", "bogus", 1);
    rc = open_msg("", err, sizeof err);
    CHECK(rc == KOLO_E_INVAL && strstr(err, "bogus"), "KOLO_DEVICE=bogus: %d %s", rc, err);
    unsetenv("KOLO_DEVICE");
    rc = open_msg("pci:1", err, sizeof err);
    CHECK(rc == KOLO_E_INVAL && strstr(err, "unknown device"), "unknown: %d %s", rc, err);
    rc = open_msg("vfio:", err, sizeof err);
    CHECK(rc == KOLO_E_INVAL && strstr(err, "PCI address"), "vfio: %d %s", rc, err);
    rc = open_msg("vfio:0000:03:00.9", err, sizeof err);
    CHECK(rc == KOLO_E_INVAL, "vfio bad fn: %d %s", rc, err);
    /* a small error buffer is fine, and so is none */
    CHECK_EQ(kolo_open("pci:1", &d, err, 4), KOLO_E_INVAL, "short err");
    CHECK_EQ(strlen(err), 3, "truncated message");
    CHECK_EQ(kolo_open("pci:1", &d, NULL, 0), KOLO_E_INVAL, "no err buffer");

    /* fake trees */
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kolo-vfio-test.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        CHECK(0, "mkdtemp: %s", strerror(errno));
        return;
    }
    setenv("KOLO_VFIO_ROOT", tmpdir, 1);
    rc = open_msg("vfio:0000:03:00.0", err, sizeof err);
    CHECK(rc == KOLO_E_NODEV && strstr(err, "no such device"), "no sysfs device: %d %s", rc, err);
    mkpath("%s/sys/bus/pci/devices/0000:03:00.0", tmpdir);
    mkpath("%s/sys/kernel/iommu_groups/17", tmpdir);
    rc = open_msg("vfio:03:00.0", err, sizeof err);
    CHECK(rc == KOLO_E_NODEV && strstr(err, "iommu_group"), "no iommu group: %d %s", rc, err);
    snprintf(p, sizeof p, "%s/sys/bus/pci/devices/0000:03:00.0/iommu_group", tmpdir);
    CHECK(symlink("../../../../kernel/iommu_groups/17", p) == 0, "symlink: %s", strerror(errno));
    rc = open_msg("vfio:03:00.0", err, sizeof err);
    CHECK(rc == KOLO_E_NODEV && strstr(err, "modprobe vfio-pci"), "no vfio-pci: %d %s", rc, err);
    /* bound to vfio-pci with its group node (each missing piece: test_vfio.c) */
    mkpath("%s/sys/bus/pci/drivers/vfio-pci", tmpdir);
    snprintf(p, sizeof p, "%s/sys/bus/pci/devices/0000:03:00.0/driver", tmpdir);
    CHECK(symlink("../../../../bus/pci/drivers/vfio-pci", p) == 0, "symlink: %s", strerror(errno));
    mkpath("%s/dev/vfio", tmpdir);
    snprintf(p, sizeof p, "%s/dev/vfio/17", tmpdir);
    {
        int fd = open(p, O_CREAT | O_WRONLY, 0644);
        CHECK(fd >= 0, "create %s", p);
        if (fd >= 0)
            close(fd);
    }
    rc = open_msg("vfio:03:00.0", err, sizeof err);
    CHECK(rc == KOLO_E_NODEV && strstr(err, "/dev/vfio/vfio") && strstr(err, "missing"),
          "no /dev/vfio: %d %s", rc, err);
    snprintf(p, sizeof p, "%s/dev/vfio/vfio", tmpdir);
    {
        int fd = open(p, O_CREAT | O_WRONLY, 0644);
        CHECK(fd >= 0, "create %s", p);
        if (fd >= 0)
            close(fd);
    }
    rc = open_msg("vfio:0000:03:00.0", err, sizeof err);
    CHECK(rc == KOLO_E_NODEV && strstr(err, "not a VFIO container"), "fake container: %d %s", rc,
          err);
    /* the real system (no /dev/vfio in a test machine, most likely): a clean error */
    unsetenv("KOLO_VFIO_ROOT");
    rc = open_msg("vfio:0000:00:00.0", err, sizeof err);
    CHECK(rc < 0 && *err, "real vfio without a board: %d %s", rc, err);
    {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
        if (system(cmd))
            fprintf(stderr, "warning: could not remove %s\n", tmpdir);
    }
}

/* a backend whose device is not a kolo NI */
static uint32_t fake_id;
static int fake_fail_read;
static int f_write(void *u, int bar, uint64_t off, const void *d, unsigned s) {
    (void)u, (void)bar, (void)off, (void)d, (void)s;
    return 0;
}
static int f_read(void *u, int bar, uint64_t off, unsigned size, uint64_t *v) {
    (void)u, (void)bar, (void)size;
    if (fake_fail_read)
        return -1;
    *v = off == KOLO_CSR_ID ? fake_id : off == KOLO_CSR_VERSION ? KOLO_NI_VERSION : off == KOLO_CSR_NUM_CTX ? 16 : 0;
    return 0;
}

static void test_open_backend(void) {
    kolo_backend be = {"fake", f_write, f_read, NULL, NULL, NULL, NULL};
    kolo_dev *d = NULL;
    char err[256];
    int rc;
    CHECK_EQ(kolo_open_backend(NULL, NULL, &d, err, sizeof err), KOLO_E_INVAL, "NULL backend");
    CHECK_EQ(kolo_open_backend(&be, NULL, NULL, err, sizeof err), KOLO_E_INVAL, "NULL out");
    {
        kolo_backend nob = be;
        nob.mmio_read = NULL;
        CHECK_EQ(kolo_open_backend(&nob, NULL, &d, err, sizeof err), KOLO_E_INVAL, "no read");
    }
    fake_id = 0x12345678;
    rc = kolo_open_backend(&be, NULL, &d, err, sizeof err);
    CHECK(rc == KOLO_E_NODEV && !d && strstr(err, "0x12345678"), "wrong ID: %d %s", rc, err);
    fake_fail_read = 1;
    rc = kolo_open_backend(&be, NULL, &d, err, sizeof err);
    CHECK(rc == KOLO_E_IO && !d, "failing reads: %d %s", rc, err);
    fake_fail_read = 0;
    fake_id = KOLO_NI_ID;
    rc = kolo_open_backend(&be, NULL, &d, err, sizeof err);
    CHECK(rc == 0 && d, "fake NI opens: %d %s", rc, err);
    if (d) {
        uint8_t dims[3];
        kolo_dev_torus(d, dims);
        CHECK(dims[0] == 1 && dims[1] == 1 && dims[2] == 1, "1x1x1");
        CHECK_EQ(kolo_dev_node_valid(d, 0), 1, "node 0");
        CHECK_EQ(kolo_dev_node_valid(d, 1), 0, "node 1");
        CHECK_EQ(kolo_dev_node_of_index(d, 1), 0xFFFF, "index 1");
        CHECK(!strcmp(kolo_dev_backend(d), "fake"), "name");
        CHECK(kolo_dev_sim_client(d) == NULL, "not sim");
        kolo_close(d);
    }
    /* NULL-safe accessors */
    kolo_close(NULL);
    CHECK_EQ(kolo_dev_num_ctx(NULL), 0, "NULL dev");
    CHECK_EQ(kolo_ctx_close(NULL), 0, "NULL ctx");
    CHECK_EQ(kolo_quiet(NULL), KOLO_E_INVAL, "NULL ctx quiet");
    CHECK_EQ(kolo_progress(NULL), KOLO_E_INVAL, "NULL ctx progress");
}

/* ---- tests against the model ------------------------------------------------------------- */
#define WIN_LEN 65536
#define GUARD 64
typedef struct {
    uint8_t *mem; /* GUARD | window | GUARD */
    uint8_t *win;
    uint8_t key;
    int w;
} target_win;

static void win_make(kolo_dev *d, target_win *t, unsigned rights, int index, int ctx) {
    int i;
    t->mem = (uint8_t *)aligned_alloc(4096, WIN_LEN + 2 * 4096);
    memset(t->mem, 0xA5, WIN_LEN + 2 * 4096);
    t->win = t->mem + 4096;
    memset(t->win, 0, WIN_LEN);
    t->w = kolo_win_open(d, index, t->win, WIN_LEN, rights, -1, (unsigned)ctx, &t->key);
    CHECK(t->w >= 0, "win_open: %s", kolo_strerror(t->w));
    (void)i;
}

static int guards_intact(const target_win *t) {
    size_t i;
    for (i = 0; i < 4096; i++)
        if (t->mem[i] != 0xA5 || t->win[WIN_LEN + i] != 0xA5)
            return 0;
    return 1;
}

static void test_ctx_and_windows(void) {
    world w;
    kolo_dev *d;
    kolo_ctx *c = NULL, *c2 = NULL;
    kolo_ctx_opts o;
    uint8_t key, buf[64];
    int i, rc;
    w_init(&w, 2, 0);
    d = open_dev(&w, 0);
    CHECK_EQ(kolo_dev_node_id(d), 0, "node 0");
    CHECK_EQ(kolo_dev_num_ctx(d), KOLO_NI_NUM_CTX, "contexts");
    CHECK_EQ(kolo_dev_node_of_index(d, 1), 1, "node of index 1");
    CHECK_EQ(kolo_dev_node_valid(d, 2), 0, "x = 2 outside 2x1x1");
    CHECK_EQ(kolo_dev_node_valid(d, 0x10), 0, "y = 1 outside 2x1x1");
    CHECK_EQ(kolo_dev_node_valid(d, 0x1000), 0, "13-bit node");
    {
        uint64_t v;
        CHECK_RC(kolo_dev_read_reg(d, KOLO_CSR_ID, 4, &v), 0);
        CHECK_EQ(v, KOLO_NI_ID, "ID via read_reg");
        CHECK_RC(kolo_dev_read_reg(d, KOLO_CSR_ID, 3, &v), KOLO_E_INVAL);
        CHECK_RC(kolo_dev_read_reg(d, 2, 4, &v), KOLO_E_INVAL);
        CHECK_RC(kolo_dev_read_reg(d, KOLO_BAR0_SIZE, 4, &v), KOLO_E_INVAL);
        CHECK_RC(kolo_dev_read_reg(d, 0, 4, NULL), KOLO_E_INVAL);
    }
    /* context options */
    memset(&o, 0, sizeof o);
    o.index = -1;
    CHECK_RC(kolo_ctx_open(NULL, &o, &c), KOLO_E_INVAL);
    CHECK_RC(kolo_ctx_open(d, &o, NULL), KOLO_E_INVAL);
    o.sq_log2 = 16;
    CHECK_RC(kolo_ctx_open(d, &o, &c), KOLO_E_INVAL);
    o.sq_log2 = 6;
    o.cq_log2 = 5;
    CHECK_RC(kolo_ctx_open(d, &o, &c), KOLO_E_INVAL);
    o.cq_log2 = 16;
    CHECK_RC(kolo_ctx_open(d, &o, &c), KOLO_E_INVAL);
    o.cq_log2 = 0;
    o.flags = 0x100;
    CHECK_RC(kolo_ctx_open(d, &o, &c), KOLO_E_INVAL);
    o.flags = 0;
    o.index = 16;
    CHECK_RC(kolo_ctx_open(d, &o, &c), KOLO_E_RANGE);
    o.index = 3;
    CHECK_RC(kolo_ctx_open(d, &o, &c), 0);
    CHECK_EQ(kolo_ctx_index(c), 3, "index 3");
    CHECK(kolo_ctx_dev(c) == d, "ctx dev");
    CHECK_RC(kolo_ctx_open(d, &o, &c2), KOLO_E_BUSY);
    o.index = -1;
    CHECK_RC(kolo_ctx_open(d, &o, &c2), 0);
    CHECK_EQ(kolo_ctx_index(c2), 0, "lowest free");
    {
        uint64_t st;
        CHECK_RC(kolo_dev_read_reg(d, KOLO_CSR_CTX(3) + KOLO_CTX_STATUS, 8, &st), 0);
        CHECK_EQ(st & 3, 1, "enabled, no error");
    }
    CHECK_RC(kolo_ctx_close(c2), 0);
    {
        uint64_t st;
        CHECK_RC(kolo_dev_read_reg(d, KOLO_CSR_CTX(0) + KOLO_CTX_STATUS, 8, &st), 0);
        CHECK_EQ(st & 1, 0, "disabled after close");
    }
    /* the largest queues */
    o.index = 5;
    o.sq_log2 = 15;
    CHECK_RC(kolo_ctx_open(d, &o, &c2), 0);
    CHECK_RC(kolo_ctx_close(c2), 0);

    /* windows: arguments */
    CHECK_RC(kolo_win_open(NULL, -1, buf, 64, KOLO_WIN_RWA, -1, 0, &key), KOLO_E_INVAL);
    CHECK_RC(kolo_win_open(d, -1, NULL, 64, KOLO_WIN_RWA, -1, 0, &key), KOLO_E_INVAL);
    CHECK_RC(kolo_win_open(d, -1, buf, 64, KOLO_WIN_RWA, -1, 0, NULL), KOLO_E_INVAL);
    CHECK_RC(kolo_win_open(d, -1, buf, 0, KOLO_WIN_RWA, -1, 0, &key), KOLO_E_LEN);
    CHECK_RC(kolo_win_open(d, -1, buf, 64, 0, -1, 0, &key), KOLO_E_INVAL);
    CHECK_RC(kolo_win_open(d, -1, buf, 64, 8, -1, 0, &key), KOLO_E_INVAL);
    CHECK_RC(kolo_win_open(d, 16, buf, 64, KOLO_WIN_R, -1, 0, &key), KOLO_E_INVAL);
    CHECK_RC(kolo_win_open(d, -2, buf, 64, KOLO_WIN_R, -1, 0, &key), KOLO_E_INVAL);
    CHECK_RC(kolo_win_open(d, -1, buf, 64, KOLO_WIN_R, 16, 0, &key), KOLO_E_INVAL);
    CHECK_RC(kolo_win_open(d, -1, buf, 64, KOLO_WIN_R, -1, 16, &key), KOLO_E_INVAL);
    CHECK_RC(kolo_win_open(d, -1, (void *)(uintptr_t)0xFFFFFFFFFFC0ull, 128, KOLO_WIN_R, -1, 0, &key),
             KOLO_E_ADDR);
    for (i = 0; i < KOLO_NUM_WIN; i++) {
        rc = kolo_win_open(d, -1, buf, 64, KOLO_WIN_R, i & 15, 0, &key);
        CHECK_EQ(rc, i, "window %d", i);
        CHECK_EQ(key, (i & 15) << 4 | i, "key of window %d", i);
    }
    CHECK_RC(kolo_win_open(d, -1, buf, 64, KOLO_WIN_R, -1, 0, &key), KOLO_E_RANGE);
    CHECK_RC(kolo_win_open(d, 7, buf, 64, KOLO_WIN_R, -1, 0, &key), KOLO_E_BUSY);
    CHECK_RC(kolo_win_close(d, 7), 0);
    CHECK_RC(kolo_win_close(d, 7), KOLO_E_RANGE);
    CHECK_RC(kolo_win_close(d, 16), KOLO_E_INVAL);
    CHECK_EQ(kolo_win_open(d, -1, buf, 64, KOLO_WIN_R, -1, 0, &key), 7, "reuse 7");
    {
        uint64_t e;
        CHECK_RC(kolo_dev_read_reg(d, KOLO_CSR_ERR_CSR, 4, &e), 0);
        CHECK_EQ(e, 0, "no refused CSR writes so far");
    }
    CHECK_RC(kolo_ctx_close(c), 0);
    kolo_close(d); /* closes the windows */
    w_free(&w);
}

typedef struct {
    world w;
    kolo_dev *a, *b;
    kolo_ctx *ca, *cb;
    target_win tb;     /* window of B (RWA) */
    target_win tb_ro;  /* B: read only */
    target_win tb_wo;  /* B: write only */
    target_win ta;     /* window of A (RWA), for B's operations */
} pair;

static void pair_open(pair *p, int iommu, unsigned flags, unsigned sq_log2) {
    kolo_ctx_opts o = {-1, sq_log2, 0, flags};
    memset(p, 0, sizeof *p);
    w_init(&p->w, 2, iommu);
    p->a = open_dev(&p->w, 0);
    p->b = open_dev(&p->w, 1);
    CHECK_RC(kolo_ctx_open(p->a, &o, &p->ca), 0);
    CHECK_RC(kolo_ctx_open(p->b, &o, &p->cb), 0);
    win_make(p->b, &p->tb, KOLO_WIN_RWA, -1, 0);
    win_make(p->b, &p->tb_ro, KOLO_WIN_R, -1, 0);
    win_make(p->b, &p->tb_wo, KOLO_WIN_W, -1, 0);
    win_make(p->a, &p->ta, KOLO_WIN_RWA, -1, 0);
}

static void pair_close(pair *p) {
    kolo_ctx_close(p->ca);
    kolo_ctx_close(p->cb);
    kolo_close(p->a);
    kolo_close(p->b);
    free(p->tb.mem);
    free(p->tb_ro.mem);
    free(p->tb_wo.mem);
    free(p->ta.mem);
    w_free(&p->w);
}

#define NB 1 /* node of B */
#define RB(p, off) ((uint64_t)(uintptr_t)((p)->tb.win + (off)))

static void test_args(pair *p) {
    uint8_t src[64] = {1};
    uint64_t old;
    kolo_req r;
    /* put */
    CHECK_RC(kolo_put(NULL, NB, RB(p, 0), p->tb.key, src, 8), KOLO_E_INVAL);
    CHECK_RC(kolo_put(p->ca, NB, RB(p, 0), p->tb.key, NULL, 8), KOLO_E_INVAL);
    CHECK_RC(kolo_put(p->ca, NB, RB(p, 0), p->tb.key, src, 0), KOLO_E_LEN);
    CHECK_RC(kolo_put(p->ca, NB, RB(p, 0), p->tb.key, src, (size_t)KOLO_MAX_LEN + 1), KOLO_E_LEN);
    CHECK_RC(kolo_put(p->ca, 2, RB(p, 0), p->tb.key, src, 8), KOLO_E_NODE);
    CHECK_RC(kolo_put(p->ca, 0x100, RB(p, 0), p->tb.key, src, 8), KOLO_E_NODE);
    CHECK_RC(kolo_put(p->ca, 0xFFFF, RB(p, 0), p->tb.key, src, 8), KOLO_E_NODE);
    CHECK_RC(kolo_put(p->ca, NB, 1ull << 48, p->tb.key, src, 8), KOLO_E_ADDR);
    CHECK_RC(kolo_put(p->ca, NB, KOLO_ADDR_MASK - 3, p->tb.key, src, 8), KOLO_E_ADDR);
    CHECK_RC(kolo_put_nb(p->ca, NB, RB(p, 0), p->tb.key, src, 0, &r), KOLO_E_LEN);
    CHECK_RC(kolo_put_inline(p->ca, NB, RB(p, 0), p->tb.key, src, 17), KOLO_E_LEN);
    CHECK_RC(kolo_put_pio(p->ca, NB, RB(p, 0), p->tb.key, src, 33), KOLO_E_LEN);
    CHECK_RC(kolo_put_pio(p->ca, 9, RB(p, 0), p->tb.key, src, 8), KOLO_E_NODE);
    /* get */
    CHECK_RC(kolo_get(p->ca, NB, RB(p, 0), p->tb.key, NULL, 8), KOLO_E_INVAL);
    CHECK_RC(kolo_get(p->ca, NB, RB(p, 0), p->tb.key, src, 0), KOLO_E_LEN);
    CHECK_RC(kolo_get_nb(p->ca, 3, RB(p, 0), p->tb.key, src, 8, &r), KOLO_E_NODE);
    CHECK_RC(kolo_get_nb(NULL, NB, RB(p, 0), p->tb.key, src, 8, &r), KOLO_E_INVAL);
    /* atomics */
    CHECK_RC(kolo_atomic(p->ca, 2, 8, NB, RB(p, 0), p->tb.key, 1, 0, &old), KOLO_E_INVAL);
    CHECK_RC(kolo_atomic(p->ca, 13, 8, NB, RB(p, 0), p->tb.key, 1, 0, &old), KOLO_E_INVAL);
    CHECK_RC(kolo_atomic(p->ca, KOLO_AMO_ADD, 2, NB, RB(p, 0), p->tb.key, 1, 0, &old), KOLO_E_INVAL);
    CHECK_RC(kolo_atomic(p->ca, KOLO_AMO_ADD, 8, NB, RB(p, 4), p->tb.key, 1, 0, &old), KOLO_E_ALIGN);
    CHECK_RC(kolo_atomic(p->ca, KOLO_AMO_ADD, 4, NB, RB(p, 2), p->tb.key, 1, 0, &old), KOLO_E_ALIGN);
    CHECK_RC(kolo_atomic(p->ca, KOLO_AMO_ADD, 8, 5, RB(p, 0), p->tb.key, 1, 0, &old), KOLO_E_NODE);
    CHECK_RC(kolo_atomic(p->ca, KOLO_AMO_ADD, 8, NB, 1ull << 48, p->tb.key, 1, 0, &old), KOLO_E_ADDR);
    CHECK_RC(kolo_atomic_nb(NULL, KOLO_AMO_ADD, 8, NB, RB(p, 0), p->tb.key, 1, 0, NULL, NULL),
             KOLO_E_INVAL);
    /* signal */
    CHECK_RC(kolo_put_signal(p->ca, NB, RB(p, 0), p->tb.key, src, 8, RB(p, 64), p->tb.key, 1, 2),
             KOLO_E_INVAL);
    CHECK_RC(kolo_put_signal(p->ca, NB, RB(p, 0), p->tb.key, src, 8, RB(p, 65), p->tb.key, 1, 0),
             KOLO_E_ALIGN);
    CHECK_RC(kolo_put_signal_nb(p->ca, NB, RB(p, 0), p->tb.key, src, 0, RB(p, 64), p->tb.key, 1, 0),
             KOLO_E_LEN);
    /* requests */
    CHECK_RC(kolo_test(p->ca, NULL), KOLO_E_INVAL);
    CHECK_RC(kolo_wait(NULL, &r), KOLO_E_INVAL);
    CHECK_RC(kolo_fence(NULL), KOLO_E_INVAL);
    kolo_req_cancel(p->ca, NULL);
    /* nothing above reached the network; the window is untouched */
    CHECK_RC(kolo_quiet(p->ca), 0);
    CHECK_EQ(kolo_ctx_outstanding(p->ca), 0, "nothing outstanding");
    {
        size_t i, bad = 0;
        for (i = 0; i < WIN_LEN; i++)
            bad += p->tb.win[i] != 0;
        CHECK_EQ(bad, 0, "window untouched by refused calls");
    }
}

static void test_puts_gets(pair *p) {
    static const size_t lens[] = {1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 100, 255, 256, 257, 1000, 4096, 40000};
    size_t li, i;
    uint8_t *src = (uint8_t *)malloc(WIN_LEN), *dst = (uint8_t *)malloc(WIN_LEN);
    kolo_ctx_stats s0, s1;
    kolo_ctx_get_stats(p->ca, &s0);
    for (li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t len = lens[li], off = (li * 977) % 200;
        int path;
        for (path = 0; path < 4; path++) {
            int rc;
            kolo_req r;
            if ((path == 1 && len > KOLO_INLINE_MAX) || (path == 2 && len > KOLO_PIO_MAX))
                continue;
            for (i = 0; i < len; i++)
                src[i] = pattern(i, (unsigned)(li * 4 + path));
            memset(p->tb.win + off, 0, len);
            switch (path) {
            case 0: rc = kolo_put(p->ca, NB, RB(p, off), p->tb.key, src, len); break;
            case 1: rc = kolo_put_inline(p->ca, NB, RB(p, off), p->tb.key, src, len); break;
            case 2: rc = kolo_put_pio(p->ca, NB, RB(p, off), p->tb.key, src, len); break;
            default:
                rc = kolo_put_nb(p->ca, NB, RB(p, off), p->tb.key, src, len, &r);
                rc = rc ? rc : kolo_wait(p->ca, &r);
                break;
            }
            /* the blocking forms leave src free at once: scribble on it */
            if (path != 3)
                memset(src, 0xEE, len);
            CHECK_RC(rc, 0);
            CHECK_RC(kolo_quiet(p->ca), 0);
            for (i = 0; i < len; i++)
                if (p->tb.win[off + i] != pattern(i, (unsigned)(li * 4 + path)))
                    break;
            CHECK(i == len, "put len %zu path %d: byte %zu wrong", len, path, i);
            /* and back */
            memset(dst, 0, len);
            if (path & 1) {
                rc = kolo_get_nb(p->ca, NB, RB(p, off), p->tb.key, dst, len, &r);
                while (!rc && (rc = kolo_test(p->ca, &r)) == 0)
                    b_progress(&p->w.port[0], 0);
                rc = rc == 1 ? r.status : rc;
            } else {
                rc = kolo_get(p->ca, NB, RB(p, off), p->tb.key, dst, len);
            }
            CHECK_RC(rc, 0);
            CHECK(!memcmp(dst, p->tb.win + off, len), "get len %zu path %d", len, path);
        }
    }
    kolo_ctx_get_stats(p->ca, &s1);
    CHECK(s1.pio_posts > s0.pio_posts, "PIO used");
    CHECK(s1.inline_posts > s0.inline_posts, "inline used");
    CHECK(s1.bounce_posts > s0.bounce_posts, "bounce used");
    CHECK(guards_intact(&p->tb), "guards");
    /* the whole window in one put and one get, and a get of it in pieces */
    for (i = 0; i < WIN_LEN; i++)
        src[i] = pattern(i, 99);
    CHECK_RC(kolo_put(p->ca, NB, RB(p, 0), p->tb.key, src, WIN_LEN), 0);
    CHECK_RC(kolo_quiet(p->ca), 0);
    CHECK(!memcmp(p->tb.win, src, WIN_LEN), "64 KiB put");
    memset(dst, 0, WIN_LEN);
    CHECK_RC(kolo_get(p->ca, NB, RB(p, 0), p->tb.key, dst, WIN_LEN), 0);
    CHECK(!memcmp(dst, src, WIN_LEN), "64 KiB get");
    {
        kolo_req rq[16];
        memset(dst, 0, WIN_LEN);
        for (i = 0; i < 16; i++)
            CHECK_RC(kolo_get_nb(p->ca, NB, RB(p, i * 4096), p->tb.key, dst + i * 4096, 4096, &rq[i]), 0);
        for (i = 16; i-- > 0;)
            CHECK_RC(kolo_wait(p->ca, &rq[i]), 0);
        CHECK(!memcmp(dst, src, WIN_LEN), "16 gets in flight");
    }
    CHECK(guards_intact(&p->tb), "guards");
    free(src);
    free(dst);
}

static uint64_t amo_ref(int op, uint64_t old, uint64_t v, uint64_t cmp, uint64_t mask) {
    switch (op) {
    case KOLO_AMO_ADD:
    case KOLO_AMO_FETCH_ADD: return (old + v) & mask;
    case KOLO_AMO_XOR:
    case KOLO_AMO_FETCH_XOR: return (old ^ v) & mask;
    case KOLO_AMO_AND:
    case KOLO_AMO_FETCH_AND: return old & v & mask;
    case KOLO_AMO_OR:
    case KOLO_AMO_FETCH_OR: return (old | v) & mask;
    case KOLO_AMO_SWAP: return v & mask;
    case KOLO_AMO_CSWAP: return old == (cmp & mask) ? v & mask : old;
    default: return 0;
    }
}

static void test_atomics(pair *p) {
    int op;
    unsigned size;
    for (size = 4; size <= 8; size += 4) {
        uint64_t mask = size == 4 ? 0xffffffffull : ~0ull;
        for (op = KOLO_AMO_ADD; op <= KOLO_AMO_OR; op++) {
            int k;
            for (k = 0; k < 4; k++) {
                uint64_t init = test_rand64() & mask, v = test_rand64(), cmp, old = 0, got = 0,
                         want, after = 0, neighbour;
                size_t off = 256 + 8 * (size_t)test_rand(64) + (size == 4 ? 4 * test_rand(2) : 0);
                cmp = (k & 1) ? init : test_rand64();
                memcpy(p->tb.win + off, &init, size);
                neighbour = 0x0123456789ABCDEFull;
                if (size == 4) /* the other half of the 8-byte word must stay */
                    memcpy(p->tb.win + (off ^ 4), &neighbour, 4);
                if (k < 2)
                    CHECK_RC(kolo_atomic(p->ca, op, size, NB, RB(p, off), p->tb.key, v, cmp, &old), 0);
                else {
                    kolo_req r;
                    uint8_t res[8] = {0};
                    CHECK_RC(kolo_atomic_nb(p->ca, op, size, NB, RB(p, off), p->tb.key, v, cmp,
                                            kolo_amo_fetches(op) ? res : NULL, &r),
                             0);
                    CHECK_RC(kolo_wait(p->ca, &r), 0);
                    old = r.result;
                    if (kolo_amo_fetches(op)) {
                        uint64_t fromres = 0;
                        memcpy(&fromres, res, size);
                        CHECK_EQ(fromres, old, "nb result buffer op %d size %u", op, size);
                    }
                }
                CHECK_RC(kolo_quiet(p->ca), 0);
                memcpy(&after, p->tb.win + off, size);
                want = amo_ref(op, init, v, cmp, mask);
                CHECK(after == want, "op %d size %u: %#llx -> %#llx, want %#llx", op, size,
                      (unsigned long long)init, (unsigned long long)after, (unsigned long long)want);
                if (kolo_amo_fetches(op))
                    CHECK(old == init, "op %d size %u fetched %#llx, want %#llx", op, size,
                          (unsigned long long)old, (unsigned long long)init);
                if (size == 4) {
                    memcpy(&got, p->tb.win + (off ^ 4), 4);
                    CHECK_EQ(got, neighbour & 0xffffffffu, "op %d: other half untouched", op);
                }
            }
        }
    }
    /* PIO atomics (KOLO_CTX_PIO_AMO is per context: just check the normal path
     * accumulates many concurrent adds) */
    {
        uint64_t zero = 0, v = 0;
        int i;
        memcpy(p->tb.win + 512, &zero, 8);
        for (i = 0; i < 500; i++)
            CHECK_RC(kolo_atomic(p->ca, KOLO_AMO_ADD, 8, NB, RB(p, 512), p->tb.key, 3, 0, NULL), 0);
        CHECK_RC(kolo_quiet(p->ca), 0);
        memcpy(&v, p->tb.win + 512, 8);
        CHECK_EQ(v, 1500, "500 adds of 3");
    }
}

static void test_signal(pair *p) {
    uint8_t src[600];
    uint64_t sig = 0;
    size_t i, lens[] = {8, 24, 200, 600};
    int k;
    for (k = 0; k < 4; k++) {
        size_t len = lens[k];
        for (i = 0; i < len; i++)
            src[i] = pattern(i, (unsigned)k + 50);
        memset(p->tb.win + 1024, 0, len);
        memset(p->tb.win + 4096, 0, 8);
        if (k & 1)
            CHECK_RC(kolo_put_signal_nb(p->ca, NB, RB(p, 1024), p->tb.key, src, len, RB(p, 4096),
                                        p->tb.key, 40 + (uint64_t)k, KOLO_SIG_SET),
                     0);
        else
            CHECK_RC(kolo_put_signal(p->ca, NB, RB(p, 1024), p->tb.key, src, len, RB(p, 4096),
                                     p->tb.key, 40 + (uint64_t)k, KOLO_SIG_ADD),
                     0);
        /* the moment the signal shows, the data is there */
        {
            unsigned long n = 0;
            while (!__atomic_load_n((uint64_t *)(p->tb.win + 4096), __ATOMIC_ACQUIRE) && n++ < 100000)
                b_progress(&p->w.port[0], 0);
            memcpy(&sig, p->tb.win + 4096, 8);
            CHECK_EQ(sig, 40 + k, "signal value %d", k);
            CHECK(!memcmp(p->tb.win + 1024, src, len), "data before signal, len %zu", len);
        }
        CHECK_RC(kolo_quiet(p->ca), 0);
    }
    /* fence: a put after a fence lands after the one before */
    for (k = 0; k < 50; k++) {
        uint64_t a = (uint64_t)k, b = (uint64_t)k + 1000;
        CHECK_RC(kolo_put(p->ca, NB, RB(p, 2048), p->tb.key, &a, 8), 0);
        CHECK_RC(kolo_fence(p->ca), 0);
        CHECK_RC(kolo_put(p->ca, NB, RB(p, 2048), p->tb.key, &b, 8), 0);
    }
    CHECK_RC(kolo_quiet(p->ca), 0);
    {
        uint64_t v;
        memcpy(&v, p->tb.win + 2048, 8);
        CHECK_EQ(v, 1049, "fenced puts in order");
    }
}

static void test_remote_errors(pair *p) {
    uint8_t src[512], dst[512];
    uint64_t old;
    void *noaccess;
    int rc;
    memset(src, 0x77, sizeof src);
    memset(p->tb.win, 0, WIN_LEN);
    /* wrong key: blocking get reports it at once, puts at quiet */
    CHECK_RC(kolo_get(p->ca, NB, RB(p, 0), (uint8_t)(p->tb.key ^ 0x10), dst, 8), KOLO_E_REMOTE_KEY);
    CHECK_RC(kolo_get(p->ca, NB, RB(p, 0), 0x0F, dst, 8), KOLO_E_REMOTE_KEY); /* window 15: closed */
    CHECK_RC(kolo_put(p->ca, NB, RB(p, 0), (uint8_t)(p->tb.key ^ 0x10), src, 8), 0);
    CHECK_RC(kolo_get(p->ca, NB, RB(p, 0), p->tb.key, dst, 8), 0); /* waits: the put's error arrives */
    CHECK_RC(kolo_pending_error(p->ca), KOLO_E_REMOTE_KEY); /* seen before quiet, */
    CHECK_RC(kolo_pending_error(p->ca), KOLO_E_REMOTE_KEY); /* not cleared */
    CHECK_RC(kolo_quiet(p->ca), KOLO_E_REMOTE_KEY);
    CHECK_RC(kolo_quiet(p->ca), 0); /* reported once */
    CHECK_RC(kolo_pending_error(p->ca), 0);
    CHECK_RC(kolo_pending_error(NULL), KOLO_E_INVAL);
    /* bounds: before, after, straddling the end */
    CHECK_RC(kolo_get(p->ca, NB, RB(p, 0) - 8, p->tb.key, dst, 8), KOLO_E_REMOTE_BOUNDS);
    CHECK_RC(kolo_get(p->ca, NB, RB(p, WIN_LEN), p->tb.key, dst, 1), KOLO_E_REMOTE_BOUNDS);
    /* a put crossing the window's end: the NI checks each packet (cut at
     * 256-byte boundaries of the remote address), so the packet inside the
     * window lands, the one outside is refused and nothing outside is written */
    CHECK_RC(kolo_put(p->ca, NB, RB(p, WIN_LEN - 100), p->tb.key, src, 200), 0);
    CHECK_RC(kolo_quiet(p->ca), KOLO_E_REMOTE_BOUNDS);
    CHECK(!memcmp(p->tb.win + WIN_LEN - 100, src, 100), "in-window packet of a straddling put");
    CHECK(guards_intact(&p->tb), "nothing beyond the window");
    memset(p->tb.win + WIN_LEN - 100, 0, 100);
    CHECK_RC(kolo_put(p->ca, NB, RB(p, WIN_LEN - 4), p->tb.key, src, 8), 0); /* PIO, 2 packets */
    CHECK_RC(kolo_quiet(p->ca), KOLO_E_REMOTE_BOUNDS);
    CHECK(guards_intact(&p->tb), "nothing beyond the window");
    memset(p->tb.win + WIN_LEN - 4, 0, 4);
    /* wholly outside: nothing lands (the guard bytes are checked below) */
    CHECK_RC(kolo_put(p->ca, NB, RB(p, 0) - 8, p->tb.key, src, 8), 0);
    CHECK_RC(kolo_quiet(p->ca), KOLO_E_REMOTE_BOUNDS);
    CHECK_RC(kolo_atomic(p->ca, KOLO_AMO_FETCH_ADD, 8, NB, RB(p, WIN_LEN), p->tb.key, 1, 0, &old),
             KOLO_E_REMOTE_BOUNDS);
    /* rights */
    CHECK_RC(kolo_put(p->ca, NB, (uintptr_t)p->tb_ro.win, p->tb_ro.key, src, 64), 0);
    CHECK_RC(kolo_quiet(p->ca), KOLO_E_REMOTE_RIGHTS);
    CHECK_RC(kolo_get(p->ca, NB, (uintptr_t)p->tb_ro.win, p->tb_ro.key, dst, 64), 0);
    CHECK_RC(kolo_get(p->ca, NB, (uintptr_t)p->tb_wo.win, p->tb_wo.key, dst, 64), KOLO_E_REMOTE_RIGHTS);
    CHECK_RC(kolo_atomic(p->ca, KOLO_AMO_SWAP, 8, NB, (uintptr_t)p->tb_ro.win, p->tb_ro.key, 5, 0, &old),
             KOLO_E_REMOTE_RIGHTS);
    CHECK_RC(kolo_atomic(p->ca, KOLO_AMO_ADD, 8, NB, (uintptr_t)p->tb_wo.win, p->tb_wo.key, 5, 0, NULL), 0);
    CHECK_RC(kolo_quiet(p->ca), KOLO_E_REMOTE_RIGHTS);
    /* error of a request goes to the request, not to quiet */
    {
        kolo_req r;
        CHECK_RC(kolo_put_nb(p->ca, NB, RB(p, WIN_LEN), p->tb.key, src, 300, &r), 0);
        CHECK_RC(kolo_wait(p->ca, &r), KOLO_E_REMOTE_BOUNDS);
        CHECK_EQ(r.status, KOLO_E_REMOTE_BOUNDS, "req status");
        CHECK_RC(kolo_quiet(p->ca), 0);
    }
    /* local DMA: source or destination the NI cannot read/write */
    noaccess = mmap(NULL, 8192, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(noaccess != MAP_FAILED, "mmap");
    CHECK_RC(kolo_get(p->ca, NB, RB(p, 0), p->tb.key, noaccess, 300), KOLO_E_LOCAL_DMA);
    CHECK_RC(kolo_put(p->ca, NB, RB(p, 0), p->tb.key, noaccess, 4096), KOLO_E_LOCAL_DMA);
    {
        kolo_req r;
        CHECK_RC(kolo_put_nb(p->ca, NB, RB(p, 0), p->tb.key, noaccess, 100, &r), 0);
        CHECK_RC(kolo_wait(p->ca, &r), KOLO_E_LOCAL_DMA);
    }
    /* remote DMA: a window over memory the target cannot touch */
    {
        uint8_t k;
        int wi = kolo_win_open(p->b, -1, noaccess, 8192, KOLO_WIN_RWA, -1, 0, &k);
        CHECK(wi >= 0, "window over PROT_NONE: %s", kolo_strerror(wi));
        CHECK_RC(kolo_get(p->ca, NB, (uintptr_t)noaccess, k, dst, 16), KOLO_E_REMOTE_DMA);
        CHECK_RC(kolo_put(p->ca, NB, (uintptr_t)noaccess, k, src, 16), 0);
        CHECK_RC(kolo_quiet(p->ca), KOLO_E_REMOTE_DMA);
        CHECK_RC(kolo_atomic(p->ca, KOLO_AMO_FETCH_ADD, 8, NB, (uintptr_t)noaccess, k, 1, 0, &old),
                 KOLO_E_REMOTE_DMA);
        kolo_win_close(p->b, wi);
    }
    munmap(noaccess, 8192);
    /* none of it wrote anything */
    {
        size_t i, bad = 0;
        size_t first = WIN_LEN;
        for (i = 0; i < WIN_LEN; i++)
            if (p->tb.win[i] != 0) {
                bad++;
                if (first == WIN_LEN)
                    first = i;
            }
        CHECK_EQ(bad, 0, "window untouched by refused operations (first at %zu: %#x)", first,
                 first < WIN_LEN ? p->tb.win[first] : 0);
        CHECK(guards_intact(&p->tb), "guards");
        bad = 0;
        for (i = 0; i < WIN_LEN; i++)
            bad += p->tb_ro.win[i] != 0;
        CHECK_EQ(bad, 0, "read-only window untouched");
    }
    /* and the context still works */
    rc = kolo_put(p->ca, NB, RB(p, 0), p->tb.key, src, 100);
    CHECK_RC(rc, 0);
    CHECK_RC(kolo_quiet(p->ca), 0);
    CHECK(!memcmp(p->tb.win, src, 100), "works after errors");
    memset(p->tb.win, 0, 100);
    {
        kolo_ctx_stats s;
        kolo_ctx_get_stats(p->ca, &s);
        CHECK(s.errors >= 15, "errors counted (%llu)", (unsigned long long)s.errors);
    }
}

static void test_nowait_and_wrap(void) {
    pair p;
    uint64_t v = 0;
    kolo_req r[3];
    uint8_t buf[3][8];
    int i, rc, again = 0;
    pair_open(&p, 0, KOLO_CTX_NOWAIT | KOLO_CTX_NO_PIO, 1); /* 2-entry SQ */
    /* the world does not advance while we post: the third request finds the queue full */
    for (i = 0; i < 3; i++) {
        rc = kolo_get_nb(p.ca, NB, RB(&p, 0), p.tb.key, buf[i], 8, &r[i]);
        if (rc == KOLO_E_AGAIN)
            again++;
        else
            CHECK_RC(rc, 0);
    }
    CHECK_EQ(again, 1, "KOLO_E_AGAIN on a full queue");
    CHECK_RC(kolo_wait(p.ca, &r[0]), 0);
    CHECK_RC(kolo_wait(p.ca, &r[1]), 0);
    /* cancel: the completion goes nowhere */
    CHECK_RC(kolo_get_nb(p.ca, NB, RB(&p, 0), p.tb.key, buf[2], 8, &r[2]), 0);
    kolo_req_cancel(p.ca, &r[2]);
    CHECK_RC(kolo_quiet(p.ca), 0);
    CHECK_EQ(r[2].done, 0, "cancelled request not completed");
    pair_close(&p);

    /* more than 2^16 descriptors through a 4-entry queue: index wrap */
    pair_open(&p, 0, KOLO_CTX_NO_PIO, 2);
    for (i = 0; i < 70000; i++) {
        uint64_t x = (uint64_t)i;
        rc = kolo_atomic(p.ca, KOLO_AMO_ADD, 8, NB, RB(&p, 64), p.tb.key, x, 0, NULL);
        if (rc) {
            CHECK_RC(rc, 0);
            break;
        }
    }
    CHECK_RC(kolo_quiet(p.ca), 0);
    memcpy(&v, p.tb.win + 64, 8);
    CHECK_EQ(v, 70000ull * 69999 / 2, "70000 adds through a 4-entry queue");
    {
        kolo_ctx_stats s;
        kolo_ctx_get_stats(p.ca, &s);
        CHECK(s.waits_full > 0, "waited for a full queue");
        CHECK(s.sq_posts >= 70000, "posts counted");
    }
    pair_close(&p);
}

/* non-fetching atomics through PIO (KOLO_CTX_PIO_AMO), and a context without PIO room */
static void test_pio_amo(void) {
    pair p;
    uint64_t v = 0;
    uint32_t v32 = 0;
    kolo_ctx_stats s0, s1;
    int i;
    pair_open(&p, 0, KOLO_CTX_PIO_AMO, 3);
    p.w.no_flow_control = 1; /* like hardware: the library must pace PIO itself */
    kolo_ctx_get_stats(p.ca, &s0);
    for (i = 0; i < 300; i++) {
        CHECK_RC(kolo_atomic(p.ca, KOLO_AMO_ADD, 8, NB, RB(&p, 128), p.tb.key, 2, 0, NULL), 0);
        CHECK_RC(kolo_atomic(p.ca, KOLO_AMO_XOR, 4, NB, RB(&p, 136), p.tb.key, 1u << (i % 32), 0, NULL), 0);
    }
    CHECK_RC(kolo_quiet(p.ca), 0);
    kolo_ctx_get_stats(p.ca, &s1);
    memcpy(&v, p.tb.win + 128, 8);
    memcpy(&v32, p.tb.win + 136, 4);
    CHECK_EQ(v, 600, "300 PIO adds");
    CHECK_EQ(v32, 0xfffff000u, "300 PIO xors (bits 0-11 ten times, 12-31 nine times)");
    CHECK(s1.pio_posts > s0.pio_posts, "atomics went through PIO (%llu of 600)",
          (unsigned long long)(s1.pio_posts - s0.pio_posts));
    {
        uint64_t e;
        CHECK_RC(kolo_dev_read_reg(p.a, KOLO_CSR_ERR_CSR, 4, &e), 0);
        CHECK_EQ(e, 0, "no PIO write dropped");
    }
    /* a fence keeps the next one off the PIO path */
    CHECK_RC(kolo_fence(p.ca), 0);
    CHECK_RC(kolo_atomic(p.ca, KOLO_AMO_ADD, 8, NB, RB(&p, 128), p.tb.key, 1, 0, NULL), 0);
    CHECK_RC(kolo_quiet(p.ca), 0);
    memcpy(&v, p.tb.win + 128, 8);
    CHECK_EQ(v, 601, "fenced add");
    pair_close(&p);
    {
        kolo_ctx_opts o = {-1, 4, 4, 0}; /* CQ == SQ: no room for PIO */
        world w;
        kolo_dev *d;
        kolo_ctx *c;
        uint8_t key, *mem = (uint8_t *)calloc(1, 4096), src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        w_init(&w, 1, 0);
        d = open_dev(&w, 0);
        CHECK_RC(kolo_ctx_open(d, &o, &c), 0);
        CHECK(kolo_win_open(d, -1, mem, 4096, KOLO_WIN_RWA, -1, 0, &key) >= 0, "window");
        CHECK_RC(kolo_put(c, 0, (uintptr_t)mem, key, src, 8), 0); /* to itself: loopback */
        CHECK_RC(kolo_put_pio(c, 0, (uintptr_t)mem + 8, key, src, 8), 0);
        CHECK_RC(kolo_quiet(c), 0);
        CHECK(!memcmp(mem, src, 8) && !memcmp(mem + 8, src, 8), "loopback puts without PIO room");
        kolo_ctx_get_stats(c, &s1);
        CHECK_EQ(s1.pio_posts, 0, "no PIO with CQ == SQ");
        kolo_close(d);
        w_free(&w);
        free(mem);
    }
}

/* A backend that cannot make PIO stores (the vfio backend: BARs uncached, BAR2 writes
 * refused, kolo_dev.no_pio set at its open): small puts, kolo_put_pio and PIO atomics
 * go through the send queue and succeed; nothing is written to BAR2. Before the fix
 * every put of up to KOLO_PIO_MAX bytes on vfio failed with KOLO_E_IO. */
static void test_no_pio_backend(void) {
    kolo_ctx_opts o = {-1, 3, 0, KOLO_CTX_PIO_AMO};
    world w;
    kolo_dev *d;
    kolo_ctx *c;
    kolo_ctx_stats s;
    uint8_t key, *mem = (uint8_t *)calloc(1, 4096), src[KOLO_PIO_MAX];
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < sizeof src; i++)
        src[i] = pattern(i, 9);
    w_init(&w, 1, 0);
    w.refuse_bar2 = 1;
    d = open_dev(&w, 0);
    d->no_pio = 1; /* as kolo_vfio_backend_open sets it */
    CHECK_RC(kolo_ctx_open(d, &o, &c), 0);
    CHECK(kolo_win_open(d, -1, mem, 4096, KOLO_WIN_RWA, -1, 0, &key) >= 0, "window");
    for (i = 1; i <= sizeof src; i++)
        CHECK_RC(kolo_put(c, 0, (uintptr_t)mem + 64 * (i - 1), key, src, i), 0);
    CHECK_RC(kolo_put_pio(c, 0, (uintptr_t)mem + 2560, key, src, 16), 0);
    CHECK_RC(kolo_atomic(c, KOLO_AMO_ADD, 8, 0, (uintptr_t)mem + 3072, key, 5, 0, NULL), 0);
    CHECK_RC(kolo_quiet(c), 0);
    for (i = 1; i <= sizeof src; i++)
        CHECK(!memcmp(mem + 64 * (i - 1), src, i), "put of %u bytes without PIO", i);
    CHECK(!memcmp(mem + 2560, src, 16), "kolo_put_pio without PIO");
    memcpy(&v, mem + 3072, 8);
    CHECK_EQ(v, 5, "atomic without PIO");
    kolo_ctx_get_stats(c, &s);
    CHECK_EQ(s.pio_posts, 0, "no PIO post on a backend without PIO");
    CHECK_EQ(w.bar2_refused, 0, "no BAR2 write tried");
    CHECK_EQ(kolo_dev_alive(d, 1), 1, "the device is not taken for gone");
    kolo_ctx_close(c);
    kolo_close(d);
    w_free(&w);
    free(mem);
}

/* VFIO-like: DMA only to mapped memory */
static void test_iommu(void) {
    pair p;
    uint8_t *priv = (uint8_t *)malloc(8192), *dst = (uint8_t *)malloc(8192);
    void *dma;
    size_t i;
    kolo_req r;
    pair_open(&p, 1, 0, 6);
    for (i = 0; i < 8192; i++)
        priv[i] = pattern(i, 5);
    CHECK_EQ(kolo_mem_dma_ok(p.a, priv, 8192), 0, "malloc memory not mapped");
    CHECK_RC(kolo_put_nb(p.ca, NB, RB(&p, 0), p.tb.key, priv, 1000, &r), KOLO_E_NOTREG);
    CHECK_RC(kolo_get_nb(p.ca, NB, RB(&p, 0), p.tb.key, dst, 1000, &r), KOLO_E_NOTREG);
    /* the blocking forms stage it */
    CHECK_RC(kolo_put(p.ca, NB, RB(&p, 0), p.tb.key, priv, 8192), 0);
    CHECK_RC(kolo_quiet(p.ca), 0);
    CHECK(!memcmp(p.tb.win, priv, 8192), "staged put");
    memset(dst, 0, 8192);
    CHECK_RC(kolo_get(p.ca, NB, RB(&p, 0), p.tb.key, dst, 8192), 0);
    CHECK(!memcmp(dst, priv, 8192), "staged get");
    /* registered memory goes direct */
    CHECK_RC(kolo_mem_register(p.a, dst, 8192), 0);
    CHECK_EQ(kolo_mem_dma_ok(p.a, dst + 100, 100), 1, "registered");
    CHECK_EQ(kolo_mem_dma_ok(p.a, dst + 8000, 193), 0, "past the end");
    memset(dst, 0, 8192);
    CHECK_RC(kolo_get_nb(p.ca, NB, RB(&p, 0), p.tb.key, dst, 8192, &r), 0);
    CHECK_RC(kolo_wait(p.ca, &r), 0);
    CHECK(!memcmp(dst, priv, 8192), "direct get to registered memory");
    CHECK_RC(kolo_mem_unregister(p.a, dst), 0);
    CHECK_RC(kolo_mem_unregister(p.a, dst), KOLO_E_NOTREG);
    CHECK_RC(kolo_mem_register(p.a, NULL, 8), KOLO_E_INVAL);
    CHECK_RC(kolo_mem_register(p.a, dst, 0), KOLO_E_LEN);
    p.w.map_fail = 1;
    CHECK_RC(kolo_mem_register(p.a, dst, 64), KOLO_E_IO);
    /* DMA memory */
    dma = kolo_dma_alloc(p.a, 10000);
    CHECK(dma != NULL, "dma_alloc");
    CHECK_EQ(kolo_mem_dma_ok(p.a, dma, 10000), 1, "dma_alloc memory is mapped");
    CHECK(kolo_dma_alloc(p.a, 0) == NULL, "zero-length dma_alloc");
    CHECK_RC(kolo_get(p.ca, NB, RB(&p, 0), p.tb.key, dma, 4000), 0);
    CHECK(!memcmp(dma, priv, 4000), "get into dma_alloc memory");
    kolo_dma_free(p.a, dma);
    CHECK_EQ(kolo_mem_dma_ok(p.a, dma, 1), 0, "freed");
    pair_close(&p);
    free(priv);
    free(dst);
}

/* random mix between the two NIs, both directions, checked against shadows */
static void test_random(unsigned rounds) {
    pair p;
    uint8_t *shadow_b = (uint8_t *)calloc(1, WIN_LEN), *shadow_a = (uint8_t *)calloc(1, WIN_LEN);
    uint8_t *buf = (uint8_t *)malloc(WIN_LEN);
    unsigned r;
    pair_open(&p, 0, 0, 4);
    for (r = 0; r < rounds; r++) {
        int from_a = test_rand(2);
        kolo_ctx *c = from_a ? p.ca : p.cb;
        target_win *t = from_a ? &p.tb : &p.ta;
        uint8_t *sh = from_a ? shadow_b : shadow_a;
        uint16_t node = from_a ? 1 : 0;
        unsigned kind = test_rand(10);
        size_t len = test_rand(5) == 0 ? 1 + test_rand(3000) : 1 + test_rand(64);
        size_t off = test_rand((unsigned)(WIN_LEN - len));
        size_t i;
        if (kind < 4) { /* put: blocking or nb, then quiet now and then */
            for (i = 0; i < len; i++)
                buf[i] = (uint8_t)test_rand64();
            memcpy(sh + off, buf, len);
            if (kind == 0) {
                kolo_req rq;
                CHECK_RC(kolo_put_nb(c, node, (uintptr_t)t->win + off, t->key, buf, len, &rq), 0);
                CHECK_RC(kolo_wait(c, &rq), 0);
            } else {
                CHECK_RC(kolo_put(c, node, (uintptr_t)t->win + off, t->key, buf, len), 0);
            }
            CHECK_RC(kolo_quiet(c), 0); /* puts to overlapping ranges need ordering */
        } else if (kind < 7) {
            memset(buf, 0, len);
            CHECK_RC(kolo_get(c, node, (uintptr_t)t->win + off, t->key, buf, len), 0);
            CHECK(!memcmp(buf, sh + off, len), "random get %u (%zu bytes at %zu)", r, len, off);
        } else {
            unsigned size = test_rand(2) ? 8 : 4;
            int op = KOLO_AMO_ADD + (int)test_rand(10);
            uint64_t v = test_rand64(), cmp = test_rand64(), old = 0, cur = 0, mask;
            off &= ~(size_t)(size - 1);
            mask = size == 4 ? 0xffffffffull : ~0ull;
            memcpy(&cur, sh + off, size);
            if (test_rand(2))
                cmp = cur;
            CHECK_RC(kolo_atomic(c, op, size, node, (uintptr_t)t->win + off, t->key, v, cmp, &old), 0);
            if (kolo_amo_fetches(op))
                CHECK(old == cur, "random atomic %u op %d: old %#llx want %#llx", r, op,
                      (unsigned long long)old, (unsigned long long)cur);
            cur = amo_ref(op, cur, v, cmp, mask);
            memcpy(sh + off, &cur, size);
            if (!kolo_amo_fetches(op))
                CHECK_RC(kolo_quiet(c), 0);
        }
        if (test_failures > 20)
            break;
    }
    CHECK_RC(kolo_quiet(p.ca), 0);
    CHECK_RC(kolo_quiet(p.cb), 0);
    CHECK(!memcmp(p.tb.win, shadow_b, WIN_LEN), "B's window matches the shadow");
    CHECK(!memcmp(p.ta.win, shadow_a, WIN_LEN), "A's window matches the shadow");
    CHECK(guards_intact(&p.tb) && guards_intact(&p.ta), "guards");
    CHECK(w_idle(&p.w), "NIs idle after quiet");
    pair_close(&p);
    free(shadow_a);
    free(shadow_b);
    free(buf);
}

int main(int argc, char **argv) {
    pair p;
    test_seed(argc, argv, "test_libkolo");
    setenv("KOLO_WAIT_TIMEOUT", "30", 0); /* a lost completion fails, it does not hang */
    test_errors();
    test_bdf();
    test_open_errors();
    test_open_backend();
    test_ctx_and_windows();
    pair_open(&p, 0, 0, 0);
    test_args(&p);
    test_puts_gets(&p);
    test_atomics(&p);
    test_signal(&p);
    test_remote_errors(&p);
    {
        uint64_t e;
        CHECK_RC(kolo_dev_read_reg(p.a, KOLO_CSR_ERR_CSR, 4, &e), 0);
        CHECK_EQ(e, 0, "no refused CSR writes by the library");
    }
    pair_close(&p);
    test_nowait_and_wrap();
    test_pio_amo();
    test_no_pio_backend();
    test_iommu();
    test_random(3000);
    return test_finish("test_libkolo");
}
