`default_nettype none
// kolo_router_input - input unit of one router port: 4 VC buffers.
//
// Write side (one flit per cycle from the link, credit flow control, never
// refused): framing is checked per VC from the header's length (a packet bad
// in its header is written as junk; a tail missing at the declared length is
// forced there and the rest is junk; a head flag inside a packet is cleared
// and the packet counted bad; a stray flit is junk). One err_pulse per bad
// packet: {route, vc, len, dst}. With WHOLE_PKT (the local port) a head may
// leave only once its tail is in and its length agreed with the header
// (a verdict FIFO per VC); a bad one is discarded whole.
//
// Buffer of each VC: two front registers F0 (the front flit) and F1 (the one
// behind it) and a region of the port's block RAM (kolo_ram_sdp, 2**VC_AW
// words per VC). A flit arriving for a VC whose RAM region is empty and
// whose F1 is free goes straight into F0/F1 (bypass); otherwise into the RAM.
// Reads (one per port and cycle, one cycle of latency) refill F0/F1: the VC
// being forwarded first (its pops are known a cycle ahead, so its reads run
// back to back), then the others, one read in flight each. A read whose word
// finds no room when it lands is dropped and done again later (the RAM read
// pointer moves only when a word is taken), so a speculative prefetch (for
// the VC whose head has a request registered: req_valid/req_vc) costs nothing.
// Every entry in F0/F1 carries the results of the route computation of its
// flit (kolo_route_compute on the arriving flit; a RAM word keeps its
// deterministic port and whether it has adaptive ports, and the masks are
// rebuilt from those when it is read): cand1 (output ports the packet may take on VC
// class 1), cand0 (its deterministic port, for class 0) and prod (ports
// whose departure uses up a hop count, for the route-state rewrite).
//
// Read side: the router forwards a packet whole once its head is granted:
// grant/grant_vc pops the head; then, while stream is set (driven by the
// switch allocator until the tail has gone), F0 of stream_vc is popped in
// every cycle in which it holds a flit. Junk, flits of a rejected packet and
// stray body flits are discarded by the unit itself (one per cycle).
// hc_*: per VC, a head at F0 that may ask for an output in the next cycle
// (not the VC being forwarded; on a WHOLE_PKT port only with a good verdict).
// arr_*: a head arriving now for an empty VC (the zero-load fast path; never
// on a WHOLE_PKT port). idle_next: the port forwards nothing next cycle
// unless a head is granted now.
//
// Credits: one per flit removed, registered (in the cycle after a forwarding
// pop; discards wait in per-VC counters for a cycle with no forwarding pop).
// Buffer depth per VC (what the upstream holds in credits): LOCAL_DEPTH on
// the local port, ESC_DEPTH on class-0 VCs and ADAPT_DEPTH on class-1 VCs of
// network ports. A write beyond that is a credit bug upstream: a failed
// assertion (simulation and FORMAL).
module kolo_router_input #(
    parameter PORT        = 0,    // 0..5 network ports X+ X- Y+ Y- Z+ Z-, 6 local
    parameter ESC_DEPTH   = 102,
    parameter ADAPT_DEPTH = 128,
    parameter LOCAL_DEPTH = 80,
    parameter WHOLE_PKT   = 0,
    parameter VC_AW       = 7     // RAM words per VC = 2**VC_AW >= every depth
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [11:0]   cfg_node_id,
    input  wire [11:0]   cfg_dim_m1,
    input  wire [5:0]    cfg_port_en,
    // from the link
    input  wire          in_valid,
    input  wire [67:0]   in_flit,
    output reg           credit_valid,
    output reg  [1:0]    credit_vc,
    // front registers F0 of the 4 VCs (entry layout: see kolo_router_defs.vh)
    output wire [3:0]    f0_valid,
    output wire [4*87-1:0] f0_entry,
    // head candidates for the next cycle
    output wire [3:0]    hc_valid,
    output wire [4*14-1:0] hc_cand,      // per VC {cand0[6:0], cand1[6:0]}
    output reg  [3:0]    hc_same,        // F0 holds the same entry as in the last cycle
    output wire          arr_valid,
    output wire [1:0]    arr_vc,
    output wire [13:0]   arr_cand,
    output wire          idle_next,
    // forwarding control (switch allocator, stage-A request)
    input  wire          stream,
    input  wire [1:0]    stream_vc,
    input  wire          grant,
    input  wire [1:0]    grant_vc,
    input  wire          req_valid,
    input  wire [1:0]    req_vc,
    // one pulse per bad packet: {route, vc, len, dst} (a cycle after the flit)
    output reg  [3:0]    err_pulse,
    output wire [4*8-1:0] dbg_occ
);
  `include "kolo_defs.vh"
  `include "kolo_router_defs.vh"

  localparam RAM_W = 71;  // {adaptive ports?, det port, junk, head, tail, data}
  localparam CNT_W = VC_AW + 1;
  localparam [CNT_W-1:0] C1 = 1;
  localparam [VC_AW-1:0] P1 = 1;
  localparam VERDICT_DEPTH = LOCAL_DEPTH / 2 + 1;
  localparam [2:0] MY_PORT = PORT[2:0];

  // ---- route computation of the arriving flit ---------------------------------
  wire [2:0] rc_det;
  wire [5:0] rc_mask, rc_prod;
  wire rc_err_dst, rc_err_len, rc_err_vc, rc_err_route;
  kolo_route_compute u_rc (
      .cfg_node_id(cfg_node_id),
      .cfg_dim_m1(cfg_dim_m1),
      .cfg_port_en(cfg_port_en),
      .flit(in_flit),
      .det_port(rc_det),
      .adaptive_mask(rc_mask),
      .productive(rc_prod),
      .err_dst(rc_err_dst),
      .err_len(rc_err_len),
      .err_vc(rc_err_vc),
      .err_route(rc_err_route)
  );
  // one reason per bad header, in this priority
  wire hdr_vc = rc_err_vc;
  wire hdr_len = !hdr_vc && rc_err_len;
  wire hdr_dst = !hdr_vc && !hdr_len && rc_err_dst;
  wire hdr_route = !hdr_vc && !hdr_len && !hdr_dst && rc_err_route;
  wire hdr_bad = rc_err_vc | rc_err_len | rc_err_dst | rc_err_route;

  wire in_head = in_flit[KOLO_FLIT_HEAD];
  wire in_tail = in_flit[KOLO_FLIT_TAIL];
  wire [1:0] in_vc = in_flit[KOLO_FLIT_VC_LO+:2];

  // candidate ports of a head: class 0 on the deterministic port; class 1 on
  // the productive enabled ports, or on the deterministic port when there is
  // none (first step pending, last step, ejection); ordered packets class 0 only
  function automatic [13:0] cands(input [2:0] det, input [5:0] amask, input ordered);
    reg [6:0] det_oh;
    begin
      det_oh = (det == 3'd7) ? 7'd0 : (7'd1 << det);
      cands[13:7] = det_oh;
      cands[6:0] = ordered ? 7'd0 : ((amask != 6'd0) ? {1'b0, amask} : det_oh);
    end
  endfunction

  // ---- port RAM and its read port ---------------------------------------------
  wire ram_we;
  wire [VC_AW+1:0] ram_waddr;
  wire [RAM_W-1:0] ram_wdata;
  wire ram_re;
  wire [VC_AW+1:0] ram_raddr;
  wire [RAM_W-1:0] ram_rdata;
  kolo_ram_sdp #(
      .WIDTH(RAM_W),
      .AW(VC_AW + 2)
  ) u_ram (
      .clk(clk),
      .we(ram_we),
      .waddr(ram_waddr),
      .wdata(ram_wdata),
      .re(ram_re),
      .raddr(ram_raddr),
      .rdata(ram_rdata)
  );
  reg rd_q_valid;      // a read issued last cycle: its word is on ram_rdata now
  reg [1:0] rd_q_vc;

  // the refill of F0/F1 from a RAM word: the candidate masks from the stored
  // deterministic port and the route state (the checks were made on arrival)
  wire [22:0] rd_rs = ram_rdata[KOLO_H0_RS_LO+:KOLO_RS_W];
  wire [2:0] rd_dim = {rd_rs[KOLO_RS_HOPS_Z+:4] != 4'd0, rd_rs[KOLO_RS_HOPS_Y+:4] != 4'd0,
                       rd_rs[KOLO_RS_HOPS_X+:4] != 4'd0};
  wire [5:0] rd_prod = rd_rs[KOLO_RS_FS_VALID] ? 6'd0 :
                       {rd_dim[2] & rd_rs[2], rd_dim[2] & ~rd_rs[2], rd_dim[1] & rd_rs[1],
                        rd_dim[1] & ~rd_rs[1], rd_dim[0] & rd_rs[0], rd_dim[0] & ~rd_rs[0]};
  wire [2:0] rd_det = ram_rdata[69:67];
  wire [6:0] rd_det_oh = (rd_det == 3'd7) ? 7'd0 : (7'd1 << rd_det);
  wire [6:0] rd_cand1 = ram_rdata[KOLO_H0_ORDERED] ? 7'd0 :
                        ram_rdata[70] ? {1'b0, rd_prod & cfg_port_en} : rd_det_oh;
  wire [KOLO_E_W-1:0] rd_entry = {rd_prod, rd_det_oh, rd_cand1, ram_rdata[66:0]};

  // ---- per VC -----------------------------------------------------------------
  wire [3:0] pop;          // F0 leaves now (forwarded or discarded)
  wire [3:0] fwd_pop;      // ... forwarded
  wire [3:0] junk_cand;    // F0 may be discarded
  wire [3:0] junk_pop;
  wire [3:0] len_err_vc, hdr_err_vc;
  wire [3:0] ram_wr_vc;
  wire [4*VC_AW-1:0] wr_ptr_vc;
  wire [3:0] want_rd;      // non-forwarded VCs that want a read
  wire [4*VC_AW-1:0] rd_addr_vc;
  wire want_rd_s;          // the forwarded VC wants a read (chained)
  wire [VC_AW-1:0] rd_addr_s;
  wire [3:0] is_s = stream ? (4'd1 << stream_vc) : 4'd0;
  wire [3:0] want_rd_s_vc;
  wire [4*VC_AW-1:0] rd_addr_s_vc;
  wire [3:0] tail_now_vc;  // the forwarded VC's tail leaves now
  wire [4*RAM_W-1:0] wr_word_vc;
  wire [3:0] vc_empty;     // nothing buffered (F0 and RAM region empty)
  wire [3:0] vc_starts;    // a write now starts a packet

  genvar v;
  generate
    for (v = 0; v < 4; v = v + 1) begin : g_vc
      localparam integer DEPTH = (PORT == KOLO_PORT_LOCAL) ? LOCAL_DEPTH :
                                 ((v % 2) == 0) ? ESC_DEPTH : ADAPT_DEPTH;
      localparam [CNT_W-1:0] DEPTH_C = DEPTH[CNT_W-1:0];

      // ---- write side framing -----------------------------------------------
      reg in_pkt;         // inside a packet whose declared length is not reached
      reg [5:0] left;     // flits still expected after the last one written
      reg skip;           // junk until the next tail (after an over-long packet)
      reg bad;            // a head bit appeared inside this packet
      wire wr = in_valid && (in_vc == v[1:0]);
      wire starts = in_head && !in_pkt;
      wire last_expected = (left == 6'd1);
      wire body = in_pkt;
      wire short_pkt = body && in_tail && !last_expected;
      wire over_long = body && !in_tail && last_expected;
      wire ends = body && (in_tail || last_expected);
      wire stray = !starts && !in_pkt && !skip;

      wire wr_junk = starts ? hdr_bad : !body;
      wire wr_tail = in_tail || over_long;
      wire wr_head = starts;

      always @(posedge clk) begin
        if (rst) begin
          in_pkt <= 1'b0;
          left <= 6'd0;
          skip <= 1'b0;
          bad <= 1'b0;
        end else if (wr) begin
          if (starts) begin
            bad <= 1'b0;
            in_pkt <= !hdr_bad;
            left <= in_flit[KOLO_H0_LEN_LO+:6] + 6'd1;
            skip <= hdr_bad && !in_tail;
          end else if (body) begin
            left <= left - 6'd1;
            if (in_head) bad <= 1'b1;
            if (ends) in_pkt <= 1'b0;
            if (over_long) skip <= 1'b1;
          end else begin
            skip <= !in_tail;
          end
        end
      end
      wire pkt_bad_end = wr && ends && (short_pkt || over_long || bad || in_head);
      assign len_err_vc[v] = pkt_bad_end || (wr && stray);
      assign hdr_err_vc[v] = wr && starts && hdr_bad;

      wire [RAM_W-1:0] wr_word = {rc_mask != 6'd0, rc_det, wr_junk, wr_head, wr_tail, in_flit[63:0]};
      assign wr_word_vc[v*RAM_W+:RAM_W] = wr_word;
      assign vc_starts[v] = starts;
      wire [KOLO_E_W-1:0] wr_entry = {wr_head ? rc_prod : 6'd0,
                                      wr_head ? cands(rc_det, rc_mask, in_flit[KOLO_H0_ORDERED]) :
                                                14'd0,
                                      wr_word[66:0]};

      // ---- F0/F1 and the RAM region -----------------------------------------
      reg fv0, fv1;
      reg [KOLO_E_W-1:0] fe0, fe1;
      reg [CNT_W-1:0] ram_cnt;
      reg [VC_AW-1:0] wr_ptr, rd_ptr;
      wire [1:0] f_cnt = {1'b0, fv0} + {1'b0, fv1};
      wire ram_empty = (ram_cnt == {CNT_W{1'b0}});
      wire rd_land = rd_q_valid && (rd_q_vc == v[1:0]);
      wire room_land = !fv1 || pop[v];
      wire land = rd_land && room_land;
      wire byp = wr && ram_empty && !fv1;
      wire ram_wr = wr && !byp;
      wire new_valid = land || byp;
      // (timing: pop comes late, through the switch allocator's grant, so
      // nothing below depends on it but the last multiplexer or enable.) The
      // new entry is taken only where there is room, where land == rd_land:
      // when the VC pops, or when F1 is free (F0 or F1 written)
      wire [KOLO_E_W-1:0] new_entry = rd_land ? rd_entry : wr_entry;
      // ram_cnt after this cycle, when F0 pops and when it does not
      wire [CNT_W-1:0] cnt_wr = ram_cnt + (ram_wr ? C1 : {CNT_W{1'b0}});
      wire [CNT_W-1:0] cnt_pop = cnt_wr - (rd_land ? C1 : {CNT_W{1'b0}});
      wire [CNT_W-1:0] cnt_keep = cnt_wr - ((rd_land && !fv1) ? C1 : {CNT_W{1'b0}});
      assign ram_wr_vc[v] = ram_wr;
      assign vc_empty[v] = !fv0 && ram_empty;
      assign wr_ptr_vc[v*VC_AW+:VC_AW] = wr_ptr;

      always @(posedge clk) begin
        if (rst) begin
          fv0 <= 1'b0;
          fv1 <= 1'b0;
          hc_same[v] <= 1'b0;
          ram_cnt <= {CNT_W{1'b0}};
          wr_ptr <= {VC_AW{1'b0}};
          rd_ptr <= {VC_AW{1'b0}};
        end else begin
          if (pop[v]) begin
            fv0 <= fv1 || new_valid;
            fv1 <= fv1 && new_valid;
          end else begin
            fv0 <= fv0 || new_valid;
            fv1 <= fv1 || (fv0 && new_valid);
          end
          ram_cnt <= pop[v] ? cnt_pop : cnt_keep;
          hc_same[v] <= fv0 && !pop[v];
          if (ram_wr) wr_ptr <= wr_ptr + P1;
          if (land) rd_ptr <= rd_ptr + P1;
        end
        // (F1 is valid only behind F0: fv1 implies fv0)
        fe0 <= pop[v] ? (fv1 ? fe1 : new_entry) : (fv0 ? fe0 : new_entry);
        if (pop[v] || !fv1) fe1 <= new_entry;
      end

      wire [CNT_W:0] occ = {1'b0, ram_cnt} + {{(CNT_W - 1) {1'b0}}, f_cnt};
      assign dbg_occ[v*8+:8] = (occ > 255) ? 8'hff : occ[7:0];

      // ---- reads --------------------------------------------------------------
      // forwarded VC: F0 pops whenever it holds a flit, and a word landing
      // always finds room; chain the reads so that F0 never runs dry
      wire s_pop = fv0;
      wire s_tail_now = fv0 && fe0[KOLO_E_TAIL];
      wire [1:0] f_next = f_cnt - {1'b0, s_pop} + {1'b0, rd_land};
      wire s_pop_next = !s_tail_now && (f_next != 2'd0);
      // words in the RAM region not yet read: ram_cnt - rd_land != 0
      wire unread_nz = rd_land ? (ram_cnt != C1) : !ram_empty;
      assign want_rd_s_vc[v] = is_s[v] && unread_nz &&
                               ((f_next - {1'b0, s_pop_next}) <= 2'd1);
      assign rd_addr_s_vc[v*VC_AW+:VC_AW] = rd_ptr + (rd_land ? P1 : {VC_AW{1'b0}});
      assign tail_now_vc[v] = is_s[v] && s_tail_now;
      // the other VCs: one read in flight; a full F0/F1 only for the VC whose
      // head has a request (it may be granted now: prefetch its third flit)
      assign want_rd[v] = !is_s[v] && !ram_empty && !rd_land &&
                          (!fv1 || (req_valid && req_vc == v[1:0]));
      assign rd_addr_vc[v*VC_AW+:VC_AW] = rd_ptr;

      // ---- verdicts of whole packets (local port) ----------------------------
      wire verdict_valid;
      wire verdict_ok;
      reg drain;  // discarding a packet whose verdict was bad
      wire f_junk = fe0[KOLO_E_JUNK];
      wire f_head = fe0[KOLO_E_HEAD];
      wire f_tail = fe0[KOLO_E_TAIL];
      wire head_waiting = fv0 && !is_s[v] && f_head && !f_junk && !drain;
      wire head_rejected = head_waiting && verdict_valid && !verdict_ok;
      if (WHOLE_PKT != 0) begin : g_whole
        wire verdict_pop = (grant && grant_vc == v[1:0]) || (junk_pop[v] && head_rejected);
        // at most LOCAL_DEPTH/2 whole packets fit in the buffer, so this never fills
        /* verilator lint_off UNUSEDSIGNAL */
        wire verdict_in_ready;
        /* verilator lint_on UNUSEDSIGNAL */
        kolo_fifo_sync #(
            .WIDTH(1),
            .DEPTH(VERDICT_DEPTH)
        ) u_verdict (
            .clk(clk),
            .rst(rst),
            .in_valid(wr && ends),
            .in_ready(verdict_in_ready),
            .in_data(!(short_pkt || over_long || bad || in_head)),
            .out_valid(verdict_valid),
            .out_ready(verdict_pop),
            .out_data(verdict_ok),
            /* verilator lint_off PINCONNECTEMPTY */  // verdicts are only popped in order
            .count()
            /* verilator lint_on PINCONNECTEMPTY */
        );
      end else begin : g_cut_through
        assign verdict_valid = 1'b1;
        assign verdict_ok = 1'b1;
      end

      // ---- head candidates --------------------------------------------------
      assign hc_valid[v] = head_waiting && verdict_valid && verdict_ok;
      assign hc_cand[v*14+:14] = fe0[KOLO_E_CAND_LO+:14];

      // ---- pops ----------------------------------------------------------------
      assign fwd_pop[v] = (is_s[v] && fv0) || (grant && grant_vc == v[1:0]);
      // junk, a draining packet, a rejected head, or a body flit nobody forwards
      assign junk_cand[v] = fv0 && !is_s[v] && (f_junk || drain || head_rejected || !f_head);
      assign pop[v] = fwd_pop[v] || junk_pop[v];

      always @(posedge clk) begin
        if (rst) drain <= 1'b0;
        else if (junk_pop[v] && head_rejected && !f_tail) drain <= 1'b1;
        else if (junk_pop[v] && drain && f_tail) drain <= 1'b0;
      end

      assign f0_valid[v] = fv0;
      assign f0_entry[v*KOLO_E_W+:KOLO_E_W] = fe0;

`ifdef FORMAL
      // credits never exceed buffer space: the upstream holds DEPTH credits,
      // so the buffer (F0, F1 and the RAM region) never holds more (a write
      // into a full buffer: the `KOLO_ASSERT guard below, also a proof obligation)
      always @(posedge clk) if (!rst) assert (occ <= {1'b0, DEPTH_C});
      // F1 only behind F0; a word lands only where there is room
      always @(posedge clk) if (!rst) assert (!fv1 || fv0);
      always @(posedge clk) if (!rst && new_valid) assert (!fv1 || pop[v]);
      // nothing pops an empty F0; a granted head is a clean head
      always @(posedge clk) if (!rst && pop[v]) assert (fv0);
      always @(posedge clk) if (!rst && grant && grant_vc == v[1:0]) assert (fv0 && f_head && !f_junk);
`endif
`ifndef SYNTHESIS
`include "kolo_assert.vh"
      // simulation guard for the same rule: a full buffer means a credit bug upstream
      always @(posedge clk) if (!rst) `KOLO_ASSERT(!(wr && occ >= {1'b0, DEPTH_C}));
`endif
    end
  endgenerate

  // ---- discards: one per cycle, the lowest VC first ------------------------------
  assign junk_pop = junk_cand & ~(junk_cand - 4'd1);

  // ---- RAM write and read port --------------------------------------------------------
  assign ram_we = |ram_wr_vc;
  // (4:1 multiplexers written out: an index times a width that is not a
  // power of two would become a multiplier)
  function automatic [VC_AW-1:0] sel_ptr(input [4*VC_AW-1:0] a, input [1:0] idx);
    case (idx)
      2'd0: sel_ptr = a[0*VC_AW+:VC_AW];
      2'd1: sel_ptr = a[1*VC_AW+:VC_AW];
      2'd2: sel_ptr = a[2*VC_AW+:VC_AW];
      default: sel_ptr = a[3*VC_AW+:VC_AW];
    endcase
  endfunction
  assign ram_waddr = {in_vc, sel_ptr(wr_ptr_vc, in_vc)};
  assign ram_wdata = in_vc[1] ? (in_vc[0] ? wr_word_vc[3*RAM_W+:RAM_W] : wr_word_vc[2*RAM_W+:RAM_W]) :
                                (in_vc[0] ? wr_word_vc[1*RAM_W+:RAM_W] : wr_word_vc[0*RAM_W+:RAM_W]);
  // the forwarded VC first, then the lowest VC that wants a read
  assign want_rd_s = |want_rd_s_vc;
  assign rd_addr_s = sel_ptr(rd_addr_s_vc, stream_vc);
  wire [3:0] rd_pick = want_rd & ~(want_rd - 4'd1);
  wire [1:0] rd_pick_vc = rd_pick[1] ? 2'd1 : rd_pick[2] ? 2'd2 : rd_pick[3] ? 2'd3 : 2'd0;
  wire [1:0] rd_vc = want_rd_s ? stream_vc : rd_pick_vc;
  assign ram_re = want_rd_s || (want_rd != 4'd0);
  assign ram_raddr = {rd_vc, want_rd_s ? rd_addr_s : sel_ptr(rd_addr_vc, rd_pick_vc)};
  always @(posedge clk) begin
    if (rst) rd_q_valid <= 1'b0;
    else rd_q_valid <= ram_re;
    rd_q_vc <= rd_vc;
  end

  // ---- arrival fast path ----------------------------------------------------------------
  wire arr_empty = vc_empty[in_vc];
  wire arr_starts = vc_starts[in_vc];
  assign arr_valid = (WHOLE_PKT == 0) && in_valid && in_head && arr_starts && !hdr_bad && arr_empty;
  assign arr_vc = in_vc;
  assign arr_cand = cands(rc_det, rc_mask, in_flit[KOLO_H0_ORDERED]);

  assign idle_next = !stream || (|tail_now_vc);

  // ---- credits ---------------------------------------------------------------------------
  // a forwarding pop returns its credit at once; discards wait in owed[]
  // for a cycle without one (at most one credit per cycle on the channel)
  reg [4*CNT_W-1:0] owed;
  wire any_fwd = |fwd_pop;
  wire [1:0] fwd_vc = fwd_pop[1] ? 2'd1 : fwd_pop[2] ? 2'd2 : fwd_pop[3] ? 2'd3 : 2'd0;
  wire [3:0] owed_nz;
  genvar w;
  generate
    for (w = 0; w < 4; w = w + 1) begin : g_owed
      assign owed_nz[w] = (owed[w*CNT_W+:CNT_W] != {CNT_W{1'b0}}) || junk_pop[w];
    end
  endgenerate
  wire [3:0] owed_pick = owed_nz & ~(owed_nz - 4'd1);
  wire [1:0] owed_vc = owed_pick[1] ? 2'd1 : owed_pick[2] ? 2'd2 : owed_pick[3] ? 2'd3 : 2'd0;
  wire [3:0] owed_ret = any_fwd ? 4'd0 : owed_pick;
  generate
    for (w = 0; w < 4; w = w + 1) begin : g_owed_upd
      always @(posedge clk) begin
        if (rst) owed[w*CNT_W+:CNT_W] <= {CNT_W{1'b0}};
        else
          owed[w*CNT_W+:CNT_W] <= owed[w*CNT_W+:CNT_W] + (junk_pop[w] ? C1 : {CNT_W{1'b0}}) -
                                  (owed_ret[w] ? C1 : {CNT_W{1'b0}});
      end
    end
  endgenerate
  always @(posedge clk) begin
    if (rst) credit_valid <= 1'b0;
    else credit_valid <= any_fwd || (owed_nz != 4'd0);
    credit_vc <= any_fwd ? fwd_vc : owed_vc;
  end

  // {route, vc, len, dst}; a flit belongs to one VC, so at most one VC pulses
  always @(posedge clk) begin
    if (rst) err_pulse <= 4'd0;
    else err_pulse <= {|(hdr_err_vc) & hdr_route, |(hdr_err_vc) & hdr_vc,
                       (|(hdr_err_vc) & hdr_len) | (|len_err_vc), |(hdr_err_vc) & hdr_dst};
  end

  wire unused_port = &{1'b0, MY_PORT, rd_pick[0]};

`ifdef FORMAL
  // at most one forwarding pop per cycle (one flit leaves the port)
  always @(posedge clk) if (!rst) assert ((fwd_pop & (fwd_pop - 4'd1)) == 4'd0);
  // a granted head never belongs to the VC being forwarded
  always @(posedge clk) if (!rst && grant) assert (!stream);
`endif
endmodule
`default_nettype wire
