/* kolo-bind - get a kolo card ready for libkolo's VFIO backend: bind it to
 * vfio-pci and check every piece the host needs, each with a clear error
 * and the command that fixes it (kolo_vfio.h; docs/boards.md "Binding the
 * card").
 *
 *   kolo-bind [options] BDF...     bind each card, then check it
 *   kolo-bind --check BDF...       check only, change nothing
 *   kolo-bind --list               PCI devices of FPGA vendors (Xilinx/AMD, Intel/Altera,
 *                                  Lattice) with their driver and IOMMU group
 * options:
 *   --group          also bind the other devices of the card's IOMMU group
 *                    (only those on no driver or another driver; never bridges)
 *   --hugepages      no free 2 MB huge page is an error (else a note)
 *   --memlock=SIZE   the locked-memory limit must allow SIZE bytes (K/M/G suffix)
 *   --root=DIR       a fake sysfs/dev tree (tests; also $KOLO_VFIO_ROOT)
 *
 * Exit: 0 every card ready, 1 a piece is missing (the message says which),
 * 2 usage. */
#define _GNU_SOURCE
#include "kolo_vfio.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: kolo-bind [--check] [--group] [--hugepages] [--memlock=SIZE] [--root=DIR] BDF...\n"
    "       kolo-bind [--root=DIR] --list\n"
    "Binds each kolo card (PCI address dddd:bb:dd.f or bb:dd.f) to vfio-pci and checks\n"
    "the IOMMU group, the device nodes, access, the locked-memory limit and huge pages.\n";

static void show(const kolo_vfio_state *st) {
    printf("%s: vendor %04x device %04x, driver %s, IOMMU group ", st->bdf, st->vendor, st->device,
           st->driver[0] ? st->driver : "(none)");
    if (st->group < 0)
        printf("(none)");
    else
        printf("%d (%d device%s)", st->group, st->group_devices, st->group_devices == 1 ? "" : "s");
    printf("\n");
}

static int list(const char *root) {
    char p[4096];
    DIR *d;
    struct dirent *e;
    int n = 0;
    snprintf(p, sizeof p, "%s/sys/bus/pci/devices", root);
    d = opendir(p);
    if (!d) {
        fprintf(stderr, "kolo-bind: cannot list %s\n", p);
        return 1;
    }
    while ((e = readdir(d)) != NULL) {
        kolo_vfio_state st;
        if (e->d_name[0] == '.' || kolo_vfio_inspect(root, e->d_name, &st) != KOLO_VFIO_OK)
            continue;
        /* FPGA vendors: Xilinx/AMD 10ee, Intel/Altera 1172, Lattice 1204 */
        if (st.vendor != 0x10ee && st.vendor != 0x1172 && st.vendor != 0x1204)
            continue;
        show(&st);
        n++;
    }
    closedir(d);
    if (!n)
        printf(
            "no PCI device of an FPGA vendor (is the card programmed, and the bus rescanned?)\n");
    return 0;
}

/* --group: bind every member of the card's IOMMU group that is on a foreign
 * driver (never bridges on pcieport), one at a time; a driver that does not
 * let go is an error, not a loop */
static int bind_group(const char *root, const kolo_vfio_state *card, char *err, size_t errlen) {
    kolo_vfio_state m;
    char last[16] = "";
    while (kolo_vfio_inspect(root, card->bdf, &m) == KOLO_VFIO_OK && m.blocker[0]) {
        char b[16];
        if (!strcmp(m.blocker, last)) {
            snprintf(err, errlen, "%s: %s of IOMMU group %d is still on %s after binding",
                     card->bdf, last, m.group, m.blocker_driver);
            return -1;
        }
        snprintf(b, sizeof b, "%s", m.blocker);
        printf("%s: binding %s (on %s) of IOMMU group %d to vfio-pci\n", card->bdf, b,
               m.blocker_driver, m.group);
        if (kolo_vfio_bind(root, b, err, errlen) != KOLO_VFIO_OK)
            return -1;
        snprintf(last, sizeof last, "%s", b);
    }
    return 0;
}

