/* kolo_vfio_sysfs.c - the host-side pieces a kolo card needs before VFIO can
 * open it (IOMMU group, vfio-pci binding, device nodes, locked-memory limit,
 * huge pages), read from sysfs/devfs under a root prefix, and the binding of
 * the card to vfio-pci. See kolo_vfio.h. */
#define _GNU_SOURCE
#include "kolo_internal.h"
#include "kolo_vfio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *nz(const char *root) { return root ? root : ""; }

/* the last path component of a symlink's target ("" if not a link) */
static void link_base(const char *path, char *out, size_t len) {
    char buf[PATH_MAX];
    ssize_t n = readlink(path, buf, sizeof buf - 1);
    const char *b;
    out[0] = 0;
    if (n <= 0)
        return;
    buf[n] = 0;
    b = strrchr(buf, '/');
    b = b ? b + 1 : buf;
    n = (ssize_t)strlen(b);
    if ((size_t)n >= len)
        n = (ssize_t)len - 1; /* a name longer than the field: cut (never matches a driver) */
    memcpy(out, b, (size_t)n);
    out[n] = 0;
}

static unsigned read_hex(const char *path) {
    FILE *f = fopen(path, "r");
    unsigned v = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%x", &v) != 1)
        v = 0;
    fclose(f);
    return v;
}

static long read_long(const char *path) {
    FILE *f = fopen(path, "r");
    long v = -1;
    if (!f)
        return -1;
    if (fscanf(f, "%ld", &v) != 1)
        v = -1;
    fclose(f);
    return v;
}

static int exists(const char *path) {
    struct stat s;
    return stat(path, &s) == 0;
}

/* write a string to a sysfs attribute (one write, as the kernel wants) */
static int write_attr(const char *path, const char *s) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    ssize_t n;
    size_t len = strlen(s);
    if (fd < 0)
        return -1;
    n = write(fd, s, len);
    close(fd);
    return n == (ssize_t)len ? 0 : -1;
}

int kolo_vfio_inspect(const char *root, const char *bdf_in, kolo_vfio_state *st) {
    char p[PATH_MAX], g[32];
    struct rlimit rl;
    DIR *dir;
    struct dirent *e;
    root = nz(root);
    memset(st, 0, sizeof *st);
    st->group = -1;
    st->hugepages_free = st->hugepages_total = -1;
    if (kolo_parse_bdf(bdf_in, st->bdf))
        return KOLO_VFIO_BAD_ADDRESS;
    if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0)
        st->memlock = rl.rlim_cur == RLIM_INFINITY ? ~0ull : (unsigned long long)rl.rlim_cur;
    snprintf(p, sizeof p, "%s/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages", root);
    st->hugepages_free = read_long(p);
    snprintf(p, sizeof p, "%s/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages", root);
    st->hugepages_total = read_long(p);

    snprintf(p, sizeof p, "%s/sys/bus/pci/devices/%s", root, st->bdf);
    if (!exists(p))
        return KOLO_VFIO_NO_DEVICE;
    snprintf(p, sizeof p, "%s/sys/bus/pci/devices/%s/vendor", root, st->bdf);
    st->vendor = read_hex(p);
    snprintf(p, sizeof p, "%s/sys/bus/pci/devices/%s/device", root, st->bdf);
    st->device = read_hex(p);
    snprintf(p, sizeof p, "%s/sys/bus/pci/devices/%s/driver", root, st->bdf);
    link_base(p, st->driver, sizeof st->driver);
    snprintf(p, sizeof p, "%s/sys/bus/pci/devices/%s/iommu_group", root, st->bdf);
    link_base(p, g, sizeof g);
    if (g[0] && strlen(g) < 10 && strspn(g, "0123456789") == strlen(g))
        st->group = atoi(g);
    if (st->group < 0)
        return KOLO_VFIO_OK;
    snprintf(p, sizeof p, "%s/sys/kernel/iommu_groups/%d/devices", root, st->group);
    dir = opendir(p);
    if (!dir)
        return KOLO_VFIO_OK;
    while ((e = readdir(dir)) != NULL) {
        char q[PATH_MAX], drv[64];
        if (e->d_name[0] == '.')
            continue;
        st->group_devices++;
        if (!strcmp(e->d_name, st->bdf))
            continue;
        snprintf(q, sizeof q, "%s/sys/bus/pci/devices/%s/driver", root, e->d_name);
        link_base(q, drv, sizeof drv);
        /* a member is fine on vfio-pci, on no driver, or a bridge on pcieport */
        if (drv[0] && strcmp(drv, "vfio-pci") && strcmp(drv, "pcieport") && !st->blocker[0]) {
            snprintf(st->blocker, sizeof st->blocker, "%.15s", e->d_name);
            snprintf(st->blocker_driver, sizeof st->blocker_driver, "%s", drv);
        }
    }
    closedir(dir);
    return KOLO_VFIO_OK;
}

