// test_pcie_link.cpp - the PCIe link model of the NI benchmarks (pcie_link.h) on its own:
// the wire bytes of TLPs cut at MPS / RCB / MRRS boundaries, counted beat by beat, and a
// link's budget holding transfers back to its data rate. Cases worked out by hand from the
// rules in pcie_link.h's header. (The model inside the NI harness: unit-ni-pcie-link.)
#include "pcie_link.h"
#include "tb_util.h"

#include <cstdio>

int main() {
    using namespace pcie_link;
    tb::Checker chk("pcie-link");
    // a TLP's payload is the DWs it touches
    chk.check(tlp_bytes(0x1000, 8, OH_REQ) == 8 + 24, "8 aligned bytes: %u", tlp_bytes(0x1000, 8, OH_REQ));
    chk.check(tlp_bytes(0x1003, 8, OH_REQ) == 12 + 24, "8 bytes at offset 3 touch 3 DWs: %u",
              tlp_bytes(0x1003, 8, OH_REQ));
    chk.check(tlp_bytes(0x1000, 0, OH_REQ) == 24, "a read request: header only");
    chk.check(tlp_bytes(0x1000, 64, OH_CPL) == 84, "a 64-byte completion: %u", tlp_bytes(0x1000, 64, OH_CPL));
    // requests cut at aligned boundaries
    chk.check(pieces(0x3f0, 0x20, 64) == 2, "32 bytes across a 64-byte boundary: 2 TLPs");
    chk.check(pieces(0x400, 0x40, 64) == 1, "64 aligned bytes: 1 TLP");
    chk.check(pieces(0x100, 4096, 512) == 9, "4 KiB at 0x100 in 512-byte requests: 9, got %u",
              pieces(0x100, 4096, 512));
    // 100 bytes at 0x30 with MPS 64: TLPs 0x30-0x40, 0x40-0x80, 0x80-0x94; beats of 32 bytes
    // 0x30-0x50 (two TLPs start: 32 + 24 + 24), 0x50-0x70 (32), 0x70-0x90 (one: 32 + 24), 0x90-0x94 (4)
    const unsigned want[4] = {80, 32, 56, 4}, want_tlps[4] = {2, 0, 1, 0};
    unsigned sum = 0;
    for (unsigned k = 0; k < 4; k++) {
        unsigned n = 0, b = beat_bytes(0x30, 100, k, 64, OH_REQ, &n);
        chk.check(b == want[k] && n == want_tlps[k], "beat %u: %u bytes, %u TLPs (want %u, %u)", k, b, n, want[k],
                  want_tlps[k]);
        sum += b;
    }
    chk.check(sum == 100 + 3 * 24, "the whole write: %u wire bytes", sum);
    // an odd start: 13 bytes at 0x7d, MPS 64: TLPs 0x7d-0x80 (3 bytes, 1 DW) and 0x80-0x8a (10, 3 DWs)
    {
        unsigned n = 0, b = beat_bytes(0x7d, 13, 0, 64, OH_REQ, &n);
        chk.check(n == 2 && b == 13 + (4 - 3) + (12 - 10) + 2 * 24, "13 bytes at 0x7d: %u bytes, %u TLPs", b, n);
    }
    // the budget: Gen2 x8 gains 16 bytes a cycle; an 88-byte TLP at budget 0 leaves -88, the
    // direction is ready again after 6 cycles (-88 + 5 * 16 = -8, + 16 = 8); the other direction
    // is not touched; idle cycles save at most one cycle's bytes
    {
        Link l;
        l.set(find("gen2x8"));
        chk.check(l.on() && l.ready(DOWN) && l.ready(UP), "a fresh link is ready");
        l.tlp(DOWN, 0, 64, OH_REQ);
        int c = 0;
        while (!l.ready(DOWN) && c < 100) {
            chk.check(l.ready(UP), "cycle %d: the up direction is held by a down TLP", c);
            l.tick();
            c++;
        }
        chk.check(c == 6, "88 bytes at 16 per cycle: ready after %d cycles, want 6", c);
        for (int i = 0; i < 50; i++) l.tick(); // idle: the budget saves 16, not 800
        l.tlp(DOWN, 0, 64, OH_REQ);            // 16 - 88 = -72
        c = 0;
        while (!l.ready(DOWN) && c < 100) {
            l.tick();
            c++;
        }
        chk.check(c == 5, "after idling, ready again after %d cycles, want 5 (no burst saved)", c);
        chk.check(l.bytes(DOWN) == 176 && l.tlps(DOWN) == 2 && l.bytes(UP) == 0, "counted %llu bytes, %llu TLPs",
                  (unsigned long long)l.bytes(DOWN), (unsigned long long)l.tlps(DOWN));
        Link none;
        none.set(find("none"));
        none.tlp(UP, 0, 4096, OH_REQ);
        chk.check(!none.on() && none.ready(UP) && none.bytes(UP) == 4096 + 24,
                  "no link: counted, never held back");
        chk.check(find("gen3x16") && find("gen3x16")->bytes_per_cycle > 62.9 &&
                      find("gen3x16")->bytes_per_cycle < 63.1 && !find("gen4x16"),
                  "Gen3 x16: 63.0 bytes per 4 ns cycle (15.75 GB/s); unknown names refused");
    }
    return chk.finish(0, "TLP cutting, beat counts and link budgets as worked out by hand");
}
