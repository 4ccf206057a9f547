`default_nettype none
// kolo_router_input_formal - proof 2 (issue 19), cell by cell: the input unit
// kolo_router_input of a network port (Z+; cut-through, no whole-packet
// verdicts), its credits: P1's input side. Proved unbounded by k-induction
// (input.sby). Any flits at all arrive (free data, framing, headers: bad
// packets included), each only against a credit; the switch side is
// modelled as the VC allocator and switch drive it.
//
// Assumptions:
//  D1 (the upstream) a flit on VC v only while it holds a credit for v
//     (u_cred[v] > 0: it starts with the buffer depth, spends one per flit,
//     gains one per credit returned)
//  D2 (the VC allocator and switch) a grant only for a head that asked in
//     the previous cycle (hc_valid, or arr_valid for an empty VC), while
//     the port forwards nothing (the request was made with idle_next);
//     stream holds the granted VC from the cycle after the grant until its
//     tail leaves (what kolo_router_switch does: proved there, W2)
// Guarantees (assertions, every cycle after reset):
//  P1 (input side) per VC, exact credit conservation: the upstream's
//     credits + the flits buffered (F0, F1, RAM region) + the credits owed
//     for discards + the credit on its way back = the buffer depth (no
//     credit invented, none lost); so the buffer never over-fills;
//  B1, B2, B3 (what kolo_router_vc_select assumes of this unit): a head's
//     deterministic port is one port; an arriving head's class-1 candidates
//     contain it (unordered) or are empty (ordered); an arriving head is for
//     an empty VC; with -DB2RAM (input.sby task ram) B2 for every head that
//     asks, refilled from the RAM ones included: every clean head word in a
//     VC's RAM region (per word: the RAM is kolo_ram_sdp_peek.v, the RTL's
//     plus an anyconst observed word), the word in flight and F0/F1 (below)
//  and the unit's own `ifdef FORMAL assertions and `KOLO_ASSERT guards
//  (occupancy <= depth, F1 only behind F0, a word lands only with room,
//  nothing pops an empty F0, a granted head is a clean head, one forwarding
//  pop per cycle, no grant while streaming, no write into a full buffer).
// Strengthening (asserted): a read in flight for a VC has a word in its RAM
// region; every entry in F0/F1 names one deterministic port; a cut-through port never
// drains (its verdicts are all good).
// With -DFRAMING (input.sby task frame): the framing, after a granted head
// the VC pops only body flits, at most len + 1, the (len + 1)-th a tail
// (ghost counts per entry: formal/README.md, proof 2).
// With -DLOCAL (input_local.sby): the local input, PORT 6, WHOLE_PKT 1, LOCAL_DEPTH
// 34, with -DFRAMING also the verdict invariant (L ... assertions, below: the
// verdict FIFO's count = clean heads buffered - the open packet, never popped
// empty, a head released only with a good verdict and its packet whole, drain
// and stream exclusive). The FIFO never pushed when full is proved in two
// tasks (formal/README.md, no circle): -DNOBOUND (task prove) assumes it for
// the cycles before the current one and proves everything else; -DBOUND_ONLY
// (task bound) assumes everything else (the checks written `INV_CHECK) and
// proves it with the per-entry bound L bound, for one VC bv (anyconst).
// -DOVERFLOW_CTL (task overflow): VC 0 filled with two-flit packets, nothing
// granted (the control fifoshort: a FIFO of LOCAL_DEPTH/2 - 1 must overflow).
// The verdict's value (L verdict value, every local task but bound and overflow):
// the verdict the FIFO's own tracker follows (any push, anyseq) is good exactly
// when the packet is by the harness's spec (no head bit after its head, its end a
// tail at the declared length); the control verdictbad (a verdict ignoring bad).
// -DSEQ_CHK (input_local.sby task seq, make formal): also the verdict's packet
// (L verdict seq: the verdict popped with a head is its own packet's, by head
// sequence number), -DSEQ_CTL its control (the number one off: must fail).
// -DB2RAM -DB2_ONLY with -DLOCAL -DFRAMING -DNOBOUND (input_local.sby task ram): B2
// for RAM-refilled heads on the local input, every other check assumed.
// Negative controls (make test-formal-router-input, -framing): the unit with a
// forwarded flit's credit never returned must fail P1; with the refill's
// productive Z+/Z- ports swapped, a "B2 refill" assertion; without an
// over-long packet's forced tail, "FRAMING".
// input_local.sby's task bound assumes the invariants task prove proves (formal/README.md)
// input_local.sby's task ram (-DB2_ONLY) assumes them too and proves only B2
// (`B2_CHECK: assert everywhere)
`ifdef BOUND_ONLY
`define INV_CHECK assume
`else
`ifdef B2_ONLY
`define INV_CHECK assume
`else
`define INV_CHECK assert
`endif
`endif
`define B2_CHECK assert
module kolo_router_input_formal #(
`ifdef LOCAL
    parameter PORT        = 6,    // the local input: whole-packet verdicts
    parameter WHOLE_PKT   = 1,
`else
    parameter PORT        = 4,
    parameter WHOLE_PKT   = 0,