const char *kolo_vfio_strerror(int code) {
    switch (code) {
    case KOLO_VFIO_OK:
        return "ready";
    case KOLO_VFIO_BAD_ADDRESS:
        return "not a PCI address";
    case KOLO_VFIO_NO_DEVICE:
        return "no such PCI device";
    case KOLO_VFIO_NO_IOMMU:
        return "no IOMMU group";
    case KOLO_VFIO_NO_VFIO:
        return "vfio-pci not loaded";
    case KOLO_VFIO_NOT_BOUND:
        return "not bound to vfio-pci";
    case KOLO_VFIO_GROUP:
        return "IOMMU group not viable";
    case KOLO_VFIO_NO_DEVNODE:
        return "no VFIO device node";
    case KOLO_VFIO_NO_ACCESS:
        return "no access to the VFIO group";
    case KOLO_VFIO_MEMLOCK:
        return "locked-memory limit too low";
    case KOLO_VFIO_HUGEPAGES:
        return "no free huge pages";
    case KOLO_VFIO_IO:
        return "sysfs write failed";
    default:
        return "unknown";
    }
}

int kolo_vfio_check(const char *root, const char *bdf, unsigned flags,
                    unsigned long long need_memlock, char *err, size_t errlen) {
    kolo_vfio_state st;
    char p[PATH_MAX];
    int rc, fd;
    root = nz(root);
    rc = kolo_vfio_inspect(root, bdf, &st);
    if (rc == KOLO_VFIO_BAD_ADDRESS) {
        kolo_set_err(err, errlen, "\"%s\" is not a PCI address (want dddd:bb:dd.f or bb:dd.f)",
                     bdf ? bdf : "(null)");
        return rc;
    }
    if (rc == KOLO_VFIO_NO_DEVICE) {
        kolo_set_err(err, errlen,
                     "%s: no such device (%s/sys/bus/pci/devices/%s; is the card in a slot, "
                     "configured, and was the host rebooted or the bus rescanned after "
                     "programming it? lspci -d ::0200 / echo 1 > /sys/bus/pci/rescan)",
                     st.bdf, root, st.bdf);
        return rc;
    }
    if (st.group < 0) {
        kolo_set_err(err, errlen,
                     "%s: no iommu_group: the IOMMU is off or absent (enable VT-d/AMD-Vi in "
                     "the firmware and boot with intel_iommu=on or amd_iommu=on iommu=pt)",
                     st.bdf);
        return KOLO_VFIO_NO_IOMMU;
    }
    snprintf(p, sizeof p, "%s/sys/bus/pci/drivers/vfio-pci", root);
    if (!exists(p)) {
        kolo_set_err(err, errlen, "%s: the vfio-pci driver is not loaded (modprobe vfio-pci)",
                     st.bdf);
        return KOLO_VFIO_NO_VFIO;
    }
    if (strcmp(st.driver, "vfio-pci")) {
        if (st.driver[0])
            kolo_set_err(err, errlen,
                         "%s: bound to %s, not vfio-pci (kolo-bind %s binds it; docs/boards.md)",
                         st.bdf, st.driver, st.bdf);
        else
            kolo_set_err(err, errlen,
                         "%s: bound to no driver, not vfio-pci (kolo-bind %s binds it; "
                         "docs/boards.md)",
                         st.bdf, st.bdf);
        return KOLO_VFIO_NOT_BOUND;
    }
    if (st.blocker[0]) {
        kolo_set_err(err, errlen,
                     "%s: IOMMU group %d is not viable: %s in the same group is bound to %s "
                     "(bind it to vfio-pci too, kolo-bind %s, or put the card in a slot with "
                     "a group of its own)",
                     st.bdf, st.group, st.blocker, st.blocker_driver, st.blocker);
        return KOLO_VFIO_GROUP;
    }
    snprintf(p, sizeof p, "%s/dev/vfio/vfio", root);
    if (!exists(p)) {
        kolo_set_err(err, errlen,
                     "%s: %s is missing (is the vfio module loaded? modprobe vfio-pci)", st.bdf, p);
        return KOLO_VFIO_NO_DEVNODE;
    }
    snprintf(p, sizeof p, "%s/dev/vfio/%d", root, st.group);
    if (!exists(p)) {
        kolo_set_err(err, errlen, "%s: %s is missing (vfio-pci did not create the group's node)",
                     st.bdf, p);
        return KOLO_VFIO_NO_DEVNODE;
    }
    fd = open(p, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        kolo_set_err(err, errlen,
                     "%s: cannot open %s: %s (run as root, or give your user the node: "
                     "chown $USER %s, or a udev rule; docs/boards.md)",
                     st.bdf, p, strerror(errno), p);
        return KOLO_VFIO_NO_ACCESS;
    }
    close(fd);
    if (need_memlock && st.memlock < need_memlock) {
        kolo_set_err(err, errlen,
                     "%s: the locked-memory limit is %llu KB, %llu KB of DMA memory will be "
                     "pinned (ulimit -l unlimited, or memlock in /etc/security/limits.conf)",
                     st.bdf, st.memlock / 1024, need_memlock / 1024);
        return KOLO_VFIO_MEMLOCK;
    }
    if ((flags & KOLO_VFIO_NEED_HUGEPAGES) && st.hugepages_free <= 0) {
        kolo_set_err(err, errlen,
                     "%s: no free 2 MB huge pages (%ld reserved; reserve some: echo 512 > "
                     "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)",
                     st.bdf, st.hugepages_total < 0 ? 0 : st.hugepages_total);
        return KOLO_VFIO_HUGEPAGES;
    }
    return KOLO_VFIO_OK;
}

