/* kolo_backend_vfio.c - libkolo backend "vfio:<bdf>": a kolo board bound to
 * vfio-pci. Opens the container and the device's IOMMU group, maps BAR0 and
 * BAR2 with mmap, enables bus mastering, and maps DMA memory with
 * VFIO_IOMMU_MAP_DMA at iova = virtual address (so a device address is a
 * virtual address, as in the simulator).
 *
 * PIO (BAR2) needs 64-byte writes that reach the device as one TLP, which
 * takes a write-combining mapping; VFIO maps BARs uncached, so this backend
 * refuses 64-byte writes and libkolo contexts on it never use PIO.
 *
 * Before it opens anything, kolo_vfio_check (kolo_vfio_sysfs.c) looks at
 * the host's side piece by piece (IOMMU group, vfio-pci loaded and bound,
 * the group viable, the device nodes, access), so the first error names the
 * missing piece and its fix (the same checks as the kolo-bind tool).
 *
 * For tests, env KOLO_VFIO_ROOT prefixes every path (/sys..., /dev/vfio...).
 */
#define _GNU_SOURCE
#include "kolo_internal.h"
#include "kolo_vfio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef __linux__
#include <linux/vfio.h>
#define KOLO_HAVE_VFIO 1
#endif

#ifdef KOLO_HAVE_VFIO
typedef struct {
    int container, group, device;
    volatile uint8_t *bar0, *bar2;
    size_t bar0_len, bar2_len;
} vfio_dev;

static int vfio_write(void *u, int bar, uint64_t off, const void *data, unsigned size) {
    vfio_dev *v = (vfio_dev *)u;
    if (bar != 0 || (size != 4 && size != 8) || (off & (size - 1)) || off + size > v->bar0_len)
        return -1; /* BAR2 PIO needs a write-combining mapping (see above) */
    if (size == 4) {
        uint32_t x;
        memcpy(&x, data, 4);
        *(volatile uint32_t *)(v->bar0 + off) = x;
    } else {
        uint64_t x;
        memcpy(&x, data, 8);
        *(volatile uint64_t *)(v->bar0 + off) = x;
    }
    return 0;
}

static int vfio_read(void *u, int bar, uint64_t off, unsigned size, uint64_t *val) {
    vfio_dev *v = (vfio_dev *)u;
    if (bar != 0 || (size != 4 && size != 8) || (off & (size - 1)) || off + size > v->bar0_len)
        return -1;
    *val = size == 4 ? *(volatile uint32_t *)(v->bar0 + off) : *(volatile uint64_t *)(v->bar0 + off);
    /* a read of all ones is how PCIe reports an error completion */
    return (size == 4 && *val == 0xffffffffu) || (size == 8 && *val == ~0ull) ? -1 : 0;
}

static int vfio_map(void *u, void *addr, size_t len) {
    vfio_dev *v = (vfio_dev *)u;
    struct vfio_iommu_type1_dma_map m;
    memset(&m, 0, sizeof m);
    m.argsz = sizeof m;
    m.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE;
    m.vaddr = (uint64_t)(uintptr_t)addr;
    m.iova = (uint64_t)(uintptr_t)addr;
    m.size = len;
    return ioctl(v->container, VFIO_IOMMU_MAP_DMA, &m) ? -1 : 0;
}

static int vfio_unmap(void *u, void *addr, size_t len) {
    vfio_dev *v = (vfio_dev *)u;
    struct vfio_iommu_type1_dma_unmap m;
    memset(&m, 0, sizeof m);
    m.argsz = sizeof m;
    m.iova = (uint64_t)(uintptr_t)addr;
    m.size = len;
    return ioctl(v->container, VFIO_IOMMU_UNMAP_DMA, &m) ? -1 : 0;
}

static void vfio_close(void *u) {
    vfio_dev *v = (vfio_dev *)u;
    if (!v)
        return;
    if (v->bar0)
        munmap((void *)v->bar0, v->bar0_len);
    if (v->bar2)
        munmap((void *)v->bar2, v->bar2_len);
    if (v->device >= 0)
        close(v->device);
    if (v->group >= 0)
        close(v->group);
    if (v->container >= 0)
        close(v->container);
    free(v);
}

