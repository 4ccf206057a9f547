// tb_link_core.cpp - protocol test of kolo_link_core without the PHY: two
// ends on one clock, a block channel per direction with delay, bit errors,
// dropped and duplicated blocks, dead periods and a slow lane (ready
// backpressure), and both routers played in C++ with per-VC credits and
// interleaved VCs. Checks: every packet delivered exactly once, in order per
// VC, intact, with the right sideband; the receiving buffer never overflows;
// credits come back exactly. Options: --seed --packets --err=<per block>
// --drop --dup --ready=<percent> --dead-at --dead-for --expect-retrain
// --expect-down --miscable --start-at=<cycle> (no packet starts earlier: an
// idle link first), and --restart-b-at=<cycle> --restart-len=<cycles>
// [--restart-dark]: B alone is reset (its router too: what it held is gone)
// while A stays up, with the channels carrying nothing and both ends
// without lock for the reset (--restart-dark, as a board whose SERDES stops)
// or not (B just falls silent, then sends INIT again). A must see the
// restart as a link down: its state 0, link_downs exactly 1, every A->B
// packet missing counted in pkts_dropped, no CRC or sequence error; the link
// comes back up and carries the rest; B->A loses at most what B had not
// delivered when it was reset.
#include "Vtb_link_core.h"
#include "verilated.h"
#include "tb_util.h"

#include <array>
#include <deque>
#include <vector>

namespace {

struct Blk {
    uint64_t payload;
    uint8_t sync;
    uint64_t due;
};

struct Flit {
    uint64_t data;
    int vc;
    bool head, tail;
};

template <std::size_t W>
void put68(VlWide<W>& w, const Flit& f) {
    w[0] = (uint32_t)f.data;
    w[1] = (uint32_t)(f.data >> 32);
    w[2] = (uint32_t)((f.tail ? 1 : 0) | (f.head ? 2 : 0) | (f.vc << 2));
}
template <std::size_t W>
Flit get68(const VlWide<W>& w) {
    Flit f;
    f.data = (uint64_t)w[0] | ((uint64_t)w[1] << 32);
    f.tail = w[2] & 1;
    f.head = (w[2] >> 1) & 1;
    f.vc = (w[2] >> 2) & 3;
    return f;
}
template <std::size_t W>
void get66(const VlWide<W>& w, uint64_t& payload, uint8_t& sync) {
    payload = (uint64_t)w[0] | ((uint64_t)w[1] << 32);
    sync = w[2] & 3;
}
template <std::size_t W>
void put66(VlWide<W>& w, uint64_t payload, uint8_t sync) {
    w[0] = (uint32_t)payload;
    w[1] = (uint32_t)(payload >> 32);
    w[2] = sync;
}

struct Opts {
    long packets = 20000;
    double err = 0, drop = 0, dup = 0;
    int ready = 100;
    long dead_at = -1, dead_for = 0;
    long restart_at = -1, restart_len = 100;
    long start_at = 0;  // no packet starts before this cycle (an idle link first)
    bool restart_dark = false;
    bool expect_retrain = false, expect_down = false, miscable = false;
    int delay = 20;
};

// One direction: the sending router at one end, the channel, and the
// receiving router at the other.
struct Direction {
    const char* name;
    tb::Rng& rng;
    tb::Checker& chk;
    const Opts& o;
    std::array<int, 4> credits{{80, 80, 80, 80}};
    std::array<std::deque<Flit>, 4> sending;   // flits of the packet in progress per VC
    std::array<std::deque<Flit>, 4> expect;    // flits sent, not yet delivered
    std::array<int, 4> rx_occ{{0, 0, 0, 0}};
    std::deque<int> credit_q;                  // credits the receiving router returns
    std::deque<Blk> chan;
    long started = 0, delivered_pkts = 0, delivered_flits = 0, sent_flits = 0;
    bool lossy = false;   // the link may go down: whole packets may be missing
    long skipped = 0;     // packets found missing (dropped by the link)
    Direction(const char* n, tb::Rng& r, tb::Checker& c, const Opts& op) : name(n), rng(r), chk(c), o(op) {}