static int parse_size(const char *s, unsigned long long *out) {
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (end == s)
        return -1;
    switch (*end) {
    case 'k':
    case 'K':
        v <<= 10;
        end++;
        break;
    case 'm':
    case 'M':
        v <<= 20;
        end++;
        break;
    case 'g':
    case 'G':
        v <<= 30;
        end++;
        break;
    default:
        break;
    }
    if (*end)
        return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv) {
    const char *root = getenv("KOLO_VFIO_ROOT");
    int check_only = 0, group = 0, do_list = 0, i, rc, fail = 0, ncards = 0;
    unsigned flags = 0;
    unsigned long long memlock = 0;
    char err[512];
    if (!root)
        root = "";
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--check"))
            check_only = 1;
        else if (!strcmp(a, "--group"))
            group = 1;
        else if (!strcmp(a, "--hugepages"))
            flags |= KOLO_VFIO_NEED_HUGEPAGES;
        else if (!strcmp(a, "--list"))
            do_list = 1;
        else if (!strncmp(a, "--root=", 7))
            root = a + 7;
        else if (!strncmp(a, "--memlock=", 10)) {
            if (parse_size(a + 10, &memlock)) {
                fprintf(stderr, "kolo-bind: bad size in %s\n%s", a, usage);
                return 2;
            }
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "kolo-bind: unknown option %s\n%s", a, usage);
            return 2;
        } else
            ncards++;
    }
    if (do_list)
        return list(root);
    if (!ncards) {
        fputs(usage, stderr);
        return 2;
    }
    for (i = 1; i < argc; i++) {
        kolo_vfio_state st;
        if (argv[i][0] == '-')
            continue;
        rc = kolo_vfio_inspect(root, argv[i], &st);
        if (rc != KOLO_VFIO_OK) {
            kolo_vfio_check(root, argv[i], flags, memlock, err, sizeof err);
            fprintf(stderr, "kolo-bind: %s\n", err);
            fail = 1;
            continue;
        }
        show(&st);
        if (!check_only) {
            rc = kolo_vfio_bind(root, st.bdf, err, sizeof err);
            if (rc != KOLO_VFIO_OK) {
                fprintf(stderr, "kolo-bind: %s\n", err);
                fail = 1;
                continue;
            }
            if (strcmp(st.driver, "vfio-pci"))
                printf("%s: bound to vfio-pci (was %s)\n", st.bdf,
                       st.driver[0] ? st.driver : "unbound");
            if (group && bind_group(root, &st, err, sizeof err)) {
                fprintf(stderr, "kolo-bind: %s\n", err);
                fail = 1;
                continue;
            }
        }
        rc = kolo_vfio_check(root, st.bdf, flags, memlock, err, sizeof err);
        if (rc != KOLO_VFIO_OK) {
            fprintf(stderr, "kolo-bind: %s: %s\n", kolo_vfio_strerror(rc), err);
            fail = 1;
            continue;
        }
        {
            char bdf[16];
            snprintf(bdf, sizeof bdf, "%s", st.bdf);
            kolo_vfio_inspect(root, bdf, &st);
        }
        if (st.hugepages_free <= 0)
            printf("%s: note: no free 2 MB huge pages (DMA buffers use 4 KB pages; to reserve: "
                   "echo 512 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)\n",
                   st.bdf);
        if (st.memlock != ~0ull)
            printf("%s: note: locked-memory limit %llu KB (VFIO pins every DMA buffer; "
                   "ulimit -l unlimited for large ones)\n",
                   st.bdf, st.memlock / 1024);
        printf("%s: ready: KOLO_DEVICE=vfio:%s\n", st.bdf, st.bdf);
    }
    return fail;
}
