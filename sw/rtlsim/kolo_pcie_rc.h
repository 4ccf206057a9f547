// kolo_pcie_rc.h - a cycle-stepped PCIe root-complex model for the kolo
// endpoint core (kolo_pcie_ep, docs/ni.md section 6), header-only, C++17.
//
// Length (~1020 lines): header-only on purpose (every testbench and kolo-sim
// back end includes it without a library); the TLP type, the host side and
// the device-side checks are one class because they share the tag and
// ordering state.
//
// The model is the host side of the TLP streams: it owns host memory, turns
// host MMIO requests into TLPs to the device, serves the device's memory
// reads with completions and applies its memory writes, records MSIs, and
// checks every TLP the device sends against the PCIe rules the core must
// keep. Violations are collected as messages (violations()); a test fails if
// there are any. Used by kolo-sim --ni=rtl (sw/sim/ni_rtl.cpp) and
// --net=chip, and by the Verilator testbenches of the endpoint, the shims
// and the chip, which include it from here (it includes nothing of theirs).
//
// Port protocol (one call sequence per clock cycle, as the device sees it):
//     drive rx_tlp_* from dev_rx_valid()/dev_rx_beat(), tx_tlp_ready from
//     dev_tx_ready(); evaluate; then, at the clock edge:
//     if (rx_tlp_valid && rx_tlp_ready) rc.dev_rx_accept();
//     if (tx_tlp_valid && tx_tlp_ready) rc.dev_tx_push(beat);
//     rc.step();
// dev_rx_* is the device's receive port (RC -> device), dev_tx_* its
// transmit port (device -> RC). Beats follow the stream format of
// docs/ni.md 6: header DW0..3 on the sop beat (zero on the others), payload
// DW0 in data[0] of the first beat, dw_en marks payload DWs.
//
// Host -> device: host_write() (one MWr), host_read() (one MRd, 0..4096
// bytes), host_send_np() / host_send_posted() for any other TLP (I/O,
// configuration, messages, atomics, poisoned or malformed ones). Requests
// leave in order, mmio_latency cycles after the call at the earliest.
// host_result(handle) has the completion of a non-posted request.
//
// Host memory is the model's own sparse memory (mem(); bytes never written
// read as a hash of their address), or another one through set_memory(), or
// set_memory_checked() whose functions may fail: a failed read is answered
// with a UR completion, a failed write is dropped, both count in
// mem_errors() (kolo-sim --ni=rtl: a PE's address space). host_queued():
// host requests not yet taken by the device (for flow control).
//
// Device -> host: memory reads are answered cpl_latency_min..max cycles after
// the MRd arrived (data as host memory was when the MRd arrived: reads are
// ordered behind the device's earlier writes), split at the read completion
// boundary (rcb) into completions of at most mps bytes (random_split: random
// multiples of rcb, else one per rcb), optionally reordered across tags
// (reorder; the completions of one tag stay in address order, and no
// completion passes an earlier posted request of the host). Bytes of the
// first/last DW outside the request are garbage. Faults: add_fault() ranges
// (and fault_percent random faults) make a read fail after a random number
// of good completions: kFaultUR / kFaultCA (an error completion ends it),
// kFaultDrop (the rest never comes: the device must time out; the tag must
// not be reused before cpl_timeout_min cycles after the MRd), kFaultPoison
// (one completion has EP set). failed_reads() lists them.
// Memory writes go to host memory (byte enables), except a write to
// msi_addr, which is recorded as an MSI.
// Completion space (cpl_space_h / cpl_space_d, 0: not modelled): the vendor
// block's receive buffer that holds a completion from the cycle it arrives
// (its ready_at) until its last beat was taken by the device. Each
// completion takes one header and ceil(Length / 4) + 1 data credits of 16
// bytes (the header is charged in the data RAM too, as the UltraScale blocks
// do). Going over either is a violation: the real block would drop the
// completion. max_cpl_space() has the highest occupancy seen.
// Non-posted flow control (np_credit_gate): a host non-posted request is
// sent only with a credit the device gave (dev_np_credit(), one per pulse of
// the core's np_credit); requests stay in order behind it, completions pass.
// dev_rx_is_cpl() tells a harness with a separate completion stream (the
// UltraScale RC stream, kolo_chip's rx_cpl_*) where the current TLP goes.
//
// Checks on device TLPs: framing (sop/eop, dw_en contiguous, full beats but
// the last, payload DWs == Length), only MRd/MWr/Cpl/CplD/CplLk types,
// 3-DW header below 4 GB and 4-DW above, DW3 0 with a 3-DW header, address
// DW-aligned, reserved/TD/EP/AT bits 0, requester id, byte enable rules,
// MWr payload <= mps, MRd size <= mrrs, no 4 KB crossing, tag < tags and not
// in use, bus mastering enabled, MSI enabled and well-formed; completions:
// an outstanding host request with this tag, completer id, status SC/UR/CA,
// data iff SC, Length, byte count and lower address as PCIe 2.2.9/2.3.1.1
// require, TC and attributes copied, CplLk iff the request was locked.
#pragma once

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace kolo {

// ---- TLP encoding --------------------------------------------------------------------
enum PcieFmt : unsigned { kFmt3DW = 0, kFmt4DW = 1, kFmt3DWData = 2, kFmt4DWData = 3, kFmtPrefix = 4 };
enum PcieType : unsigned {
    kTypeMem = 0x00, kTypeMemLk = 0x01, kTypeIo = 0x02, kTypeCfg0 = 0x04, kTypeCfg1 = 0x05,
    kTypeCpl = 0x0A, kTypeCplLk = 0x0B, kTypeFetchAdd = 0x0C, kTypeSwap = 0x0D, kTypeCas = 0x0E,
    kTypeMsg = 0x10  // 10rrr: routing in the low 3 bits
};
enum PcieCplStatus : unsigned { kCplSC = 0, kCplUR = 1, kCplCRS = 2, kCplCA = 4 };

struct PcieBeat {
    uint32_t hdr[4] = {0, 0, 0, 0};
    uint32_t data[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    bool sop = false, eop = false;
    uint8_t dw_en = 0;
};

inline unsigned pcie_popcount(unsigned v) { return (unsigned)__builtin_popcount(v); }
inline int pcie_lowest_bit(unsigned v) { return v ? __builtin_ctz(v) : -1; }
inline int pcie_highest_bit(unsigned v) { return v ? 31 - __builtin_clz(v) : -1; }

struct PcieTlp {
    uint32_t hdr[4] = {0, 0, 0, 0};
    std::vector<uint32_t> data;  // payload DWs

    unsigned fmt() const { return hdr[0] >> 29; }
    unsigned type() const { return (hdr[0] >> 24) & 31; }
    bool has_data() const { return (fmt() & 2) != 0; }
    bool hdr4() const { return (fmt() & 1) != 0; }
    unsigned len_field() const { return hdr[0] & 0x3FF; }
    unsigned length() const { return len_field() ? len_field() : 1024; }  // DWs
    unsigned tc() const { return (hdr[0] >> 20) & 7; }
    unsigned attr() const { return ((hdr[0] >> 16) & 4) | ((hdr[0] >> 12) & 3); }  // {IDO, RO, NS}
    bool td() const { return (hdr[0] >> 15) & 1; }
    bool ep() const { return (hdr[0] >> 14) & 1; }
    unsigned at() const { return (hdr[0] >> 10) & 3; }
    unsigned tag_hi() const { return ((hdr[0] >> 22) & 2) | ((hdr[0] >> 19) & 1); }  // T9, T8
    // requests
    uint16_t req_id() const { return (uint16_t)(hdr[1] >> 16); }
    unsigned tag() const { return (hdr[1] >> 8) & 0xFF; }
    unsigned fbe() const { return hdr[1] & 0xF; }
    unsigned lbe() const { return (hdr[1] >> 4) & 0xF; }
    uint64_t addr() const {
        return hdr4() ? ((uint64_t)hdr[2] << 32) | (hdr[3] & ~3u) : (uint64_t)(hdr[2] & ~3u);
    }
    unsigned addr_low_bits() const { return (hdr4() ? hdr[3] : hdr[2]) & 3; }
    // completions
    uint16_t cpl_completer() const { return (uint16_t)(hdr[1] >> 16); }
    unsigned cpl_status() const { return (hdr[1] >> 13) & 7; }
    bool cpl_bcm() const { return (hdr[1] >> 12) & 1; }
    unsigned cpl_bc() const { return (hdr[1] & 0xFFF) ? (hdr[1] & 0xFFF) : 4096; }
    uint16_t cpl_req_id() const { return (uint16_t)(hdr[2] >> 16); }
    unsigned cpl_tag() const { return (hdr[2] >> 8) & 0xFF; }
    unsigned cpl_la() const { return hdr[2] & 0x7F; }
    bool is_cpl() const { return (fmt() == kFmt3DW || fmt() == kFmt3DWData) && (type() == kTypeCpl || type() == kTypeCplLk); }
    bool is_mem() const { return fmt() < 4 && type() == kTypeMem; }

    std::vector<PcieBeat> beats() const {
        std::vector<PcieBeat> v;
        size_t n = has_data() ? (data.size() + 7) / 8 : 1;
        if (n == 0) n = 1;
        for (size_t b = 0; b < n; b++) {
            PcieBeat x;
            x.sop = (b == 0);
            x.eop = (b == n - 1);
            if (b == 0) std::memcpy(x.hdr, hdr, sizeof hdr);
            for (size_t i = 0; i < 8 && b * 8 + i < data.size(); i++) {
                x.data[i] = data[b * 8 + i];
                x.dw_en |= (uint8_t)(1u << i);
            }
            v.push_back(x);
        }
        return v;
    }

    std::string name() const {
        unsigned f = fmt(), t = type();
        if (f >= 4) return "prefix";
        if (t == kTypeMem) return has_data() ? "MWr" : "MRd";
        if (t == kTypeMemLk) return "MRdLk";
        if (t == kTypeIo) return has_data() ? "IOWr" : "IORd";
        if (t == kTypeCfg0) return has_data() ? "CfgWr0" : "CfgRd0";
        if (t == kTypeCfg1) return has_data() ? "CfgWr1" : "CfgRd1";
        if (t == kTypeCpl) return has_data() ? "CplD" : "Cpl";
        if (t == kTypeCplLk) return has_data() ? "CplDLk" : "CplLk";
        if (t == kTypeFetchAdd) return "FetchAdd";
        if (t == kTypeSwap) return "Swap";
        if (t == kTypeCas) return "CAS";
        if ((t & 0x18) == kTypeMsg) return has_data() ? "MsgD" : "Msg";
        return "unknown";
    }
    std::string str() const {
        char b[256];
        if (is_cpl())
            std::snprintf(b, sizeof b, "%s len=%u cpl_id=%04x st=%u bc=%u req=%04x tag=%u la=0x%02x [%08x %08x %08x %08x]",
                          name().c_str(), has_data() ? length() : 0, cpl_completer(), cpl_status(), cpl_bc(),
                          cpl_req_id(), cpl_tag(), cpl_la(), hdr[0], hdr[1], hdr[2], hdr[3]);
        else
            std::snprintf(b, sizeof b, "%s len=%u req=%04x tag=%u fbe=%x lbe=%x addr=0x%llx [%08x %08x %08x %08x]",
                          name().c_str(), length(), req_id(), tag(), fbe(), lbe(), (unsigned long long)addr(),
                          hdr[0], hdr[1], hdr[2], hdr[3]);
        return b;
    }
};

inline uint32_t pcie_dw0(unsigned fmt, unsigned type, unsigned len_dw, unsigned tc = 0, unsigned attr = 0,
                         bool ep = false) {
    return (fmt << 29) | (type << 24) | ((tc & 7) << 20) | ((attr & 4) << 16) | ((ep ? 1u : 0u) << 14) |
           ((attr & 3) << 12) | (len_dw & 0x3FF);
}

// Byte enables of the DW-aligned access covering [addr, addr+len) (len >= 1).
inline void pcie_bes(uint64_t addr, unsigned len, unsigned& len_dw, unsigned& fbe, unsigned& lbe) {
    uint64_t first = addr & ~3ull, end = addr + len;
    len_dw = (unsigned)(((end + 3) & ~3ull) - first) / 4;
    unsigned f = (0xFu << (addr & 3)) & 0xF;
    unsigned l = 0xFu >> ((4 - (end & 3)) & 3);
    if (len_dw == 1) {
        fbe = f & l;
        lbe = 0;
    } else {
        fbe = f;
        lbe = l;
    }
}

// Byte count of a memory read request (PCIe 2.3.1.1), from Length and BEs.
inline unsigned pcie_read_byte_count(unsigned len_dw, unsigned fbe, unsigned lbe) {
    if (len_dw == 1) {
        if (fbe == 0) return 1;
        return (unsigned)(pcie_highest_bit(fbe) - pcie_lowest_bit(fbe) + 1);
    }
    int lo = pcie_lowest_bit(fbe), hi = pcie_highest_bit(lbe);
    if (lo < 0) lo = 0;
    if (hi < 0) hi = 3;
    return 4 * len_dw - (unsigned)lo - (unsigned)(3 - hi);
}
// Lower address of the first completion of a memory read.
inline unsigned pcie_read_lower_addr(uint64_t dw_addr, unsigned fbe) {
    int lo = pcie_lowest_bit(fbe);
    return (unsigned)((dw_addr & 0x7C) | (lo < 0 ? 0 : (unsigned)lo));
}
// Byte-enable rules of a memory request (PCIe 2.2.5); "" when legal.
inline std::string pcie_be_error(uint64_t addr, unsigned len_dw, unsigned fbe, unsigned lbe, bool write) {
    auto contiguous = [](unsigned m) { return m == 0 || ((m >> pcie_lowest_bit(m)) & ((m >> pcie_lowest_bit(m)) + 1)) == 0; };
    if (len_dw == 1) {
        if (lbe != 0) return "Length 1 with a non-zero last BE";
        (void)write;
        return "";
    }
    if (fbe == 0 || lbe == 0) return "Length > 1 with a zero first or last BE";
    bool qw_pair = (len_dw == 2) && ((addr & 7) == 0);
    if (!qw_pair) {
        // first BE must reach up to byte 3, last BE must start at byte 0, each contiguous
        if (!contiguous(fbe) || !(fbe & 8)) return "first BE not contiguous to the end of the DW";
        if (!contiguous(lbe) || !(lbe & 1)) return "last BE not contiguous from the start of the DW";
    }
    return "";
}

// ---- builders for host requests ------------------------------------------------------
inline PcieTlp pcie_mem_read(uint64_t addr, unsigned len, uint16_t req_id, unsigned tag, bool force4 = false) {
    PcieTlp t;
    unsigned ldw, fbe, lbe;
    if (len == 0) {
        ldw = 1; fbe = 0; lbe = 0;  // zero-length read
    } else {
        pcie_bes(addr, len, ldw, fbe, lbe);
    }
    bool h4 = force4 || (addr >> 32) != 0;
    t.hdr[0] = pcie_dw0(h4 ? kFmt4DW : kFmt3DW, kTypeMem, ldw);
    t.hdr[1] = ((uint32_t)req_id << 16) | ((tag & 0xFF) << 8) | (lbe << 4) | fbe;
    if (h4) {
        t.hdr[2] = (uint32_t)(addr >> 32);
        t.hdr[3] = (uint32_t)addr & ~3u;
    } else {
        t.hdr[2] = (uint32_t)addr & ~3u;
    }
    return t;
}
inline PcieTlp pcie_mem_write(uint64_t addr, const uint8_t* p, unsigned len, uint16_t req_id, bool force4 = false) {
    PcieTlp t = pcie_mem_read(addr, len, req_id, 0, force4);
    unsigned ldw = t.length();
    t.hdr[0] |= (2u << 29);  // with data
    t.data.assign(ldw, 0);
    uint64_t first = addr & ~3ull;
    for (unsigned i = 0; i < len; i++) {
        uint64_t o = addr + i - first;
        t.data[o / 4] |= (uint32_t)p[i] << (8 * (o % 4));
    }
    return t;
}

// ---- sparse host memory ----------------------------------------------------------------
// Bytes never written read as pattern(addr), a hash of the address.
class PcieHostMem {
  public:
    static uint8_t pattern(uint64_t a) {
        uint64_t z = a * 0x9E3779B97F4A7C15ull;
        z ^= z >> 29;
        z *= 0xBF58476D1CE4E5B9ull;
        return (uint8_t)(z >> 56);
    }
    uint8_t get(uint64_t a) const {
        auto it = pages_.find(a >> 12);
        if (it == pages_.end()) return pattern(a);
        return it->second[a & 0xFFF];
    }
    void set(uint64_t a, uint8_t v) { page(a)[a & 0xFFF] = v; }
    void read(uint64_t a, uint8_t* p, size_t n) const {
        for (size_t i = 0; i < n; i++) p[i] = get(a + i);
    }
    void write(uint64_t a, const uint8_t* p, size_t n) {
        for (size_t i = 0; i < n; i++) set(a + i, p[i]);
    }

  private:
    std::vector<uint8_t>& page(uint64_t a) {
        auto it = pages_.find(a >> 12);
        if (it != pages_.end()) return it->second;
        std::vector<uint8_t>& pg = pages_[a >> 12];
        pg.resize(4096);
        for (unsigned i = 0; i < 4096; i++) pg[i] = pattern((a & ~0xFFFull) + i);
        return pg;
    }
    std::unordered_map<uint64_t, std::vector<uint8_t>> pages_;
};

// ---- the root complex --------------------------------------------------------------------
class KoloPcieRc {
  public:
    enum Fault { kFaultNone = 0, kFaultUR, kFaultCA, kFaultDrop, kFaultPoison };

    struct Config {
        uint16_t rc_id = 0x0000;      // requester id of the host's requests
        uint16_t dev_id = 0x0100;     // the device's id (cfg_req_id)
        unsigned mps = 256;           // max payload size, bytes (device and completions)
        unsigned mrrs = 512;          // max read request size the device was given
        unsigned rcb = 64;            // read completion boundary of the root complex
        unsigned tags = 32;           // the device must use tags below this
        unsigned mmio_latency = 8;    // host request -> TLP, cycles
        unsigned cpl_latency_min = 40, cpl_latency_max = 200;  // MRd -> first completion
        unsigned cpl_gap_max = 4;     // extra cycles between the completions of one read
        bool reorder = true;          // completions of different tags in random order
        bool random_split = true;     // completion sizes: random multiples of rcb (<= mps)
        unsigned rx_gap_percent = 0;  // idle cycles on the device's rx port
        unsigned tx_ready_percent = 100;  // tx_tlp_ready probability
        bool bus_master = true;
        bool msi_en = true;
        uint64_t msi_addr = 0xFEE00000ull;
        uint64_t cpl_timeout_min = 0;  // a dropped read's tag may not be reused earlier (cycles after the MRd)
        unsigned fault_percent = 0;    // random faults on device reads
        unsigned cpl_space_h = 0, cpl_space_d = 0;  // the block's completion buffer (0: not modelled)
        // non-posted flow control: a host non-posted request waits for a
        // credit the device gave (dev_np_credit(), the core's np_credit
        // pulses); np_credit_max > 0: more credits outstanding is a violation
        bool np_credit_gate = false;
        unsigned np_credit_max = 0;
        std::vector<Fault> fault_kinds{kFaultUR, kFaultCA, kFaultDrop, kFaultPoison};
        uint64_t seed = 1;
    };
    struct HostResult {
        bool done = false;
        unsigned status = 0;
        unsigned byte_count = 0, lower_addr = 0;
        std::vector<uint32_t> data;   // payload DWs of the completion
        uint64_t sent_cycle = 0, done_cycle = 0;
        uint64_t bytes_before = 0;    // device write bytes that had arrived before the completion
    };
    struct DevRead {
        uint64_t addr;   // first byte
        unsigned bytes;
        unsigned tag;
        Fault fault;
        uint64_t cycle;
    };
    struct Msi {
        uint64_t addr;
        uint32_t data;
        uint64_t cycle;
        uint64_t bytes_before;  // device write bytes that had arrived before it
    };

    explicit KoloPcieRc(const Config& c) : cfg_(c), rng_(c.seed ? c.seed : 1) { roll(); }

    Config& cfg() { return cfg_; }
    // Host memory: the model's own sparse memory, unless set_memory() gives
    // functions that read and write another one (e.g. a process's memory).
    PcieHostMem& mem() { return mem_; }
    using MemFn = std::function<void(uint64_t addr, uint8_t* p, size_t n)>;
    using MemWriteFn = std::function<void(uint64_t addr, const uint8_t* p, size_t n)>;
    void set_memory(MemFn rd, MemWriteFn wr) {
        mem_rd_ = std::move(rd);
        mem_wr_ = std::move(wr);
    }
    // The same with failures: a read that fails is answered with a UR
    // completion (the device sees an error), a write that fails is dropped;
    // both are counted in mem_errors().
    using MemTryFn = std::function<bool(uint64_t addr, uint8_t* p, size_t n)>;
    using MemTryWriteFn = std::function<bool(uint64_t addr, const uint8_t* p, size_t n)>;
    void set_memory_checked(MemTryFn rd, MemTryWriteFn wr) {
        mem_try_rd_ = std::move(rd);
        mem_try_wr_ = std::move(wr);
    }
    uint64_t mem_errors() const { return n_mem_err_; }
    const PcieHostMem& mem() const { return mem_; }
    uint64_t cycle() const { return now_; }

    // ---- host requests ----
    void host_write(uint64_t addr, const uint8_t* p, unsigned len, bool force4 = false) {
        if (len == 0 || len > 4096 || ((addr + len - 1) >> 12) != (addr >> 12))
            violation_local("host_write: bad length or crosses 4 KB (test bug)");
        queue_request(pcie_mem_write(addr, p, len, cfg_.rc_id, force4), false, -1);
    }
    // len 0: zero-length read
    int host_read(uint64_t addr, unsigned len, bool force4 = false) {
        return host_send_np(pcie_mem_read(addr, len, cfg_.rc_id, 0, force4));
    }
    // Any non-posted request; requester id and tag are filled in.
    int host_send_np(PcieTlp t) {
        unsigned tag = alloc_host_tag();
        t.hdr[1] = ((uint32_t)cfg_.rc_id << 16) | (tag << 8) | (t.hdr[1] & 0xFF);
        int h = (int)results_.size();
        results_.push_back(HostResult{});
        HostReq r;
        r.handle = h;
        r.tlp = t;
        host_tags_[tag] = r;
        queue_request(t, true, h);
        return h;
    }
    // Any TLP sent as it is (posted requests, stray completions, malformed TLPs).
    void host_send_posted(const PcieTlp& t) { queue_request(t, false, -1); }
    const HostResult& host_result(int h) const { return results_.at((size_t)h); }
    unsigned host_pending() const { return (unsigned)host_tags_.size(); }

    // ---- device read faults ----
    void add_fault(uint64_t lo, uint64_t hi, Fault f) { faults_.push_back(FaultRange{lo, hi, f}); }
    void clear_faults() { faults_.clear(); }
    const std::vector<DevRead>& failed_reads() const { return failed_; }

    // ---- ports ----
    bool dev_rx_valid() const { return cur_active_ && !gap_; }
    const PcieBeat& dev_rx_beat() const { return cur_beats_[cur_idx_]; }
    void dev_rx_accept() {
        if (!dev_rx_valid()) {
            violation_local("dev_rx_accept without a valid beat (harness bug)");
            return;
        }
        cur_idx_++;
        if (cur_idx_ == cur_beats_.size()) delivered(cur_);
    }
    // the TLP on dev_rx is a completion (kind of stream: UltraScale RC vs CQ)
    bool dev_rx_is_cpl() const { return cur_active_ && cur_.kind == 2; }
    // one non-posted credit from the device (np_credit_gate)
    void dev_np_credit() {
        np_credits_++;
        n_np_credits_++;
        if (cfg_.np_credit_max && np_credits_ > cfg_.np_credit_max)
            violation("device gave %u non-posted credits, its queue holds %u", np_credits_, cfg_.np_credit_max);
    }
    bool dev_tx_ready() const { return up_ready_; }
    void dev_tx_push(const PcieBeat& b) { up_beat(b); }

    void step() {
        now_++;
        if (!cur_active_) pick_next();
        roll();
        if (cfg_.cpl_space_h || cfg_.cpl_space_d) check_cpl_space();
    }

    // ---- state and results ----
    // nothing queued or in flight; dropped reads do not count
    bool idle() const {
        return !cur_active_ && down_.empty() && host_tags_.empty() && busy_tags() == 0 && !up_in_tlp_;
    }
    bool quiet_down() const { return !cur_active_ && down_.empty(); }
    // host requests (posted and non-posted) queued or being sent, not yet taken by the device
    unsigned host_queued() const {
        unsigned n = (cur_active_ && cur_.kind != 2) ? 1u : 0u;
        for (auto& d : down_) n += d.kind != 2 ? 1u : 0u;
        return n;
    }
    unsigned busy_tags() const {
        unsigned n = 0;
        for (auto& kv : dev_tags_) n += kv.second.busy ? 1 : 0;
        return n;
    }
    unsigned max_tags_in_use() const { return max_tags_; }
    const std::vector<std::string>& violations() const { return violations_; }
    const std::vector<Msi>& msis() const { return msis_; }
    uint64_t dev_bytes_written() const { return bytes_written_; }
    uint64_t dev_reads() const { return n_mrd_; }
    uint64_t dev_writes() const { return n_mwr_; }
    uint64_t cpls_sent() const { return n_cpl_; }
    uint64_t err_cpls_sent() const { return n_err_cpl_; }
    uint64_t poisoned_sent() const { return n_poison_; }
    uint64_t reads_dropped() const { return n_drop_; }
    uint64_t down_tlps() const { return n_down_; }
    // highest completion buffer occupancy seen (headers, data credits)
    std::pair<unsigned, unsigned> max_cpl_space() const { return {max_cpl_h_, max_cpl_d_}; }
    uint64_t cpl_space_overflows() const { return n_cpl_ovf_; }
    // non-posted credits given by the device in all, and cycles a host
    // non-posted request was ready but had none
    uint64_t np_credits_given() const { return n_np_credits_; }
    uint64_t np_credit_waits() const { return n_np_waits_; }

    // a message for the log: the first violations in full
    void print_violations(FILE* f, size_t max = 10) const {
        for (size_t i = 0; i < violations_.size() && i < max; i++) std::fprintf(f, "RC: %s\n", violations_[i].c_str());
        if (violations_.size() > max) std::fprintf(f, "RC: ... %zu more\n", violations_.size() - max);
    }

  private:
    struct FaultRange {
        uint64_t lo, hi;  // [lo, hi)
        Fault f;
    };
    struct DownItem {
        PcieTlp tlp;
        uint64_t ready_at = 0;
        uint64_t seq = 0;
        int kind = 0;        // 0 posted request, 1 non-posted request, 2 completion
        int dev_tag = -1;    // completions: the device's tag
        bool last_of_tag = false;
        int host_handle = -1;
    };
    struct HostReq {
        int handle = -1;
        PcieTlp tlp;
    };
    struct DevTag {
        bool busy = false;       // completions still to deliver
        bool dropped = false;    // the last read's rest was dropped
        uint64_t mrd_cycle = 0;
    };

    // splitmix64
    uint64_t rnd() {
        uint64_t z = (rng_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    unsigned below(unsigned n) { return n ? (unsigned)(rnd() % n) : 0; }
    bool chance(unsigned pct) { return pct >= 100 || below(100) < pct; }
    void roll() {
        gap_ = cfg_.rx_gap_percent && chance(cfg_.rx_gap_percent);
        up_ready_ = chance(cfg_.tx_ready_percent);
    }

    void violation(const char* fmt, ...) __attribute__((format(printf, 2, 3))) {
        char b[512];
        std::va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(b, sizeof b, fmt, ap);
        va_end(ap);
        char c[600];
        std::snprintf(c, sizeof c, "cycle %llu: %s", (unsigned long long)now_, b);
        if (violations_.size() < 1000) violations_.push_back(c);
    }
    void violation_local(const char* m) { violation("%s", m); }

    unsigned alloc_host_tag() {
        for (unsigned i = 0; i < 256; i++) {
            unsigned t = (next_host_tag_ + i) & 0xFF;
            if (!host_tags_.count(t)) {
                next_host_tag_ = t + 1;
                return t;
            }
        }
        violation_local("host: more than 256 non-posted requests outstanding (test bug)");
        return 0;
    }

    void queue_request(const PcieTlp& t, bool np, int handle) {
        DownItem d;
        d.tlp = t;
        d.ready_at = now_ + cfg_.mmio_latency;
        d.seq = seq_++;
        d.kind = np ? 1 : 0;
        d.host_handle = handle;
        down_.push_back(d);
    }

    void pick_next() {
        uint64_t oldest_posted = std::numeric_limits<uint64_t>::max();
        for (auto& d : down_)
            if (d.kind == 0) {
                oldest_posted = std::min(oldest_posted, d.seq);
            }
        std::vector<size_t> cand;
        bool req_seen = false;
        std::map<int, bool> tag_seen;
        for (size_t i = 0; i < down_.size(); i++) {
            const DownItem& d = down_[i];
            if (d.kind != 2) {
                if (req_seen) continue;  // requests in order
                req_seen = true;
                if (d.ready_at > now_) continue;
                if (d.kind == 1 && cfg_.np_credit_gate && np_credits_ == 0) {
                    n_np_waits_++;  // waits for the device's credit; completions still pass
                    continue;
                }
                cand.push_back(i);
            } else {
                if (tag_seen[d.dev_tag]) continue;  // completions of one tag in order
                tag_seen[d.dev_tag] = true;
                if (d.ready_at <= now_ && d.seq < oldest_posted) cand.push_back(i);
            }
        }
        if (cand.empty()) return;
        size_t pick = cand[0];
        if (cfg_.reorder) pick = cand[below((unsigned)cand.size())];
        else
            for (size_t i : cand)
                if (down_[i].seq < down_[pick].seq) pick = i;
        cur_ = down_[pick];
        if (cur_.kind == 1 && cfg_.np_credit_gate) np_credits_--;
        down_.erase(down_.begin() + (long)pick);
        cur_beats_ = cur_.tlp.beats();
        cur_idx_ = 0;
        cur_active_ = true;
        if (cur_.host_handle >= 0) results_[(size_t)cur_.host_handle].sent_cycle = now_;
    }

    // completions that have arrived at the block (ready_at) and are not yet
    // taken by the device, against the block's buffer
    void check_cpl_space() {
        unsigned h = 0, d = 0;
        auto add = [&](const DownItem& x) {
            if (x.kind != 2 || x.ready_at > now_) return;
            h++;
            d += (unsigned)(x.tlp.has_data() ? (x.tlp.length() + 3) / 4 : 0) + 1;
        };
        for (auto& x : down_) add(x);
        if (cur_active_) add(cur_);
        max_cpl_h_ = std::max(max_cpl_h_, h);
        max_cpl_d_ = std::max(max_cpl_d_, d);
        bool over = (cfg_.cpl_space_h && h > cfg_.cpl_space_h) || (cfg_.cpl_space_d && d > cfg_.cpl_space_d);
        if (over) {
            if (n_cpl_ovf_ == 0)
                violation("completion buffer overflow: %u headers, %u data credits held, the block has %u, %u: "
                          "it would drop a completion",
                          h, d, cfg_.cpl_space_h, cfg_.cpl_space_d);
            n_cpl_ovf_++;
        }
    }

    void delivered(const DownItem& d) {
        cur_active_ = false;
        n_down_++;
        if (d.kind == 2 && d.last_of_tag) {
            DevTag& t = dev_tags_[d.dev_tag];
            t.busy = false;
        }
    }

    // ---- device -> host ----
    void up_beat(const PcieBeat& b) {
        if (!up_in_tlp_) {
            if (!b.sop) {
                violation("device TLP beat without sop outside a TLP");
                return;
            }
            up_tlp_ = PcieTlp{};
            std::memcpy(up_tlp_.hdr, b.hdr, sizeof b.hdr);
            up_in_tlp_ = true;
            up_beats_ = 0;
            up_bad_framing_ = false;
        } else if (b.sop) {
            violation("device TLP beat with sop inside a TLP (%s)", up_tlp_.str().c_str());
            up_bad_framing_ = true;
        }
        up_beats_++;
        unsigned en = b.dw_en;
        if (en & (en + 1)) {
            violation("device beat dw_en 0x%02x not contiguous from DW0 (%s)", en, up_tlp_.str().c_str());
            up_bad_framing_ = true;
        }
        if (!b.eop && en != 0xFF) {
            violation("device beat before eop not full: dw_en 0x%02x (%s)", en, up_tlp_.str().c_str());
            up_bad_framing_ = true;
        }
        for (unsigned i = 0; i < 8; i++)
            if (en & (1u << i)) up_tlp_.data.push_back(b.data[i]);
        if (b.eop) {
            up_in_tlp_ = false;
            if (!up_bad_framing_) device_tlp(up_tlp_, up_beats_);
        }
    }

    bool check_header_common(const PcieTlp& t) {
        bool ok = true;
        if (t.td() || t.ep() || t.at()) {
            violation("device %s with TD/EP/AT set: %s", t.name().c_str(), t.str().c_str());
            ok = false;
        }
        if ((t.hdr[0] >> 16) & 3) {  // LN, TH: reserved here
            violation("device %s with LN/TH set: %s", t.name().c_str(), t.str().c_str());
            ok = false;
        }
        if (!t.hdr4() && t.hdr[3] != 0) {
            violation("device %s: 3-DW header with DW3 = 0x%08x (must be 0)", t.name().c_str(), t.hdr[3]);
            ok = false;
        }
        return ok;
    }

    bool check_request(const PcieTlp& t, bool write) {
        bool ok = check_header_common(t);
        uint64_t a = t.addr();
        if (!cfg_.bus_master) {
            violation("device %s while bus mastering is off: %s", t.name().c_str(), t.str().c_str());
            ok = false;
        }
        if (t.req_id() != cfg_.dev_id) {
            violation("device %s with requester id %04x, expected %04x", t.name().c_str(), t.req_id(), cfg_.dev_id);
            ok = false;
        }
        if (t.addr_low_bits() != 0) {
            violation("device %s: address bits 1:0 not 0: %s", t.name().c_str(), t.str().c_str());
            ok = false;
        }
        if (t.hdr4() && (a >> 32) == 0) {
            violation("device %s: 4-DW header for an address below 4 GB: %s", t.name().c_str(), t.str().c_str());
            ok = false;
        }
        if (t.tag_hi()) {
            violation("device %s with 10-bit tag bits set: %s", t.name().c_str(), t.str().c_str());
            ok = false;
        }
        unsigned ldw = t.length();
        std::string be = pcie_be_error(a, ldw, t.fbe(), t.lbe(), write);
        if (!be.empty()) {
            violation("device %s: %s: %s", t.name().c_str(), be.c_str(), t.str().c_str());
            ok = false;
        }
        if ((a & 0xFFF) + 4ull * ldw > 4096) {
            violation("device %s crosses a 4 KB boundary: %s", t.name().c_str(), t.str().c_str());
            ok = false;
        }
        return ok;
    }

    void device_tlp(const PcieTlp& t, unsigned beats) {
        unsigned ldw = t.length();
        if (t.has_data()) {
            if (t.data.size() != ldw)
                violation("device %s: %zu payload DWs for Length %u", t.name().c_str(), t.data.size(), ldw);
            if (beats != (ldw + 7) / 8)
                violation("device %s: %u beats for Length %u", t.name().c_str(), beats, ldw);
        } else {
            if (!t.data.empty() || beats != 1)
                violation("device %s without data has %zu payload DWs in %u beats", t.name().c_str(), t.data.size(), beats);
        }
        if (t.fmt() >= 4) {
            violation("device sent a TLP prefix / bad Fmt: [%08x]", t.hdr[0]);
            return;
        }
        if (t.type() == kTypeMem && !t.has_data()) device_mrd(t);
        else if (t.type() == kTypeMem && t.has_data()) device_mwr(t);
        else if (t.is_cpl()) device_cpl(t);
        else violation("device sent an unexpected %s: %s", t.name().c_str(), t.str().c_str());
    }

    void device_mrd(const PcieTlp& t) {
        n_mrd_++;
        bool ok = check_request(t, false);
        unsigned ldw = t.length();
        if (4 * ldw > cfg_.mrrs) {
            violation("device MRd of %u DWs exceeds MRRS %u: %s", ldw, cfg_.mrrs, t.str().c_str());
            ok = false;
        }
        unsigned tag = t.tag();
        if (tag >= cfg_.tags) {
            violation("device MRd tag %u >= %u: %s", tag, cfg_.tags, t.str().c_str());
            ok = false;
        }
        DevTag& dt = dev_tags_[(int)tag];
        if (dt.busy) {
            violation("device MRd reuses tag %u that is still outstanding: %s", tag, t.str().c_str());
            return;
        }
        if (dt.dropped && now_ < dt.mrd_cycle + cfg_.cpl_timeout_min) {
            violation("device MRd reuses tag %u %llu cycles after the dropped read (completion timeout >= %llu)",
                      tag, (unsigned long long)(now_ - dt.mrd_cycle), (unsigned long long)cfg_.cpl_timeout_min);
        }
        if (!ok) return;  // not answered: the device times out, which is all it deserves
        unsigned bc = pcie_read_byte_count(ldw, t.fbe(), t.lbe());
        uint64_t first = t.addr() + (unsigned)std::max(0, pcie_lowest_bit(t.fbe()));
        if (ldw == 1 && t.fbe() == 0) first = t.addr();
        dt.busy = true;
        dt.dropped = false;
        dt.mrd_cycle = now_;
        unsigned used = busy_tags();
        if (used > max_tags_) max_tags_ = used;

        // fault?
        Fault f = kFaultNone;
        for (auto& r : faults_)
            if (first < r.hi && first + bc > r.lo) f = r.f;
        if (f == kFaultNone && cfg_.fault_percent && chance(cfg_.fault_percent) && !cfg_.fault_kinds.empty())
            f = cfg_.fault_kinds[below((unsigned)cfg_.fault_kinds.size())];

        // pieces [start, end)
        std::vector<std::pair<uint64_t, uint64_t>> pieces;
        uint64_t start = first, end_all = first + bc;
        while (start < end_all) {
            uint64_t dw_start = start & ~3ull;
            uint64_t next_rcb = (start / cfg_.rcb + 1) * cfg_.rcb;
            uint64_t end = next_rcb;
            if (cfg_.random_split) {
                uint64_t kmax = 1 + (cfg_.mps - (next_rcb - dw_start)) / cfg_.rcb;
                end = next_rcb + (uint64_t)below((unsigned)kmax) * cfg_.rcb;
            }
            end = std::min(end, end_all);
            pieces.emplace_back(start, end);
            start = end;
        }
        std::vector<uint8_t> snap(bc);  // host memory as the MRd finds it
        bool mem_failed = false;
        if (mem_try_rd_) mem_failed = !mem_try_rd_(first, snap.data(), bc);
        else if (mem_rd_) mem_rd_(first, snap.data(), bc);
        else mem_.read(first, snap.data(), bc);
        if (mem_failed) {
            n_mem_err_++;
            f = kFaultUR;
        }
        size_t k = pieces.size();  // first piece the fault hits
        if (f != kFaultNone) {
            k = mem_failed ? 0 : below((unsigned)pieces.size());
            failed_.push_back(DevRead{first, bc, tag, f, now_});
        }
        uint64_t at = now_ + cfg_.cpl_latency_min + below(cfg_.cpl_latency_max - cfg_.cpl_latency_min + 1);
        size_t n_items = 0;
        for (size_t i = 0; i < pieces.size(); i++) {
            uint64_t s = pieces[i].first, e = pieces[i].second;
            DownItem d;
            d.kind = 2;
            d.dev_tag = (int)tag;
            d.seq = seq_++;
            d.ready_at = at;
            at += below(cfg_.cpl_gap_max + 1);
            unsigned remaining = (unsigned)(end_all - s);
            bool err = (i == k) && (f == kFaultUR || f == kFaultCA);
            if (i >= k && f == kFaultDrop) break;
            unsigned st = err ? (f == kFaultUR ? kCplUR : kCplCA) : kCplSC;
            PcieTlp c;
            uint64_t dws = s & ~3ull, dwe = (e + 3) & ~3ull;
            unsigned ldw_c = err ? 0 : (unsigned)((dwe - dws) / 4);
            bool poison = (i == k) && f == kFaultPoison;
            c.hdr[0] = pcie_dw0(err ? kFmt3DW : kFmt3DWData, kTypeCpl, ldw_c & 0x3FF, t.tc(), t.attr(), poison);
            c.hdr[1] = ((uint32_t)cfg_.rc_id << 16) | (st << 13) | (remaining & 0xFFF);
            c.hdr[2] = ((uint32_t)cfg_.dev_id << 16) | (tag << 8) | (unsigned)(s & 0x7F);
            if (!err) {
                for (uint64_t a = dws; a < dwe; a += 4) {
                    uint32_t w = 0;
                    for (unsigned j = 0; j < 4; j++) {
                        uint64_t x = a + j;
                        uint8_t v = (x >= s && x < e) ? snap[x - first] : (uint8_t)rnd();
                        w |= (uint32_t)v << (8 * j);
                    }
                    c.data.push_back(w);
                }
            }
            d.tlp = c;
            n_items++;
            n_cpl_++;
            if (err) n_err_cpl_++;
            if (poison) n_poison_++;
            down_.push_back(d);
            if (err) break;
        }
        if (f == kFaultDrop) {
            n_drop_++;
            dt.dropped = true;
        }
        if (n_items == 0) {
            dt.busy = false;
        } else {
            // mark the last queued completion of this tag
            for (size_t i = down_.size(); i-- > 0;)
                if (down_[i].kind == 2 && down_[i].dev_tag == (int)tag) {
                    down_[i].last_of_tag = true;
                    break;
                }
        }
    }

    void device_mwr(const PcieTlp& t) {
        n_mwr_++;
        bool ok = check_request(t, true);
        unsigned ldw = t.length();
        if (4 * ldw > cfg_.mps) {
            violation("device MWr of %u DWs exceeds MPS %u: %s", ldw, cfg_.mps, t.str().c_str());
            ok = false;
        }
        uint64_t a = t.addr();
        if (a == cfg_.msi_addr) {
            if (!cfg_.msi_en) violation("device sent an MSI while MSI is disabled: %s", t.str().c_str());
            if (ldw != 1 || t.fbe() != 0xF || t.lbe() != 0)
                violation("device MSI write is not one whole DW: %s", t.str().c_str());
            msis_.push_back(Msi{a, t.data.empty() ? 0u : t.data[0], now_, bytes_written_});
            return;
        }
        if (!ok || t.data.size() != ldw) return;
        // runs of enabled bytes, each written at once
        std::vector<uint8_t> run;
        uint64_t run_at = a;
        auto flush = [&]() {
            if (run.empty()) return;
            if (mem_try_wr_) {
                if (!mem_try_wr_(run_at, run.data(), run.size())) n_mem_err_++;
            } else if (mem_wr_) mem_wr_(run_at, run.data(), run.size());
            else mem_.write(run_at, run.data(), run.size());
            bytes_written_ += run.size();
            run.clear();
        };
        for (unsigned i = 0; i < ldw; i++) {
            unsigned be = (i == 0) ? t.fbe() : (i == ldw - 1) ? t.lbe() : 0xF;
            for (unsigned j = 0; j < 4; j++) {
                if (be & (1u << j)) {
                    if (run.empty()) run_at = a + 4 * i + j;
                    run.push_back((uint8_t)(t.data[i] >> (8 * j)));
                } else {
                    flush();
                }
            }
        }
        flush();
    }

    void device_cpl(const PcieTlp& t) {
        check_header_common(t);
        unsigned tag = t.cpl_tag();
        if (t.tag_hi()) violation("device completion with T9/T8 set for an 8-bit tag: %s", t.str().c_str());
        auto it = host_tags_.find(tag);
        if (t.cpl_req_id() != cfg_.rc_id || it == host_tags_.end()) {
            violation("device completion for no outstanding host request: %s", t.str().c_str());
            return;
        }
        const PcieTlp& rq = it->second.tlp;
        HostResult& res = results_[(size_t)it->second.handle];
        unsigned st = t.cpl_status();
        const std::string rs = rq.str();
        if (t.cpl_completer() != cfg_.dev_id)
            violation("completion's completer id %04x, expected %04x", t.cpl_completer(), cfg_.dev_id);
        if (st != kCplSC && st != kCplUR && st != kCplCA)
            violation("completion status %u is not SC/UR/CA: %s", st, t.str().c_str());
        if (t.cpl_bcm()) violation("completion with BCM set: %s", t.str().c_str());
        if (t.tc() != rq.tc() || t.attr() != rq.attr())
            violation("completion TC/attr %u/%u, request's %u/%u", t.tc(), t.attr(), rq.tc(), rq.attr());
        bool locked = rq.type() == kTypeMemLk;
        if ((t.type() == kTypeCplLk) != locked)
            violation("completion type %s for a %s request", t.name().c_str(), rq.name().c_str());
        bool memrd = rq.fmt() < 2 && (rq.type() == kTypeMem || rq.type() == kTypeMemLk);
        bool atomic = rq.type() == kTypeFetchAdd || rq.type() == kTypeSwap || rq.type() == kTypeCas;
        unsigned exp_bc = 4, exp_la = 0;
        if (memrd) {
            exp_bc = pcie_read_byte_count(rq.length(), rq.fbe(), rq.lbe());
            exp_la = pcie_read_lower_addr(rq.addr(), rq.fbe());
        } else if (atomic) {
            exp_bc = 4 * rq.length() / (rq.type() == kTypeCas ? 2 : 1);
        }
        if (t.cpl_bc() != exp_bc)
            violation("completion byte count %u, expected %u (request %s)", t.cpl_bc(), exp_bc, rs.c_str());
        if (!atomic && t.cpl_la() != exp_la)
            violation("completion lower address 0x%02x, expected 0x%02x (request %s)", t.cpl_la(), exp_la, rs.c_str());
        if (st == kCplSC) {
            if (!t.has_data()) violation("successful completion without data (request %s)", rs.c_str());
            else if (memrd && t.length() != rq.length())
                violation("completion Length %u for a request of %u DWs", t.length(), rq.length());
        } else {
            if (t.has_data()) violation("error completion (status %u) with data", st);
            if (t.len_field() != 0) violation("completion without data has Length field %u", t.len_field());
        }
        res.done = true;
        res.status = st;
        res.byte_count = t.cpl_bc();
        res.lower_addr = t.cpl_la();
        res.data = t.data;
        res.done_cycle = now_;
        res.bytes_before = bytes_written_;
        host_tags_.erase(it);
    }

    Config cfg_;
    uint64_t rng_;
    uint64_t now_ = 0;
    uint64_t seq_ = 0;
    PcieHostMem mem_;
    MemFn mem_rd_;
    MemWriteFn mem_wr_;
    MemTryFn mem_try_rd_;
    MemTryWriteFn mem_try_wr_;
    uint64_t n_mem_err_ = 0;
    std::vector<FaultRange> faults_;
    std::vector<DevRead> failed_;
    std::vector<HostResult> results_;
    std::map<unsigned, HostReq> host_tags_;
    unsigned next_host_tag_ = 0;
    std::map<int, DevTag> dev_tags_;
    unsigned max_tags_ = 0;
    // down stream
    std::vector<DownItem> down_;
    DownItem cur_;
    std::vector<PcieBeat> cur_beats_;
    size_t cur_idx_ = 0;
    bool cur_active_ = false;
    bool gap_ = false;
    bool up_ready_ = true;
    // up stream
    bool up_in_tlp_ = false;
    bool up_bad_framing_ = false;
    unsigned up_beats_ = 0;
    PcieTlp up_tlp_;
    // results
    std::vector<std::string> violations_;
    std::vector<Msi> msis_;
    uint64_t bytes_written_ = 0;
    uint64_t n_mrd_ = 0, n_mwr_ = 0, n_cpl_ = 0, n_err_cpl_ = 0, n_poison_ = 0, n_drop_ = 0, n_down_ = 0;
    unsigned max_cpl_h_ = 0, max_cpl_d_ = 0;
    uint64_t n_cpl_ovf_ = 0;
    unsigned np_credits_ = 0;  // non-posted credits the device gave and no request used yet
    uint64_t n_np_credits_ = 0, n_np_waits_ = 0;
};

}  // namespace kolo
