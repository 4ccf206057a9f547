// tb_pcie_ep.cpp - unit tests of kolo_pcie_ep (docs/ni.md 6) against the C++
// root-complex model (sw/rtlsim/kolo_pcie_rc.h), which checks every TLP the
// core sends. The harness plays the user side: a CSR image behind the MMIO
// ports, DMA read and write agents with a shadow of host memory, MSI.
//
// Length (~1430 lines): the harness (CSR image, DMA agents, MSI) and the
// tests that drive it through one set of private helpers; the root-complex
// model itself is sw/rtlsim/kolo_pcie_rc.h.
//
// Usage: tb_pcie_ep --test=<name> [--seed=N] [--n=N] [--bug=<name>]
// Tests: mmio ur dma-rd dma-rd-many dma-wr dma-err msi mixed cpl-space (see the
// functions test_*); bw-rd bw-rd-small bw-wr print BENCH lines. Every run prints its seed; SEED=N or --seed=N replays.
// --bug=<name> makes the harness itself lie in one place (expected data,
// expected status, ...) to show that the checks bite: such a run must FAIL.
#include "Vkolo_pcie_ep.h"
#include "verilated.h"
#include "tb_util.h"
#include "kolo_pcie_rc.h"

#include <deque>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#ifndef TB_CPL_TIMEOUT
#define TB_CPL_TIMEOUT 8000
#endif
#ifndef TB_TAGS
#define TB_TAGS 32
#endif
#ifndef TB_CPL_H
#define TB_CPL_H 64   // the completion space the harness gives the core (cfg_cpl_hdr/data)
#endif
#ifndef TB_CPL_D
#define TB_CPL_D 992
#endif

using kolo::KoloPcieRc;
using kolo::PcieBeat;
using kolo::PcieTlp;

namespace {

constexpr uint64_t kBar0 = 0xF0000000ull;          // 128 KiB, below 4 GB
constexpr uint64_t kBar2 = 0x0000001234560000ull;  // 64 KiB, above 4 GB
constexpr uint32_t kBar0Size = 1u << 17, kBar2Size = 1u << 16;
constexpr uint16_t kDevId = 0x0300;
constexpr uint16_t kRcId = 0x0000;
constexpr uint64_t kMsiAddr = 0xFEE01000ull;
constexpr uint16_t kMsiData = 0x4A40;

std::string g_bug;  // --bug=<name>: deliberate harness error
bool bug(const char* n) { return g_bug == n; }

template <std::size_t W>
void put_words(VlWide<W>& w, const uint32_t* p, unsigned n) {
    for (unsigned i = 0; i < n; i++) w[i] = p[i];
}

struct RdReq {
    uint64_t addr = 0;
    unsigned len = 0;
    unsigned id = 0;
    int chan = 0;
    std::vector<uint8_t> exp;
    uint64_t t_acc = 0;
    bool no_master = false;
};
struct WrReq {
    uint64_t addr = 0;
    unsigned len = 0;
    std::vector<uint8_t> data;
};
struct ExpChunk {
    unsigned bar;
    uint32_t addr;
    uint64_t strb;
    uint8_t data[64];
};
struct UserRead {       // a host read that must reach the user side
    unsigned bar;
    uint32_t addr;
    unsigned len;
    int handle;
    uint64_t chunks_before = 0;  // MMIO write chunks of host writes sent before it
};
struct HostCheck {      // what a host request's completion must be
    int handle;
    bool known = false; // expectation set (user reads: when the user side answered)
    unsigned status = 0;
    std::vector<uint32_t> data;  // checked when non-empty
    uint64_t wr_bytes = 0;       // device writes that must have arrived before it
};

class Tb {
  public:
    Tb(VerilatedContext* ctx, uint64_t seed, tb::Checker& chk, const KoloPcieRc::Config& rcfg)
        : top(new Vkolo_pcie_ep{ctx}), rc(rcfg), rng(seed ^ 0x5A5A5A5A5A5A5A5Aull), chk(chk) {
        bar0.assign(kBar0Size, 0);
        bar2.assign(kBar2Size, 0);
        for (uint32_t i = 0; i < kBar0Size; i++) bar0[i] = (uint8_t)(i * 7 + 3);
        for (uint32_t i = 0; i < kBar2Size; i++) bar2[i] = (uint8_t)(i * 13 + 5);
        reset();
    }
    ~Tb() {
        top->final();
        delete top;
    }

    Vkolo_pcie_ep* top;
    KoloPcieRc rc;
    tb::Rng rng;
    tb::Checker& chk;
    uint64_t cyc = 0;

    // configuration inputs
    unsigned mps_enc = 1, mrrs_enc = 2;
    unsigned cpl_h = TB_CPL_H, cpl_d = TB_CPL_D;  // the block's completion space
    bool bus_master = true, msi_en = true;
    // user-side behaviour
    unsigned mmio_wr_ready_pct = 100, mmio_rd_ready_pct = 100, mmio_rd_lat_max = 4, mmio_rd_err_pct = 0;
    unsigned dma_rd_ready_pct = 100, dma_rd_req_gap_pct = 0, dma_wr_gap_pct = 0;

    // CSR image
    std::vector<uint8_t> bar0, bar2;
    std::deque<ExpChunk> exp_chunks;
    std::deque<UserRead> exp_user_reads;
    std::map<int, HostCheck> host_checks;
    uint64_t n_chunks = 0, n_user_reads = 0, n_ca = 0, n_host_done = 0;
    uint64_t n_exp_chunks = 0;  // chunks the host's writes so far must produce
    bool rd_data_lied = false;  // --bug=rd-data: one read's expected data changed
    // MMIO read in progress at the user side
    bool ur_active = false, ur_resp = false;
    UserRead ur_cur{};
    uint64_t ur_at = 0;
    uint64_t ur_data = 0;
    bool ur_err = false;

    // DMA read agent
    std::function<bool(RdReq&)> rd_gen;
    bool rd_cur_valid = false;
    RdReq rd_cur;
    std::map<unsigned, RdReq> rd_out;
    bool rsp_active = false;
    unsigned rsp_id = 0, rsp_beats = 0;
    std::vector<uint8_t> rsp_bytes;
    uint64_t n_rd_done = 0, n_rd_err = 0, rd_max_latency = 0;
    std::map<int, uint64_t> chan_done;
    std::set<uint64_t> rd_seen_fail;  // failed reads (by index) attributed
    std::function<void(const RdReq&, bool)> rd_done_cb;

    // DMA write agent
    std::function<bool(WrReq&)> wr_gen;
    bool wr_cur_valid = false;
    WrReq wr_cur;
    unsigned wr_beat = 0;
    uint64_t wr_bytes_started = 0;   // bytes of writes whose first beat was accepted
    uint64_t n_wr_done = 0;
    kolo::PcieHostMem shadow;
    std::vector<std::pair<uint64_t, unsigned>> written;  // ranges to compare at the end

    // MSI agent
    std::deque<unsigned> msi_q;
    struct MsiExp {
        unsigned vector;
        uint64_t wr_bytes;
    };
    std::vector<MsiExp> msi_exp;

    unsigned max_tags_used = 0;

    void reset() {
        top->rst = 1;
        for (int i = 0; i < 4; i++) {
            top->clk = 0;
            drive_cfg();
            top->eval();
            top->clk = 1;
            top->eval();
        }
        top->rst = 0;
    }

    void drive_cfg() {
        top->cfg_bar0 = kBar0;
        top->cfg_bar2 = kBar2;
        top->cfg_req_id = kDevId;
        top->cfg_max_payload = mps_enc;
        top->cfg_max_read_req = mrrs_enc;
        top->cfg_bus_master = bus_master;
        top->cfg_msi_addr = kMsiAddr;
        top->cfg_msi_data = kMsiData;
        top->cfg_msi_en = msi_en;
        top->cfg_cpl_hdr = cpl_h;
        top->cfg_cpl_data = cpl_d;
    }
    // apply MPS/MRRS encodings to the device and the model (only while idle)
    void set_sizes(unsigned mps, unsigned mrrs) {
        mps_enc = mps;
        mrrs_enc = mrrs;
        rc.cfg().mps = 128u << mps;
        rc.cfg().mrrs = 128u << mrrs;
    }

    // ---- host side ----
    static uint64_t bar_base(unsigned bar) { return bar == 0 ? kBar0 : kBar2; }
    std::vector<uint8_t>& image(unsigned bar) { return bar == 0 ? bar0 : bar2; }

    void host_write(unsigned bar, uint32_t off, const std::vector<uint8_t>& d, bool force4 = false) {
        rc.host_write(bar_base(bar) + off, d.data(), (unsigned)d.size(), force4);
        uint32_t end = off + (uint32_t)d.size();
        for (uint32_t blk = off & ~63u; blk < end; blk += 64) {
            ExpChunk c{};
            c.bar = bar;
            c.addr = blk;
            for (uint32_t i = 0; i < 64; i++)
                if (blk + i >= off && blk + i < end) {
                    c.strb |= 1ull << i;
                    c.data[i] = d[blk + i - off];
                }
            if (bug("chunk-strb") && exp_chunks.size() == 3) c.strb ^= 1ull << 63;
            exp_chunks.push_back(c);
            n_exp_chunks++;
        }
    }
    // a host read of len bytes (0..8) that the device must pass to the user side
    int host_read(unsigned bar, uint32_t off, unsigned len, unsigned tc = 0, unsigned attr = 0, bool force4 = false) {
        PcieTlp t = kolo::pcie_mem_read(bar_base(bar) + off, len, 0, 0, force4);
        t.hdr[0] |= kolo::pcie_dw0(0, 0, 0, tc, attr);
        int h = rc.host_send_np(t);
        HostCheck hc;
        hc.handle = h;
        if (len == 0) {
            hc.known = true;
            hc.status = kolo::kCplSC;
        } else {
            unsigned ulen = (len > 4 || ((off & 3) + len > 4)) ? 8 : 4;
            exp_user_reads.push_back(UserRead{bar, off & ~(ulen - 1), ulen, h,
                                              n_exp_chunks + (bug("rd-order") && n_exp_chunks > 40 ? 1 : 0)});
        }
        host_checks[h] = hc;
        return h;
    }
    // a non-posted request the device must refuse with UR
    int host_np_ur(const PcieTlp& t) {
        int h = rc.host_send_np(t);
        HostCheck hc;
        hc.handle = h;
        hc.known = true;
        hc.status = bug("ur-status") && host_checks.size() == 2 ? kolo::kCplCA : kolo::kCplUR;
        host_checks[h] = hc;
        return h;
    }