int kolo_vfio_bind(const char *root, const char *bdf, char *err, size_t errlen) {
    kolo_vfio_state st;
    char p[PATH_MAX];
    int rc;
    root = nz(root);
    rc = kolo_vfio_check(root, bdf, 0, 0, err, errlen);
    /* past NOT_BOUND (or ready): on vfio-pci already; the rest is not binding's job */
    if (rc == KOLO_VFIO_OK || rc == KOLO_VFIO_GROUP || rc == KOLO_VFIO_NO_DEVNODE ||
        rc == KOLO_VFIO_NO_ACCESS || rc == KOLO_VFIO_MEMLOCK || rc == KOLO_VFIO_HUGEPAGES)
        return 0;
    if (rc != KOLO_VFIO_NOT_BOUND)
        return rc;
    kolo_vfio_inspect(root, bdf, &st);
    snprintf(p, sizeof p, "%s/sys/bus/pci/devices/%s/driver_override", root, st.bdf);
    if (write_attr(p, "vfio-pci")) {
        kolo_set_err(err, errlen, "%s: writing %s: %s (run as root)", st.bdf, p, strerror(errno));
        return KOLO_VFIO_IO;
    }
    if (st.driver[0]) {
        snprintf(p, sizeof p, "%s/sys/bus/pci/devices/%s/driver/unbind", root, st.bdf);
        if (write_attr(p, st.bdf)) {
            kolo_set_err(err, errlen, "%s: unbinding from %s (%s): %s", st.bdf, st.driver, p,
                         strerror(errno));
            return KOLO_VFIO_IO;
        }
    }
    snprintf(p, sizeof p, "%s/sys/bus/pci/drivers_probe", root);
    if (write_attr(p, st.bdf)) {
        kolo_set_err(err, errlen, "%s: %s: %s", st.bdf, p, strerror(errno));
        return KOLO_VFIO_IO;
    }
    /* the kernel probes within the write; give a slow one (or a test's
     * fake kernel) up to 2 s to show the new driver */
    for (int i = 0; i < 200; i++) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        kolo_vfio_inspect(root, bdf, &st);
        if (!strcmp(st.driver, "vfio-pci"))
            return 0;
        nanosleep(&ts, NULL);
    }
    kolo_set_err(err, errlen,
                 "%s: still %s%s after drivers_probe with driver_override vfio-pci (see dmesg)",
                 st.bdf, st.driver[0] ? "on " : "on no driver", st.driver);
    return KOLO_VFIO_IO;
}