    long pending_pkts() const {
        long n = 0;
        for (int v = 0; v < 4; v++)
            for (const Flit& f : expect[v]) n += f.tail;
        return n;
    }
    bool credits_home() const {
        for (int v = 0; v < 4; v++)
            if (credits[v] != 80 || rx_occ[v] != 0) return false;
        return credit_q.empty();
    }
    bool pending() const {
        for (int v = 0; v < 4; v++)
            if (!expect[v].empty() || !sending[v].empty()) return true;
        return false;
    }
    // pick this cycle's flit from the sending router (VCT: a packet starts
    // only with credits for all of it; VCs interleave at random)
    bool next_flit(Flit& out, bool may_start) {
        for (int v = 0; v < 4; v++) {
            if (sending[v].empty() && may_start && started < o.packets && rng.chance(30)) {
                int len = 2 + (int)(rng.chance(50) ? rng.below(3) : rng.below(33));
                if (credits[v] >= len) {
                    for (int i = 0; i < len; i++) {
                        Flit f{rng.next(), v, i == 0, i == len - 1};
                        if (i == 0) f.data = (f.data & ~(0x3Full << 29)) | ((uint64_t)(len - 2) << 29);
                        sending[v].push_back(f);
                    }
                    started++;
                }
            }
        }
        int cand[4], n = 0;
        for (int v = 0; v < 4; v++)
            if (!sending[v].empty() && credits[v] > 0) cand[n++] = v;
        if (!n || rng.chance(10)) return false;
        int v = cand[rng.below(n)];
        out = sending[v].front();
        sending[v].pop_front();
        credits[v]--;
        chk.check(credits[v] >= 0, "%s: credits below zero", name);
        expect[v].push_back(out);
        sent_flits++;
        return true;
    }
    void deliver(const Flit& f, uint64_t cyc) {
        int v = f.vc;
        if (!chk.check(!expect[v].empty(), "%s: cycle %llu: flit on VC %d with nothing expected", name,
                       (unsigned long long)cyc, v))
            return;
        // a packet the link dropped never arrives: skip whole packets up to
        // the one that starts with this head (checked against the counters)
        if (lossy && f.head && expect[v].front().data != f.data) {
            std::deque<Flit> q = expect[v];
            long n = 0;
            while (!q.empty() && !(q.front().head && q.front().data == f.data)) {
                if (q.front().tail) n++;
                q.pop_front();
            }
            if (!q.empty()) {
                expect[v] = q;
                skipped += n;
            }
        }
        const Flit& e = expect[v].front();
        chk.check(e.data == f.data && e.head == f.head && e.tail == f.tail,
                  "%s: cycle %llu: VC %d got %016llx h%d t%d expected %016llx h%d t%d", name,
                  (unsigned long long)cyc, v, (unsigned long long)f.data, f.head, f.tail,
                  (unsigned long long)e.data, e.head, e.tail);
        expect[v].pop_front();
        rx_occ[v]++;
        chk.check(rx_occ[v] <= 80, "%s: receive buffer of VC %d overflows", name, v);
        delivered_flits++;
        if (f.tail) delivered_pkts++;
    }
    // the receiving router forwards a flit now and then and returns its credit
    void drain() {
        if (rng.chance(60)) {
            int v = (int)rng.below(4);
            if (rx_occ[v] > 0) {
                rx_occ[v]--;
                credit_q.push_back(v);
            }
        }
    }
    void credit_back(int vc) {
        credits[vc]++;
        chk.check(credits[vc] <= 80, "%s: credit of VC %d above 80", name, vc);
    }
    void channel_push(uint64_t payload, uint8_t sync, uint64_t cyc, bool dead) {
        if (dead) return;
        if (o.drop > 0 && rng.next() % 1000000 < o.drop * 1e6) return;
        if (o.err > 0 && rng.next() % 1000000 < o.err * 1e6) {
            int bit = (int)rng.below(66);
            if (bit < 64) payload ^= 1ull << bit;
            else sync ^= (uint8_t)(1u << (bit - 64));
        }
        chan.push_back({payload, sync, cyc + o.delay});
        if (o.dup > 0 && rng.next() % 1000000 < o.dup * 1e6) chan.push_back({payload, sync, cyc + o.delay});
    }
};

uint32_t counter(const VlWide<16>& c, int i) { return c[i]; }

const char* kCounterNames[16] = {"crc_errors", "seq_errors", "naks_sent", "naks_rcvd", "replays",
                                 "retrains", "lock_losses", "frames_tx", "frames_rx", "bytes_tx",
                                 "bytes_rx", "pkts_dropped", "ctrl_errors", "link_downs", "miscabled",
                                 "rx_overflows"};

void dump(const char* end, const VlWide<16>& c, int state) {
    std::printf("  %s state=%d", end, state);
    for (int i = 0; i < 16; i++) std::printf(" %s=%u", kCounterNames[i], counter(c, i));
    std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
    Opts o;
    for (int i = 1; i < argc; i++) {
        const char* a = argv[i];
        if (!std::strncmp(a, "--packets=", 10)) o.packets = std::atol(a + 10);
        else if (!std::strncmp(a, "--err=", 6)) o.err = std::atof(a + 6);
        else if (!std::strncmp(a, "--drop=", 7)) o.drop = std::atof(a + 7);
        else if (!std::strncmp(a, "--dup=", 6)) o.dup = std::atof(a + 6);
        else if (!std::strncmp(a, "--ready=", 8)) o.ready = std::atoi(a + 8);
        else if (!std::strncmp(a, "--dead-at=", 10)) o.dead_at = std::atol(a + 10);
        else if (!std::strncmp(a, "--dead-for=", 11)) o.dead_for = std::atol(a + 11);
        else if (!std::strncmp(a, "--delay=", 8)) o.delay = std::atoi(a + 8);
        else if (!std::strncmp(a, "--restart-b-at=", 15)) o.restart_at = std::atol(a + 15);
        else if (!std::strncmp(a, "--restart-len=", 14)) o.restart_len = std::atol(a + 14);
        else if (!std::strcmp(a, "--restart-dark")) o.restart_dark = true;
        else if (!std::strncmp(a, "--start-at=", 11)) o.start_at = std::atol(a + 11);
        else if (!std::strcmp(a, "--expect-retrain")) o.expect_retrain = true;
        else if (!std::strcmp(a, "--expect-down")) o.expect_down = true;
        else if (!std::strcmp(a, "--miscable")) o.miscable = true;
        else if (std::strncmp(a, "--seed=", 7) && std::strncmp(a, "+", 1)) {
            std::fprintf(stderr, "unknown option %s\n", a);
            return 2;
        }
    }
    const uint64_t seed = tb::seed_from(argc, argv, 1);
    std::printf("tb_link_core: seed %llu (replay: SEED=%llu)\n", (unsigned long long)seed,
                (unsigned long long)seed);
    tb::Rng rng(seed);
    tb::Checker chk("link_core");
    auto ctx = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vtb_link_core>(ctx.get());
    Direction ab("A->B", rng, chk, o), ba("B->A", rng, chk, o);
    const bool restart = o.restart_at >= 0;
    ab.lossy = ba.lossy = o.expect_down || restart;
    top->rst_b = 0;

    top->peer_id_b = o.miscable ? 0x003 : 0x001;
    top->a_lock = top->b_lock = 1;
    top->rst = 1;
    top->clk = 0;
    for (int i = 0; i < 4; i++) {
        top->clk = !top->clk;
        top->eval();
    }
    top->rst = 0;
    uint64_t cyc = 0, last_progress = 0, up_at = 0;
    bool was_up = false, went_down = false;
    bool a_down_after_restart = false, up_after_restart = false;
    long ba_open_at_restart = 0;  // B->A packets B had not delivered when it was reset
    const uint64_t limit = 200000 + (uint64_t)o.packets * 60;
    while (cyc < limit) {
        const bool b_rst = restart && (long)cyc >= o.restart_at && (long)cyc < o.restart_at + o.restart_len;
        const bool dead = (o.dead_at >= 0 && (long)cyc >= o.dead_at && (long)cyc < o.dead_at + o.dead_for) ||
                          (b_rst && o.restart_dark);
        if (restart && (long)cyc == o.restart_at)
            chk.check(top->a_link_up && top->b_link_up, "the link is not up when B is reset (cycle %llu)",
                      (unsigned long long)cyc);
        if (restart && (long)cyc == o.restart_at + 1) {
            // B's chip restarted at the last edge: its router's state is gone
            // with it (the flits it held, the credits it owed, the packet it
            // was sending)
            ba_open_at_restart = ba.pending_pkts();
            for (int v = 0; v < 4; v++) {
                ba.credits[v] = 80;
                ba.sending[v].clear();
                ab.rx_occ[v] = 0;
            }
            ab.credit_q.clear();
        }
        if (restart && (long)cyc > o.restart_at) {
            if (top->a_state == 0) a_down_after_restart = true;
            if (top->a_link_up && top->b_link_up && (long)cyc >= o.restart_at + o.restart_len) up_after_restart = true;
        }
        top->rst_b = b_rst;
        const bool both_up = top->a_link_up && top->b_link_up;
        if (both_up && !was_up && !up_at) up_at = cyc;
        was_up = both_up;
        if (top->a_state == 0 || top->b_state == 0) went_down = true;
        // ---- inputs for this cycle (set while clk is low)
        Flit f;
        const bool may_start = both_up && !b_rst && (long)cyc >= o.start_at;
        top->a_tx_valid = ab.next_flit(f, may_start);
        if (top->a_tx_valid) put68(top->a_tx_flit, f);
        top->b_tx_valid = ba.next_flit(f, may_start);
        if (top->b_tx_valid) put68(top->b_tx_flit, f);
        top->a_rx_credit_valid = !ba.credit_q.empty();
        if (top->a_rx_credit_valid) { top->a_rx_credit_vc = ba.credit_q.front(); ba.credit_q.pop_front(); }
        top->b_rx_credit_valid = !ab.credit_q.empty();
        if (top->b_rx_credit_valid) { top->b_rx_credit_vc = ab.credit_q.front(); ab.credit_q.pop_front(); }
        top->a_blk_tx_ready = (int)rng.below(100) < o.ready;
        top->b_blk_tx_ready = (int)rng.below(100) < o.ready;
        top->b_blk_rx_valid = !ab.chan.empty() && ab.chan.front().due <= cyc;
        if (top->b_blk_rx_valid) { put66(top->b_blk_rx, ab.chan.front().payload, ab.chan.front().sync); ab.chan.pop_front(); }
        top->a_blk_rx_valid = !ba.chan.empty() && ba.chan.front().due <= cyc;
        if (top->a_blk_rx_valid) { put66(top->a_blk_rx, ba.chan.front().payload, ba.chan.front().sync); ba.chan.pop_front(); }
        top->a_lock = !dead;
        top->b_lock = !dead;
        top->eval();
        // ---- sample outputs of this cycle
        uint64_t pl; uint8_t sy;
        if (top->a_blk_tx_valid && top->a_blk_tx_ready) { get66(top->a_blk_tx, pl, sy); ab.channel_push(pl, sy, cyc, dead); }
        if (top->b_blk_tx_valid && top->b_blk_tx_ready) { get66(top->b_blk_tx, pl, sy); ba.channel_push(pl, sy, cyc, dead); }
        if (top->b_rx_valid) { ab.deliver(get68(top->b_rx_flit), cyc); last_progress = cyc; }
        if (top->a_rx_valid) { ba.deliver(get68(top->a_rx_flit), cyc); last_progress = cyc; }
        if (top->a_tx_credit_valid) ab.credit_back(top->a_tx_credit_vc);
        if (top->b_tx_credit_valid) ba.credit_back(top->b_tx_credit_vc);
        ab.drain();
        ba.drain();
        // ---- clock edge
        top->clk = 1;
        top->eval();
        top->clk = 0;
        top->eval();
        cyc++;
        if (chk.failures() > 0) break;
        const bool busy = ab.pending() || ba.pending() || ab.started < o.packets || ba.started < o.packets;
        if (o.miscable && cyc > 20000) break;
        if (!busy && cyc > 1000) {
            // let the last credits come home
            bool home = true;
            for (int v = 0; v < 4; v++) home &= ab.credits[v] == 80 && ba.credits[v] == 80 && ab.rx_occ[v] == 0 && ba.rx_occ[v] == 0;
            if (home) break;
        }
        if ((o.expect_down ? went_down : up_after_restart) && (o.expect_down || restart) && ab.started >= o.packets &&
            ba.started >= o.packets) {
            bool quiet = cyc - last_progress > 20000 && ab.credits_home() && ba.credits_home();
            for (int v = 0; v < 4; v++) quiet &= ab.sending[v].empty() && ba.sending[v].empty();
            if (quiet) break;
        }
        if (up_at && cyc - last_progress > 50000 && (ab.pending() || ba.pending()) && !o.expect_down) {
            chk.check(false, "watchdog: no flit delivered for 50000 cycles at cycle %llu", (unsigned long long)cyc);
            break;
        }
    }
    std::printf("cycles %llu, A->B %ld packets %ld flits delivered, B->A %ld packets %ld flits, up at %llu\n",
                (unsigned long long)cyc, ab.delivered_pkts, ab.delivered_flits, ba.delivered_pkts,
                ba.delivered_flits, (unsigned long long)up_at);
    dump("A", top->a_counters, top->a_state);
    dump("B", top->b_counters, top->b_state);
    if (restart) {
        // before the fix A took a short restart of B for a retrain: it never
        // reported the link down although it dropped its frames
        const long a_drop = (long)top->a_counters[11];
        const long a_miss = ab.skipped + ab.pending_pkts(), b_miss = ba.skipped + ba.pending_pkts();
        std::printf("B reset at %ld for %ld cycles%s: A down %d, A link_downs %u; missing A->B %ld (A counted %ld), "
                    "B->A %ld (B had %ld undelivered)\n",
                    o.restart_at, o.restart_len, o.restart_dark ? " (dark)" : "", a_down_after_restart,
                    top->a_counters[13], a_miss, a_drop, b_miss, ba_open_at_restart);
        chk.check(a_down_after_restart, "A never reported the link down after B restarted");
        chk.check(top->a_counters[13] == 1, "A's link_downs %u, want 1 (one restart of B)", top->a_counters[13]);
        chk.check(up_after_restart && top->a_link_up && top->b_link_up, "the link did not come back up");
        chk.check(top->a_counters[0] == 0 && top->a_counters[1] == 0 && top->b_counters[0] == 0 &&
                      top->b_counters[1] == 0,
                  "CRC/sequence errors after a restart on a clean channel: A %u/%u, B %u/%u", top->a_counters[0],
                  top->a_counters[1], top->b_counters[0], top->b_counters[1]);
        chk.check(a_miss <= a_drop && a_drop - a_miss <= 32, "A->B: %ld packets missing but A counted %ld dropped",
                  a_miss, a_drop);
        chk.check(b_miss <= ba_open_at_restart, "B->A: %ld packets missing, B had only %ld undelivered at its reset",
                  b_miss, ba_open_at_restart);
        chk.check(ab.credits_home() && ba.credits_home(), "credits not all back after the restart");
        chk.check(ab.delivered_pkts + ab.skipped + ab.pending_pkts() == o.packets, "A->B packet count");
    } else if (o.miscable) {
        chk.check(top->b_miscabled && !top->b_link_up && !top->a_link_up, "mis-cabling not reported or link up");
        chk.check(top->b_counters[14] >= 1, "miscabled counter did not move");
    } else if (o.expect_down) {
        chk.check(went_down, "the link never went down");
        chk.check(top->a_link_up && top->b_link_up, "the link did not come back up");
        chk.check(top->a_counters[13] + top->b_counters[13] >= 1, "link_downs did not count");
        // every packet is delivered exactly once or counted as dropped. The
        // count is of packets not known to be delivered: a frame accepted
        // whose ACK died with the lane is counted too, so the count may
        // exceed the missing packets by what one round trip holds.
        const long a_drop = (long)top->a_counters[11], b_drop = (long)top->b_counters[11];
        const long a_miss = ab.skipped + ab.pending_pkts(), b_miss = ba.skipped + ba.pending_pkts();
        std::printf("missing A->B %ld (A counted %ld), B->A %ld (B counted %ld)\n", a_miss, a_drop, b_miss, b_drop);
        chk.check(a_miss <= a_drop && a_drop - a_miss <= 32,
                  "A->B: %ld packets missing but A counted %ld dropped", a_miss, a_drop);
        chk.check(b_miss <= b_drop && b_drop - b_miss <= 32,
                  "B->A: %ld packets missing but B counted %ld dropped", b_miss, b_drop);
        chk.check(ab.credits_home() && ba.credits_home(), "credits not all back after the link went down");
        chk.check(a_drop + b_drop > 0, "nothing was dropped although the link went down under traffic");
        chk.check(ab.delivered_pkts + ab.skipped + ab.pending_pkts() == o.packets, "A->B packet count");
    } else {
        chk.check(!ab.pending() && !ba.pending(), "packets still pending at the end");
        for (int v = 0; v < 4; v++)
            chk.check(ab.credits[v] == 80 && ba.credits[v] == 80, "credits of VC %d not all back (%d, %d)", v,
                      ab.credits[v], ba.credits[v]);
        chk.check(ab.delivered_pkts == o.packets && ba.delivered_pkts == o.packets, "not every packet delivered");
        chk.check(top->a_counters[11] == 0 && top->b_counters[11] == 0, "packets dropped on a link that stayed up");
        chk.check(!went_down, "the link went down");
        if (o.err > 0 || o.drop > 0 || o.dup > 0)
            chk.check(top->a_counters[4] + top->b_counters[4] > 0, "errors injected but no replay happened");
        if (o.expect_retrain)
            chk.check(top->a_counters[5] + top->b_counters[5] > 0, "no retrain happened");
    }
    return chk.finish(seed, std::to_string(ab.delivered_pkts + ba.delivered_pkts) + " packets");
}