    // ---- one clock cycle ----
    void tick() {
        drive_cfg();
        // RC -> device
        top->rx_tlp_valid = rc.dev_rx_valid();
        if (rc.dev_rx_valid()) {
            const PcieBeat& b = rc.dev_rx_beat();
            put_words(top->rx_tlp_hdr, b.hdr, 4);
            put_words(top->rx_tlp_data, b.data, 8);
            top->rx_tlp_sop = b.sop;
            top->rx_tlp_eop = b.eop;
            top->rx_tlp_dw_en = b.dw_en;
        }
        top->tx_tlp_ready = rc.dev_tx_ready();
        // MMIO user side
        top->mmio_wr_ready = rng.chance(mmio_wr_ready_pct);
        top->mmio_rd_ready = rng.chance(mmio_rd_ready_pct);
        top->mmio_rd_resp_valid = ur_resp && cyc >= ur_at;
        top->mmio_rd_resp_data = ur_data;
        top->mmio_rd_resp_err = ur_err;
        // DMA read requests
        if (!rd_cur_valid && rd_gen) rd_cur_valid = rd_gen(rd_cur);
        top->dma_rd_req_valid = rd_cur_valid && !rng.chance(dma_rd_req_gap_pct);
        top->dma_rd_req_addr = rd_cur.addr;
        top->dma_rd_req_len = rd_cur.len;
        top->dma_rd_req_id = rd_cur.id;
        top->dma_rd_ready = rng.chance(dma_rd_ready_pct);
        // DMA writes
        if (!wr_cur_valid && wr_gen) {
            wr_cur_valid = wr_gen(wr_cur);
            wr_beat = 0;
        }
        unsigned wr_nbeats = (wr_cur.len + 31) / 32;
        top->dma_wr_valid = wr_cur_valid && !rng.chance(dma_wr_gap_pct);
        top->dma_wr_addr = wr_beat == 0 ? wr_cur.addr : 0xDEADBEEFDEADBEEFull;  // read on the first beat only
        top->dma_wr_len = wr_beat == 0 ? wr_cur.len : 0x1FFF;
        for (unsigned i = 0; i < 8; i++) {
            uint32_t w = 0;
            for (unsigned j = 0; j < 4; j++) {
                unsigned k = wr_beat * 32 + i * 4 + j;
                w |= (uint32_t)(k < wr_cur.len ? wr_cur.data[k] : (uint8_t)rng.next()) << (8 * j);
            }
            top->dma_wr_data[i] = w;
        }
        top->dma_wr_last = wr_cur_valid && wr_beat + 1 == wr_nbeats;
        // MSI
        top->msi_valid = !msi_q.empty();
        top->msi_vector = msi_q.empty() ? 0 : msi_q.front();

        top->clk = 0;
        top->eval();

        // sample the handshakes
        bool rx_fire = top->rx_tlp_valid && top->rx_tlp_ready;
        bool tx_fire = top->tx_tlp_valid && top->tx_tlp_ready;
        PcieBeat txb;
        if (tx_fire) {
            for (int i = 0; i < 4; i++) txb.hdr[i] = top->tx_tlp_hdr[i];
            for (int i = 0; i < 8; i++) txb.data[i] = top->tx_tlp_data[i];
            txb.sop = top->tx_tlp_sop;
            txb.eop = top->tx_tlp_eop;
            txb.dw_en = top->tx_tlp_dw_en;
        }
        bool mw_fire = top->mmio_wr_valid && top->mmio_wr_ready;
        ExpChunk got{};
        if (mw_fire) {
            got.bar = top->mmio_wr_bar;
            got.addr = top->mmio_wr_addr;
            got.strb = top->mmio_wr_strb;
            for (int i = 0; i < 16; i++)
                for (int j = 0; j < 4; j++) got.data[i * 4 + j] = (uint8_t)(top->mmio_wr_data[i] >> (8 * j));
        }
        bool mr_fire = top->mmio_rd_valid && top->mmio_rd_ready;
        UserRead mr{top->mmio_rd_bar, top->mmio_rd_addr, top->mmio_rd_len, -1};
        bool resp_fire = top->mmio_rd_resp_valid && top->mmio_rd_resp_ready;
        bool rq_fire = top->dma_rd_req_valid && top->dma_rd_req_ready;
        bool rd_fire = top->dma_rd_valid && top->dma_rd_ready;
        uint8_t rd_bytes[32];
        unsigned rd_id = top->dma_rd_id;
        bool rd_last = top->dma_rd_last, rd_err = top->dma_rd_err;
        if (rd_fire)
            for (int i = 0; i < 8; i++)
                for (int j = 0; j < 4; j++) rd_bytes[i * 4 + j] = (uint8_t)(top->dma_rd_data[i] >> (8 * j));
        bool wr_fire = top->dma_wr_valid && top->dma_wr_ready;
        bool msi_fire = top->msi_valid && top->msi_ready;

        top->clk = 1;
        top->eval();

        if (rx_fire) rc.dev_rx_accept();
        if (tx_fire) rc.dev_tx_push(txb);
        rc.step();

        if (mw_fire) on_chunk(got);
        if (mr_fire) on_user_read(mr);
        if (resp_fire) {
            ur_resp = false;
            HostCheck& hc = host_checks[ur_cur.handle];
            hc.known = true;
            hc.status = ur_err ? kolo::kCplCA : kolo::kCplSC;
            if (!ur_err) {
                hc.data.push_back((uint32_t)ur_data);
                if (ur_cur.len == 8) hc.data.push_back((uint32_t)(ur_data >> 32));
                if (bug("rd-data") && !rd_data_lied && n_user_reads >= 5) {  // every byte, whichever the host reads
                    hc.data[0] ^= 0xFFFFFFFFu;
                    rd_data_lied = true;
                }
            }
            hc.wr_bytes = wr_bytes_started;
        }
        if (rq_fire) {
            rd_cur.t_acc = cyc;
            rd_cur.no_master = !bus_master;
            rd_cur.exp.resize(rd_cur.len);
            shadow.read(rd_cur.addr, rd_cur.exp.data(), rd_cur.len);
            if (bug("dma-data") && rd_out.size() == 1 && rd_cur.len > 10) rd_cur.exp[rd_cur.len / 2] ^= 1;
            chk.check(!rd_out.count(rd_cur.id), "harness reused DMA read id %u", rd_cur.id);
            rd_out[rd_cur.id] = rd_cur;
            rd_cur_valid = false;
        }
        if (rd_fire) on_rd_beat(rd_id, rd_bytes, rd_last, rd_err);
        if (wr_fire) {
            if (wr_beat == 0) {
                wr_bytes_started += wr_cur.len;
                shadow.write(wr_cur.addr, wr_cur.data.data(), wr_cur.len);
                written.emplace_back(wr_cur.addr, wr_cur.len);
            }
            if (++wr_beat == wr_nbeats) {
                wr_cur_valid = false;
                n_wr_done++;
            }
        }
        if (msi_fire) {
            if (msi_en && bus_master) msi_exp.push_back(MsiExp{msi_q.front(), wr_bytes_started});
            msi_q.pop_front();
        }
        // the user side answers a read after a random latency
        if (ur_active && !ur_resp) {
            ur_active = false;
            ur_resp = true;
            ur_at = cyc + rng.below(mmio_rd_lat_max + 1);
            ur_err = rng.chance(mmio_rd_err_pct);
            std::vector<uint8_t>& img = image(ur_cur.bar);
            ur_data = 0;
            for (unsigned i = 0; i < ur_cur.len; i++) ur_data |= (uint64_t)img[ur_cur.addr + i] << (8 * i);
            if (ur_err) n_ca++;
        }
        check_host_results();
        if (top->stat_tags_used > max_tags_used) max_tags_used = top->stat_tags_used;
        chk.check(top->stat_tags_used <= TB_TAGS, "tags in use %u > %u", top->stat_tags_used, TB_TAGS);
        cyc++;
    }

    void on_chunk(const ExpChunk& g) {
        n_chunks++;
        if (!chk.check(!exp_chunks.empty(), "unexpected MMIO write chunk bar %u addr 0x%x strb %016llx", g.bar,
                       g.addr, (unsigned long long)g.strb))
            return;
        ExpChunk e = exp_chunks.front();
        exp_chunks.pop_front();
        bool ok = chk.check(g.bar == e.bar && g.addr == e.addr && g.strb == e.strb,
                            "MMIO write chunk bar %u addr 0x%05x strb %016llx, expected bar %u addr 0x%05x strb %016llx",
                            g.bar, g.addr, (unsigned long long)g.strb, e.bar, e.addr, (unsigned long long)e.strb);
        for (int i = 0; ok && i < 64; i++)
            if ((e.strb >> i) & 1)
                ok = chk.check(g.data[i] == e.data[i], "MMIO write chunk addr 0x%05x byte %d = %02x, expected %02x",
                               g.addr, i, g.data[i], e.data[i]);
        std::vector<uint8_t>& img = image(g.bar);
        for (int i = 0; i < 64; i++)
            if (((g.strb >> i) & 1) && g.addr + i < img.size()) img[g.addr + i] = g.data[i];
    }

