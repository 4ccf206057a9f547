// sim_oracle.cpp - kolo-sim: what the NIs send and receive. Every packet an
// NI sends is checked (NI oracle: well formed, each request answered once by a
// response that fits it; with end-to-end retransmission the looser rules
// below) and followed by the reference model (scoreboard) to its delivery;
// on --ni=rtl the same at the RTL NIs' local ports (sim_core.h).
#include <cinttypes>
#include <cstring>

#include "sim_core.h"

namespace kolo_sim {

// packets on the RTL local ports are matched by content (the route state in
// header flit 0 bits 58:36 changes on the way)
uint64_t pkt_key(const kolo_pkt &p) {
    auto mix = [](uint64_t h, uint64_t v) {
        h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ull;
        return h ^ (h >> 31);
    };
    uint64_t h = mix(0, p.header[0] & ~(0x7fffffull << 36));
    h = mix(h, p.header[1]);
    h = mix(h, p.len);
    for (unsigned i = 0; i < p.len; i++)
        h = mix(h, p.payload[i]);
    return h;
}

// The NI oracle's checks of a packet an NI sends; false (and the run fails)
// when it is malformed.
bool Sim::check_sent(Node &nd, const kolo_pkt *p) {
    uint64_t h0 = p->header[0];
    unsigned src = (h0 >> 12) & 0xfff, dst = h0 & 0xfff, op = (h0 >> 24) & 0xf,
             vnet = (h0 >> 28) & 1, len = (h0 >> 29) & 0x3f, ordered = (h0 >> 35) & 1;
    if (src != nd.id || len != p->len || len > KOLO_MAX_PAYLOAD || vnet != p->vnet ||
        ordered != p->ordered ||
        vnet != (is_request(op) && op != KOLO_OP_MGMT ? 0u : 1u)) { // MGMT: the RTL NIs' mgmt_tx
        check_fail(strf(
            "NI oracle: NI %s sent a malformed packet: header %#" PRIx64 " %#" PRIx64
            " (src %s, op %s, vnet %u, len %u, ordered %u; kolo_pkt len %u vnet %u ordered %u)",
            node_name(nd.id).c_str(), h0, p->header[1],
            node_name(static_cast<uint16_t>(src)).c_str(), kOpNames[op], vnet, len, ordered, p->len,
            p->vnet, p->ordered));
        return false;
    }
    if (!kolo_node_in_topo(&topo, static_cast<uint16_t>(dst))) {
        check_fail(strf("NI oracle: NI %s sent %s to %s, outside the torus",
                        node_name(nd.id).c_str(), kOpNames[op],
                        node_name(static_cast<uint16_t>(dst)).c_str()));
        return false;
    }
    return true;
}

int Sim::ni_send(Node &nd, const kolo_pkt *p) {
    if (failed_check)
        return -1; // the run is ending: hold everything
    if (!check_sent(nd, p))
        return 0;
    uint64_t h0 = p->header[0];
    unsigned src = (h0 >> 12) & 0xfff, dst = h0 & 0xfff, op = (h0 >> 24) & 0xf,
             vnet = (h0 >> 28) & 1, len = (h0 >> 29) & 0x3f, ordered = (h0 >> 35) & 1;
    if (!net->can_send(nd.index, *p))
        return -1;
    uint64_t id = next_id++ & KOLO_MODEL_ID_MASK;
    kolo_pkt q = *p;
    q.id = id;
    q.src = static_cast<uint16_t>(src);
    q.dst = static_cast<uint16_t>(dst);
    q.op = static_cast<uint8_t>(op);
    q.header[1] = (p->header[1] & ~KOLO_MODEL_ID_MASK) | id;
    kolo_pkt m = q; // the model builds flit 0 without the NI's bits 63:59
    m.header[0] &= ~kResvMask;
    int rc = kolo_model_inject(model, &m);
    if (rc != KOLO_OK) {
        check_fail(strf("scoreboard: NI %s sent a packet the model refuses: %s",
                        node_name(nd.id).c_str(), kolo_model_last_error(model)));
        return 0;
    }
    side[id] = Side{p->header[1], static_cast<uint8_t>(h0 >> 59)};
    oracle_send(*p);
    op_pkts[op]++;
    op_flits[op] += len + 2;
    nd.tx++;
    if (o.fault && !fault_done)
        return faulty_send(nd, p, q);
    if (holding && held_node == nd.index &&
        (held.header[0] & 0xffffff) == (q.header[0] & 0xffffff) &&
        ((held.header[0] >> 28) & 1) == vnet && ordered) {
        // --fault=reorder: the held packet goes after this later one of its flow
        net->send(nd.index, q, cycle);
        net->send(held_node, held, cycle);
        holding = false;
        return 0;
    }
    net->send(nd.index, q, cycle);
    return 0;
}

int Sim::faulty_send(Node &nd, const kolo_pkt *p, kolo_pkt &q) {
    unsigned op = (q.header[0] >> 24) & 0xf, ordered = (q.header[0] >> 35) & 1;
    switch (o.fault) {
    case KOLO_FAULT_CORRUPT:
        if (++fault_count == o.fault_n) {
            fault_done = true;
            if (q.len)
                q.payload[q.len - 1] ^= 1ull << 17;
            else
                q.header[1] ^= 1ull << 50; // the tag
        }
        break;
    case KOLO_FAULT_DROP:
        if (++fault_count == o.fault_n) {
            fault_done = true;
            return 0;
        }
        break;
    case KOLO_FAULT_DUP:
        if (++fault_count == o.fault_n) {
            fault_done = true;
            net->send(nd.index, q, cycle);
        }
        break;
    case KOLO_FAULT_REORDER:
        if (ordered && q.len && ++fault_count >= o.fault_n && !holding) {
            fault_done = true;
            holding = true;
            held = q;
            held_node = nd.index;
            held_cycle = cycle;
            return 0;
        }
        break;
    case KOLO_FAULT_RESP2:
        if (!is_request(op) && ++fault_count == o.fault_n) {
            fault_done = true;
            net->send(nd.index, q, cycle);
            return ni_send(nd, p); // the NI answers again
        }
        break;
    }
    net->send(nd.index, q, cycle);
    return 0;
}

static uint64_t req_key(unsigned requester, unsigned target, unsigned tag) {
    return (static_cast<uint64_t>(requester) << 20) | (static_cast<uint64_t>(target) << 8) | tag;
}

// What a request expects back.
static Req expect_of(const kolo_pkt &p) {
    uint64_t h0 = p.header[0];
    unsigned op = (h0 >> 24) & 0xf;
    Req r;
    r.op = static_cast<uint8_t>(op);
    r.want = KOLO_OP_ACK;
    r.resp_len = 0;
    if (op == KOLO_OP_GET_REQ) {
        unsigned nbytes = p.len ? static_cast<unsigned>(p.payload[0] & 0x1ff) : 0;
        r.want = KOLO_OP_GET_RESP;
        r.resp_len = static_cast<uint8_t>((nbytes + 7) / 8);
    } else if (is_atomic(op) && ((h0 >> 62) & 1)) {
        r.want = KOLO_OP_GET_RESP;
        r.resp_len = 1;
    }
    return r;
}

// The C NI model gives every packet its own tag; the NI RTL one tag per
// operation, shared by the packets of a long PUT/GET (each answered on its
// own). So with --ni=rtl several requests may wait under one (requester,
// target, tag); a response answers one of them that has arrived and fits.
void Sim::oracle_send(const kolo_pkt &p) {
    uint64_t h0 = p.header[0];
    unsigned src = (h0 >> 12) & 0xfff, dst = h0 & 0xfff, op = (h0 >> 24) & 0xf,
             tag = (p.header[1] >> 48) & 0xff;
    if (op == KOLO_OP_MGMT)
        return;
    if (e2e) {
        e2e_oracle_send(p);
        return;
    }
    if (is_request(op)) {
        uint64_t k = req_key(src, dst, tag);
        auto it = reqs.find(k);
        if (it != reqs.end() && !it->second.empty() && !cluster) {
            check_fail(strf("NI oracle: NI %s sent %s with tag %u to %s while its earlier %s with "
                            "that tag has no "
                            "response yet",
                            node_name(static_cast<uint16_t>(src)).c_str(), kOpNames[op], tag,
                            node_name(static_cast<uint16_t>(dst)).c_str(),
                            kOpNames[it->second.front().op]));
            return;
        }
        reqs[k].push_back(expect_of(p));
        oracle_reqs++;
        oracle_waiting++;
        return;
    }
    uint64_t k = req_key(dst, src, tag);
    auto it = reqs.find(k);
    std::string what =
        strf("NI %s sent %s tag %u to %s", node_name(static_cast<uint16_t>(src)).c_str(),
             kOpNames[op], tag, node_name(static_cast<uint16_t>(dst)).c_str());
    if (it == reqs.end() || it->second.empty()) {
        check_fail("NI oracle: " + what +
                   " but no request with that tag is waiting for a response");
        return;
    }
    auto fits = [&](const Req &r) {
        return op == KOLO_OP_NAK ||
               (op == r.want && (op != KOLO_OP_GET_RESP || p.len == r.resp_len));
    };
    Req *pick = nullptr, *open = nullptr;
    for (Req &r : it->second) {
        if (!r.delivered || r.responded)
            continue;
        if (!open)
            open = &r;
        if (fits(r)) {
            pick = &r;
            break;
        }
    }
    if (!pick) {
        Req &r = open ? *open : it->second.front();
        bool any_open = false;
        for (const Req &x : it->second)
            any_open = any_open || !x.responded;
        if (!open && any_open) {
            check_fail("NI oracle: " + what + " before the request it answers had arrived");
        } else if (!open) {
            check_fail("NI oracle: " + what + ": a second response to one " + kOpNames[r.op]);
        } else if (op != KOLO_OP_NAK && op != r.want) {
            check_fail("NI oracle: " + what + " in answer to " + kOpNames[r.op] + " (expected " +
                       kOpNames[r.want] + " or NAK)");
        } else {
            check_fail(strf("NI oracle: %s with %u payload flits in answer to %s (expected %u)",
                            what.c_str(), p.len, kOpNames[r.op], r.resp_len));
        }
        pick = &r;
    }
    pick->responded = true;
    oracle_resps++;
    if (op == KOLO_OP_NAK)
        oracle_naks++;
}

void Sim::oracle_deliver(const kolo_pkt &p) {
    uint64_t h0 = p.header[0];
    unsigned src = (h0 >> 12) & 0xfff, dst = h0 & 0xfff, op = (h0 >> 24) & 0xf,
             tag = (p.header[1] >> 48) & 0xff;
    if (op == KOLO_OP_MGMT)
        return;
    if (e2e) {
        e2e_oracle_deliver(p);
        return;
    }
    if (is_request(op)) {
        auto it = reqs.find(req_key(src, dst, tag));
        if (it == reqs.end())
            return;
        Req e = expect_of(p);
        for (Req &r : it->second)
            if (!r.delivered && r.op == e.op && r.want == e.want && r.resp_len == e.resp_len) {
                r.delivered = true;
                break;
            }
    } else {
        auto it = reqs.find(req_key(dst, src, tag));
        if (it == reqs.end())
            return;
        for (size_t i = 0; i < it->second.size(); i++)
            if (it->second[i].responded) {
                it->second.erase(it->second.begin() + static_cast<long>(i));
                oracle_waiting--;
                break;
            }
        if (it->second.empty())
            reqs.erase(it);
    }
}

// ---- NI oracle with end-to-end retransmission ----------------------------------------------
// Requests may be sent again (same tag and generation) and answered again
// from the target's record; responses may be lost or repeated. What must
// hold: a response answers a request that has arrived, fits it, and the
// target answers no more often than the request arrived. Keys carry the
// generation bit (header flit 0 bit 63) so the next use of a tag is new.
static uint64_t e2e_key(unsigned requester, unsigned target, unsigned tag, unsigned gen) {
    return req_key(requester, target, tag) | static_cast<uint64_t>(gen & 1) << 40;
}

void Sim::e2e_oracle_send(const kolo_pkt &p) {
    uint64_t h0 = p.header[0];
    unsigned src = (h0 >> 12) & 0xfff, dst = h0 & 0xfff, op = (h0 >> 24) & 0xf,
             tag = (p.header[1] >> 48) & 0xff, gen = static_cast<unsigned>(h0 >> 63);
    if (is_request(op)) {
        uint64_t k = e2e_key(src, dst, tag, gen);
        Req e = expect_of(p);
        auto it = ereqs.find(k);
        if (it != ereqs.end() && !it->second.done) {
            E2eReq &r = it->second;
            if (r.op == e.op && r.want == e.want && r.resp_len == e.resp_len) {
                r.sent++; // retransmission
                oracle_retx++;
                return;
            }
            oracle_abandoned++; // the NI gave up on the old one and reuses the tag
            oracle_waiting--;
        }
        E2eReq r;
        r.op = e.op;
        r.want = e.want;
        r.resp_len = e.resp_len;
        ereqs[k] = r;
        oracle_reqs++;
        oracle_waiting++;
        return;
    }
    std::string what =
        strf("NI %s sent %s tag %u gen %u to %s", node_name(static_cast<uint16_t>(src)).c_str(),
             kOpNames[op], tag, gen, node_name(static_cast<uint16_t>(dst)).c_str());
    auto it = ereqs.find(e2e_key(dst, src, tag, gen));
    if (it == ereqs.end() || it->second.delivered == 0) {
        check_fail("NI oracle: " + what + " but no such request has arrived there");
        return;
    }
    E2eReq &r = it->second;
    if (op != KOLO_OP_NAK && (op != r.want || (op == KOLO_OP_GET_RESP && p.len != r.resp_len))) {
        check_fail(strf("NI oracle: %s (%u payload flits) in answer to %s (expected %s with %u)",
                        what.c_str(), p.len, kOpNames[r.op], kOpNames[r.want], r.resp_len));
        return;
    }
    if (++r.responses > r.delivered) {
        check_fail("NI oracle: " + what + ": more responses than the request arrived");
        return;
    }
    if (r.responses == 1) {
        oracle_resps++;
        if (op == KOLO_OP_NAK)
            oracle_naks++;
    }
}

void Sim::e2e_oracle_deliver(const kolo_pkt &p) {
    uint64_t h0 = p.header[0];
    unsigned src = (h0 >> 12) & 0xfff, dst = h0 & 0xfff, op = (h0 >> 24) & 0xf,
             tag = (p.header[1] >> 48) & 0xff, gen = static_cast<unsigned>(h0 >> 63);
    if (is_request(op)) {
        auto it = ereqs.find(e2e_key(src, dst, tag, gen));
        // (a RESYNC arriving again is executed again, harmlessly: never answered from the
        // record, not counted as a repeat; docs/ni.md 10.1)
        if (it != ereqs.end() && ++it->second.delivered > 1 && op != KOLO_OP_RESYNC)
            oracle_repeats++;
        if (it != ereqs.end() && it->second.delivered > it->second.sent)
            check_fail(strf("NI oracle: %s tag %u from %s arrived more often than it was sent",
                            kOpNames[op], tag, node_name(static_cast<uint16_t>(src)).c_str()));
        return;
    }
    auto it = ereqs.find(e2e_key(dst, src, tag, gen));
    if (it == ereqs.end())
        return;
    if (it->second.done) {
        oracle_dup_resps++; // the NI drops it
        return;
    }
    it->second.done = true;
    oracle_waiting--;
}

// With every NI idle: a request never answered is an error unless NIs gave
// operations up (partitions, dead destinations), which complete with an error.
// A target answers from its record (without executing) exactly the requests
// that arrive again: any other is an operation lost. (Mid-run the NI may not
// have taken a repeat the oracle saw yet: only more is an error then.)
void Sim::e2e_record_check(bool final) {
    uint64_t from_record = e2e_totals().dup_requests;
    if (from_record > oracle_repeats || (final && from_record != oracle_repeats))
        check_fail(strf("NI oracle: targets took %" PRIu64 " requests for repeats but %" PRIu64
                        " arrived again: operations answered without being executed",
                        from_record, oracle_repeats));
}

void Sim::e2e_oracle_end() {
    e2e_record_check(true);
    if (failed_check)
        return;
    if (oracle_waiting == 0 || ni_give_ups() != 0)
        return;
    for (const auto &kv : ereqs)
        if (!kv.second.done) {
            unsigned req = static_cast<unsigned>((kv.first >> 20) & 0xfff),
                     tgt = static_cast<unsigned>((kv.first >> 8) & 0xfff);
            check_fail(strf("NI oracle: %zu requests never answered (e.g. %s tag %u from %s to "
                            "%s) with every NI idle and none given up",
                            static_cast<size_t>(oracle_waiting), kOpNames[kv.second.op],
                            static_cast<unsigned>(kv.first & 0xff),
                            node_name(static_cast<uint16_t>(req)).c_str(),
                            node_name(static_cast<uint16_t>(tgt)).c_str()));
            return;
        }
}

bool Sim::deliver(int n, kolo_pkt &p, bool &checked) {
    Node &nd = node[static_cast<size_t>(n)];
    if (!checked) {
        checked = true;
        if (failed_check)
            return true; // the run is ending: drop
        uint64_t id = p.header[1] & KOLO_MODEL_ID_MASK;
        if (!node_up.empty() && !node_up[static_cast<size_t>(n)]) {
            dead_drops++; // it reached a node that has died: gone with it
            forget(id, n, 6);
            return true;
        }
        uint64_t hdr[2] = {p.header[0] & ~kResvMask, p.header[1]};
        int rc = kolo_model_deliver(model, nd.id, hdr, p.payload, p.len);
        if (rc != KOLO_OK) {
            check_fail(strf("scoreboard: delivery at %s: %s", node_name(nd.id).c_str(),
                            kolo_model_last_error(model)));
            return true;
        }
        auto it = side.find(id);
        if (it == side.end()) {
            check_fail(
                strf("scoreboard: packet %#" PRIx64 " delivered but never sent by an NI", id));
            return true;
        }
        if (static_cast<uint8_t>(p.header[0] >> 59) != it->second.resv) {
            check_fail(strf("scoreboard: packet %#" PRIx64
                            " delivered at %s with header bits 63:59 = %#x, sent as %#x",
                            id, node_name(nd.id).c_str(), static_cast<unsigned>(p.header[0] >> 59),
                            it->second.resv));
            return true;
        }
        p.header[1] = it->second.h1;
        side.erase(it);
        uint64_t h0 = p.header[0];
        p.id = 0;
        p.dst = h0 & 0xfff;
        p.src = (h0 >> 12) & 0xfff;
        p.op = (h0 >> 24) & 0xf;
        p.vnet = (h0 >> 28) & 1;
        p.ordered = (h0 >> 35) & 1;
        oracle_deliver(p);
        if (failed_check)
            return true;
        if (p.op == KOLO_OP_MGMT) { // for the service processor, not the NI
            if (svc)
                svc->deliver(n, p);
            else
                mgmt_drops++;
            return true;
        }
    }
    if (kolo_ni_receive(nd.ni, &p) != 0)
        return false;
    nd.rx++;
    return true;
}

// ---- the NI RTL's local ports (--ni=rtl) -------------------------------------------------
// Injected: the NI oracle's checks, then the reference model gets the packet
// under a fresh id (header flit 1's address field, as in the C path); the id
// is found again at ejection from the packet's content.
// Route state fields a packet keeps on its way (signs, first/last step ports):
// packets alike but for their route (an MGMT packet sent both ways round a
// ring) are told apart by them.
static uint32_t rs_fixed(const kolo_pkt &p) {
    uint32_t rs = static_cast<uint32_t>(p.header[0] >> 36) & KOLO_RS_MASK;
    return rs & (7u | 7u << KOLO_RS_FS_PORT_SHIFT | 7u << KOLO_RS_LS_PORT_SHIFT);
}

// --ni=rtl: the scoreboard id of packet p seen leaving the network (delivered
// or dropped), the oldest in flight with its content and route; 0: none
uint64_t Sim::rtl_take_id(const kolo_pkt &p) {
    auto it = rtl_ids.find(pkt_key(p));
    if (it == rtl_ids.end())
        return 0;
    auto &v = it->second;
    size_t k = 0;
    while (k < v.size() && v[k].second != rs_fixed(p))
        k++;
    if (k == v.size())
        k = 0; // (the scoreboard then names what differs)
    uint64_t id = v[k].first;
    v.erase(v.begin() + static_cast<long>(k));
    if (v.empty())
        rtl_ids.erase(it);
    return id;
}

void Sim::packet_injected(int n, const kolo_pkt &p) {
    Node &nd = node[static_cast<size_t>(n)];
    if (failed_check || !check_sent(nd, &p))
        return;
    uint64_t h0 = p.header[0];
    unsigned op = (h0 >> 24) & 0xf, len = (h0 >> 29) & 0x3f;
    uint64_t id = next_id++ & KOLO_MODEL_ID_MASK;
    kolo_pkt m = p;
    m.id = id;
    m.header[0] &= ~kResvMask;
    m.header[1] = (p.header[1] & ~KOLO_MODEL_ID_MASK) | id;
    int rc = kolo_model_inject(model, &m);
    if (rc != KOLO_OK) {
        check_fail(strf("scoreboard: NI %s sent a packet the model refuses: %s",
                        node_name(nd.id).c_str(), kolo_model_last_error(model)));
        return;
    }
    rtl_ids[pkt_key(p)].emplace_back(id, rs_fixed(p));
    oracle_send(p);
    op_pkts[op]++;
    op_flits[op] += len + 2;
    nd.tx++;
}

void Sim::packet_ejected(int n, const kolo_pkt &p) {
    Node &nd = node[static_cast<size_t>(n)];
    if (failed_check)
        return;
    uint64_t id = rtl_take_id(p);
    if (!id) {
        check_fail(strf("scoreboard: delivery at %s of a packet no NI injected (duplicated or "
                        "corrupted): header %#" PRIx64 " %#" PRIx64 ", %u payload flits",
                        node_name(nd.id).c_str(), p.header[0], p.header[1], p.len));
        return;
    }
    uint64_t hdr[2] = {p.header[0] & ~kResvMask, (p.header[1] & ~KOLO_MODEL_ID_MASK) | id};
    int rc = kolo_model_deliver(model, nd.id, hdr, p.payload, p.len);
    if (rc != KOLO_OK) {
        check_fail(strf("scoreboard: delivery at %s: %s", node_name(nd.id).c_str(),
                        kolo_model_last_error(model)));
        return;
    }
    oracle_deliver(p);
    nd.rx++;
}

} // namespace kolo_sim
