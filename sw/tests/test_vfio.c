/* test_vfio.c - the host-side checks of kolo_vfio.h and libkolo's "vfio:"
 * backend on fake sysfs/dev trees: a tree is built up one piece at a time,
 * and each step must give exactly the next missing piece (its code, and a
 * message naming it and its fix), until the tree is complete. Then the
 * binding (driver_override, unbind, drivers_probe written as the kernel
 * wants; a kernel that does not bind is reported), group viability with bridges and foreign
 * drivers, the memlock and huge-page checks, and the backend's own first error for each piece.
 * Usage: test_vfio (no arguments). */
#define _GNU_SOURCE
#include "kolo.h"
#include "kolo_vfio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static int fails, checks;
#define CHECK(c, ...)                                                                              \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(c)) {                                                                                \
            fails++;                                                                               \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static char root[64];

static void mkpath(const char *fmt, ...) {
    char p[512], cmd[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p, sizeof p, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", p);
    if (system(cmd))
        fprintf(stderr, "mkdir -p %s failed\n", p);
}

static void put(const char *rel, const char *text) {
    char p[512];
    FILE *f;
    snprintf(p, sizeof p, "%s/%s", root, rel);
    f = fopen(p, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", p);
        return;
    }
    fputs(text, f);
    fclose(f);
}

static void get(const char *rel, char *out, size_t len) {
    char p[512];
    FILE *f;
    size_t n;
    snprintf(p, sizeof p, "%s/%s", root, rel);
    out[0] = 0;
    f = fopen(p, "r");
    if (!f)
        return;
    n = fread(out, 1, len - 1, f);
    out[n] = 0;
    fclose(f);
}

static void link_to(const char *target, const char *rel) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    unlink(p);
    if (symlink(target, p))
        fprintf(stderr, "symlink %s: %s\n", p, strerror(errno));
}

/* a PCI device of the fake tree, in IOMMU group g (-1: no group), on drv ("" none) */
static void device(const char *bdf, int g, const char *drv, const char *vendor) {
    char rel[256], tgt[256];
    mkpath("%s/sys/bus/pci/devices/%s", root, bdf);
    snprintf(rel, sizeof rel, "sys/bus/pci/devices/%s/vendor", bdf);
    put(rel, vendor);
    snprintf(rel, sizeof rel, "sys/bus/pci/devices/%s/device", bdf);
    put(rel, "0x7028\n");
    snprintf(rel, sizeof rel, "sys/bus/pci/devices/%s/driver_override", bdf);
    put(rel, "(null)\n");
    if (g >= 0) {
        mkpath("%s/sys/kernel/iommu_groups/%d/devices", root, g);
        snprintf(rel, sizeof rel, "sys/bus/pci/devices/%s/iommu_group", bdf);
        snprintf(tgt, sizeof tgt, "../../../../kernel/iommu_groups/%d", g);
        link_to(tgt, rel);
        snprintf(rel, sizeof rel, "sys/kernel/iommu_groups/%d/devices/%s", g, bdf);
        snprintf(tgt, sizeof tgt, "../../../../bus/pci/devices/%s", bdf);
        link_to(tgt, rel);
    }
    if (drv[0]) {
        mkpath("%s/sys/bus/pci/drivers/%s", root, drv);
        snprintf(rel, sizeof rel, "sys/bus/pci/drivers/%s/unbind", drv);
        put(rel, "");
        snprintf(rel, sizeof rel, "sys/bus/pci/devices/%s/driver", bdf);
        snprintf(tgt, sizeof tgt, "../../../../bus/pci/drivers/%s", drv);
        link_to(tgt, rel);
    }
}

static int expect(const char *bdf, int want, const char *needle, const char *what) {
    char err[512];
    int rc = kolo_vfio_check(root, bdf, 0, 0, err, sizeof err);
    CHECK(rc == want, "%s: code %d (%s), want %d (%s): %s", what, rc, kolo_vfio_strerror(rc), want,
          kolo_vfio_strerror(want), err);
    if (want != KOLO_VFIO_OK)
        CHECK(strstr(err, needle) != NULL, "%s: message lacks \"%s\": %s", what, needle, err);
    return rc;
}

/* the backend names the same first missing piece */
static void expect_open(const char *bdf, const char *needle, const char *what) {
    char dev[64], err[512];
    kolo_dev *d = NULL;
    int rc;
    snprintf(dev, sizeof dev, "vfio:%s", bdf);
    setenv("KOLO_VFIO_ROOT", root, 1);
    rc = kolo_open(dev, &d, err, sizeof err);
    unsetenv("KOLO_VFIO_ROOT");
    CHECK(rc < 0 && d == NULL, "%s: kolo_open succeeded", what);
    CHECK(strstr(err, needle) != NULL, "%s: kolo_open message lacks \"%s\": %s", what, needle, err);
}