    void on_user_read(const UserRead& r) {
        n_user_reads++;
        if (!chk.check(!exp_user_reads.empty(), "unexpected MMIO read bar %u addr 0x%x len %u", r.bar, r.addr, r.len))
            return;
        UserRead e = exp_user_reads.front();
        exp_user_reads.pop_front();
        chk.check(r.bar == e.bar && r.addr == e.addr && r.len == e.len,
                  "MMIO read bar %u addr 0x%05x len %u, expected bar %u addr 0x%05x len %u", r.bar, r.addr, r.len,
                  e.bar, e.addr, e.len);
        chk.check(!ur_active && !ur_resp, "a second MMIO read while one is in flight");
        // PCIe B2a: a read does not pass a write that arrived before it
        chk.check(n_chunks >= e.chunks_before,
                  "MMIO read bar %u addr 0x%05x reached the user side after %llu write chunks, but %llu came "
                  "before it (a read passed a write)",
                  r.bar, r.addr, (unsigned long long)n_chunks, (unsigned long long)e.chunks_before);
        ur_cur = e;
        ur_active = true;
    }

    void check_host_results() {
        for (auto it = host_checks.begin(); it != host_checks.end();) {
            const KoloPcieRc::HostResult& r = rc.host_result(it->first);
            if (!r.done) {
                ++it;
                continue;
            }
            const HostCheck& hc = it->second;
            n_host_done++;
            if (chk.check(hc.known, "host request %d completed before the user side answered it", hc.handle)) {
                chk.check(r.status == hc.status, "host request %d completed with status %u, expected %u", hc.handle,
                          r.status, hc.status);
                if (!hc.data.empty()) {
                    bool same = r.data.size() == hc.data.size();
                    for (size_t i = 0; same && i < hc.data.size(); i++) same = r.data[i] == hc.data[i];
                    chk.check(same, "host read %d: completion data %08x.. (%zu DWs), user side gave %08x.. (%zu DWs)",
                              hc.handle, r.data.empty() ? 0 : r.data[0], r.data.size(), hc.data[0], hc.data.size());
                }
                chk.check(r.bytes_before >= hc.wr_bytes,
                          "host read %d completion passed DMA writes: %llu bytes written before it, %llu accepted "
                          "before the read was answered",
                          hc.handle, (unsigned long long)r.bytes_before, (unsigned long long)hc.wr_bytes);
            }
            it = host_checks.erase(it);
        }
    }

    bool rd_should_fail(const RdReq& q) {
        if (q.no_master) return true;
        const auto& f = rc.failed_reads();
        bool fail = false;
        for (size_t i = 0; i < f.size(); i++) {
            if (f[i].cycle >= q.t_acc && f[i].addr >= q.addr && f[i].addr + f[i].bytes <= q.addr + q.len) {
                fail = true;
                rd_seen_fail.insert(i);
            }
        }
        return fail;
    }

    void on_rd_beat(unsigned id, const uint8_t* bytes, bool last, bool err) {
        if (!rsp_active) {
            if (!chk.check(rd_out.count(id), "DMA read data for id %u, which has no request outstanding", id)) return;
            rsp_active = true;
            rsp_id = id;
            rsp_beats = 0;
            rsp_bytes.clear();
        }
        if (!chk.check(id == rsp_id, "DMA read beat of id %u inside the response of id %u", id, rsp_id)) return;
        RdReq& q = rd_out[rsp_id];
        unsigned nb = (q.len + 31) / 32;
        rsp_beats++;
        rsp_bytes.insert(rsp_bytes.end(), bytes, bytes + 32);
        chk.check(!err || last, "DMA read id %u: _err on a beat that is not the last", id);
        if (!last) {
            chk.check(rsp_beats < nb, "DMA read id %u (len %u): beat %u without _last", id, q.len, rsp_beats);
            return;
        }
        rsp_active = false;
        chk.check(rsp_beats == nb, "DMA read id %u (len %u): %u beats, expected %u", id, q.len, rsp_beats, nb);
        bool should_fail = rd_should_fail(q);
        if (bug("dma-err") && n_rd_done == 7) should_fail = !should_fail;
        chk.check(err == should_fail, "DMA read id %u addr 0x%llx len %u: _err %d, expected %d", id,
                  (unsigned long long)q.addr, q.len, err, should_fail);
        if (!err && !should_fail) {
            for (unsigned i = 0; i < q.len && i < rsp_bytes.size(); i++)
                if (!chk.check(rsp_bytes[i] == q.exp[i],
                               "DMA read id %u addr 0x%llx len %u: byte %u = %02x, expected %02x", id,
                               (unsigned long long)q.addr, q.len, i, rsp_bytes[i], q.exp[i]))
                    break;
        }
        n_rd_done++;
        if (err) n_rd_err++;
        rd_max_latency = std::max(rd_max_latency, cyc - q.t_acc);
        chan_done[q.chan]++;
        if (rd_done_cb) rd_done_cb(q, err);
        rd_out.erase(rsp_id);
    }

    // ---- running ----
    bool user_idle() const {
        return exp_chunks.empty() && exp_user_reads.empty() && !ur_active && !ur_resp && host_checks.empty() &&
               !rd_cur_valid && rd_out.empty() && !wr_cur_valid && msi_q.empty();
    }
    bool idle() const { return user_idle() && rc.idle() && !top->tx_tlp_valid; }

    // run `body` each cycle until it returns false, then until everything is idle
    bool run(uint64_t max_cycles, const std::function<bool()>& body) {
        uint64_t end = cyc + max_cycles;
        bool more = true;
        while (cyc < end) {
            if (more) more = body();
            tick();
            if (!more && idle()) {
                for (int i = 0; i < 8; i++) tick();  // let counters settle
                return true;
            }
            if (chk.failures() > 20) return false;
        }
        chk.check(false, "watchdog: not done after %llu cycles (chunks %zu, user reads %zu, host %zu, dma rd out %zu, "
                         "rc idle %d, rc pending host %u, rc busy tags %u)",
                  (unsigned long long)max_cycles, exp_chunks.size(), exp_user_reads.size(), host_checks.size(),
                  rd_out.size(), rc.idle(), rc.host_pending(), rc.busy_tags());
        return false;
    }

