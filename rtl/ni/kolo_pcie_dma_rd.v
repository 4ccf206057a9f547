`default_nettype none
// kolo_pcie_dma_rd - DMA read engine of the PCIe endpoint core.
//
// Requests (dma_rd_req_*: addr, len 1..4096 bytes, caller's id) are accepted
// while the request table (REQS entries) has a free entry, the reorder
// buffer (RB_LINES lines of 32 bytes) has room for the request's DW-aligned
// data (ceil((addr[1:0] + len) / 32) lines, reserved contiguously, in order)
// and the splitter is idle (no MRd in any stage of its pipeline): one
// every two cycles at most.
// Splitting: a request becomes memory read TLPs (MRd, 3-DW header below 4 GB,
// else 4-DW) cut at max-read-request-size aligned addresses
// (cfg_max_read_req, 128..4096 bytes; this also keeps each inside a 4 KB
// page), one per cycle, each with a tag from one pool of TAGS tags that
// every request shares (the lowest free even or odd tag of the cycle
// before, or the tag a completion ended the cycle before); without a free
// tag the splitter waits. Pipeline (timing, issue 21): the splitter cuts an
// MRd, the next stage forms its header and credits, the MRd issues from
// there: an MRd goes out (mrd_valid) four cycles after its request was
// accepted at the earliest, two for a request inside one 128-byte block
// that finds the pipeline empty (its header formed from the request). Without
// cfg_bus_master no TLP is sent and the request fails.
// Completion space: the vendor block holds received completions in a buffer
// of cfg_cpl_hdr headers and cfg_cpl_data data credits of 16 bytes (the
// shim gives the block's values; an endpoint advertises infinite completion
// credits, so nothing else stops the link from overrunning it). An MRd goes out only when the worst case of
// its completions still fits beside every MRd in flight: the completer may
// split at every 64-byte read completion boundary, so an MRd of the DW span
// [a, e) reserves H = the 64-byte blocks it touches headers and D = the
// 16-byte blocks it touches + H data credits (each completion is charged 16
// bytes of data space for its header too, as the UltraScale blocks keep
// headers in the data RAM). A completion that arrives gives back what the rest of its read no
// longer needs (reservation before minus after); the last one, an error one or the tag's timeout
// gives back the rest (a pipeline: what a completion gives back counts for the issue of the next
// cycle, a timeout's a cycle later). The splitter waits for credits like for a tag. The max read
// request size used is cut down so that one MRd always fits into the whole space (MRRS 128 needs 2
// headers and 10 data credits; less stops every read).
// Length (~915 lines): one file on purpose: its stages share the tag table, the credit counts and
// the reorder-buffer pointers within a cycle; split, each block would carry them all as ports.
// Completions (cpl_*, every beat taken): a CplD for an outstanding tag with
// the expected byte count and lower address (every completion of a tag
// arrives in address order, PCIe 2.3.1.1) has its DWs written into the
// request's lines at the DW position the tag has reached (8 RAM banks of one
// DW, so any DW rotation is one write per beat). A completion with an error
// status (UR, CA, CRS), a malformed one (wrong byte count, lower address,
// Length or dw_en, a Cpl without data) or a poisoned one fails the request;
// the first two also end the tag. Completions for no outstanding tag, or
// for another requester id, are dropped and counted (ev_bad).
// Completion timeout: a tag without its last completion CPL_TIMEOUT cycles
// after its MRd left (checked round-robin, one tag per cycle) ends and fails
// its request (ev_timeout). A completion that arrives after that finds the
// tag free (dropped, counted) or, if it has been reused, is taken for the new
// request: late completions after a timeout are not told apart.
// Output: requests leave in the order they were accepted, each once all its
// tags have ended: ceil(len/32) beats on dma_rd_* (kolo_fifo_sync of 4
// beats), byte 0 = the byte at addr in bits 7:0 of the first beat, _id on
// every beat, _last on the last, _err on the last beat of a failed request
// (its data is then undefined). The lines are read one per cycle (one more
// when addr is not DW-aligned: each beat is a byte shift of two lines) and
// the next request starts with no gap.
// Handshakes: valid/ready; dma_rd_req_ready does not depend on
// dma_rd_req_valid; the MRd output (one beat) and dma_rd_* are held while
// !ready. The completion beats (cpl_*) have no ready: each is taken.
module kolo_pcie_dma_rd #(
    parameter TAGS = 32,            // read tags, 2..256
    parameter CPL_TIMEOUT = 250000, // cycles
    parameter RB_LINES = 512,       // reorder buffer lines of 32 bytes, power of two >= 512
    parameter REQS = 32             // requests in flight (table entries), power of two >= 2
) (
    input  wire         clk,
    input  wire         rst,
    input  wire [15:0]  cfg_req_id,
    input  wire [2:0]   cfg_max_read_req,
    input  wire         cfg_bus_master,
    input  wire [11:0]  cfg_cpl_hdr,     // the block's completion buffer: headers
    input  wire [15:0]  cfg_cpl_data,    // and data credits of 16 bytes
    // user requests
    input  wire         dma_rd_req_valid,
    output wire         dma_rd_req_ready,
    input  wire [63:0]  dma_rd_req_addr,
    input  wire [12:0]  dma_rd_req_len,
    input  wire [7:0]   dma_rd_req_id,
    // user data
    output wire         dma_rd_valid,
    input  wire         dma_rd_ready,
    output wire [255:0] dma_rd_data,
    output wire [7:0]   dma_rd_id,
    output wire         dma_rd_last,
    output wire         dma_rd_err,
    // completions from kolo_pcie_ep_rx
    input  wire         cpl_valid,     // no ready: every beat is taken
    input  wire [127:0] cpl_hdr,
    input  wire [255:0] cpl_data,
    input  wire         cpl_sop,
    input  wire         cpl_eop,
    input  wire [7:0]   cpl_dw_en,
    // read requests to the arbiter (one beat, no payload)
    output reg          mrd_valid,
    input  wire         mrd_ready,
    output reg  [127:0] mrd_hdr,
    // event pulses
    output reg          ev_timeout,
    output reg          ev_cpl_err,
    output reg          ev_bad,
    // status (tags in use)
    output reg  [8:0]   tags_used      // registered: the count one cycle ago
);
  localparam integer TAG_W = (TAGS > 1) ? $clog2(TAGS) : 1;
  localparam integer RQ_W = $clog2(REQS);
  localparam integer RB_AW = $clog2(RB_LINES);
  localparam integer TS_W = $clog2(CPL_TIMEOUT + 2 * TAGS + 4) + 1;
  localparam integer CNT_W = TAG_W + 1;
  localparam [TS_W-1:0] TIMEOUT = CPL_TIMEOUT[TS_W-1:0];
  localparam [RB_AW:0] RB_ALL = RB_LINES[RB_AW:0];
  localparam [RQ_W:0] REQS_ALL = REQS[RQ_W:0];
  localparam [8:0] TAGS9 = TAGS[8:0];
  localparam integer OUT_DEPTH = 4;
  localparam [7:0] OUT_LIM = OUT_DEPTH[7:0] - 8'd1;   // FIFO words + reads in flight before a read

  generate
    if (TAGS < 2 || TAGS > 256 || RB_LINES < 512 || (1 << RB_AW) != RB_LINES ||
        REQS < 2 || (1 << RQ_W) != REQS || CPL_TIMEOUT < 1) begin : g_bad_params
      kolo_pcie_dma_rd_bad_params u_bad ();
    end
  endgenerate

  // ---- completion credits (header, data) an MRd reserves for the DW span of
  // n bytes from an address whose bits 5:0 are la (n = 0: none) ---------------
  // the space, registered (static configuration from the shim)
  reg [12:0] cr_h_all;
  reg [16:0] cr_d_all;
  always @(posedge clk) begin
    cr_h_all <= {1'b0, cfg_cpl_hdr};
    cr_d_all <= {1'b0, cfg_cpl_data};
  end
  // (H = the 64-byte blocks of [a, e): ceil((a mod 64 + n) / 64) as the span
  // is DW-aligned inside a block; D = ceil((a mod 16 + n) / 16) + H: two adds
  // side by side, then one; timing)
  /* verilator lint_off UNUSEDSIGNAL */  // the low bits of the sums
  function [15:0] cpl_need(input [5:0] la, input [12:0] n);  // {H[6:0], D[8:0]}
    reg [12:0] s64, s16;
    reg [6:0] h;
    reg [8:0] d;
    begin
      s64 = {7'd0, la} + n + 13'd63;
      s16 = {9'd0, la[3:0]} + n + 13'd15;
      h = s64[12:6];
      d = s16[12:4] + {2'b00, h};
      cpl_need = (n == 13'd0) ? 16'd0 : {h, d};
    end
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- the header of an MRd of n bytes at addr (tag 0) ------------------------------
  /* verilator lint_off UNUSEDSIGNAL */  // the low bits of the span
  function [127:0] mrd_header(input [63:0] addr, input [12:0] n, input [15:0] req_id);
    reg [12:0] span;
    reg [10:0] ldw;
    reg [1:0] last_off;
    reg [3:0] fbe_m, lbe_m, fbe, lbe;
    reg use4;
    reg [31:0] h0, h1;
    begin
      span = {11'd0, addr[1:0]} + n + 13'd3;
      ldw = span[12:2];
      last_off = addr[1:0] + n[1:0] - 2'd1;
      fbe_m = 4'hF << addr[1:0];
      lbe_m = 4'hF >> (2'd3 - last_off);
      fbe = (ldw == 11'd1) ? (fbe_m & lbe_m) : fbe_m;
      lbe = (ldw == 11'd1) ? 4'd0 : lbe_m;
      use4 = (addr[63:32] != 32'd0);
      h0 = {1'b0, 1'b0, use4, 5'b00000, 14'd0, ldw[9:0]};
      h1 = {req_id, 8'd0, lbe, fbe};
      mrd_header = use4 ? {addr[31:2], 2'b00, addr[63:32], h1, h0}
                        : {32'd0, addr[31:2], 2'b00, h1, h0};
    end
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- request table ----------------------------------------------------------------
  reg [7:0]       e_id   [0:REQS-1];
  reg [12:0]      e_len  [0:REQS-1];
  reg [1:0]       e_s    [0:REQS-1];
  reg [RB_AW-1:0] e_base [0:REQS-1];
  reg [7:0]       e_lines[0:REQS-1];
  reg [REQS-1:0]  e_err;
  reg [REQS-1:0]  e_issued;
  reg [REQS*CNT_W-1:0] e_tags;
  reg [RQ_W-1:0]  tbl_wr, tbl_rd;
  reg [RQ_W:0]    tbl_cnt;
  reg [RB_AW-1:0] rb_head;
  reg [RB_AW:0]   rb_used;

  // ---- tag table ----------------------------------------------------------------------
  reg [TAGS-1:0]  t_valid;
  reg [RQ_W-1:0]  t_req    [0:TAGS-1];
  reg [10:0]      t_next_dw[0:TAGS-1];   // request DW index of the tag's next completion data
  reg [12:0]      t_rem    [0:TAGS-1];   // bytes still to come
  reg [6:0]       t_la     [0:TAGS-1];   // lower address of the next completion
  reg [TS_W-1:0]  t_ts     [0:TAGS-1];   // when the MRd left
  reg [6:0]       t_ch     [0:TAGS-1];   // completion credits still reserved: headers
  reg [8:0]       t_cd     [0:TAGS-1];   // and data
  reg [TS_W-1:0]  now;

  // free tags: the lowest free one of each half (even tags, odd tags), two
  // binary trees over the tags padded to TP (heap order: node k has children
  // 2k+1 and 2k+2, the leaves are TH-1 .. 2TH-2), registered for the issue of
  // the next cycle (fh_*)
  localparam integer TP = 1 << TAG_W;
  localparam integer TH = TP / 2;
  wire [TP-1:0] freev;
  reg [2*TH-2:0] fe_any, fo_any;
  reg [(2*TH-1)*TAG_W-1:0] fe_idx, fo_idx;
  generate
    assign freev[TAGS-1:0] = ~t_valid;
    if (TP > TAGS) begin : g_pad
      assign freev[TP-1:TAGS] = {(TP-TAGS){1'b0}};
    end
  endgenerate
  integer fk;
  /* verilator lint_off UNUSEDSIGNAL */  // the tag number's bits above TAG_W
  integer fl;
  /* verilator lint_on UNUSEDSIGNAL */
  always @(*) begin
    for (fk = 0; fk < TH; fk = fk + 1) begin
      fl = 2 * fk;
      fe_any[TH-1+fk] = freev[fl];
      fe_idx[(TH-1+fk)*TAG_W+:TAG_W] = fl[TAG_W-1:0];
      fl = 2 * fk + 1;
      fo_any[TH-1+fk] = freev[fl];
      fo_idx[(TH-1+fk)*TAG_W+:TAG_W] = fl[TAG_W-1:0];
    end
    for (fk = TH - 2; fk >= 0; fk = fk - 1) begin
      fe_any[fk] = fe_any[2*fk+1] | fe_any[2*fk+2];
      fe_idx[fk*TAG_W+:TAG_W] = fe_any[2*fk+1] ? fe_idx[(2*fk+1)*TAG_W+:TAG_W] : fe_idx[(2*fk+2)*TAG_W+:TAG_W];
      fo_any[fk] = fo_any[2*fk+1] | fo_any[2*fk+2];
      fo_idx[fk*TAG_W+:TAG_W] = fo_any[2*fk+1] ? fo_idx[(2*fk+1)*TAG_W+:TAG_W] : fo_idx[(2*fk+2)*TAG_W+:TAG_W];
    end
  end
  reg [8:0] used_cnt;
  integer ui;
  always @(*) begin
    used_cnt = 9'd0;
    for (ui = 0; ui < TAGS; ui = ui + 1) used_cnt = used_cnt + {8'd0, t_valid[ui]};
  end

  // ---- acceptance and splitting ----------------------------------------------------------
  reg         iss_busy;
  reg [63:0]  iss_addr;
  reg [12:0]  iss_rem;
  reg [12:0]  iss_done;
  reg [1:0]   iss_s;
  reg [RQ_W-1:0] iss_ent;

  wire [13:0] req_span = {12'd0, dma_rd_req_addr[1:0]} + {1'b0, dma_rd_req_len} + 14'd31;
  wire [8:0] req_lines = req_span[13:5];
  wire [RB_AW:0] req_lines_x = {{(RB_AW-8){1'b0}}, req_lines};
  wire [RB_AW:0] rb_free = RB_ALL - rb_used;
  wire accept = dma_rd_req_valid && dma_rd_req_ready;

  // max read request size, registered (timing: the configuration input then
  // does not start the split path; a change applies a cycle later, for the
  // cut of a request accepted in the cycle of the change too: the splitter
  // cuts an MRd once, and one that never fits would stop it)
  // and cut down so that one MRd of MRRS bytes (at most MRRS/64 headers and
  // MRRS/16 + MRRS/64 data credits) fits into the whole completion space:
  // mrrs_ok[k] = MRRS 128 << k is allowed and fits (from the inputs; the
  // largest such k is the encoding used)
  wire [2:0] mrrs_cfg = (cfg_max_read_req > 3'd5) ? 3'd0 : cfg_max_read_req;
  reg  [6:0] mrrs_ok;
  integer mk;
  always @(*) begin
    mrrs_ok = 7'd1;
    for (mk = 1; mk <= 5; mk = mk + 1)
      mrrs_ok[mk] = (13'd2 << mk) <= {1'b0, cfg_cpl_hdr} && (17'd10 << mk) <= {1'b0, cfg_cpl_data} &&
                    mrrs_cfg >= mk[2:0];
  end
  reg [12:0] mrrs, mrrs_m1;
  always @(posedge clk) begin
    mrrs <= {mrrs_ok[5:0] & ~mrrs_ok[6:1], 7'd0};
    mrrs_m1 <= {1'b0, mrrs_ok[5:1], 7'h7f};
  end
  wire [12:0] to_bound = mrrs - ({1'b0, iss_addr[11:0]} & mrrs_m1);
  wire [12:0] n_sub = (iss_rem < to_bound) ? iss_rem : to_bound;
  // next address: a sub-request never crosses a 4 KB boundary (mrrs <= 4096),
  // so the bits above 11 only step by one (the increment is off the n_sub path)
  wire [12:0] iss_lo_next = {1'b0, iss_addr[11:0]} + n_sub;
  wire [51:0] iss_hi_inc = iss_addr[63:12] + 52'd1;
  wire [63:0] iss_addr_next = {iss_lo_next[12] ? iss_hi_inc : iss_addr[63:12], iss_lo_next[11:0]};
  wire [12:0] sub_off = {11'd0, iss_s} + iss_done;
  wire iss_last = (n_sub == iss_rem);
  // Pipeline (timing): the splitter cuts the next MRd (s1_*), the stage
  // after it forms its header and worst-case credits, into c2_* (the MRd
  // that issues next) or, while c2 waits, into the skid register sk_* (so
  // that s1 moves on without looking at the issue); the MRd issues from c2,
  // one per cycle at most, with a tag from registers: the lowest free even
  // and odd tags of the cycle before (fh_*; not the half of a tag issued the
  // cycle before, that one may be it) or the tag a completion ended the
  // cycle before (kr_*).
  reg             s1_v, s1_last;
  reg [63:0]      s1_addr;
  reg [12:0]      s1_n;
  reg [10:0]      s1_ndw;
  reg [RQ_W-1:0]  s1_ent;
  reg             c2_v, c2_last, sk_v, sk_last;
  reg [127:0]     c2_hdr, sk_hdr;     // the tag field is 0
  reg [6:0]       c2_need_h, sk_need_h;
  reg [8:0]       c2_need_d, sk_need_d;
  reg [12:0]      c2_n, sk_n;
  reg [6:0]       c2_la, sk_la;
  reg [10:0]      c2_ndw, sk_ndw;
  reg [RQ_W-1:0]  c2_ent, sk_ent;
  // (the splitter idle: no MRd in any of its stages, as before the pipeline,
  // so that a request is not accepted earlier than then)
  assign dma_rd_req_ready = !iss_busy && !s1_v && !sk_v && !c2_v && (tbl_cnt != REQS_ALL) &&
                            (req_lines_x <= rb_free);
  reg [TAG_W-1:0] fh0_q, fh1_q;       // lowest free even, odd tag the cycle before
  reg             fh0_any_q, fh1_any_q;
  reg             iss_q;              // an MRd issued the cycle before (on tag mrd_tag)
  reg [TAG_W-1:0] mrd_tag;
  reg             kr_ret;             // a completion ended tag kr_tag the cycle before
  reg [TAG_W-1:0] kr_tag;
  reg [6:0]       rel_c_h;            // credits it gave back (in cr_h/cr_d the cycle after)
  reg [8:0]       rel_c_d;
  wire s2_ld = s1_v && !sk_v && cfg_bus_master;   // s1 moves on (into c2 or sk)
  wire s1_ld = iss_busy && cfg_bus_master && (!s1_v || !sk_v);
  wire [127:0] hdr = mrd_header(s1_addr, s1_n, cfg_req_id);
  wire [15:0] s1_need = cpl_need(s1_addr[5:0], s1_n);
  // A request inside one 128-byte block (one MRd at every MRRS, and
  // without the registered MRRS, which lags a change by a cycle) goes
  // straight into c2, the splitter being empty when a request is accepted
  // (rq_*: the header and credits formed from the request; latency: its MRd
  // goes out two cycles after the acceptance, as many reads are this small)
  wire rq_one = {6'd0, dma_rd_req_addr[6:0]} + dma_rd_req_len <= 13'd128;
  wire fast = accept && rq_one && cfg_bus_master;
  wire [127:0] rq_hdr = mrd_header(dma_rd_req_addr, dma_rd_req_len, cfg_req_id);
  wire [15:0] rq_need = cpl_need(dma_rd_req_addr[5:0], dma_rd_req_len);
  // the tag of the MRd in c2
  wire fh0_ok = fh0_any_q && !(iss_q && !mrd_tag[0]);
  wire fh1_ok = fh1_any_q && !(iss_q && mrd_tag[0]);
  wire [TAG_W-1:0] iss_tag = fh0_ok ? fh0_q : fh1_ok ? fh1_q : kr_tag;
  wire iss_tag_ok = fh0_ok || fh1_ok || kr_ret;
  wire [7:0] tag8 = {{(8-TAG_W){1'b0}}, iss_tag};
  wire mrd_free = !mrd_valid || mrd_ready;
  // credits: the new MRd's worst case beside those in flight, less what a
  // completion gave back the cycle before (rel_c_*, not yet out of cr_h/cr_d)
  wire [6:0] need_h = c2_need_h;
  wire [8:0] need_d = c2_need_d;
  reg [12:0] cr_h;   // headers reserved by the MRds in flight
  reg [16:0] cr_d;   // data credits reserved
  wire cr_ok = ({1'b0, cr_h} + {7'd0, need_h} <= {1'b0, cr_h_all} + {7'd0, rel_c_h}) &&
               ({1'b0, cr_d} + {9'd0, need_d} <= {1'b0, cr_d_all} + {9'd0, rel_c_d});
  wire issue = c2_v && cfg_bus_master && iss_tag_ok && mrd_free && cr_ok;
  wire iss_abort = iss_busy && !cfg_bus_master;
  wire s1_abort = s1_v && !cfg_bus_master;
  wire c2_abort = c2_v && !cfg_bus_master;
  wire sk_abort = sk_v && !cfg_bus_master;

  // ---- completions -----------------------------------------------------------------------
  // Pipeline stage: each completion beat is registered once more here (p_*),
  // with the fields that depend on its header alone computed on the way in;
  // the tag table lookups and the checks then start at flip-flops.
  localparam [1:0] A_DROP = 2'd0, A_ERR = 2'd1, A_DATA = 2'd2;
  wire [31:0] i0 = cpl_hdr[31:0];
  wire [31:0] i1 = cpl_hdr[63:32];
  wire [31:0] i2 = cpl_hdr[95:64];
  wire [10:0] i_len = (i0[9:0] == 10'd0) ? 11'd1024 : {1'b0, i0[9:0]};
  wire [12:0] i_bc = (i1[11:0] == 12'd0) ? 13'd4096 : {1'b0, i1[11:0]};
  wire [6:0] i_la = i2[6:0];
  wire [12:0] i_bytes4 = {i_len, 2'b00};
  wire [12:0] i_avail = i_bytes4 - {11'd0, i_la[1:0]};           // bytes the data can hold
  wire [12:0] i_nb = (i_bc < i_avail) ? i_bc : i_avail;
  wire [13:0] i_room = {1'b0, i_bc} + {12'd0, i_la[1:0]} + 14'd3;
  wire i_hdr_ok = (i0[31:29] == 3'b000 || i0[31:29] == 3'b010) && i0[28:24] == 5'b01010 &&
                  i2[31:16] == cfg_req_id && i0[23] == 1'b0 && i0[19] == 1'b0 &&
                  {1'b0, i2[15:8]} < TAGS9;
  reg         cpl_v_q, cpl_sop_q, cpl_eop_q;
  reg [7:0]   cpl_dw_en_q;
  reg [255:0] cpl_data_q;
  reg [31:0]  c0;
  reg [2:0]   c_st;
  reg [TAG_W-1:0] c_tag;
  reg [6:0]   c_la;
  reg [10:0]  c_len;
  reg [12:0]  c_bc, c_nb;
  reg         c_hdr_ok, c_room_ok, c_nb_final;
  reg         c_frame_bad;   // the beat's dw_en / eop disagree with a first beat of the header's Length
  always @(posedge clk) begin
    if (rst) cpl_v_q <= 1'b0;
    else cpl_v_q <= cpl_valid;
    cpl_sop_q <= cpl_sop;
    cpl_eop_q <= cpl_eop;
    cpl_dw_en_q <= cpl_dw_en;
    cpl_data_q <= cpl_data;
    c0 <= i0;
    c_st <= i1[15:13];
    c_tag <= i2[8+:TAG_W];
    c_la <= i_la;
    c_len <= i_len;
    c_bc <= i_bc;
    c_nb <= i_nb;
    c_hdr_ok <= i_hdr_ok;
    c_room_ok <= {1'b0, i_bytes4} <= i_room;
    c_nb_final <= i_nb == i_bc;
    c_frame_bad <= cpl_dw_en != ((i_len >= 11'd8) ? 8'hFF : ((8'd1 << i_len[2:0]) - 8'd1)) ||
                   cpl_eop != (i_len <= 11'd8);
  end
  wire c_has_data = c0[30];
  wire c_ours = c_hdr_ok && t_valid[c_tag];
  wire c_fields_ok = (c_bc == t_rem[c_tag]) && (c_la == t_la[c_tag]) && c_room_ok;
  reg [1:0] sop_act;
  always @(*) begin
    if (!c_ours) sop_act = A_DROP;
    else if (c_st != 3'b000 || !c_has_data || !c_fields_ok) sop_act = A_ERR;
    else sop_act = A_DATA;
  end
  wire [RQ_W-1:0] sop_req = t_req[c_tag];
  wire [10:0] sop_ndw = t_next_dw[c_tag];
  wire [RB_AW-1:0] sop_line = e_base[sop_req] + {{(RB_AW-8){1'b0}}, sop_ndw[10:3]};

  // context of a completion that spans several beats
  reg             in_cpl;       // between sop and eop
  reg [1:0]       x_act;
  reg [TAG_W-1:0] x_tag;
  reg [RQ_W-1:0]  x_req;
  reg [RB_AW-1:0] x_line;
  reg [2:0]       x_rot;
  reg [10:0]      x_left;
  reg [7:0]       x_exp_en;     // dw_en and eop the next beat must have (from x_left)
  reg             x_exp_eop;
  reg [10:0]      x_len;
  reg [12:0]      x_nb;
  reg             x_final;
  reg             x_poison;
  reg             x_bad;

  wire cfire = cpl_v_q;
  wire is_sop = !in_cpl;   // the beat starts a TLP (a beat without sop there is dropped)
  wire [1:0]       b_act = is_sop ? (cpl_sop_q ? sop_act : A_DROP) : x_act;
  wire [TAG_W-1:0] b_tag = is_sop ? c_tag : x_tag;
  wire [RQ_W-1:0]  b_req = is_sop ? sop_req : x_req;
  wire [RB_AW-1:0] b_line = is_sop ? sop_line : x_line;
  wire [2:0]       b_rot = is_sop ? sop_ndw[2:0] : x_rot;
  wire [10:0]      b_left = is_sop ? c_len : x_left;
  wire [10:0]      b_len = is_sop ? c_len : x_len;
  wire [12:0]      b_nb = is_sop ? c_nb : x_nb;
  wire             b_final = is_sop ? c_nb_final : x_final;
  wire             b_poison = is_sop ? c0[14] : x_poison;
  wire             b_bad_prev = is_sop ? 1'b0 : x_bad;
  // (the first beat's check is computed as it enters the stage, the later
  // beats' expected values are registered with x_left: timing)
  wire b_bad = b_bad_prev || (is_sop ? c_frame_bad : (cpl_dw_en_q != x_exp_en || cpl_eop_q != x_exp_eop));
  wire [10:0] b_left_next = (b_left >= 11'd8) ? b_left - 11'd8 : 11'd0;

  // RAM writes: bank j takes beat DW (j - rot) mod 8, one line further when it wrapped
  wire [7:0] bank_we;
  wire [8*RB_AW-1:0] bank_wa;
  wire [255:0] bank_wd;
  genvar gj;
  generate
    for (gj = 0; gj < 8; gj = gj + 1) begin : g_wsel
      wire [2:0] k = gj[2:0] - b_rot;
      assign bank_we[gj] = cfire && b_act == A_DATA && cpl_dw_en_q[k] && ({8'd0, k} < b_left);
      if (gj == 7) begin : g_nowrap  // bank 7 never wraps
        assign bank_wa[gj*RB_AW+:RB_AW] = b_line;
      end else begin : g_wrap
        assign bank_wa[gj*RB_AW+:RB_AW] = (gj[2:0] < b_rot) ? b_line + {{(RB_AW-1){1'b0}}, 1'b1} : b_line;
      end
      assign bank_wd[gj*32+:32] = cpl_data_q[k*32+:32];
    end
  endgenerate

  // end of a completion: what happens to its tag and request
  wire c_end = cfire && cpl_eop_q && b_act != A_DROP;
  wire c_good = (b_act == A_DATA) && !b_bad;
  wire c_retire = c_end && (!c_good || b_final);
  wire c_fail = c_end && (!c_good || b_poison);

  // ---- completion timeout -------------------------------------------------------------------
  // Two stages (pipeline: the table read, the subtraction and the compare did
  // not fit in one cycle with the request table update after them): tag sc's
  // age and request are read into sq_*; the cycle after, tag sq_tag times out
  // if it is still in use, was old then and was not (re)issued or sent in
  // between (sq_touch).
  reg [TAG_W-1:0] sc;
  reg [TAG_W-1:0] sq_tag;
  reg sq_old, sq_touch;
  reg [RQ_W-1:0] to_req;
  wire [TS_W-1:0] sc_age = now - t_ts[sc];
  always @(posedge clk) begin
    sq_tag <= sc;
    sq_old <= sc_age >= TIMEOUT;
    sq_touch <= (issue && iss_tag == sc) || (mrd_valid && mrd_ready && mrd_tag == sc);
    to_req <= t_req[sc];
  end
  // (a beat still in the completion input register counts too: at most a cycle's delay)
  wire sc_busy = (in_cpl && x_tag == sq_tag) || (cpl_v_q && is_sop && c_tag == sq_tag) ||
                 (cpl_valid && i2[8+:TAG_W] == sq_tag) ||
                 (mrd_valid && mrd_tag == sq_tag);
  wire to_fire = t_valid[sq_tag] && sq_old && !sq_touch && !sc_busy;

  // ---- completion credits given back -------------------------------------------------
  // by a completion: all its tag holds when the tag ends, else what the rest
  // of the read no longer needs; by a timeout: all the tag holds.
  // What a good completion that is not the last leaves behind: with A the
  // read's address mod 64 where the completion starts (its lower address,
  // checked equal to the tag's) and nb its bytes, the rest of the read [A +
  // nb, e) touches floor((A + nb) / 64) 64-byte blocks and floor((A mod 16 +
  // nb) / 16) 16-byte blocks fewer than [A, e) (cpl_need): those are given
  // back, and the tag keeps the rest (the reservation less them; from the
  // completion's own header, computed at its first beat and carried to its
  // last in x_relu: timing).
  wire [12:0] c_a64 = {7'd0, c_la[5:0]} + c_nb;
  wire [12:0] c_a16 = {9'd0, c_la[3:0]} + c_nb;
  wire [15:0] c_relu = {c_a64[12:6], c_a16[12:4] + {2'b00, c_a64[12:6]}};
  reg  [15:0] x_relu;
  wire [15:0] b_relu = is_sop ? c_relu : x_relu;
  wire c_cr_upd = c_end && c_good && !b_final;
  // Pipeline (timing): what a completion gives back is registered (rel_c_*,
  // taken off the reservation the issue compares against in the cycle
  // after, and out of cr_h/cr_d the cycle after that), as is the tag it
  // ended (kr_*: free for an issue the cycle after). A timeout's credits
  // come back through k3t, the cycle after it (t_ch read then).
  reg             k3t_fire;
  reg [TAG_W-1:0] k3t_tag;
  wire [6:0] rel_t_h = k3t_fire ? t_ch[k3t_tag] : 7'd0;
  wire [8:0] rel_t_d = k3t_fire ? t_cd[k3t_tag] : 9'd0;
  always @(posedge clk) begin
    if (rst) begin
      kr_ret <= 1'b0;
      rel_c_h <= 7'd0;
      rel_c_d <= 9'd0;
      k3t_fire <= 1'b0;
    end else begin
      kr_ret <= c_retire;
      rel_c_h <= c_retire ? t_ch[b_tag] : c_cr_upd ? b_relu[15:9] : 7'd0;
      rel_c_d <= c_retire ? t_cd[b_tag] : c_cr_upd ? b_relu[8:0] : 9'd0;
      k3t_fire <= to_fire;
    end
    kr_tag <= b_tag;
    k3t_tag <= sq_tag;
    if (cfire) x_relu <= b_relu;
  end
  wire [12:0] cr_h_next = cr_h + (issue ? {6'd0, need_h} : 13'd0) - {6'd0, rel_c_h} - {6'd0, rel_t_h};
  wire [16:0] cr_d_next = cr_d + (issue ? {8'd0, need_d} : 17'd0) - {8'd0, rel_c_d} - {8'd0, rel_t_d};

  // ---- output ---------------------------------------------------------------------------------
  reg             o_busy;
  reg [RB_AW-1:0] o_base;
  reg [1:0]       o_s;
  reg [7:0]       o_nbeats;
  reg [7:0]       o_nreads;
  reg [7:0]       o_lines;
  reg [7:0]       o_rd_j;      // reads issued
  reg [7:0]       o_rd_q_j;    // index of the read whose data is in bank_rd
  reg             o_rd_q;      // bank_rd holds read data this cycle
  reg [7:0]       o_id;
  reg             o_err;
  // the read whose data is in bank_rd: its request's fields
  reg [1:0]       q_s;
  reg [7:0]       q_nbeats;
  reg [7:0]       q_id;
  reg             q_err;
  reg [255:0]     prev;
  wire [255:0]    bank_rd;
  wire [$clog2(OUT_DEPTH+1)-1:0] ofifo_count;
  wire            ofifo_in_ready;

  wire [CNT_W-1:0] head_tags = e_tags[tbl_rd*CNT_W+:CNT_W];
  wire o_rd_last;
  // the next request starts when the last read of the previous one goes
  wire o_start = (!o_busy || o_rd_last) && tbl_cnt != {(RQ_W+1){1'b0}} && e_issued[tbl_rd] && head_tags == {CNT_W{1'b0}};
  wire [12:0] head_len = e_len[tbl_rd];
  wire [7:0] head_nbeats = head_len[12:5] + {7'd0, head_len[4:0] != 5'd0};
  wire o_rd_fire = o_busy && o_rd_j != o_nreads &&
                   ({{(8-$clog2(OUT_DEPTH+1)){1'b0}}, ofifo_count} + {7'd0, o_rd_q} <= OUT_LIM);
  wire [RB_AW-1:0] o_ra = o_base + {{(RB_AW-8){1'b0}}, o_rd_j};
  assign o_rd_last = o_rd_fire && (o_rd_j + 8'd1 == o_nreads);

  // beat from the returned line
  wire [511:0] o_win = {bank_rd, prev};
  wire [255:0] o_shift = o_win[{4'd0, q_s, 3'b000} +: 256];
  wire o_push = o_rd_q && (q_s == 2'd0 || o_rd_q_j != 8'd0);
  wire [7:0] o_beat_j = (q_s == 2'd0) ? o_rd_q_j : o_rd_q_j - 8'd1;
  wire o_beat_last = (o_beat_j + 8'd1 == q_nbeats);
  wire [255:0] o_beat = (q_s == 2'd0) ? bank_rd : o_shift;

  kolo_fifo_sync #(.WIDTH(256 + 8 + 2), .DEPTH(OUT_DEPTH)) u_ofifo (
      .clk(clk), .rst(rst),
      .in_valid(o_push), .in_ready(ofifo_in_ready),
      .in_data({q_err && o_beat_last, o_beat_last, q_id, o_beat}),
      .out_valid(dma_rd_valid), .out_ready(dma_rd_ready),
      .out_data({dma_rd_err, dma_rd_last, dma_rd_id, dma_rd_data}),
      .count(ofifo_count)
  );

  // ---- reorder buffer RAM: 8 banks of one DW -------------------------------------------------
  generate
    for (gj = 0; gj < 8; gj = gj + 1) begin : g_bank
      reg [31:0] mem [0:RB_LINES-1];
      reg [31:0] q;
      always @(posedge clk) begin
        if (bank_we[gj]) mem[bank_wa[gj*RB_AW+:RB_AW]] <= bank_wd[gj*32+:32];
        q <= mem[o_ra];
      end
      assign bank_rd[gj*32+:32] = q;
    end
  endgenerate

  // ---- request table updates (per entry) -----------------------------------------------------
  genvar ge;
  generate
    for (ge = 0; ge < REQS; ge = ge + 1) begin : g_ent
      wire [RQ_W-1:0] me = ge[RQ_W-1:0];
      wire alloc = accept && tbl_wr == me;
      wire inc = issue && c2_ent == me;
      wire dec_c = c_retire && b_req == me;
      wire dec_t = to_fire && to_req == me;
      wire [CNT_W-1:0] cnt = e_tags[ge*CNT_W+:CNT_W];
      always @(posedge clk) begin
        if (rst) begin
          e_tags[ge*CNT_W+:CNT_W] <= {CNT_W{1'b0}};
          e_err[ge] <= 1'b0;
          e_issued[ge] <= 1'b0;
        end else if (alloc) begin
          e_tags[ge*CNT_W+:CNT_W] <= {CNT_W{1'b0}};
          e_err[ge] <= 1'b0;
          e_issued[ge] <= 1'b0;
        end else begin
          e_tags[ge*CNT_W+:CNT_W] <= cnt + {{(CNT_W-1){1'b0}}, inc} - {{(CNT_W-1){1'b0}}, dec_c}
                                         - {{(CNT_W-1){1'b0}}, dec_t};
          if ((iss_abort && iss_ent == me) || (s1_abort && s1_ent == me) || (c2_abort && c2_ent == me) ||
              (sk_abort && sk_ent == me) || (c_fail && b_req == me) || dec_t) e_err[ge] <= 1'b1;
          if ((issue && c2_last && c2_ent == me) || (iss_abort && iss_ent == me) || (s1_abort && s1_ent == me) ||
              (c2_abort && c2_ent == me) || (sk_abort && sk_ent == me)) e_issued[ge] <= 1'b1;
        end
      end
    end
  endgenerate

  always @(posedge clk) begin
    if (accept) begin
      e_id[tbl_wr] <= dma_rd_req_id;
      e_len[tbl_wr] <= dma_rd_req_len;
      e_s[tbl_wr] <= dma_rd_req_addr[1:0];
      e_base[tbl_wr] <= rb_head;
      e_lines[tbl_wr] <= req_lines[7:0];
    end
  end

  // ---- tag table updates ---------------------------------------------------------------------
  always @(posedge clk) begin
    if (issue) begin
      t_req[iss_tag] <= c2_ent;
      t_next_dw[iss_tag] <= c2_ndw;
      t_rem[iss_tag] <= c2_n;
      t_la[iss_tag] <= c2_la;
      t_ts[iss_tag] <= now;
      t_ch[iss_tag] <= need_h;
      t_cd[iss_tag] <= need_d;
    end
    if (c_cr_upd) begin
      t_ch[b_tag] <= t_ch[b_tag] - b_relu[15:9];
      t_cd[b_tag] <= t_cd[b_tag] - b_relu[8:0];
    end
    if (mrd_valid && mrd_ready) t_ts[mrd_tag] <= now;
    if (c_end && c_good && !b_final) begin
      t_rem[b_tag] <= t_rem[b_tag] - b_nb;
      t_la[b_tag] <= t_la[b_tag] + b_nb[6:0];
      t_next_dw[b_tag] <= t_next_dw[b_tag] + b_len;
    end
  end

  integer ti;
  always @(posedge clk) begin
    if (rst) begin
      t_valid <= {TAGS{1'b0}};
      cr_h <= 13'd0;
      cr_d <= 17'd0;
      now <= {TS_W{1'b0}};
      sc <= {TAG_W{1'b0}};
      tbl_wr <= {RQ_W{1'b0}};
      tbl_rd <= {RQ_W{1'b0}};
      tbl_cnt <= {(RQ_W+1){1'b0}};
      rb_head <= {RB_AW{1'b0}};
      rb_used <= {(RB_AW+1){1'b0}};
      iss_busy <= 1'b0;
      iss_addr <= 64'd0;
      iss_rem <= 13'd0;
      iss_done <= 13'd0;
      iss_s <= 2'd0;
      iss_ent <= {RQ_W{1'b0}};
      mrd_valid <= 1'b0;
      mrd_hdr <= 128'd0;
      mrd_tag <= {TAG_W{1'b0}};
      s1_v <= 1'b0;
      c2_v <= 1'b0;
      sk_v <= 1'b0;
      fh0_q <= {TAG_W{1'b0}};
      fh1_q <= {TAG_W{1'b0}};
      fh0_any_q <= 1'b0;
      fh1_any_q <= 1'b0;
      iss_q <= 1'b0;
      in_cpl <= 1'b0;
      x_act <= A_DROP;
      x_tag <= {TAG_W{1'b0}};
      x_req <= {RQ_W{1'b0}};
      x_line <= {RB_AW{1'b0}};
      x_rot <= 3'd0;
      x_left <= 11'd0;
      x_exp_en <= 8'd0;
      x_exp_eop <= 1'b0;
      x_len <= 11'd0;
      x_nb <= 13'd0;
      x_final <= 1'b0;
      x_poison <= 1'b0;
      x_bad <= 1'b0;
      o_busy <= 1'b0;
      o_base <= {RB_AW{1'b0}};
      o_s <= 2'd0;
      o_nbeats <= 8'd0;
      o_nreads <= 8'd0;
      o_lines <= 8'd0;
      o_rd_j <= 8'd0;
      o_rd_q_j <= 8'd0;
      o_rd_q <= 1'b0;
      o_id <= 8'd0;
      o_err <= 1'b0;
      q_s <= 2'd0;
      q_nbeats <= 8'd0;
      q_id <= 8'd0;
      q_err <= 1'b0;
      prev <= 256'd0;
      ev_timeout <= 1'b0;
      tags_used <= 9'd0;
      ev_cpl_err <= 1'b0;
      ev_bad <= 1'b0;
    end else begin
      now <= now + {{(TS_W-1){1'b0}}, 1'b1};
      cr_h <= cr_h_next;
      cr_d <= cr_d_next;
      sc <= ({{(9-TAG_W){1'b0}}, sc} == TAGS9 - 9'd1) ? {TAG_W{1'b0}} : sc + {{(TAG_W-1){1'b0}}, 1'b1};
      ev_timeout <= to_fire;
      tags_used <= used_cnt;
      ev_cpl_err <= 1'b0;
      ev_bad <= 1'b0;

      // accept a request
      if (accept) begin
        tbl_wr <= tbl_wr + {{(RQ_W-1){1'b0}}, 1'b1};
        rb_head <= rb_head + req_lines_x[RB_AW-1:0];
        iss_busy <= !fast;
        iss_addr <= dma_rd_req_addr;
        iss_rem <= dma_rd_req_len;
        iss_done <= 13'd0;
        iss_s <= dma_rd_req_addr[1:0];
        iss_ent <= tbl_wr;
      end
      tbl_cnt <= tbl_cnt + {{RQ_W{1'b0}}, accept} - {{RQ_W{1'b0}}, o_start};
      rb_used <= rb_used + (accept ? req_lines_x : {(RB_AW+1){1'b0}})
                         - (o_rd_last ? {{(RB_AW-7){1'b0}}, o_lines} : {(RB_AW+1){1'b0}});

      // split
      if (mrd_valid && mrd_ready) mrd_valid <= 1'b0;
      if (iss_abort) iss_busy <= 1'b0;
      if (s1_ld) begin
        s1_v <= 1'b1;
        s1_addr <= iss_addr;
        s1_n <= n_sub;
        s1_last <= iss_last;
        s1_ndw <= sub_off[12:2];
        s1_ent <= iss_ent;
        iss_addr <= iss_addr_next;
        iss_rem <= iss_rem - n_sub;
        iss_done <= iss_done + n_sub;
        if (iss_last) iss_busy <= 1'b0;
      end else if (s2_ld || s1_abort) begin
        s1_v <= 1'b0;
      end
      // c2 takes the skid's MRd if it holds one, else s1's; the skid takes
      // s1's while c2 waits (the data registers load whenever they may)
      if (!cfg_bus_master) begin
        c2_v <= 1'b0;
        sk_v <= 1'b0;
      end else if (!c2_v || issue) begin
        c2_v <= sk_v || s2_ld || fast;
        sk_v <= 1'b0;
      end else if (s2_ld) begin
        sk_v <= 1'b1;
      end
      if (!c2_v || issue) begin
        c2_hdr <= sk_v ? sk_hdr : s1_v ? hdr : rq_hdr;
        c2_need_h <= sk_v ? sk_need_h : s1_v ? s1_need[15:9] : rq_need[15:9];
        c2_need_d <= sk_v ? sk_need_d : s1_v ? s1_need[8:0] : rq_need[8:0];
        c2_n <= sk_v ? sk_n : s1_v ? s1_n : dma_rd_req_len;
        c2_la <= sk_v ? sk_la : s1_v ? s1_addr[6:0] : dma_rd_req_addr[6:0];
        c2_ndw <= sk_v ? sk_ndw : s1_v ? s1_ndw : 11'd0;
        c2_ent <= sk_v ? sk_ent : s1_v ? s1_ent : tbl_wr;
        c2_last <= sk_v ? sk_last : s1_v ? s1_last : 1'b1;
      end
      if (!sk_v) begin
        sk_hdr <= hdr;
        sk_need_h <= s1_need[15:9];
        sk_need_d <= s1_need[8:0];
        sk_n <= s1_n;
        sk_la <= s1_addr[6:0];
        sk_ndw <= s1_ndw;
        sk_ent <= s1_ent;
        sk_last <= s1_last;
      end
      fh0_q <= fe_idx[TAG_W-1:0];
      fh0_any_q <= fe_any[0];
      fh1_q <= fo_idx[TAG_W-1:0];
      fh1_any_q <= fo_any[0];
      iss_q <= issue;
      if (issue) begin
        mrd_valid <= 1'b1;
        mrd_hdr <= {c2_hdr[127:48], tag8, c2_hdr[39:0]};
        mrd_tag <= iss_tag;
      end

      // tags: allocate, end
      for (ti = 0; ti < TAGS; ti = ti + 1) begin
        if (issue && iss_tag == ti[TAG_W-1:0]) t_valid[ti] <= 1'b1;
        if ((c_retire && b_tag == ti[TAG_W-1:0]) || (to_fire && sq_tag == ti[TAG_W-1:0])) t_valid[ti] <= 1'b0;
      end

      // completion beats
      if (cfire) begin
        // error status or poisoned: ev_cpl_err; unexpected, stray or malformed: ev_bad
        if (is_sop) begin
          if (cpl_sop_q && c_ours && (c_st != 3'b000 || c0[14])) ev_cpl_err <= 1'b1;
          if (!cpl_sop_q || !c_ours || (c_st == 3'b000 && sop_act == A_ERR)) ev_bad <= 1'b1;
        end
        if (c_end && b_act == A_DATA && b_bad) ev_bad <= 1'b1;
        in_cpl <= !cpl_eop_q && (cpl_sop_q || in_cpl);
        x_act <= b_act;
        x_tag <= b_tag;
        x_req <= b_req;
        x_line <= b_line + {{(RB_AW-1){1'b0}}, 1'b1};
        x_rot <= b_rot;
        x_left <= b_left_next;
        x_exp_en <= (b_left_next >= 11'd8) ? 8'hFF : ((8'd1 << b_left_next[2:0]) - 8'd1);
        x_exp_eop <= (b_left_next <= 11'd8);
        x_len <= b_len;
        x_nb <= b_nb;
        x_final <= b_final;
        x_poison <= b_poison;
        x_bad <= b_bad;
      end

      // output
      o_rd_q <= o_rd_fire;
      if (o_rd_fire) begin
        o_rd_j <= o_rd_j + 8'd1;
        o_rd_q_j <= o_rd_j;
        q_s <= o_s;
        q_nbeats <= o_nbeats;
        q_id <= o_id;
        q_err <= o_err;
      end
      if (o_rd_q) prev <= bank_rd;
      if (o_start) begin
        o_busy <= 1'b1;
        o_base <= e_base[tbl_rd];
        o_s <= e_s[tbl_rd];
        o_nbeats <= head_nbeats;
        o_nreads <= head_nbeats + {7'd0, e_s[tbl_rd] != 2'd0};
        o_lines <= e_lines[tbl_rd];
        o_rd_j <= 8'd0;
        o_id <= e_id[tbl_rd];
        o_err <= e_err[tbl_rd];
        tbl_rd <= tbl_rd + {{(RQ_W-1){1'b0}}, 1'b1};
      end else if (o_rd_last) begin
        o_busy <= 1'b0;
      end
    end
  end

  wire unused_rd = &{1'b0, i1[31:16], i1[12:0], i2[7], c0[31], c0[29:15], c0[13:0],
                     cpl_hdr[127:96], req_span[4:0], sub_off[1:0],
                     ofifo_in_ready, i_room[13], i2[15:8], c2_hdr[47:40], c_a16[3:0], c_a64[5:0]};

  // ---- assertions (simulation): the credits reserved never exceed the block's
  // completion space, and nothing is given back that was not reserved
`ifndef SYNTHESIS
`include "kolo_assert.vh"
  // credits given back (completions done, tags timed out) that were not reserved
  wire sim_back_h = {1'b0, cr_h} + {7'd0, issue ? need_h : 7'd0} < {7'd0, rel_c_h} + {7'd0, rel_t_h};
  wire sim_back_d = {1'b0, cr_d} + {9'd0, issue ? need_d : 9'd0} < {9'd0, rel_c_d} + {9'd0, rel_t_d};
  always @(posedge clk) if (!rst) `KOLO_ASSERT(!(sim_back_h || sim_back_d));
  // credits reserved above the block's completion space
  always @(posedge clk) if (!rst) `KOLO_ASSERT(!(cr_h_next > cr_h_all || cr_d_next > cr_d_all));
  // the rest of a read after a completion needs more credits than the read
  // reserved, or what it gives back is not the reservation less that rest
  // (cpl_need from the tag's entry)
  wire [15:0] sim_after = cpl_need(t_la[b_tag][5:0] + b_nb[5:0], t_rem[b_tag] - b_nb);
  wire sim_rest_bad = sim_after[15:9] > t_ch[b_tag] || sim_after[8:0] > t_cd[b_tag] ||
                      b_relu != {t_ch[b_tag] - sim_after[15:9], t_cd[b_tag] - sim_after[8:0]};
  always @(posedge clk) if (!rst) `KOLO_ASSERT(!(c_cr_upd && sim_rest_bad));
`endif

`ifdef FORMAL
  reg f_rst_seen = 1'b0;
  always @(posedge clk) if (rst) f_rst_seen <= 1'b1;
  always @(*) begin
    if (f_rst_seen) begin
      assert(rb_used <= RB_ALL);
      assert(tbl_cnt <= REQS_ALL);
      if (o_push) assert(ofifo_in_ready);   // the read credit never overfills the FIFO
    end
  end
`endif
endmodule
`default_nettype wire
