/* kolo_vfio.h - what a kolo card needs from the host before libkolo's VFIO
 * backend can open it, checked piece by piece, and the binding of the card
 * to vfio-pci. Used by the "vfio:" backend of libkolo (its first error names
 * the missing piece) and by the kolo-bind tool (docs/boards.md, "Binding the
 * card"). All paths are under a root prefix ("" for the real system; tests
 * give a fake sysfs/dev tree, as KOLO_VFIO_ROOT does for the backend).
 *
 * The pieces, in the order they are checked:
 *   NO_DEVICE    /sys/bus/pci/devices/<bdf> does not exist
 *   NO_IOMMU     the device has no iommu_group (IOMMU off or absent)
 *   NO_VFIO      the vfio-pci driver is not loaded (/sys/bus/pci/drivers/vfio-pci)
 *   NOT_BOUND    the card is bound to another driver, or to none
 *   GROUP        another device of its IOMMU group is bound to a driver
 *                other than vfio-pci (bridges on pcieport are allowed)
 *   NO_DEVNODE   /dev/vfio/vfio or /dev/vfio/<group> is missing
 *   NO_ACCESS    /dev/vfio/<group> cannot be opened for reading and writing
 *   MEMLOCK      RLIMIT_MEMLOCK is below the bytes asked for (VFIO pins
 *                every DMA page against it)
 *   HUGEPAGES    no free 2 MB huge pages (only with KOLO_VFIO_NEED_HUGEPAGES)
 */
#ifndef KOLO_VFIO_H
#define KOLO_VFIO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    KOLO_VFIO_OK = 0,
    KOLO_VFIO_BAD_ADDRESS = 1, /* not dddd:bb:dd.f or bb:dd.f */
    KOLO_VFIO_NO_DEVICE,
    KOLO_VFIO_NO_IOMMU,
    KOLO_VFIO_NO_VFIO,
    KOLO_VFIO_NOT_BOUND,
    KOLO_VFIO_GROUP,
    KOLO_VFIO_NO_DEVNODE,
    KOLO_VFIO_NO_ACCESS,
    KOLO_VFIO_MEMLOCK,
    KOLO_VFIO_HUGEPAGES,
    KOLO_VFIO_IO /* a sysfs write (bind) failed */
};

#define KOLO_VFIO_NEED_HUGEPAGES 1u /* flag: no free huge page is an error */

typedef struct {
    char bdf[16];            /* canonical dddd:bb:dd.f */
    unsigned vendor, device; /* PCI ids (0 if unreadable) */
    char driver[64];         /* bound driver, "" if none */
    int group;               /* IOMMU group number, -1 if none */
    int group_devices;       /* devices in the group */
    char blocker[16];        /* a group member on a foreign driver ("" if none) */
    char blocker_driver[64];
    long hugepages_free; /* free 2 MB huge pages, -1 if unknown */
    long hugepages_total;
    unsigned long long memlock; /* RLIMIT_MEMLOCK soft limit in bytes (~0: unlimited) */
} kolo_vfio_state;

/* Reads everything about the card that can be read (no error if a piece is
 * missing; the fields say so). Returns KOLO_VFIO_BAD_ADDRESS or
 * KOLO_VFIO_NO_DEVICE when there is nothing to read, else KOLO_VFIO_OK. */
int kolo_vfio_inspect(const char *root, const char *bdf, kolo_vfio_state *st);

/* The first missing piece (order above) as a KOLO_VFIO_* code, with a
 * message that names it and the command that fixes it. need_memlock: bytes
 * of DMA memory the caller will map (0: not checked). */
int kolo_vfio_check(const char *root, const char *bdf, unsigned flags,
                    unsigned long long need_memlock, char *err, size_t errlen);

/* Binds the card to vfio-pci through sysfs: driver_override = "vfio-pci",
 * unbind from the current driver, drivers_probe. Needs NO_DEVICE, NO_IOMMU
 * and NO_VFIO cleared (else their code). Already on vfio-pci: nothing
 * written, 0 (the group, nodes and limits are kolo_vfio_check's to report). */
int kolo_vfio_bind(const char *root, const char *bdf, char *err, size_t errlen);

/* A short name of a code ("no IOMMU group", ...). */
const char *kolo_vfio_strerror(int code);

#ifdef __cplusplus
}
#endif
#endif