    void final_checks() {
        if (!rc.violations().empty()) {
            rc.print_violations(stderr);
            chk.check(false, "%zu protocol violation(s) in the device's TLPs", rc.violations().size());
        }
        // the written bytes and 64 bytes on either side (nothing else may change)
        bool mem_ok = true;
        for (size_t k = 0; mem_ok && k < written.size(); k++)
            for (unsigned i = 0; mem_ok && i < written[k].second + 128; i++) {
                uint64_t a = written[k].first + i - 64;
                mem_ok = chk.check(rc.mem().get(a) == shadow.get(a),
                                   "host memory 0x%llx = %02x after the DMA writes, expected %02x",
                                   (unsigned long long)a, rc.mem().get(a), shadow.get(a));
            }
        const auto& m = rc.msis();
        chk.check(m.size() == msi_exp.size(), "%zu MSIs arrived, %zu expected", m.size(), msi_exp.size());
        for (size_t i = 0; i < m.size() && i < msi_exp.size(); i++) {
            uint32_t want = kMsiData | msi_exp[i].vector;
            if (bug("msi") && i == 1) want ^= 1;
            chk.check(m[i].data == want, "MSI %zu data %08x, expected %08x", i, m[i].data, want);
            chk.check(m[i].bytes_before >= msi_exp[i].wr_bytes,
                      "MSI %zu passed DMA writes: %llu bytes written before it, %llu accepted before it", i,
                      (unsigned long long)m[i].bytes_before, (unsigned long long)msi_exp[i].wr_bytes);
        }
    }
};

KoloPcieRc::Config base_rc(uint64_t seed) {
    KoloPcieRc::Config c;
    c.rc_id = kRcId;
    c.dev_id = kDevId;
    c.msi_addr = kMsiAddr;
    c.tags = TB_TAGS;
    c.cpl_timeout_min = TB_CPL_TIMEOUT > 64 ? TB_CPL_TIMEOUT - 64 : 0;
    c.cpl_space_h = bug("cpl-space") ? TB_CPL_H - 16 : TB_CPL_H;  // overflowing the block's buffer fails every test
    c.cpl_space_d = TB_CPL_D;
    c.seed = seed * 0x2545F4914F6CDD1Dull + 17;
    return c;
}

std::vector<uint8_t> rand_bytes(tb::Rng& r, unsigned n) {
    std::vector<uint8_t> v(n);
    for (auto& b : v) b = (uint8_t)r.next();
    return v;
}

// A random host address range [a, a+len) for DMA, mixing plain, 4 KB-edge
// and above-4 GB addresses.
uint64_t rand_dma_addr(tb::Rng& r, unsigned len) {
    uint64_t base;
    switch (r.below(4)) {
        case 0: base = 0x10000000ull + r.below(1u << 24); break;
        case 1: base = 0x0000000100000000ull * (1 + r.below(1000)) + r.below(1u << 20); break;
        case 2: {  // just before a 4 KB boundary
            uint64_t pg = (0x20000000ull + ((uint64_t)r.below(1u << 16) << 12));
            base = pg + 4096 - 1 - r.below(std::min(len, 4096u) + 64);
            break;
        }
        default: base = 0x00000000FFFFF000ull + r.below(8192); break;  // straddles 4 GB
    }
    return base;
}
unsigned rand_len(tb::Rng& r) {
    switch (r.below(5)) {
        case 0: return 1 + r.below(16);
        case 1: return 1 + r.below(256);
        case 2: return 4096 - r.below(4);
        default: return 1 + r.below(4096);
    }
}

// ---- tests -------------------------------------------------------------------------------

// BAR0/BAR2 MMIO writes (4/8-byte CSR writes, 64-byte PIO writes, random
// lengths up to 512 bytes) and reads of 0..8 bytes with random TC/attributes,
// user-side latency and errors (CA).
int test_mmio(VerilatedContext* ctx, uint64_t seed, long n, tb::Checker& chk) {
    KoloPcieRc::Config c = base_rc(seed);
    c.rx_gap_percent = 15;
    c.tx_ready_percent = 75;
    Tb tb(ctx, seed, chk, c);
    tb.mmio_wr_ready_pct = 70;
    tb.mmio_rd_ready_pct = 60;
    tb.mmio_rd_lat_max = 12;
    tb.mmio_rd_err_pct = 10;
    long issued = 0, reads = 0, writes = 0;
    tb.run(4000000, [&]() {
        if (issued >= n) return false;
        if (tb.rc.host_pending() > 3 || !tb.rng.chance(30)) return true;
        issued++;
        unsigned bar = tb.rng.chance(50) ? 0 : 2;
        uint32_t size = bar == 0 ? kBar0Size : kBar2Size;
        unsigned k = tb.rng.below(100);
        bool h4 = tb.rng.chance(10);  // a 4-DW header below 4 GB (BAR0): legal to receive
        if (k < 20) {
            tb.host_write(bar, tb.rng.below(size / 4) * 4, rand_bytes(tb.rng, 4), h4);
            writes++;
        } else if (k < 32) {
            tb.host_write(bar, tb.rng.below(size / 8) * 8, rand_bytes(tb.rng, 8));
            writes++;
        } else if (k < 47) {
            tb.host_write(2, tb.rng.below(kBar2Size / 64) * 64, rand_bytes(tb.rng, 64));  // PIO
            writes++;
        } else if (k < 62) {
            unsigned len = 1 + tb.rng.below(tb.rng.chance(70) ? 64 : 512);
            uint32_t off = tb.rng.below(size - len);
            if ((off >> 12) != ((off + len - 1) >> 12)) off = (off & ~0xFFFu) + tb.rng.below(4096 - len + 1);
            tb.host_write(bar, off, rand_bytes(tb.rng, len));
            writes++;
        } else {
            unsigned tc = tb.rng.chance(20) ? tb.rng.below(8) : 0, attr = tb.rng.chance(20) ? tb.rng.below(8) : 0;
            unsigned m = tb.rng.below(100);
            if (m < 40) tb.host_read(bar, tb.rng.below(size / 4) * 4, 4, tc, attr, h4);
            else if (m < 75) tb.host_read(bar, tb.rng.below(size / 8) * 8, 8, tc, attr);
            else if (m < 95) {  // 1..3 bytes inside a DW
                uint32_t off = tb.rng.below(size);
                unsigned len = 1 + tb.rng.below(4 - (off & 3));
                tb.host_read(bar, off, len, tc, attr);
            } else
                tb.host_read(bar, tb.rng.below(size / 4) * 4, 0, tc, attr);  // zero-length read
            reads++;
        }
        return true;
    });
    tb.final_checks();
    chk.check(tb.top->stat_ca == tb.n_ca, "stat_ca %u, %llu CA completions expected", tb.top->stat_ca,
              (unsigned long long)tb.n_ca);
    chk.check(tb.top->stat_ur == 0 && tb.top->stat_bad_tlp == 0, "stat_ur %u stat_bad_tlp %u, expected 0",
              tb.top->stat_ur, tb.top->stat_bad_tlp);
    char s[200];
    std::snprintf(s, sizeof s, "%ld host writes -> %llu chunks, %ld reads (%llu at the user side, %llu CA), %llu cycles",
                  writes, (unsigned long long)tb.n_chunks, reads, (unsigned long long)tb.n_user_reads,
                  (unsigned long long)tb.n_ca, (unsigned long long)tb.cyc);
    return chk.finish(seed, s);
}

// Unsupported requests (UR when non-posted, counted always) and malformed or
// unexpected TLPs (dropped, counted), mixed with valid accesses.
int test_ur(VerilatedContext* ctx, uint64_t seed, long rounds, tb::Checker& chk) {
    KoloPcieRc::Config c = base_rc(seed);
    c.rx_gap_percent = 10;
    c.tx_ready_percent = 80;
    Tb tb(ctx, seed, chk, c);
    tb.mmio_wr_ready_pct = 80;
    tb.mmio_rd_ready_pct = 80;
    unsigned exp_ur = 0, exp_bad = 0;
    using namespace kolo;
    auto mk = [](unsigned fmt, unsigned type, unsigned len, uint32_t h1, uint32_t h2, uint32_t h3, unsigned ndata) {
        PcieTlp t;
        t.hdr[0] = pcie_dw0(fmt, type, len);
        t.hdr[1] = h1;
        t.hdr[2] = h2;
        t.hdr[3] = h3;
        for (unsigned i = 0; i < ndata; i++) t.data.push_back(0x11111111u * (i + 1));
        return t;
    };
    const uint32_t b0 = (uint32_t)kBar0;
    std::vector<std::function<void()>> cases = {
        // non-posted: UR completion
        [&] { tb.host_np_ur(mk(kFmt3DW, kTypeIo, 1, 0xF, 0x1000, 0, 0)); },                     // IORd
        [&] { tb.host_np_ur(mk(kFmt3DWData, kTypeIo, 1, 0xF, 0x1004, 0, 1)); },                 // IOWr
        [&] { tb.host_np_ur(mk(kFmt3DW, kTypeCfg0, 1, 0xF, 0x03000010, 0, 0)); },               // CfgRd0
        [&] { tb.host_np_ur(mk(kFmt3DWData, kTypeCfg0, 1, 0x3, 0x03000014, 0, 1)); },           // CfgWr0
        [&] { tb.host_np_ur(mk(kFmt3DW, kTypeCfg1, 1, 0xF, 0x05000000, 0, 0)); },               // CfgRd1
        [&] { tb.host_np_ur(mk(kFmt3DWData, kTypeCfg1, 1, 0xF, 0x05000004, 0, 1)); },           // CfgWr1
        [&] { tb.host_np_ur(mk(kFmt3DWData, kTypeFetchAdd, 1, 0, b0 + 0x100, 0, 1)); },          // FetchAdd 32
        [&] { tb.host_np_ur(mk(kFmt3DWData, kTypeSwap, 2, 0, b0 + 0x108, 0, 2)); },              // Swap 64
        [&] { tb.host_np_ur(mk(kFmt3DWData, kTypeCas, 4, 0, b0 + 0x110, 0, 4)); },               // CAS 64
        [&] { tb.host_np_ur(mk(kFmt4DWData, kTypeCas, 8, 0, (uint32_t)(kBar2 >> 32), (uint32_t)kBar2 + 0x20, 8)); },  // CAS 128
        [&] { tb.host_np_ur(mk(kFmt3DW, kTypeMemLk, 1, 0xF, b0 + 0x40, 0, 0)); },                // MRdLk
        [&] { tb.host_np_ur(pcie_mem_read(kBar0 + 0x200 + 4 * tb.rng.below(8), 12, 0, 0)); },    // MRd 12 bytes
        [&] { tb.host_np_ur(pcie_mem_read(kBar0 + 0x304, 8, 0, 0)); },                           // 8 bytes, misaligned
        [&] { tb.host_np_ur(pcie_mem_read(kBar0 + 0x301 + tb.rng.below(3), 8, 0, 0)); },         // 8 bytes unaligned
        [&] { tb.host_np_ur(pcie_mem_read(0x00001000ull + 4 * tb.rng.below(1000), 4, 0, 0)); },  // outside (3 DW)
        [&] { tb.host_np_ur(pcie_mem_read(0x0000001234570000ull + 8, 8, 0, 0)); },               // outside (4 DW), just past BAR2
        [&] { tb.host_np_ur(pcie_mem_read(kBar0 + 0x1000, 4096, 0, 0)); },                       // Length field 0
        [&] {                                                                                     // poisoned MRd
            PcieTlp t = pcie_mem_read(kBar0 + 0x10, 4, 0, 0);
            t.hdr[0] |= 1u << 14;
            tb.host_np_ur(t);
        },
        // posted: dropped, counted
        [&] { tb.rc.host_send_posted(mk(kFmt4DW, kTypeMsg | 4, 0, 0x0000007F, 0, 0, 0)); exp_ur++; },  // Msg
        [&] { tb.rc.host_send_posted(mk(kFmt4DWData, kTypeMsg, 1, 0x0000007E, 0, 0, 1)); exp_ur++; },  // MsgD
        [&] {                                                                                            // MWr outside
            uint8_t d[8] = {1, 2, 3, 4, 5, 6, 7, 8};
            tb.rc.host_send_posted(pcie_mem_write(0x80000000ull, d, 8, 0));
            exp_ur++;
        },
        [&] {                                                                   // MWr across the end of BAR2
            std::vector<uint8_t> d(16, 0xAB);
            tb.rc.host_send_posted(pcie_mem_write(kBar2 + kBar2Size - 8, d.data(), 16, 0));
            exp_ur++;
        },
        [&] {                                                                   // poisoned MWr
            uint8_t d[4] = {9, 9, 9, 9};
            PcieTlp t = pcie_mem_write(kBar0 + 0x20, d, 4, 0);
            t.hdr[0] |= 1u << 14;
            tb.rc.host_send_posted(t);
            exp_ur++;
        },
        // malformed / unexpected: dropped, counted as bad
        [&] { tb.rc.host_send_posted(mk(kFmt3DW, 0x03, 1, 0, 0, 0, 0)); exp_bad++; },             // reserved type
        [&] { tb.rc.host_send_posted(mk(kFmtPrefix, 0x10, 0, 0, 0, 0, 0)); exp_bad++; },          // TLP prefix
        [&] {                                                            // CplD for a tag the device does not use
            PcieTlp t = mk(kFmt3DWData, kTypeCpl, 16, (kRcId << 16) | 64, ((uint32_t)kDevId << 16) | (5u << 8), 0, 16);
            tb.rc.host_send_posted(t);
            exp_bad++;
        },
        [&] {                                                            // Cpl for another requester
            tb.rc.host_send_posted(mk(kFmt3DW, kTypeCpl, 0, (kRcId << 16) | (1u << 13) | 4, (0x0400u << 16), 0, 0));
            exp_bad++;
        },
        [&] {                                                            // locked completion
            tb.rc.host_send_posted(mk(kFmt3DWData, kTypeCplLk, 1, 4, ((uint32_t)kDevId << 16), 0, 1));
            exp_bad++;
        },
        [&] {                                                            // MWr, Length 2 with last BE 0
            PcieTlp t = mk(kFmt3DWData, kTypeMem, 2, 0x0F, b0 + 0x80, 0, 2);
            tb.rc.host_send_posted(t);
            exp_bad++;
        },
    };
    const unsigned n_np = 18;
    long step = 0, total = rounds * (long)cases.size();
    std::vector<unsigned> order;
    tb.run(4000000, [&]() {
        if (step >= total) return false;
        if (tb.rc.host_pending() > 2 || !tb.rng.chance(20)) return true;
        if (order.empty()) {
            for (unsigned i = 0; i < cases.size(); i++) order.push_back(i);
            for (unsigned i = (unsigned)order.size(); i > 1; i--) std::swap(order[i - 1], order[tb.rng.below(i)]);
        }
        unsigned i = order.back();
        order.pop_back();
        cases[i]();
        if (i < n_np) exp_ur++;
        // a valid access between them: the device must not be wedged
        if (tb.rng.chance(50)) tb.host_read(0, tb.rng.below(kBar0Size / 8) * 8, 8);
        else tb.host_write(2, tb.rng.below(kBar2Size / 64) * 64, rand_bytes(tb.rng, 64));
        step++;
        return true;
    });
    tb.final_checks();
    chk.check(tb.top->stat_ur == exp_ur, "stat_ur %u, expected %u", tb.top->stat_ur, exp_ur);
    chk.check(tb.top->stat_bad_tlp == exp_bad, "stat_bad_tlp %u, expected %u", tb.top->stat_bad_tlp, exp_bad);
    chk.check(tb.top->stat_ca == 0 && tb.top->stat_cpl_err == 0, "stat_ca %u stat_cpl_err %u", tb.top->stat_ca,
              tb.top->stat_cpl_err);
    char s[160];
    std::snprintf(s, sizeof s, "%ld unsupported/bad TLPs (%u UR, %u bad), %llu cycles", total, exp_ur, exp_bad,
                  (unsigned long long)tb.cyc);
    return chk.finish(seed, s);
}

// DMA reads of random address/length under random MPS/MRRS (phases), with
// completion splitting and reordering, random rx gaps and user backpressure.
int test_dma_rd(VerilatedContext* ctx, uint64_t seed, long n, tb::Checker& chk) {
    KoloPcieRc::Config c = base_rc(seed);
    c.rx_gap_percent = 10;
    c.tx_ready_percent = 85;
    c.cpl_latency_min = 20;
    c.cpl_latency_max = 300;
    Tb tb(ctx, seed, chk, c);
    tb.dma_rd_ready_pct = 80;
    tb.dma_rd_req_gap_pct = 20;
    long issued = 0;
    unsigned next_id = 0;
    const long phase = 60;
    tb.rd_gen = [&](RdReq& q) {
        if (issued >= n || (issued % phase == 0 && issued && !tb.rd_out.empty())) return false;
        if (tb.rd_out.size() >= 12) return false;
        q = RdReq{};
        q.len = rand_len(tb.rng);
        q.addr = rand_dma_addr(tb.rng, q.len);
        while (tb.rd_out.count(next_id & 0xFF)) next_id++;
        q.id = next_id++ & 0xFF;
        issued++;
        return true;
    };
    long last_phase = -1;
    std::set<unsigned> sizes_seen;
    tb.run(20000000, [&]() {
        long ph = issued / phase;
        if (ph != last_phase && tb.rd_out.empty() && !tb.rd_cur_valid && tb.rc.idle()) {
            last_phase = ph;
            unsigned mps = tb.rng.below(6), mrrs = tb.rng.below(6);
            tb.set_sizes(mps, mrrs);
            sizes_seen.insert(mps * 8 + mrrs);
        }
        return issued < n || !tb.rd_out.empty() || tb.rd_cur_valid;
    });
    tb.final_checks();
    chk.check(tb.n_rd_done == (uint64_t)n, "%llu DMA reads done, %ld issued", (unsigned long long)tb.n_rd_done, n);
    chk.check(tb.n_rd_err == 0, "%llu DMA reads failed", (unsigned long long)tb.n_rd_err);
    chk.check(tb.top->stat_cpl_timeout == 0 && tb.top->stat_cpl_err == 0 && tb.top->stat_bad_tlp == 0,
              "counters: timeout %u cpl_err %u bad %u", tb.top->stat_cpl_timeout, tb.top->stat_cpl_err,
              tb.top->stat_bad_tlp);
    chk.check(tb.top->stat_tags_used == 0, "%u tags still in use at the end", tb.top->stat_tags_used);
    char s[200];
    std::snprintf(s, sizeof s, "%ld reads, %llu MRd, %llu completions, %zu MPS/MRRS pairs, max %u tags, %llu cycles", n,
                  (unsigned long long)tb.rc.dev_reads(), (unsigned long long)tb.rc.cpls_sent(), sizes_seen.size(),
                  tb.max_tags_used, (unsigned long long)tb.cyc);
    return chk.finish(seed, s);
}

// Many outstanding reads from 8 channels (ids) sharing the tag pool: every
// channel progresses, the pool fills up, every request completes.
int test_dma_rd_many(VerilatedContext* ctx, uint64_t seed, long per_chan, tb::Checker& chk) {
    KoloPcieRc::Config c = base_rc(seed);
    c.cpl_latency_min = 100;
    c.cpl_latency_max = 400;
    c.rx_gap_percent = 5;
    Tb tb(ctx, seed, chk, c);
    tb.set_sizes(0, 0);  // MRRS 128: a 4 KB request takes every tag
    tb.dma_rd_ready_pct = 90;
    const int chans = 8;
    std::vector<long> started(chans, 0);
    std::vector<int> outstanding(chans, 0);
    int rr = 0;
    tb.rd_gen = [&](RdReq& q) {
        for (int k = 0; k < chans; k++) {
            int ch = (rr + k) % chans;
            if (started[ch] >= per_chan || outstanding[ch] >= 3) continue;
            q = RdReq{};
            q.chan = ch;
            q.len = (ch % 2) ? 1 + tb.rng.below(64) : rand_len(tb.rng);
            q.addr = 0x40000000ull + ((uint64_t)ch << 24) + tb.rng.below(1u << 20);
            unsigned slot = 0;
            while (tb.rd_out.count((unsigned)(ch << 4) | slot)) slot++;
            q.id = (unsigned)(ch << 4) | slot;
            started[ch]++;
            outstanding[ch]++;
            rr = ch + 1;
            return true;
        }
        return false;
    };
    tb.rd_done_cb = [&](const RdReq& q, bool) { outstanding[q.chan]--; };
    tb.run(20000000, [&]() {
        for (int ch = 0; ch < chans; ch++)
            if (started[ch] < per_chan) return true;
        return !tb.rd_out.empty() || tb.rd_cur_valid;
    });
    tb.final_checks();
    for (int ch = 0; ch < chans; ch++)
        chk.check(tb.chan_done[ch] == (uint64_t)per_chan, "channel %d completed %llu of %ld reads", ch,
                  (unsigned long long)tb.chan_done[ch], per_chan);
    chk.check(tb.max_tags_used == TB_TAGS, "at most %u tags were in use at once, the pool has %u", tb.max_tags_used,
              TB_TAGS);
    chk.check(tb.rc.max_tags_in_use() == TB_TAGS, "the root complex saw at most %u tags outstanding",
              tb.rc.max_tags_in_use());
    chk.check(tb.rd_max_latency < 40000, "a read took %llu cycles (starvation?)", (unsigned long long)tb.rd_max_latency);
    chk.check(tb.top->stat_tags_used == 0, "%u tags still in use at the end", tb.top->stat_tags_used);
    char s[200];
    std::snprintf(s, sizeof s, "%d channels x %ld reads, %llu MRd, max %u tags, max latency %llu, %llu cycles", chans,
                  per_chan, (unsigned long long)tb.rc.dev_reads(), tb.max_tags_used,
                  (unsigned long long)tb.rd_max_latency, (unsigned long long)tb.cyc);
    return chk.finish(seed, s);
}

// DMA writes of random address/length under random MPS, byte-exact in host
// memory, in order (overlapping writes in a hot region), and reads of the
// hot region that must see every write accepted before them.
int test_dma_wr(VerilatedContext* ctx, uint64_t seed, long n, tb::Checker& chk) {
    KoloPcieRc::Config c = base_rc(seed);
    c.tx_ready_percent = 70;
    c.rx_gap_percent = 10;
    Tb tb(ctx, seed, chk, c);
    tb.dma_wr_gap_pct = 15;
    tb.dma_rd_ready_pct = 80;
    const uint64_t hot = 0x00000000FFFFE000ull;  // 8 KB around the 4 GB line
    long issued = 0, reads = 0;
    unsigned next_id = 0;
    auto overlaps = [](uint64_t a, unsigned l, uint64_t b, unsigned m) { return a < b + m && b < a + l; };
    tb.wr_gen = [&](WrReq& w) {
        if (issued >= n) return false;
        WrReq x;
        x.len = rand_len(tb.rng);
        x.addr = tb.rng.chance(50) ? hot + tb.rng.below(8192) : rand_dma_addr(tb.rng, x.len);
        for (auto& kv : tb.rd_out)
            if (overlaps(x.addr, x.len, kv.second.addr, kv.second.len)) return false;  // try again later
        if (tb.rd_cur_valid && overlaps(x.addr, x.len, tb.rd_cur.addr, tb.rd_cur.len)) return false;
        x.data = rand_bytes(tb.rng, x.len);
        w = x;
        issued++;
        return true;
    };
    tb.rd_gen = [&](RdReq& q) {
        if (issued >= n || tb.rd_out.size() >= 4 || !tb.rng.chance(5)) return false;
        q = RdReq{};
        q.len = 1 + tb.rng.below(tb.rng.chance(50) ? 64 : 2048);
        q.addr = hot + tb.rng.below(8192);
        if (tb.wr_cur_valid && tb.wr_beat > 0 && tb.rng.chance(70)) {
            // the tail of the write in progress: its first beat was taken, so
            // the read must see all of it, also the part not yet sent
            q.len = 1 + tb.rng.below(std::min(tb.wr_cur.len, 256u));
            q.addr = tb.wr_cur.addr + tb.wr_cur.len - q.len;
        }
        if (tb.wr_cur_valid && tb.wr_beat == 0 && overlaps(q.addr, q.len, tb.wr_cur.addr, tb.wr_cur.len)) return false;
        while (tb.rd_out.count(next_id & 0xFF)) next_id++;
        q.id = next_id++ & 0xFF;
        reads++;
        return true;
    };
    long last_phase = -1;
    tb.run(20000000, [&]() {
        long ph = issued / 50;
        if (ph != last_phase && !tb.wr_cur_valid && tb.rd_out.empty() && !tb.rd_cur_valid && tb.rc.idle() &&
            tb.rc.dev_bytes_written() == tb.wr_bytes_started) {
            last_phase = ph;
            tb.set_sizes(tb.rng.below(6), tb.rng.below(6));
        }
        return issued < n || tb.wr_cur_valid;
    });
    tb.final_checks();
    chk.check(tb.n_wr_done == (uint64_t)n, "%llu DMA writes done, %ld issued", (unsigned long long)tb.n_wr_done, n);
    chk.check(tb.rc.dev_bytes_written() == tb.wr_bytes_started, "%llu bytes written to the host, %llu accepted",
              (unsigned long long)tb.rc.dev_bytes_written(), (unsigned long long)tb.wr_bytes_started);
    char s[200];
    std::snprintf(s, sizeof s, "%ld writes (%llu bytes, %llu MWr), %ld reads behind them, %llu cycles", n,
                  (unsigned long long)tb.wr_bytes_started, (unsigned long long)tb.rc.dev_writes(), reads,
                  (unsigned long long)tb.cyc);
    return chk.finish(seed, s);
}

// Error completions (UR, CA), poisoned completions and dropped completions
// (completion timeout) fail exactly the requests they hit; then DMA with bus
// mastering off.
int test_dma_err(VerilatedContext* ctx, uint64_t seed, long n, tb::Checker& chk) {
    KoloPcieRc::Config c = base_rc(seed);
    c.rx_gap_percent = 5;
    c.cpl_latency_min = 20;
    c.cpl_latency_max = 200;
    c.fault_percent = 4;
    Tb tb(ctx, seed, chk, c);
    tb.set_sizes(1, 0);
    tb.dma_rd_ready_pct = 85;
    const uint64_t region = 0x0000000300000000ull;
    tb.rc.add_fault(region + 0x100000, region + 0x108000, KoloPcieRc::kFaultUR);
    tb.rc.add_fault(region + 0x200000, region + 0x208000, KoloPcieRc::kFaultCA);
    tb.rc.add_fault(region + 0x300000, region + 0x308000, KoloPcieRc::kFaultDrop);
    tb.rc.add_fault(region + 0x400000, region + 0x408000, KoloPcieRc::kFaultPoison);
    uint64_t bump = region + 0x10000000ull;  // every request gets fresh addresses
    uint64_t fault_next[4], fault_end[4];
    for (int r = 0; r < 4; r++) {
        fault_next[r] = region + 0x100000ull * (r + 1) - 0x800;
        fault_end[r] = region + 0x100000ull * (r + 1) + 0x8000;
    }
    long issued = 0;
    unsigned next_id = 0;
    tb.rd_gen = [&](RdReq& q) {
        if (issued >= n || tb.rd_out.size() >= 10) return false;
        q = RdReq{};
        q.len = tb.rng.chance(50) ? 1 + tb.rng.below(300) : rand_len(tb.rng);
        unsigned r = tb.rng.below(4);
        if (tb.rng.chance(25) && fault_next[r] < fault_end[r]) {  // into (or across the start of) a fault range
            q.addr = fault_next[r];
            fault_next[r] += q.len + tb.rng.below(256);
        } else {
            bump += 0x10000;
            q.addr = bump + tb.rng.below(4096);
        }
        while (tb.rd_out.count(next_id & 0xFF)) next_id++;
        q.id = next_id++ & 0xFF;
        issued++;
        return true;
    };
    tb.run(20000000, [&]() { return issued < n || !tb.rd_out.empty() || tb.rd_cur_valid; });
    unsigned drops = 0, errs = 0, poisons = 0;
    for (const auto& f : tb.rc.failed_reads()) {
        drops += f.fault == KoloPcieRc::kFaultDrop;
        errs += f.fault == KoloPcieRc::kFaultUR || f.fault == KoloPcieRc::kFaultCA;
        poisons += f.fault == KoloPcieRc::kFaultPoison;
    }
    chk.check(tb.top->stat_cpl_timeout == drops, "stat_cpl_timeout %u, %u reads dropped", tb.top->stat_cpl_timeout, drops);
    chk.check(tb.top->stat_cpl_err == tb.rc.err_cpls_sent() + tb.rc.poisoned_sent(),
              "stat_cpl_err %u, %llu error and %llu poisoned completions sent", tb.top->stat_cpl_err,
              (unsigned long long)tb.rc.err_cpls_sent(), (unsigned long long)tb.rc.poisoned_sent());
    chk.check(tb.rd_seen_fail.size() == tb.rc.failed_reads().size(), "%zu failed reads, %zu attributed to a request",
              tb.rc.failed_reads().size(), tb.rd_seen_fail.size());
    chk.check(drops > 0 && errs > 0 && poisons > 0, "faults: %u drops, %u error completions, %u poisoned", drops, errs,
              poisons);
    chk.check(tb.top->stat_bad_tlp == 0, "stat_bad_tlp %u", tb.top->stat_bad_tlp);
    chk.check(tb.top->stat_tags_used == 0, "%u tags still in use at the end", tb.top->stat_tags_used);
    uint64_t err_before = tb.n_rd_err;

    // bus mastering off: reads fail without TLPs, writes and MSIs are dropped
    tb.bus_master = false;
    tb.rc.cfg().bus_master = false;
    tb.rc.cfg().fault_percent = 0;
    uint64_t mrd_before = tb.rc.dev_reads(), mwr_before = tb.rc.dev_writes();
    long off_reads = 0, off_writes = 0;
    tb.rd_gen = [&](RdReq& q) {
        if (off_reads >= 20 || tb.rd_out.size() >= 4) return false;
        q = RdReq{};
        q.len = rand_len(tb.rng);
        q.addr = rand_dma_addr(tb.rng, q.len);
        q.id = 200 + (unsigned)(off_reads % 50);
        if (tb.rd_out.count(q.id)) return false;
        off_reads++;
        return true;
    };
    tb.wr_gen = [&](WrReq& w) {
        if (off_writes >= 10) return false;
        w = WrReq{};
        w.len = rand_len(tb.rng);
        w.addr = rand_dma_addr(tb.rng, w.len);
        w.data = rand_bytes(tb.rng, w.len);
        off_writes++;
        return true;
    };
    for (int i = 0; i < 5; i++) tb.msi_q.push_back(i);
    uint64_t wr_bytes = tb.wr_bytes_started;
    tb.run(2000000, [&]() { return off_reads < 20 || off_writes < 10 || tb.wr_cur_valid || !tb.rd_out.empty(); });
    chk.check(tb.rc.dev_reads() == mrd_before && tb.rc.dev_writes() == mwr_before,
              "TLPs sent with bus mastering off (%llu MRd, %llu MWr)", (unsigned long long)(tb.rc.dev_reads() - mrd_before),
              (unsigned long long)(tb.rc.dev_writes() - mwr_before));
    chk.check(tb.n_rd_err - err_before == 20, "%llu of 20 reads failed with bus mastering off",
              (unsigned long long)(tb.n_rd_err - err_before));
    // written ranges do not hold the data: forget them
    tb.written.clear();
    (void)wr_bytes;
    tb.shadow = tb.rc.mem();
    // back on: reads work again
    tb.bus_master = true;
    tb.rc.cfg().bus_master = true;
    tb.wr_gen = nullptr;
    long on_reads = 0;
    tb.rd_gen = [&](RdReq& q) {
        if (on_reads >= 10) return false;
        q = RdReq{};
        q.len = rand_len(tb.rng);
        q.addr = rand_dma_addr(tb.rng, q.len);
        q.id = 100 + (unsigned)on_reads;
        on_reads++;
        return true;
    };
    uint64_t err_mid = tb.n_rd_err;
    tb.run(2000000, [&]() { return on_reads < 10 || !tb.rd_out.empty() || tb.rd_cur_valid; });
    chk.check(tb.n_rd_err == err_mid, "reads failed after bus mastering came back");
    tb.final_checks();
    char s[200];
    std::snprintf(s, sizeof s, "%ld reads, %llu failed (%u dropped, %u error cpl, %u poisoned), %llu cycles", n,
                  (unsigned long long)err_before, drops, errs, poisons, (unsigned long long)tb.cyc);
    return chk.finish(seed, s);
}

// MSIs (vectors, data, ordering behind DMA writes), host reads ordered behind
// DMA writes, MSI disabled.
int test_msi(VerilatedContext* ctx, uint64_t seed, long n, tb::Checker& chk) {
    KoloPcieRc::Config c = base_rc(seed);
    c.tx_ready_percent = 80;
    Tb tb(ctx, seed, chk, c);
    tb.set_sizes(1, 1);
    tb.dma_wr_gap_pct = 10;
    tb.mmio_rd_lat_max = 6;
    long sent = 0, writes = 0, reads = 0;
    tb.wr_gen = [&](WrReq& w) {
        if (sent >= n) return false;
        w = WrReq{};
        w.len = 1 + tb.rng.below(tb.rng.chance(50) ? 64 : 1024);
        w.addr = 0x50000000ull + tb.rng.below(1u << 20);
        w.data = rand_bytes(tb.rng, w.len);
        writes++;
        return true;
    };
    tb.run(4000000, [&]() {
        if (sent >= n) return false;
        if (tb.rng.chance(3) && tb.msi_q.size() < 2) {
            tb.msi_q.push_back(tb.rng.below(32));
            sent++;
        }
        if (tb.rng.chance(2) && tb.rc.host_pending() < 2) {
            tb.host_read(0, tb.rng.below(kBar0Size / 8) * 8, 8);
            reads++;
        }
        return true;
    });
    size_t msis_on = tb.msi_exp.size();
    // MSI disabled: accepted, not sent
    tb.msi_en = false;
    tb.rc.cfg().msi_en = false;
    tb.wr_gen = nullptr;
    for (int i = 0; i < 6; i++) tb.msi_q.push_back(i);
    tb.run(100000, [&]() { return !tb.msi_q.empty(); });
    tb.final_checks();
    chk.check(msis_on == (size_t)n, "%zu MSIs accepted while enabled, %ld sent", msis_on, n);
    char s[200];
    std::snprintf(s, sizeof s, "%ld MSIs among %ld DMA writes and %ld host reads, %llu cycles", n, writes, reads,
                  (unsigned long long)tb.cyc);
    return chk.finish(seed, s);
}

// Everything at once.
int test_mixed(VerilatedContext* ctx, uint64_t seed, long n, tb::Checker& chk) {
    KoloPcieRc::Config c = base_rc(seed);
    c.rx_gap_percent = 10;
    c.tx_ready_percent = 75;
    c.cpl_latency_min = 30;
    c.cpl_latency_max = 250;
    Tb tb(ctx, seed, chk, c);
    tb.set_sizes(tb.rng.below(3), tb.rng.below(4));
    tb.mmio_wr_ready_pct = 80;
    tb.mmio_rd_ready_pct = 80;
    tb.mmio_rd_err_pct = 5;
    tb.dma_rd_ready_pct = 85;
    tb.dma_wr_gap_pct = 10;
    long wr = 0, rd = 0, host = 0;
    unsigned next_id = 0;
    tb.wr_gen = [&](WrReq& w) {
        if (wr >= n) return false;
        w = WrReq{};
        w.len = rand_len(tb.rng);
        w.addr = 0x60000000ull + tb.rng.below(1u << 24);
        w.data = rand_bytes(tb.rng, w.len);
        wr++;
        return true;
    };
    tb.rd_gen = [&](RdReq& q) {  // reads from a region nobody writes
        if (rd >= n || tb.rd_out.size() >= 8) return false;
        q = RdReq{};
        q.len = rand_len(tb.rng);
        q.addr = rand_dma_addr(tb.rng, q.len);
        while (tb.rd_out.count(next_id & 0xFF)) next_id++;
        q.id = next_id++ & 0xFF;
        rd++;
        return true;
    };
    tb.run(20000000, [&]() {
        if (host < n && tb.rc.host_pending() < 3 && tb.rng.chance(10)) {
            host++;
            if (tb.rng.chance(50)) tb.host_read(tb.rng.chance(50) ? 0 : 2, tb.rng.below(kBar2Size / 8) * 8, 8);
            else tb.host_write(2, tb.rng.below(kBar2Size / 64) * 64, rand_bytes(tb.rng, 64));
        }
        if (tb.rng.chance(1) && tb.msi_q.empty()) tb.msi_q.push_back(tb.rng.below(32));
        return wr < n || rd < n || host < n || tb.wr_cur_valid || !tb.rd_out.empty();
    });
    tb.final_checks();
    chk.check(tb.n_rd_err == 0, "%llu DMA reads failed", (unsigned long long)tb.n_rd_err);
    chk.check(tb.top->stat_ca == tb.n_ca && tb.top->stat_ur == 0 && tb.top->stat_bad_tlp == 0 &&
                  tb.top->stat_cpl_err == 0 && tb.top->stat_cpl_timeout == 0,
              "counters: ca %u (%llu) ur %u bad %u cpl_err %u timeout %u", tb.top->stat_ca,
              (unsigned long long)tb.n_ca, tb.top->stat_ur, tb.top->stat_bad_tlp, tb.top->stat_cpl_err,
              tb.top->stat_cpl_timeout);
    char s[200];
    std::snprintf(s, sizeof s, "%ld DMA writes, %ld DMA reads, %ld host accesses, %zu MSIs, %llu cycles", wr, rd, host,
                  tb.rc.msis().size(), (unsigned long long)tb.cyc);
    return chk.finish(seed, s);
}

// Completion space (issue 15): the root complex answers every MRd with one
// completion per 64-byte read completion boundary (the most headers), after
// 200..600 cycles, and delivers completions on only ~70% of cycles, while the
// user side takes only 5% of the host's MMIO writes (which share the receive
// stream with the completions and hold them up). DMA reads of up to 4 KB from
// 8 channels under MRRS 4096, 512 and 128. The block's buffer (the core's
// CPL_HDR_CREDITS/CPL_DATA_CREDITS) must never overflow; every read must
// complete without error; and the buffer must really have been under
// pressure (at least 3/4 of its headers held at once).
int test_cpl_space(VerilatedContext* ctx, uint64_t seed, long n, tb::Checker& chk) {
    KoloPcieRc::Config c = base_rc(seed);
    c.random_split = false;
    c.rcb = 64;
    c.reorder = true;
    c.cpl_latency_min = 200;
    c.cpl_latency_max = 600;
    c.cpl_gap_max = 0;
    c.rx_gap_percent = 30;
    Tb tb(ctx, seed, chk, c);
    tb.mmio_wr_ready_pct = 5;
    tb.dma_rd_ready_pct = 90;
    const unsigned mrrs_phase[3] = {5, 2, 0};
    long issued = 0;
    unsigned next_id = 0;
    uint32_t pio_off = 0;
    tb.rd_gen = [&](RdReq& q) {
        if (issued >= n || tb.rd_out.size() >= 24) return false;
        if (issued && issued % (n / 3 + 1) == 0 && !tb.rd_out.empty()) return false;  // drain between phases
        q = RdReq{};
        q.chan = (int)(issued % 8);
        q.len = tb.rng.chance(70) ? 4096 - tb.rng.below(8) : 1 + tb.rng.below(4096);
        q.addr = 0x50000000ull + ((uint64_t)q.chan << 24) + tb.rng.below(1u << 20);
        while (tb.rd_out.count(next_id & 0xFF)) next_id++;
        q.id = next_id++ & 0xFF;
        issued++;
        return true;
    };
    long last_phase = -1;
    tb.run(40000000, [&]() {
        long ph = issued / (n / 3 + 1);
        if (ph != last_phase && tb.rd_out.empty() && !tb.rd_cur_valid && tb.rc.idle()) {
            last_phase = ph;
            tb.set_sizes(1, mrrs_phase[ph % 3]);
        }
        // the host keeps writing its PIO window while reads are in flight
        if (issued < n && tb.exp_chunks.size() < 4 && tb.rc.host_queued() < 4 && tb.rng.chance(20)) {
            tb.host_write(2, pio_off, rand_bytes(tb.rng, 64));
            pio_off = (pio_off + 64) & (kBar2Size - 1);
        }
        return issued < n || !tb.rd_out.empty() || tb.rd_cur_valid;
    });
    tb.final_checks();
    auto occ = tb.rc.max_cpl_space();
    chk.check(tb.n_rd_done == (uint64_t)n, "%llu DMA reads done, %ld issued", (unsigned long long)tb.n_rd_done, n);
    chk.check(tb.n_rd_err == 0 && tb.top->stat_cpl_timeout == 0 && tb.top->stat_bad_tlp == 0,
              "%llu DMA reads failed, %u timeouts, %u bad TLPs", (unsigned long long)tb.n_rd_err,
              tb.top->stat_cpl_timeout, tb.top->stat_bad_tlp);
    chk.check(occ.first * 4 >= TB_CPL_H * 3, "the completion buffer held at most %u of %u headers: no pressure",
              occ.first, TB_CPL_H);
    char s[240];
    std::snprintf(s, sizeof s, "%ld reads, %llu MRd, %llu completions, %llu MMIO chunks, buffer max %u/%u headers "
                  "%u/%u data credits, %llu cycles", n, (unsigned long long)tb.rc.dev_reads(),
                  (unsigned long long)tb.rc.cpls_sent(), (unsigned long long)tb.n_chunks, occ.first, TB_CPL_H,
                  occ.second, TB_CPL_D, (unsigned long long)tb.cyc);
    return chk.finish(seed, s);
}

// Throughput, no backpressure: DMA reads of `len` bytes (completion latency
// 100..200 cycles, MPS 256, MRRS 512) or DMA writes of 4 KB; prints a BENCH
// line with the user-side bytes per cycle after a warm-up.
int test_bw(VerilatedContext* ctx, uint64_t seed, bool write, unsigned len, const char* name, tb::Checker& chk) {
    KoloPcieRc::Config c = base_rc(seed);
    c.cpl_latency_min = 100;
    c.cpl_latency_max = 200;
    Tb tb(ctx, seed, chk, c);
    tb.set_sizes(1, 2);
    unsigned next_id = 0;
    uint64_t t0 = 0, b0 = 0, bytes = 0;
    const uint64_t warm = 5000, window = 50000;
    if (write) {
        tb.wr_gen = [&](WrReq& w) {
            if (tb.cyc >= warm + window) return false;
            w = WrReq{};
            w.len = len;
            w.addr = 0x70000000ull + (uint64_t)tb.rng.below(1u << 16) * 4096;
            w.data.assign(len, 0x5A);
            return true;
        };
    } else {
        tb.rd_gen = [&](RdReq& q) {
            if (tb.cyc >= warm + window) return false;
            q = RdReq{};
            q.len = len;
            q.addr = 0x70000000ull + (uint64_t)tb.rng.below(1u << 16) * 4096;
            while (tb.rd_out.count(next_id & 0xFF)) next_id++;
            q.id = next_id++ & 0xFF;
            return true;
        };
        tb.rd_done_cb = [&](const RdReq& q, bool) { bytes += q.len; };
    }
    tb.run(warm + window + 200000, [&]() {
        if (tb.cyc == warm) {
            t0 = tb.cyc;
            b0 = write ? tb.rc.dev_bytes_written() : bytes;
        }
        if (tb.cyc == warm + window) {
            uint64_t b = (write ? tb.rc.dev_bytes_written() : bytes) - b0;
            std::printf("BENCH %s %.2f bytes/cycle\n", name, (double)b / (double)(tb.cyc - t0));
        }
        return tb.cyc <= warm + window;
    });
    tb.final_checks();
    return chk.finish(seed, name);
}

// DMA read bandwidth and latency under the completion-credit limit
// (BENCH): reads of 4 KiB kept outstanding (up to the core's 32 requests),
// completion latency 200..300 cycles (~1 us round trip at 250 MHz), the
// completer splitting at every 64-byte RCB (worst case: the most headers)
// or in MPS-sized (256-byte) pieces, the link's rate as the share of cycles
// the root complex may deliver a beat (Gen2 x8 ~4 GB/s = 16 bytes/cycle of
// the core's 32: 50%; Gen3 x16 faster than the core's 32 bytes/cycle:
// 100%). The core is given the block's completion space (cpl_h, cpl_d);
// 4095/65535 is "no limit" for comparison. Prints bytes/cycle and the mean
// and 99th-percentile read latency (request accepted to last beat).
int test_bw_cpl(VerilatedContext* ctx, uint64_t seed, const char* name, unsigned cpl_h, unsigned cpl_d,
                unsigned gap_pct, bool split_rcb, tb::Checker& chk) {
    KoloPcieRc::Config c = base_rc(seed);
    c.cpl_latency_min = 200;
    c.cpl_latency_max = 300;
    c.cpl_gap_max = 0;
    c.rx_gap_percent = gap_pct;
    c.random_split = false;
    c.rcb = split_rcb ? 64 : 256;  // a completion per 64 bytes, or per 256 (= MPS)
    c.reorder = true;
    c.cpl_space_h = cpl_h;
    c.cpl_space_d = cpl_d;
    Tb tb(ctx, seed, chk, c);
    tb.cpl_h = cpl_h;
    tb.cpl_d = cpl_d;
    tb.set_sizes(1, 5);  // MPS 256 (completions of at most 256 bytes), MRRS 4096
    unsigned next_id = 0;
    uint64_t b0 = 0, bytes = 0, t0 = 0;
    const uint64_t warm = 10000, window = 60000;
    std::vector<uint64_t> lat;
    tb.rd_gen = [&](RdReq& q) {
        if (tb.cyc >= warm + window) return false;
        q = RdReq{};
        q.len = 4096;
        q.addr = 0x70000000ull + (uint64_t)tb.rng.below(1u << 16) * 4096;
        while (tb.rd_out.count(next_id & 0xFF)) next_id++;
        q.id = next_id++ & 0xFF;
        return true;
    };
    tb.rd_done_cb = [&](const RdReq& q, bool) {
        bytes += q.len;
        if (tb.cyc >= warm && tb.cyc < warm + window) lat.push_back(tb.cyc - q.t_acc);
    };
    tb.run(warm + window + 200000, [&]() {
        if (tb.cyc == warm) {
            t0 = tb.cyc;
            b0 = bytes;
        }
        if (tb.cyc == warm + window) {
            std::sort(lat.begin(), lat.end());
            double mean = 0;
            for (auto l : lat) mean += (double)l;
            mean = lat.empty() ? 0 : mean / (double)lat.size();
            uint64_t p99 = lat.empty() ? 0 : lat[lat.size() * 99 / 100];
            double bpc = (double)(bytes - b0) / (double)(tb.cyc - t0);
            std::printf("BENCH %s_rd_bw %.2f bytes/cycle\n", name, bpc);
            std::printf("BENCH %s_rd_gbps %.2f GB/s\n", name, bpc * 0.25);  // at 250 MHz
            std::printf("BENCH %s_rd_lat_mean %.0f cycles\n", name, mean);
            std::printf("BENCH %s_rd_lat_p99 %llu cycles\n", name, (unsigned long long)p99);
        }
        return tb.cyc <= warm + window;
    });
    tb.final_checks();
    auto occ = tb.rc.max_cpl_space();
    char s[200];
    std::snprintf(s, sizeof s, "%s: buffer %u/%u, max held %u headers %u data credits", name, cpl_h, cpl_d, occ.first,
                  occ.second);
    return chk.finish(seed, s);
}

}  // namespace