static int map_bar(vfio_dev *v, unsigned index, size_t need, volatile uint8_t **p, size_t *len,
                   char *err, size_t errlen) {
    struct vfio_region_info ri;
    void *m;
    memset(&ri, 0, sizeof ri);
    ri.argsz = sizeof ri;
    ri.index = index;
    if (ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &ri)) {
        kolo_set_err(err, errlen, "kolo vfio: region info of BAR%u: %s", index, strerror(errno));
        return KOLO_E_IO;
    }
    if (ri.size < need || !(ri.flags & VFIO_REGION_INFO_FLAG_MMAP)) {
        kolo_set_err(err, errlen, "kolo vfio: BAR%u has %llu bytes%s, need %zu mappable", index,
                     (unsigned long long)ri.size,
                     (ri.flags & VFIO_REGION_INFO_FLAG_MMAP) ? "" : " (not mappable)", need);
        return KOLO_E_NODEV;
    }
    m = mmap(NULL, (size_t)ri.size, PROT_READ | PROT_WRITE, MAP_SHARED, v->device,
             (off_t)ri.offset);
    if (m == MAP_FAILED) {
        kolo_set_err(err, errlen, "kolo vfio: mmap of BAR%u: %s", index, strerror(errno));
        return KOLO_E_IO;
    }
    *p = (volatile uint8_t *)m;
    *len = (size_t)ri.size;
    return 0;
}

static int enable_bus_master(vfio_dev *v, char *err, size_t errlen) {
    struct vfio_region_info ri;
    uint16_t cmd;
    memset(&ri, 0, sizeof ri);
    ri.argsz = sizeof ri;
    ri.index = VFIO_PCI_CONFIG_REGION_INDEX;
    if (ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &ri) ||
        pread(v->device, &cmd, 2, (off_t)ri.offset + 4) != 2) {
        kolo_set_err(err, errlen, "kolo vfio: reading the PCI command register: %s",
                     strerror(errno));
        return KOLO_E_IO;
    }
    cmd |= 0x6; /* memory space, bus master */
    if (pwrite(v->device, &cmd, 2, (off_t)ri.offset + 4) != 2) {
        kolo_set_err(err, errlen, "kolo vfio: writing the PCI command register: %s",
                     strerror(errno));
        return KOLO_E_IO;
    }
    return 0;
}