`endif
    parameter ESC_DEPTH   = 68,
    parameter ADAPT_DEPTH = 35,
    parameter LOCAL_DEPTH = 34,
    parameter VC_AW       = 7
) (
    input wire        clk,
    input wire        in_valid,
    input wire [67:0] in_flit,
    input wire        grant,
    input wire [1:0]  grant_vc,
    input wire        req_valid,
    input wire [1:0]  req_vc
);
  `include "kolo_defs.vh"
  `include "kolo_router_defs.vh"
  reg rst = 1'b1;
  always @(posedge clk) rst <= 1'b0;

  wire credit_valid;
  wire [1:0] credit_vc;
  wire [3:0] f0_valid, hc_valid, hc_same, err_pulse;
  wire [4*KOLO_E_W-1:0] f0_entry;
  wire [4*14-1:0] hc_cand;
  wire arr_valid, idle_next;
  wire [1:0] arr_vc;
  wire [13:0] arr_cand;
  wire [31:0] dbg_occ;
  reg stream;
  reg [1:0] stream_vc;

  kolo_router_input #(
      .PORT(PORT),
      .ESC_DEPTH(ESC_DEPTH),
      .ADAPT_DEPTH(ADAPT_DEPTH),
      .LOCAL_DEPTH(LOCAL_DEPTH),
      .WHOLE_PKT(WHOLE_PKT),
      .VC_AW(VC_AW)
  ) u_in (
      .clk(clk),
      .rst(rst),
      .cfg_node_id(12'h000),
      .cfg_dim_m1(12'h300),
      .cfg_port_en(6'b110000),
      .in_valid(in_valid),
      .in_flit(in_flit),
      .credit_valid(credit_valid),
      .credit_vc(credit_vc),
      .f0_valid(f0_valid),
      .f0_entry(f0_entry),
      .hc_valid(hc_valid),
      .hc_cand(hc_cand),
      .hc_same(hc_same),
      .arr_valid(arr_valid),
      .arr_vc(arr_vc),
      .arr_cand(arr_cand),
      .idle_next(idle_next),
      .stream(stream),
      .stream_vc(stream_vc),
      .grant(grant),
      .grant_vc(grant_vc),
      .req_valid(req_valid),
      .req_vc(req_vc),
      .err_pulse(err_pulse),
      .dbg_occ(dbg_occ)
  );

  function integer depth(input integer vc);
    depth = (PORT == KOLO_PORT_LOCAL) ? LOCAL_DEPTH : ((vc % 2) == 0) ? ESC_DEPTH : ADAPT_DEPTH;
  endfunction

  // the upstream's credits (D1)
  reg [31:0] u_cred;  // 8 bits per VC
  wire [1:0] in_vc = in_flit[KOLO_FLIT_VC_LO+:2];
  // the switch side (D2): last cycle's heads, and the stream it holds
  reg [3:0] p_hc_valid;
  reg p_arr_valid, p_idle_next, p_ok;
  reg [1:0] p_arr_vc;
  always @(posedge clk) begin
    p_ok <= !rst;
    p_hc_valid <= hc_valid;
    p_arr_valid <= arr_valid;
    p_arr_vc <= arr_vc;
    p_idle_next <= idle_next;
  end
  wire [KOLO_E_W-1:0] s_entry = f0_entry[stream_vc*KOLO_E_W+:KOLO_E_W];
  wire s_tail_now = stream && f0_valid[stream_vc] && s_entry[KOLO_E_TAIL];
  always @(posedge clk) begin
    if (rst) stream <= 1'b0;
    else stream <= grant || (stream && !s_tail_now);
    if (grant) stream_vc <= grant_vc;
  end
  always @(*) begin
    if (rst) assume (!in_valid && !grant);
    if (in_valid) assume (u_cred[in_vc*8+:8] != 8'd0);                          // D1
    if (grant) assume (p_ok && !stream && p_idle_next &&
                       (p_hc_valid[grant_vc] || (p_arr_valid && p_arr_vc == grant_vc)));  // D2
  end
`ifdef OVERFLOW_CTL
  // input_local.sby task overflow (a negative control's run, a narrower environment:
  // any trace it finds is one of the full one's): from the cycle after reset, VC 0
  // gets a flit every cycle, packets of two flits (a head of length 0, one free
  // header chosen once, and a tail with the same 64 bits), nothing granted or
  // requested
  (* anyconst *) reg [63:0] ctl_hdr;
  reg ctl_odd = 1'b0;
  always @(posedge clk) ctl_odd <= !rst && !ctl_odd;
  always @(*)
    if (!rst) begin
      assume (in_valid && in_flit[KOLO_FLIT_VC_LO+:2] == 2'd0 && !grant && !req_valid);
      assume (in_flit[KOLO_FLIT_HEAD] == !ctl_odd && in_flit[KOLO_FLIT_TAIL] == ctl_odd);
      assume (in_flit[63:0] == ctl_hdr && in_flit[KOLO_H0_LEN_LO+:6] == 6'd0);
    end
`endif

  // the unit's owed counters (input.sby: connect -set u_in.owed)
  wire [4*(VC_AW+1)-1:0] owed;
  // a read in flight (u_in.rd_q_valid, u_in.rd_q_vc) and, per VC, its RAM region's
  // count (g_vc[v].rcnt: u_in.g_vc[v].ram_cnt)
  wire rd_q_valid;
  wire [1:0] rd_q_vc;

  function onehot0(input [6:0] x);
    onehot0 = (x & (x - 7'd1)) == 7'd0;
  endfunction
  genvar v;
  generate
    for (v = 0; v < 4; v = v + 1) begin : g_vc
      always @(posedge clk) begin
        if (rst) u_cred[v*8+:8] <= depth(v);
        else u_cred[v*8+:8] <= u_cred[v*8+:8] - {7'd0, in_valid && in_vc == v} +
                               {7'd0, credit_valid && credit_vc == v};
      end
      wire [VC_AW:0] rcnt;
      wire drain;  // u_in.g_vc[v].drain (set only by a bad whole-packet verdict)
      wire fv1;    // u_in.g_vc[v].fv1, and the front registers' entries
      wire [KOLO_E_W-1:0] fe0, fe1;
      wire [8:0] occ = {1'b0, dbg_occ[v*8+:8]};
      wire [8:0] ow = {{(8 - VC_AW) {1'b0}}, owed[v*(VC_AW+1)+:VC_AW+1]};
      wire [8:0] back = {8'd0, credit_valid && credit_vc == v};
      always @(*)
        if (!rst) begin
          `INV_CHECK ({1'b0, u_cred[v*8+:8]} + occ + ow + back == depth(v));       // P1 conserved
          if (rd_q_valid && rd_q_vc == v) `INV_CHECK (rcnt != 0);
          if (WHOLE_PKT == 0) `INV_CHECK (!drain);  // a cut-through port never drains
          // every entry in F0/F1 names one deterministic port (B1, inductive)
          if (f0_valid[v]) `INV_CHECK (onehot0(fe0[KOLO_E_CAND_LO+7+:7]));
          if (fv1) `INV_CHECK (onehot0(fe1[KOLO_E_CAND_LO+7+:7]));
        end
    end
  endgenerate

  // the VC allocator's assumptions, as far as they are this unit's alone:
  // B1 a head's deterministic port is one port (buffered and arriving heads);
  // B2 for an arriving head (its candidates come from kolo_route_compute now);
  // B3 an arriving head is for an empty VC
  integer b;
  always @(*)
    if (!rst) begin
      for (b = 0; b < 4; b = b + 1) if (hc_valid[b]) `INV_CHECK (onehot0(hc_cand[b*14+7+:7]));  // B1
      if (arr_valid) `INV_CHECK (onehot0(arr_cand[13:7]));                            // B1
      if (arr_valid && arr_cand[6:0] != 7'd0)
        `INV_CHECK ((arr_cand[13:7] & ~arr_cand[6:0]) == 7'd0);                       // B2
      if (arr_valid) `INV_CHECK (!hc_valid[arr_vc]);                                  // B3
      if (WHOLE_PKT != 0) `INV_CHECK (!arr_valid);  // no arrival fast path on a whole-packet port
    end

// the RAM observers, from the RTL (connect -set): the observed word, the read
// port, each VC's pointers, and the address of the word on ram_rdata (-DB2RAM
// and -DFRAMING both read them; input_local.sby task ram has both)
`ifdef B2RAM
`define RAM_OBS
`endif
`ifdef FRAMING
`define RAM_OBS
`endif
`ifdef RAM_OBS
  wire [8:0] peek_addr;
  wire [70:0] peek, ram_rdata;
  wire ram_re;
  wire [8:0] ram_raddr;
  wire [4*VC_AW-1:0] rd_ptr, wr_ptr;
  reg [8:0] q_addr;  // the address of the word on ram_rdata
  always @(posedge clk) if (ram_re) q_addr <= ram_raddr;
`endif

`ifdef B2RAM
  // ---- B2 for heads refilled from the RAM (task ram, kolo_ram_sdp_peek.v) ----
  // A RAM word {adaptive?, det port, junk, head, tail, data} is good when it is
  // no clean head, or the candidates the refill rebuilds from it (the harness's
  // own copy of the rule: cand0 the stored port, cand1 none when ordered, the
  // productive enabled ports from the stored route state when the adaptive
  // flag is set, else the deterministic port) satisfy B2 and B1.
  function b2_ok(input [13:0] c);  // {cand0, cand1}
    b2_ok = onehot0(c[13:7]) && (c[6:0] == 7'd0 || (c[13:7] & ~c[6:0]) == 7'd0);
  endfunction
  function [13:0] word_cands(input [70:0] w);
    reg [22:0] rs;
    reg [2:0] dim;
    reg [5:0] prod;
    reg [6:0] det_oh;
    begin
      rs = w[KOLO_H0_RS_LO+:KOLO_RS_W];
      dim = {rs[KOLO_RS_HOPS_Z+:4] != 4'd0, rs[KOLO_RS_HOPS_Y+:4] != 4'd0,
             rs[KOLO_RS_HOPS_X+:4] != 4'd0};
      prod = rs[KOLO_RS_FS_VALID] ? 6'd0 :
             {dim[2] & rs[2], dim[2] & ~rs[2], dim[1] & rs[1], dim[1] & ~rs[1],
              dim[0] & rs[0], dim[0] & ~rs[0]};
      det_oh = (w[69:67] == 3'd7) ? 7'd0 : (7'd1 << w[69:67]);
      word_cands = {det_oh, w[KOLO_H0_ORDERED] ? 7'd0 :
                            w[70] ? {1'b0, prod & 6'b110000} : det_oh};  // cfg_port_en
    end
  endfunction
  function word_ok(input [70:0] w);
    word_ok = !w[KOLO_E_HEAD] || w[KOLO_E_JUNK] || b2_ok(word_cands(w));
  endfunction
  // the RAM observers (peek_addr, peek, ram_rdata, the pointers, q_addr) are
  // declared above, shared with -DFRAMING
  wire [1:0] pv = peek_addr[8:7];
  wire [VC_AW-1:0] pw = peek_addr[VC_AW-1:0];
  reg [VC_AW:0] p_rcnt;
  reg [VC_AW-1:0] p_rd, p_wr, q_rd;
  always @(*) begin
    case (pv)
      2'd0: p_rcnt = g_vc[0].rcnt;
      2'd1: p_rcnt = g_vc[1].rcnt;
      2'd2: p_rcnt = g_vc[2].rcnt;
      default: p_rcnt = g_vc[3].rcnt;
    endcase
    p_rd = rd_ptr[pv*VC_AW+:VC_AW];
    p_wr = wr_ptr[pv*VC_AW+:VC_AW];
    q_rd = rd_ptr[rd_q_vc*VC_AW+:VC_AW];
  end
  // the observed word is in its VC's region (written, not yet landed in F0/F1)
  wire [VC_AW-1:0] p_off = pw - p_rd;
  wire p_live = {1'b0, p_off} < p_rcnt;
  integer e;
  always @(*)
    if (!rst) begin
      for (e = 0; e < 4; e = e + 1)  // the region is the rcnt words from rd_ptr
        `INV_CHECK (wr_ptr[e*VC_AW+:VC_AW] - rd_ptr[e*VC_AW+:VC_AW] ==
                (e == 0 ? g_vc[0].rcnt[VC_AW-1:0] : e == 1 ? g_vc[1].rcnt[VC_AW-1:0] :
                 e == 2 ? g_vc[2].rcnt[VC_AW-1:0] : g_vc[3].rcnt[VC_AW-1:0]));
      // a word in flight is the first of its VC's region
      if (rd_q_valid) `INV_CHECK (q_addr == {rd_q_vc, q_rd});
      if (p_live) `B2_CHECK (word_ok(peek));                                  // B2 refill RAM word
      // a word in flight from the observed address is the observed word; a word
      // in flight from any other address is assumed good (it is, by the same
      // proof with that address observed: no word goes bad before a first one)
      if (rd_q_valid && q_addr == peek_addr) `INV_CHECK (ram_rdata == peek);
      if (rd_q_valid && q_addr != peek_addr) assume (word_ok(ram_rdata));
    end
  // every clean head in F0/F1 satisfies B2 (so every head asking does, below)
  generate
    for (v = 0; v < 4; v = v + 1) begin : g_b2
      always @(*)
        if (!rst) begin
          if (f0_valid[v] && g_vc[v].fe0[KOLO_E_HEAD] && !g_vc[v].fe0[KOLO_E_JUNK])
            `B2_CHECK (b2_ok(g_vc[v].fe0[KOLO_E_CAND_LO+:14]));                 // B2 refill F0
          if (g_vc[v].fv1 && g_vc[v].fe1[KOLO_E_HEAD] && !g_vc[v].fe1[KOLO_E_JUNK])
            `B2_CHECK (b2_ok(g_vc[v].fe1[KOLO_E_CAND_LO+:14]));                 // B2 refill F1
          if (hc_valid[v]) `B2_CHECK (b2_ok(hc_cand[v*14+:14]));                // B2 refill head
        end
    end
  endgenerate
  always @(*) if (!rst) cover (rd_q_valid && q_addr == peek_addr && peek[KOLO_E_HEAD] &&
                                !peek[KOLO_E_JUNK] && peek[70]);
`endif

`ifdef FRAMING
  // task framebmc (the control's run) checks the guarantee alone, from reset:
  // no invariants, no assumptions about other words (INV 0)
`ifdef FRAMING_BMC
  localparam INV = 0;
`else
  localparam INV = 1;
`endif
`ifdef NOBOUND
  localparam BND = 0;
`else
  localparam BND = 1;
`endif
  // the VCs whose bound is checked: all, or in task bound one VC bv chosen freely
  // (anyconst: a proof for every VC), its RAM words observed
  wire [3:0] bsel;
`ifdef BOUND_ONLY
  (* anyconst *) reg [1:0] bv;
  assign bsel = 4'd1 << bv;
`else
  assign bsel = 4'b1111;
`endif
  // ---- framing (task frame): what a VC's flits leave as ------------------------
  // Ghost g of every buffered entry: the flits its packet may still have after
  // it (the write side's expected count after the write: len + 1 after a clean
  // head, one less per body flit, 0 after a tail or for junk); gm holds it per
  // RAM word (written with the word), gf0/gf1 for F0/F1, g_out for the last
  // entry that left the VC. Chain invariant, in queue order g_out, F0, F1, the
  // region's words, the write side: each entry follows from the one before
  // (nxt_ok), the last one's g is the write side's expected count.
  function nxt_ok(input [5:0] gp, input head, input junk, input tail, input [5:0] len,
                  input [5:0] gn);
    if (gp != 6'd0)
      nxt_ok = !head && !junk && (tail ? gn == 6'd0 : (gn == gp - 6'd1 && gn != 6'd0));
    else
      nxt_ok = (head && !junk && !tail && len <= 6'd32 && gn == len + 6'd1) || (junk && gn == 6'd0);
  endfunction
  wire [8:0] peek2_addr;
  wire [70:0] peek2;
  wire ram_we, hdr_bad;
  wire [8:0] ram_waddr;
  wire [3:0] pop, in_pkt;
  wire [4*6-1:0] left;
  reg [5:0] gm[0:511];
  reg [5:0] gq;      // g of the word on ram_rdata (its address: q_addr)
  wire [3:0] fv1_w = {g_vc[3].fv1, g_vc[2].fv1, g_vc[1].fv1, g_vc[0].fv1};
  wire [3:0] rcnz = {g_vc[3].rcnt != 0, g_vc[2].rcnt != 0, g_vc[1].rcnt != 0, g_vc[0].rcnt != 0};
  // the expected count after this cycle's write, per VC (the RTL's framing rule)
  wire [5:0] in_len = in_flit[KOLO_H0_LEN_LO+:6];
  wire in_head = in_flit[KOLO_FLIT_HEAD], in_tail = in_flit[KOLO_FLIT_TAIL];
  reg [5:0] g_new[0:3];
  integer f;
  always @(*)
    for (f = 0; f < 4; f = f + 1) begin
      if (in_head && !in_pkt[f]) g_new[f] = hdr_bad ? 6'd0 : in_len + 6'd1;
      else if (in_pkt[f]) g_new[f] = (in_tail || left[f*6+:6] == 6'd1) ? 6'd0 : left[f*6+:6] - 6'd1;
      else g_new[f] = 6'd0;
    end
  always @(posedge clk) begin
    if (ram_we) gm[ram_waddr] <= g_new[ram_waddr[8:7]];
    if (ram_re) gq <= gm[ram_raddr];
  end
`ifdef LOCAL
  // the verdict's value is checked in every local task but bound (which does not
  // need it) and overflow (which never pops a verdict)
`define VALUE_CHK
`ifdef BOUND_ONLY
`undef VALUE_CHK
`endif
`ifdef OVERFLOW_CTL
`undef VALUE_CHK
`endif
  // ---- whole-packet verdicts (the local input, input_local.sby) ----------------
  // Ghost head sequence per VC: hw clean heads written, ho clean heads popped;
  // every buffered entry carries s, the hw after its write (gs per RAM word,
  // sf0/sf1 for F0/F1): s of an entry is s of the one before it, plus one for
  // a clean head. The verdict FIFO (u_verdict: connect -set) must hold one
  // verdict per clean head buffered whose packet has ended:
  //   count = hw - ho - in_pkt                      (L count)
  // Its bound needs the clean heads and clean tails buffered: an entry's
  // c = 2 s - (g != 0) counts both up to it (g from the framing chain: its
  // packet still open after it), and cw - c <= the entries after it.
  wire [3:0] drn = {g_vc[3].drain, g_vc[2].drain, g_vc[1].drain, g_vc[0].drain};
  wire [4*5-1:0] v_used;  // per VC: u_in.g_vc[v].g_whole.u_verdict.used, in_valid, ...
  wire [3:0] v_push, v_ready, v_valid, v_pop, v_data;
  (* keep *) wire [4*5-1:0] v_wp, v_rp;  // its pointers (kept: used only with INV)
  // the FIFO's own formal tracker (kolo_fifo_sync: one write picked by anyseq
  // f_pick, followed to the front; kept: not read in task bound)
  (* keep *) wire [3:0] v_rsn, v_trk, v_pick, v_fdata, bad_rtl;  // f_rst_seen, f_tracking, ..., u_in.g_vc[v].bad
  (* keep *) wire [4*5-1:0] v_ahead;                              // f_ahead
  reg [31:0] hw_v, ho_v;
  reg [7:0] s_new[0:3];   // s of the entry written now, per VC
  reg [7:0] gs[0:511];
  reg [7:0] sq;           // s of the word on ram_rdata
  integer h;
  always @(*)
    for (h = 0; h < 4; h = h + 1)
      s_new[h] = hw_v[h*8+:8] + {7'd0, in_valid && in_vc == h && in_head && !in_pkt[h] && !hdr_bad};
  always @(posedge clk) begin
    for (h = 0; h < 4; h = h + 1)
      if (rst) begin
        hw_v[h*8+:8] <= 8'd0;
        ho_v[h*8+:8] <= 8'd0;
      end else begin
        hw_v[h*8+:8] <= s_new[h];
        ho_v[h*8+:8] <= ho_v[h*8+:8] + {7'd0, pop[h] && f0_entry[h*KOLO_E_W+KOLO_E_HEAD] &&
                                              !f0_entry[h*KOLO_E_W+KOLO_E_JUNK]};
      end
    if (ram_we) gs[ram_waddr] <= s_new[ram_waddr[8:7]];
    if (ram_re) sq <= gs[ram_raddr];
  end
  function sok(input [7:0] sp, input head, input junk, input [7:0] sn);
    sok = sn == sp + {7'd0, head && !junk};
  endfunction
  function [7:0] cval(input [7:0] sv, input [5:0] gv);
    cval = {sv[6:0], 1'b0} - {7'd0, gv != 6'd0};
  endfunction
`endif
  // the stream's packet: flits popped since its head, its declared length
  reg [5:0] s_cnt, s_len;
  always @(posedge clk) begin
    if (grant) begin
      s_cnt <= 6'd0;
      s_len <= f0_entry[grant_vc*KOLO_E_W+KOLO_H0_LEN_LO+:6];
    end else if (stream && f0_valid[stream_vc]) s_cnt <= s_cnt + 6'd1;
  end
  genvar u;
  generate
    for (u = 0; u < 4; u = u + 1) begin : g_fr
      reg [5:0] gf0, gf1, g_out;
      wire rd_land = rd_q_valid && rd_q_vc == u;
      wire [5:0] g_in = rd_land ? gq : g_new[u];
      wire fv0 = f0_valid[u];
      wire fv1 = fv1_w[u];
      always @(posedge clk) begin
        if (rst) g_out <= 6'd0;
        else if (pop[u]) g_out <= gf0;
        gf0 <= pop[u] ? (fv1 ? gf1 : g_in) : (fv0 ? gf0 : g_in);
        if (pop[u] || !fv1) gf1 <= g_in;
      end
      wire [KOLO_E_W-1:0] e0 = f0_entry[u*KOLO_E_W+:KOLO_E_W];
      wire [KOLO_E_W-1:0] e1 = (u == 0) ? g_vc[0].fe1 : (u == 1) ? g_vc[1].fe1 :
                               (u == 2) ? g_vc[2].fe1 : g_vc[3].fe1;
      wire [5:0] g_lastf = fv1 ? gf1 : fv0 ? gf0 : g_out;
      wire [5:0] expect = in_pkt[u] ? left[u*6+:6] : 6'd0;
      wire [VC_AW-1:0] rp = rd_ptr[u*VC_AW+:VC_AW];
      wire [VC_AW-1:0] wp = wr_ptr[u*VC_AW+:VC_AW];
      wire [VC_AW-1:0] off = peek_addr[VC_AW-1:0] - rp;
      wire [VC_AW:0] rc = (u == 0) ? g_vc[0].rcnt : (u == 1) ? g_vc[1].rcnt :
                          (u == 2) ? g_vc[2].rcnt : g_vc[3].rcnt;
      wire a_here = peek_addr[8:7] == u;
      wire a_live = a_here && {1'b0, off} < rc;
      wire a_first = a_live && off == 0;
      wire a_last = a_live && peek_addr[VC_AW-1:0] == wp - 1'b1;
      always @(*)
        if (!rst) begin
          if (INV) `INV_CHECK (wp - rp == rc[VC_AW-1:0]);                                   // F region
          if (INV && in_pkt[u]) `INV_CHECK (left[u*6+:6] != 6'd0 && left[u*6+:6] <= 6'd33);  // F write side
          if (INV && rd_land) `INV_CHECK (q_addr == {u[1:0], rp});                       // F in flight
          // the chain
          if (INV && fv0) `INV_CHECK (nxt_ok(g_out, e0[KOLO_E_HEAD], e0[KOLO_E_JUNK], e0[KOLO_E_TAIL],
                                  e0[KOLO_H0_LEN_LO+:6], gf0));             // F chain F0
          if (INV && fv1) `INV_CHECK (nxt_ok(gf0, e1[KOLO_E_HEAD], e1[KOLO_E_JUNK], e1[KOLO_E_TAIL],
                                  e1[KOLO_H0_LEN_LO+:6], gf1));             // F chain F1
          if (INV && a_first) `INV_CHECK (nxt_ok(g_lastf, peek[KOLO_E_HEAD], peek[KOLO_E_JUNK],
                                      peek[KOLO_E_TAIL], peek[KOLO_H0_LEN_LO+:6],
                                      gm[peek_addr]));                          // F chain first
          if (INV && a_live && !a_first)  // the word before it (peek2) is in the region too
            `INV_CHECK (nxt_ok(gm[peek2_addr], peek[KOLO_E_HEAD], peek[KOLO_E_JUNK],
                           peek[KOLO_E_TAIL], peek[KOLO_H0_LEN_LO+:6], gm[peek_addr]));  // F chain RAM
          if (INV && a_last) `INV_CHECK (gm[peek_addr] == expect);                         // F chain last
          if (INV && peek2_addr[8:7] == u && {1'b0, peek2_addr[VC_AW-1:0] - rp} < rc &&
              peek2_addr[VC_AW-1:0] == wp - 1'b1) `INV_CHECK (gm[peek2_addr] == expect);  // F chain last
          if (INV && rc == 0) `INV_CHECK (g_lastf == expect);                              // F chain last
          // a VC with a packet open at its output is the stream
          if (INV && WHOLE_PKT == 0) `INV_CHECK ((g_out != 6'd0) == (stream && stream_vc == u));  // F stream
        end
`ifdef LOCAL
      reg [7:0] sf0, sf1;
      wire [7:0] s_in = rd_land ? sq : s_new[u];
      always @(posedge clk) begin
        sf0 <= pop[u] ? (fv1 ? sf1 : s_in) : (fv0 ? sf0 : s_in);
        if (pop[u] || !fv1) sf1 <= s_in;
      end
      wire [7:0] hwu = hw_v[u*8+:8], hou = ho_v[u*8+:8];
      wire [7:0] s_lastf = fv1 ? sf1 : fv0 ? sf0 : hou;
      wire [7:0] cw = {hwu[6:0], 1'b0} - {7'd0, in_pkt[u]};  // clean heads + tails written
      wire [7:0] c_out = cval(hou, g_out);                    // ... popped
      wire [9:0] occ = {2'd0, dbg_occ[u*8+:8]};
      wire [9:0] f_cnt = {9'd0, fv0} + {9'd0, fv1};
      wire [9:0] rcx = {{(9 - VC_AW) {1'b0}}, rc};
      wire is_str = stream && stream_vc == u;
      reg p_over;  // the last cycle pushed a verdict into a full FIFO
      always @(posedge clk) p_over <= !rst && v_push[u] && !v_ready[u];
      always @(*)
        if (!rst) begin
          // the ghost count equation: one verdict per ended packet whose clean head is buffered
          `INV_CHECK ({3'd0, v_used[u*5+:5]} == hwu - hou - {7'd0, in_pkt[u]});        // L count
          // the FIFO's pointers agree with its count (its own invariant, kept here
          // without its f_rst_seen-guarded ordering ghost)
          if (INV) `INV_CHECK (v_wp[u*5+:5] <= 5'd17 && v_rp[u*5+:5] <= 5'd17 &&
                           ((v_wp[u*5+:5] >= v_rp[u*5+:5]) ? v_wp[u*5+:5] - v_rp[u*5+:5] :
                            v_wp[u*5+:5] + 5'd18 - v_rp[u*5+:5]) ==
                           (v_used[u*5+:5] == 5'd18 ? 5'd0 : v_used[u*5+:5]));       // L FIFO pointers
          // the verdict FIFO never overflows nor underflows
          // (task bound; a push finds count <= LOCAL_DEPTH / 2 - 1: the FIFO has one
          // entry more than it needs)
          if (v_push[u] && BND && bsel[u]) assert (v_ready[u]);                                // L verdict FIFO
          if (v_push[u] && BND && bsel[u])
            assert ({3'd0, v_used[u*5+:5]} <= LOCAL_DEPTH / 2 - 1);                  // L verdict FIFO bound
          // -DNOBOUND (task prove): no push into a full FIFO in the cycles before,
          // assumed (one cycle late, so that no assertion of this cycle leans on it)
          if (!BND) assume (!p_over);
          if (v_pop[u]) `INV_CHECK (v_valid[u]);                                        // L verdict FIFO
          // a head is released only with its own verdict, good, its packet whole
          // (not the packet still being written: F0's s is not hw then)
          if (grant && grant_vc == u)
            `INV_CHECK (v_valid[u] && v_data[u] && (!in_pkt[u] || sf0 != hwu));         // L release
          // the VC's output side is inside a packet exactly when it streams or drains it
          if (INV) `INV_CHECK ((g_out != 6'd0) == (is_str || drn[u]));                  // F stream
          `INV_CHECK (!(is_str && drn[u]));                                             // L drain
          // clean heads and tails buffered never outnumber the entries buffered (F0, F1
          // and the RAM region's rc words)
          if (INV && BND && bsel[u]) assert ({2'd0, cw - c_out} <= f_cnt + rcx);               // L bound
          // the head sequence chain, in queue order (as the framing chain)
          if (INV && fv0) `INV_CHECK (sok(hou, e0[KOLO_E_HEAD], e0[KOLO_E_JUNK], sf0));  // L chain F0
          if (INV && fv1) `INV_CHECK (sok(sf0, e1[KOLO_E_HEAD], e1[KOLO_E_JUNK], sf1));  // L chain F1
          if (INV && a_first) `INV_CHECK (sok(s_lastf, peek[KOLO_E_HEAD], peek[KOLO_E_JUNK],
                                          gs[peek_addr]));                          // L chain first
          if (INV && a_live && !a_first)
            `INV_CHECK (sok(gs[peek2_addr], peek[KOLO_E_HEAD], peek[KOLO_E_JUNK], gs[peek_addr]));  // L chain RAM
          if (INV && a_last) `INV_CHECK (gs[peek_addr] == hwu);                          // L chain last
          if (INV && peek2_addr[8:7] == u && {1'b0, peek2_addr[VC_AW-1:0] - rp} < rc &&
              peek2_addr[VC_AW-1:0] == wp - 1'b1) `INV_CHECK (gs[peek2_addr] == hwu);   // L chain last
          if (INV && rc == 0) `INV_CHECK (s_lastf == hwu);                               // L chain last
          // per entry: clean heads and tails after it <= the entries after it
          if (INV && BND && bsel[u] && fv0)
            assert ({2'd0, cw - cval(sf0, gf0)} <= {9'd0, fv1} + rcx);                  // L bound F0
          if (INV && BND && bsel[u] && fv1) assert ({2'd0, cw - cval(sf1, gf1)} <= rcx);  // L bound F1
          if (INV && BND && bsel[u] && a_live)  // the word at offset off: rc - 1 - off after it
            assert ({2'd0, cw - cval(gs[peek_addr], gm[peek_addr])} + 10'd1 + {3'd0, off} <=
                    rcx);                                                           // L bound RAM
        end
`ifdef VALUE_CHK
      // ---- the verdict's value (L verdict value) ----------------------------------
      // The spec of a bad packet (its own words, not the RTL's line): a head bit in
      // a flit after its head, or the flit that ends it not a tail at the declared
      // length (a tail before len + 1 flits: short; none at len + 1: over-long).
      // cf: a head bit seen inside the open packet so far (the RTL's twin: bad).
      // The packet followed is the one whose verdict the FIFO's own tracker picks
      // (anyseq, any push: so every packet); tf is the spec's flaw of it, taken
      // at its push. At the pop of that verdict (f_ahead 0: it is the front) the
      // verdict is good exactly when the packet is: a grant (which pops it and
      // needs a good verdict, L release) never releases a bad packet, and a
      // rejection never drops a good one.
      reg cf, tf;
      wire wr_u = in_valid && in_vc == u;
      wire flaw_u = cf || in_head || !(in_tail && left[u*6+:6] == 6'd1);
      always @(posedge clk) begin
        if (wr_u && in_head) cf <= in_pkt[u];
        if (!rst && v_rsn[u] && !v_trk[u] && v_push[u] && v_ready[u] && v_pick[u]) tf <= flaw_u;
      end
      wire t_front = v_trk[u] && v_ahead[u*5+:5] == 5'd0;
      always @(*)
        if (!rst) begin
          if (v_pop[u] && t_front) `INV_CHECK (v_data[u] == !tf);                     // L verdict value
          // strengthening: the FIFO's tracker runs (its invariants checked), its
          // word is the spec's verdict, cf is the RTL's bad while a packet is open
          if (INV) `INV_CHECK (v_rsn[u]);                                            // L verdict tracker
          if (INV && v_trk[u]) `INV_CHECK (v_fdata[u] == !tf);                         // L verdict tracker
          if (INV && in_pkt[u]) `INV_CHECK (cf == bad_rtl[u]);                         // L verdict tracker
        end
      always @(*) if (!rst) cover (v_pop[u] && t_front && tf && !(grant && grant_vc == u));
`ifdef SEQ_CHK
      // ---- the verdict's packet (L verdict seq, input_local.sby task seq) --------
      // Direct check of what L verdict value leans on: the verdict popped with a
      // head is that head's packet's. ts: the head sequence number of the packet
      // whose verdict the FIFO's tracker follows, hw at its push (the push comes
      // with the flit that ends the packet, in_pkt, and no clean head is written
      // on the VC while it is open, so hw is its head's s). At the pop of that
      // verdict (f_ahead 0) F0 holds a clean head whose s is ts. Strengthening:
      // while tracked, ts = ho + 1 + f_ahead (the verdicts ahead of it are the
      // clean heads ho + 1 .. ts - 1, popped in order).
      // -DSEQ_CTL (task seqctl, the control): the number taken at the push is the
      // one before (hw - 1: the verdict of the previous packet popped with this
      // head); must fail L verdict seq.
      reg [7:0] ts;
`ifdef SEQ_CTL
      wire [7:0] ts_push = hwu - 8'd1;
`else
      wire [7:0] ts_push = hwu;
`endif
      always @(posedge clk)
        if (!rst && v_rsn[u] && !v_trk[u] && v_push[u] && v_ready[u] && v_pick[u]) ts <= ts_push;
      always @(*)
        if (!rst) begin
          if (v_pop[u] && t_front)
            `INV_CHECK (fv0 && e0[KOLO_E_HEAD] && !e0[KOLO_E_JUNK] && sf0 == ts);    // L verdict seq
          if (INV && v_trk[u])
            `INV_CHECK (ts == hou + 8'd1 + {3'd0, v_ahead[u*5+:5]});                  // L verdict seq tracker
        end
`endif
`endif
      always @(*) if (!rst) cover (grant && grant_vc == u && in_pkt[u] && v_used[u*5+:5] >= 5'd2);
      always @(*) if (!rst) cover (drn[u] && stream && stream_vc != u && rd_q_valid);
`endif

    end
  endgenerate
  always @(*)
    if (!rst) begin
      assume (peek2_addr == {peek_addr[8:7], peek_addr[6:0] - 7'd1});
`ifdef BOUND_ONLY
      assume (peek_addr[8:7] == bv);
`endif
      if (INV && rd_q_valid && q_addr == peek_addr) `INV_CHECK (ram_rdata == peek && gq == gm[peek_addr]);
      if (INV && rd_q_valid && q_addr == peek2_addr) `INV_CHECK (ram_rdata == peek2 && gq == gm[peek2_addr]);
      // a word landing from any other address follows its VC's chain (by the same
      // proof with that address observed: no chain breaks before a first one)
      if (INV && rd_q_valid && q_addr != peek_addr)
        assume (nxt_ok(rd_q_vc == 0 ? g_fr[0].g_lastf : rd_q_vc == 1 ? g_fr[1].g_lastf :
                       rd_q_vc == 2 ? g_fr[2].g_lastf : g_fr[3].g_lastf,
                       ram_rdata[KOLO_E_HEAD], ram_rdata[KOLO_E_JUNK], ram_rdata[KOLO_E_TAIL],
                       ram_rdata[KOLO_H0_LEN_LO+:6], gq));
      if (INV && rd_q_valid && q_addr != peek_addr && q_addr != peek2_addr)
        assume ((rd_q_vc == 0 ? g_vc[0].rcnt : rd_q_vc == 1 ? g_vc[1].rcnt :
                 rd_q_vc == 2 ? g_vc[2].rcnt : g_vc[3].rcnt) != 1 ||
                gq == (rd_q_vc == 0 ? g_fr[0].expect : rd_q_vc == 1 ? g_fr[1].expect :
                       rd_q_vc == 2 ? g_fr[2].expect : g_fr[3].expect));
`ifdef LOCAL
      if (INV && rd_q_valid && q_addr == peek_addr) `INV_CHECK (sq == gs[peek_addr]);
      if (INV && rd_q_valid && q_addr == peek2_addr) `INV_CHECK (sq == gs[peek2_addr]);
      // a word landing from any other address follows its VC's head sequence chain,
      // is the last entry when it is the region's last, and keeps the entry bound
      // (the same first-violation argument as above)
      if (INV && rd_q_valid && q_addr != peek_addr)
        assume (sok(rd_q_vc == 0 ? g_fr[0].s_lastf : rd_q_vc == 1 ? g_fr[1].s_lastf :
                    rd_q_vc == 2 ? g_fr[2].s_lastf : g_fr[3].s_lastf,
                    ram_rdata[KOLO_E_HEAD], ram_rdata[KOLO_E_JUNK], sq));
      if (INV && rd_q_valid && q_addr != peek_addr && q_addr != peek2_addr)
        assume ((rd_q_vc == 0 ? g_vc[0].rcnt : rd_q_vc == 1 ? g_vc[1].rcnt :
                 rd_q_vc == 2 ? g_vc[2].rcnt : g_vc[3].rcnt) != 1 ||
                sq == hw_v[rd_q_vc*8+:8]);
      if (INV && BND && bsel[rd_q_vc] && rd_q_valid && q_addr != peek_addr)
        assume ({2'd0, (rd_q_vc == 0 ? g_fr[0].cw : rd_q_vc == 1 ? g_fr[1].cw :
                        rd_q_vc == 2 ? g_fr[2].cw : g_fr[3].cw) - cval(sq, gq)} + 10'd1 <=
                (rd_q_vc == 0 ? g_fr[0].rcx : rd_q_vc == 1 ? g_fr[1].rcx :
                 rd_q_vc == 2 ? g_fr[2].rcx : g_fr[3].rcx));
`endif
      // FRAMING (the guarantee): the streamed VC's flits after its head are body
      // flits (no head, no junk: no flit of another packet), at most len + 1 of
      // them, the (len + 1)-th a tail
      if (stream && f0_valid[stream_vc]) begin
        `INV_CHECK (!s_entry[KOLO_E_HEAD] && !s_entry[KOLO_E_JUNK]);               // FRAMING body
        `INV_CHECK (s_cnt <= s_len);                                               // FRAMING length
        if (s_cnt == s_len) `INV_CHECK (s_entry[KOLO_E_TAIL]);                     // FRAMING length
      end
      if (INV && stream) `INV_CHECK (s_len <= 6'd32 && {1'b0, s_cnt} + (stream_vc == 0 ? g_fr[0].g_out : stream_vc == 1 ? g_fr[1].g_out : stream_vc == 2 ? g_fr[2].g_out : g_fr[3].g_out) == {1'b0, s_len} + 7'd1);  // F count
    end
  always @(*) if (!rst) cover (stream && f0_valid[stream_vc] && s_cnt == 6'd2 && s_entry[KOLO_E_TAIL] &&
                                rd_q_valid);
`endif

  // non-vacuity (task cover): a VC's buffer full, a packet forwarded whole
  always @(*)
    if (!rst) begin
      cover (g_vc[0].rcnt >= 2 && rd_q_valid);
      cover (stream && s_tail_now && credit_valid);
    end

  wire unused_ok = &{1'b0, hc_cand, hc_same, err_pulse, arr_cand};
endmodule
`default_nettype wire