static void fresh_root(void) {
    char cmd[128];
    if (root[0]) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
        if (system(cmd))
            fprintf(stderr, "cannot remove %s\n", root);
    }
    snprintf(root, sizeof root, "/tmp/kolo-vfio-fake.XXXXXX");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        exit(1);
    }
}

static void test_pieces(void) {
    const char *bdf = "0000:03:00.0";
    char err[512];
    fresh_root();
    CHECK(kolo_vfio_check(root, "03:00", 0, 0, err, sizeof err) == KOLO_VFIO_BAD_ADDRESS,
          "bad address: %s", err);
    expect(bdf, KOLO_VFIO_NO_DEVICE, "no such device", "empty tree");
    expect_open(bdf, "no such device", "empty tree");
    device(bdf, -1, "xdma", "0x10ee\n");
    expect(bdf, KOLO_VFIO_NO_IOMMU, "intel_iommu=on", "no IOMMU group");
    expect_open(bdf, "iommu_group", "no IOMMU group");
    device(bdf, 17, "xdma", "0x10ee\n");
    expect(bdf, KOLO_VFIO_NO_VFIO, "modprobe vfio-pci", "vfio-pci not loaded");
    expect_open(bdf, "modprobe vfio-pci", "vfio-pci not loaded");
    mkpath("%s/sys/bus/pci/drivers/vfio-pci", root);
    expect(bdf, KOLO_VFIO_NOT_BOUND, "bound to xdma", "on another driver");
    expect_open(bdf, "kolo-bind", "on another driver");
    device(bdf, 17, "vfio-pci", "0x10ee\n");
    /* the group: a bridge on pcieport is fine, a NIC on its driver is not */
    device("0000:00:01.0", 17, "pcieport", "0x8086\n");
    device("0000:03:00.1", 17, "ixgbe", "0x8086\n");
    expect(bdf, KOLO_VFIO_GROUP, "0000:03:00.1 in the same group is bound to ixgbe",
           "group with a foreign driver");
    expect_open(bdf, "not viable", "group with a foreign driver");
    device("0000:03:00.1", 17, "vfio-pci", "0x8086\n");
    expect(bdf, KOLO_VFIO_NO_DEVNODE, "/dev/vfio/vfio is missing", "no /dev/vfio/vfio");
    mkpath("%s/dev/vfio", root);
    put("dev/vfio/vfio", "");
    expect(bdf, KOLO_VFIO_NO_DEVNODE, "/dev/vfio/17 is missing", "no group node");
    mkpath("%s/dev/vfio/17", root); /* a directory: cannot be opened read-write, even by root */
    expect(bdf, KOLO_VFIO_NO_ACCESS, "cannot open", "group node not openable");
    expect_open(bdf, "cannot open", "group node not openable");
    rmdir(strcat(strcpy(err, root), "/dev/vfio/17"));
    put("dev/vfio/17", "");
    expect(bdf, KOLO_VFIO_OK, "", "complete tree");
    /* a short form of the address names the same card */
    expect("03:00.0", KOLO_VFIO_OK, "", "short address");
    /* the complete fake tree gets as far as the container, which is a plain file */
    expect_open(bdf, "not a VFIO container", "complete fake tree");

    /* memlock: a limit below the bytes asked for */
    {
        struct rlimit old, low;
        int rc;
        getrlimit(RLIMIT_MEMLOCK, &old);
        low = old;
        low.rlim_cur = 64 * 1024;
        if (low.rlim_max != RLIM_INFINITY && low.rlim_max < low.rlim_cur)
            low.rlim_cur = low.rlim_max;
        CHECK(setrlimit(RLIMIT_MEMLOCK, &low) == 0, "setrlimit: %s", strerror(errno));
        rc = kolo_vfio_check(root, bdf, 0, 1ull << 30, err, sizeof err);
        CHECK(rc == KOLO_VFIO_MEMLOCK && strstr(err, "ulimit -l"), "memlock: %d %s", rc, err);
        rc = kolo_vfio_check(root, bdf, 0, 4096, err, sizeof err);
        CHECK(rc == KOLO_VFIO_OK, "memlock within the limit: %d %s", rc, err);
        setrlimit(RLIMIT_MEMLOCK, &old);
    }
    /* huge pages: a note unless asked for */
    {
        kolo_vfio_state st;
        int rc = kolo_vfio_check(root, bdf, KOLO_VFIO_NEED_HUGEPAGES, 0, err, sizeof err);
        CHECK(rc == KOLO_VFIO_HUGEPAGES && strstr(err, "nr_hugepages"), "no hugepages: %d %s", rc,
              err);
        mkpath("%s/sys/kernel/mm/hugepages/hugepages-2048kB", root);
        put("sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages", "512\n");
        put("sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages", "0\n");
        rc = kolo_vfio_check(root, bdf, KOLO_VFIO_NEED_HUGEPAGES, 0, err, sizeof err);
        CHECK(rc == KOLO_VFIO_HUGEPAGES && strstr(err, "512 reserved"), "all taken: %d %s", rc,
              err);
        put("sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages", "100\n");
        rc = kolo_vfio_check(root, bdf, KOLO_VFIO_NEED_HUGEPAGES, 0, err, sizeof err);
        CHECK(rc == KOLO_VFIO_OK, "free hugepages: %d %s", rc, err);
        CHECK(kolo_vfio_inspect(root, bdf, &st) == KOLO_VFIO_OK && st.hugepages_free == 100 &&
                  st.hugepages_total == 512 && st.group == 17 && st.group_devices == 3 &&
                  st.vendor == 0x10ee && st.device == 0x7028 && !strcmp(st.driver, "vfio-pci"),
              "inspect: group %d (%d devices) %04x:%04x %s", st.group, st.group_devices, st.vendor,
              st.device, st.driver);
    }
}