int main(int argc, char** argv) {
    auto* ctx = new VerilatedContext;
    ctx->commandArgs(argc, argv);
    uint64_t seed = tb::seed_from(argc, argv, 1);
    std::string test;
    long n = -1;
    for (int i = 1; i < argc; i++) {
        if (!std::strncmp(argv[i], "--test=", 7)) test = argv[i] + 7;
        if (!std::strncmp(argv[i], "--n=", 4)) n = std::strtol(argv[i] + 4, nullptr, 0);
        if (!std::strncmp(argv[i], "--bug=", 6)) g_bug = argv[i] + 6;
    }
    std::string name = "pcie-ep-" + test;
    tb::Checker chk(name.c_str());
    std::printf("%s: seed %llu%s%s\n", name.c_str(), (unsigned long long)seed, g_bug.empty() ? "" : ", deliberate bug ",
                g_bug.c_str());
    int rc;
    if (test == "mmio") rc = test_mmio(ctx, seed, n < 0 ? 20000 : n, chk);
    else if (test == "ur") rc = test_ur(ctx, seed, n < 0 ? 30 : n, chk);
    else if (test == "dma-rd") rc = test_dma_rd(ctx, seed, n < 0 ? 4000 : n, chk);
    else if (test == "dma-rd-many") rc = test_dma_rd_many(ctx, seed, n < 0 ? 150 : n, chk);
    else if (test == "dma-wr") rc = test_dma_wr(ctx, seed, n < 0 ? 4000 : n, chk);
    else if (test == "dma-err") rc = test_dma_err(ctx, seed, n < 0 ? 2000 : n, chk);
    else if (test == "msi") rc = test_msi(ctx, seed, n < 0 ? 1000 : n, chk);
    else if (test == "mixed") rc = test_mixed(ctx, seed, n < 0 ? 2000 : n, chk);
    else if (test == "cpl-space") rc = test_cpl_space(ctx, seed, n < 0 ? 600 : n, chk);
    else if (test == "bw-rd") rc = test_bw(ctx, seed, false, 4096, "pcie_ep_dma_rd_bw_4k", chk);
    else if (test == "bw-rd-small") rc = test_bw(ctx, seed, false, 64, "pcie_ep_dma_rd_bw_64", chk);
    else if (test == "bw-wr") rc = test_bw(ctx, seed, true, 4096, "pcie_ep_dma_wr_bw_4k", chk);
    // completion-space benchmarks: Gen2 x8 (7-series-sized buffer, 50% of the core's rate),
    // Gen3 x16 (UltraScale+ PG213 buffer, full rate); RCB-64 splits or 256-byte pieces; no limit
    else if (test == "bw-cpl-gen2x8-rcb64") rc = test_bw_cpl(ctx, seed, "pcie_cpl_gen2x8_rcb64", 32, 512, 50, true, chk);
    else if (test == "bw-cpl-gen2x8-mps256") rc = test_bw_cpl(ctx, seed, "pcie_cpl_gen2x8_mps256", 32, 512, 50, false, chk);
    else if (test == "bw-cpl-gen3x16-rcb64") rc = test_bw_cpl(ctx, seed, "pcie_cpl_gen3x16_rcb64", 128, 2048, 0, true, chk);
    else if (test == "bw-cpl-gen3x16-mps256") rc = test_bw_cpl(ctx, seed, "pcie_cpl_gen3x16_mps256", 128, 2048, 0, false, chk);
    else if (test == "bw-cpl-nolimit") rc = test_bw_cpl(ctx, seed, "pcie_cpl_nolimit_rcb64", 4095, 65535, 0, true, chk);
    else {
        std::fprintf(stderr, "usage: %s --test=mmio|ur|dma-rd|dma-rd-many|dma-wr|dma-err|msi|mixed|cpl-space|bw-rd|bw-rd-small|bw-wr [--seed=N] [--n=N] "
                             "[--bug=chunk-strb|ur-status|rd-data|rd-order|dma-data|dma-err|msi|cpl-space]\n", argv[0]);
        return 2;
    }
    delete ctx;
    return rc;
}