int kolo_vfio_backend_open(kolo_dev *d, const char *bdf_in, char *err, size_t errlen) {
    static const kolo_backend be = {"vfio", vfio_write, vfio_read, vfio_map, vfio_unmap, NULL,
                                    vfio_close};
    const char *root = getenv("KOLO_VFIO_ROOT");
    char bdf[16], path[PATH_MAX], link[PATH_MAX];
    const char *gname;
    ssize_t n;
    vfio_dev *v;
    int rc;
    struct vfio_group_status gs;

    if (!root)
        root = "";
    if (kolo_parse_bdf(bdf_in, bdf)) {
        kolo_set_err(err, errlen,
                     "kolo_open(vfio): \"%s\" is not a PCI address (want dddd:bb:dd.f or bb:dd.f)",
                     bdf_in ? bdf_in : "(null)");
        return KOLO_E_INVAL;
    }
    rc = kolo_vfio_check(root, bdf, 0, 0, link, sizeof link);
    if (rc != KOLO_VFIO_OK) {
        kolo_set_err(err, errlen, "kolo_open(vfio:%s): %s", bdf, link);
        return KOLO_E_NODEV;
    }
    snprintf(path, sizeof path, "%s/sys/bus/pci/devices/%s/iommu_group", root, bdf);
    n = readlink(path, link, sizeof link - 1);
    if (n < 0) {
        kolo_set_err(err, errlen, "kolo_open(vfio:%s): %s: %s (no such device, or no IOMMU)", bdf,
                     path, strerror(errno));
        return KOLO_E_NODEV;
    }
    link[n] = 0;
    gname = strrchr(link, '/');
    gname = gname ? gname + 1 : link;
    if (!*gname || strlen(gname) > 10 || strspn(gname, "0123456789") != strlen(gname)) {
        kolo_set_err(err, errlen, "kolo_open(vfio:%s): odd IOMMU group link %s", bdf, link);
        return KOLO_E_NODEV;
    }
    v = (vfio_dev *)calloc(1, sizeof *v);
    if (!v) {
        kolo_set_err(err, errlen, "kolo vfio: out of memory");
        return KOLO_E_NOMEM;
    }
    v->container = v->group = v->device = -1;

    snprintf(path, sizeof path, "%s/dev/vfio/vfio", root);
    v->container = open(path, O_RDWR | O_CLOEXEC);
    if (v->container < 0) {
        kolo_set_err(err, errlen, "kolo_open(vfio:%s): %s: %s (is the vfio-pci module loaded?)",
                     bdf, path, strerror(errno));
        rc = KOLO_E_NODEV;
        goto fail;
    }
    if (ioctl(v->container, VFIO_GET_API_VERSION) != VFIO_API_VERSION) {
        kolo_set_err(err, errlen, "kolo_open(vfio:%s): %s is not a VFIO container of API %d", bdf,
                     path, VFIO_API_VERSION);
        rc = KOLO_E_NODEV;
        goto fail;
    }
    if (ioctl(v->container, VFIO_CHECK_EXTENSION, VFIO_TYPE1_IOMMU) <= 0) {
        kolo_set_err(err, errlen, "kolo_open(vfio:%s): no type-1 IOMMU support", bdf);
        rc = KOLO_E_NODEV;
        goto fail;
    }
    snprintf(path, sizeof path, "%s/dev/vfio/%.10s", root, gname);
    v->group = open(path, O_RDWR | O_CLOEXEC);
    if (v->group < 0) {
        kolo_set_err(err, errlen,
                     "kolo_open(vfio:%s): %s: %s (is the device bound to vfio-pci, and may you "
                     "open its group?)",
                     bdf, path, strerror(errno));
        rc = KOLO_E_NODEV;
        goto fail;
    }
    memset(&gs, 0, sizeof gs);
    gs.argsz = sizeof gs;
    if (ioctl(v->group, VFIO_GROUP_GET_STATUS, &gs) || !(gs.flags & VFIO_GROUP_FLAGS_VIABLE)) {
        kolo_set_err(err, errlen,
                     "kolo_open(vfio:%s): IOMMU group %s is not viable (bind every device of the "
                     "group to vfio-pci)",
                     bdf, gname);
        rc = KOLO_E_NODEV;
        goto fail;
    }
    if (ioctl(v->group, VFIO_GROUP_SET_CONTAINER, &v->container) ||
        (ioctl(v->container, VFIO_SET_IOMMU, VFIO_TYPE1v2_IOMMU) &&
         ioctl(v->container, VFIO_SET_IOMMU, VFIO_TYPE1_IOMMU))) {
        kolo_set_err(err, errlen, "kolo_open(vfio:%s): setting up the IOMMU container: %s", bdf,
                     strerror(errno));
        rc = KOLO_E_IO;
        goto fail;
    }
    v->device = ioctl(v->group, VFIO_GROUP_GET_DEVICE_FD, bdf);
    if (v->device < 0) {
        kolo_set_err(err, errlen, "kolo_open(vfio:%s): getting the device: %s", bdf,
                     strerror(errno));
        rc = KOLO_E_NODEV;
        goto fail;
    }
    rc = map_bar(v, VFIO_PCI_BAR0_REGION_INDEX, KOLO_BAR0_SIZE, &v->bar0, &v->bar0_len, err, errlen);
    if (!rc)
        rc = map_bar(v, VFIO_PCI_BAR2_REGION_INDEX, KOLO_BAR2_SIZE, &v->bar2, &v->bar2_len, err,
                     errlen);
    if (!rc)
        rc = enable_bus_master(v, err, errlen);
    if (rc)
        goto fail;
    d->be = be;
    d->user = v;
    d->no_pio = 1; /* vfio_write refuses BAR2 (see the top of this file) */
    snprintf(d->name, sizeof d->name, "vfio");
    return 0;
fail:
    vfio_close(v);
    return rc;
}

#else /* no VFIO on this system */
int kolo_vfio_backend_open(kolo_dev *d, const char *bdf, char *err, size_t errlen) {
    (void)d;
    kolo_set_err(err, errlen, "kolo_open(vfio:%s): VFIO is not available on this system",
                 bdf ? bdf : "");
    return KOLO_E_NOSYS;
}
#endif