static void test_bind(void) {
    const char *bdf = "0000:05:00.0";
    char err[512], buf[64];
    int rc;
    fresh_root();
    device(bdf, 3, "xdma", "0x10ee\n");
    put("sys/bus/pci/drivers_probe", "");
    /* no vfio-pci: binding cannot help, and writes nothing */
    rc = kolo_vfio_bind(root, bdf, err, sizeof err);
    CHECK(rc == KOLO_VFIO_NO_VFIO, "bind without vfio-pci: %d %s", rc, err);
    get("sys/bus/pci/devices/0000:05:00.0/driver_override", buf, sizeof buf);
    CHECK(!strcmp(buf, "(null)\n"), "nothing written: %s", buf);
    mkpath("%s/sys/bus/pci/drivers/vfio-pci", root);
    /* no kernel behind this tree: the writes happen, the driver never
     * changes, and bind says so after its wait (test_kolo_bind.sh has a
     * fake kernel that binds) */
    rc = kolo_vfio_bind(root, "05:00.0", err, sizeof err);
    CHECK(rc == KOLO_VFIO_IO && strstr(err, "still on xdma after drivers_probe"), "bind: %d %s", rc,
          err);
    get("sys/bus/pci/devices/0000:05:00.0/driver_override", buf, sizeof buf);
    CHECK(!strcmp(buf, "vfio-pci"), "driver_override: \"%s\"", buf);
    get("sys/bus/pci/drivers/xdma/unbind", buf, sizeof buf);
    CHECK(!strcmp(buf, bdf), "unbind: \"%s\"", buf);
    get("sys/bus/pci/drivers_probe", buf, sizeof buf);
    CHECK(!strcmp(buf, bdf), "drivers_probe: \"%s\"", buf);
    /* the kernel binds it; a second bind writes nothing */
    device(bdf, 3, "vfio-pci", "0x10ee\n");
    put("sys/bus/pci/drivers_probe", "");
    rc = kolo_vfio_bind(root, bdf, err, sizeof err);
    CHECK(rc == 0, "bind when bound: %d %s", rc, err);
    get("sys/bus/pci/drivers_probe", buf, sizeof buf);
    CHECK(buf[0] == 0, "bound already, nothing probed: \"%s\"", buf);
    /* an unbound card: no unbind, still probed */
    device("0000:06:00.0", 4, "", "0x1172\n");
    rc = kolo_vfio_bind(root, "0000:06:00.0", err, sizeof err);
    CHECK(rc == KOLO_VFIO_IO && strstr(err, "still on no driver"), "bind unbound: %d %s", rc, err);
    get("sys/bus/pci/drivers_probe", buf, sizeof buf);
    CHECK(!strcmp(buf, "0000:06:00.0"), "probed: \"%s\"", buf);
    /* a write that fails (driver_override not writable: a directory) */
    fresh_root();
    device(bdf, 3, "xdma", "0x10ee\n");
    mkpath("%s/sys/bus/pci/drivers/vfio-pci", root);
    snprintf(buf, sizeof buf, "%s", "x");
    {
        char p[512];
        snprintf(p, sizeof p, "%s/sys/bus/pci/devices/%s/driver_override", root, bdf);
        unlink(p);
        mkpath("%s", p);
    }
    rc = kolo_vfio_bind(root, bdf, err, sizeof err);
    CHECK(rc == KOLO_VFIO_IO && strstr(err, "driver_override"), "failed write: %d %s", rc, err);
}

int main(void) {
    test_pieces();
    test_bind();
    {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
        if (system(cmd))
            fprintf(stderr, "cannot remove %s\n", root);
    }
    printf("test_vfio: %d checks, %d failed\n", checks, fails);
    return fails ? 1 : 0;
}
