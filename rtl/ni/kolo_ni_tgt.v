`default_nettype none
// kolo_ni_tgt - the NI's target side: requests from the network (vnet 0)
// are checked against the windows and executed on host memory; responses
// (vnet 1) go back to the requester.
//
// Requests are taken one at a time from the ejection stream (pk_*, whole
// packets). Malformed packets (bad framing, unknown op, length or operand
// size not matching the op, misaligned atomic, GET of 0 or > 256 bytes,
// source without a valid route back) are dropped and counted (bad). A
// request whose window check fails (key byte {check, w}: window w enabled
// with KEY == key; [addr, addr + n) inside [BASE, BASE + LEN); the right
// READ / WRITE / ATOMIC) is answered by NAK with KOLO_ST_REMOTE_KEY,
// _BOUNDS or _RIGHTS and touches nothing.
//  - PUT: the payload is DMA-written at addr (the first payload flit is
//    taken while the request is checked); the ACK enters the response queue
//    once the last beat has been accepted by the DMA port, while the request
//    side already takes the next request. A PUT starts only when the
//    previous ACK is queued: once its write holds the DMA port it never waits
//    for the response path (which may wait for the DMA port: no deadlock).
//  - GET_REQ: a DMA read of n bytes into one of GSLOTS response buffers
//    (id {2'b10, slot}); the request side then moves on; GET_RESP (or NAK
//    KOLO_ST_REMOTE_DMA if the read failed) is sent when the data is in.
//  - atomics: handed to the atomic unit (kolo_ni_atomic), up to ATOMICS at
//    once on distinct 8-byte words: DMA read (id {2'b11, slot}), compute,
//    DMA write (CSWAP writes only on a match), then GET_RESP with the old
//    value (fetch bit) or ACK; NAK REMOTE_DMA on a read error. An atomic on
//    the word of one in flight follows it (takes its value, no DMA read;
//    atomics on one word run one after the other), except a possible
//    repeat (end-to-end on: it waits for the original's response and
//    record); PUTs and GETs that overlap such a word wait for it; GETs
//    and atomics wait until earlier PUT data has been accepted by the DMA
//    port (reads see earlier writes).
// Deadlock rule: responses go into a response queue (and the atomic unit's
// result register) drained by the response sender independently of the
// request side; when there is no room for a request's response, the request
// side stops taking packets, which back-pressures vnet 0 only.
// Known limit: a GET's read and a later atomic's write to the same word are
// not ordered by this module (it relies on the endpoint issuing them in
// order).
// End-to-end reliability (cfg_en, docs/ni.md section 10): a record per
// (source node index < NODES, tag) in block RAM holds the generation bit of
// the request executed last and its response (kind, NAK code, old value of
// a fetching atomic, operand size). It is written by the response sender as
// each response leaves, and read as a request's second header flit arrives
// (re-read every cycle while the request waits, with a bypass of the
// previous cycle's write). A request with the record's generation is a
// repeat: a GET_REQ is executed again, anything else is answered from the
// record and not executed (a PUT's payload is drained); both count in
// stat_dup. Sources with index >= NODES have no record (their initiators do
// not retransmit to this node either). After reset the records are cleared,
// NODES x 256 cycles during which they are neither used nor written (the
// host enables end-to-end reliability later: docs/ni.md section 10).
// Responses echo the request's generation (header flit 0 bit 63).
// RESYNC (one payload flit, ignored; docs/ni.md 10.1): never a repeat, no
// window check, no memory access: an ACK with its generation goes into the
// response queue, and as it leaves the record of (source, tag) becomes
// {valid, that generation, ACK} (with cfg_en; with end-to-end reliability
// off only the ACK: an initiator with it on must not be stuck).
module kolo_ni_tgt #(
    parameter GSLOTS = 8,   // GET response buffers of 256 bytes (1..32)
    parameter RQ_DEPTH = 8, // response queue entries
    parameter NODES = 16,   // end-to-end records: source node indices 0..NODES-1 (power of 2)
    parameter ATOMICS = 32  // atomics in flight (1..32, kolo_ni_atomic; one word: a chain)
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [11:0]   node_id,
    input  wire [11:0]   dim_m1,
    input  wire          cfg_en,
    output reg           stat_dup,
    // request packets
    input  wire          pk_valid,
    input  wire [65:0]   pk_flit,
    input  wire          pk_ok,
    output wire          pk_ready,
    // windows
    output wire [3:0]    win_idx,
    input  wire [63:0]   win_base,
    input  wire [64:0]   win_end,      // BASE + LEN
    input  wire [31:0]   win_ctrl,
    // routing table (lookup port 0)
    output reg           rt_req,         // (combinational)
    output wire [11:0]   rt_id,
    input  wire          rt_gnt,
    input  wire          rt_rvalid,
    input  wire [31:0]   rt_entry,
    input  wire          rt_ok,
    // DMA writes
    output wire          wr_valid,
    input  wire          wr_ready,
    output wire [63:0]   wr_addr,
    output wire [12:0]   wr_len,
    output wire [255:0]  wr_data,
    output wire          wr_last,
    // DMA read requests
    output wire          rq_valid,
    input  wire          rq_ready,
    output wire [63:0]   rq_addr,
    output wire [12:0]   rq_len,
    output wire [7:0]    rq_id,
    // DMA read data of this module's reads
    input  wire          rd_valid,
    input  wire [255:0]  rd_data,
    input  wire [7:0]    rd_id,
    input  wire          rd_last,
    input  wire          rd_err,
    // responses
    output wire          s_valid,
    output wire [65:0]   s_flit,
    output wire          s_cls,
    input  wire          s_ready,
    output reg           stat_bad,
    output wire          stat_nak,
    output wire [31:0]   dbg
);
  `include "kolo_defs.vh"
  `include "kolo_ni_regs.vh"
  localparam GW = (GSLOTS > 1) ? $clog2(GSLOTS) : 1;  // slot number bits
  localparam [7:0] ST_KEY = `KOLO_ST_REMOTE_KEY, ST_BOUNDS = `KOLO_ST_REMOTE_BOUNDS,
                   ST_RIGHTS = `KOLO_ST_REMOTE_RIGHTS, ST_RDMA = `KOLO_ST_REMOTE_DMA;
  localparam [1:0] K_ACK = 2'd0, K_NAK = 2'd1, K_GRESP = 2'd2, K_ARESP = 2'd3;
  localparam NW = $clog2(NODES);
  localparam QW = 107 + 64 + 1 + 1;   // response queue entry: {gen, s4, value, kind, addr, tag, dst, rs, slot, n}
  localparam EW = 1 + 1 + 2 + 1 + 8 + 64;  // record: {valid, gen, kind, s4, code, value}

  // ---- request side state ------------------------------------------------------------
  localparam T_IDLE = 3'd0, T_H1 = 3'd1, T_P = 3'd2, T_P1 = 3'd3, T_CHK = 3'd4, T_PUT = 3'd5,
             T_DRAIN = 3'd6;
  reg [2:0] ts;
  reg [63:0] h0, h1, p0, p1;
  reg tail_seen;
  wire [11:0] q_src = h0[KOLO_H0_SRC_LO+:12];
  wire [3:0] q_op = h0[KOLO_H0_OP_LO+:4];
  wire [5:0] q_len = h0[KOLO_H0_LEN_LO+:6];
  wire [2:0] q_lastb = h0[`KOLO_H0_LASTB_HI:`KOLO_H0_LASTB_LO];
  wire [1:0] q_asize = h0[`KOLO_H0_ASIZE_HI:`KOLO_H0_ASIZE_LO];
  wire q_fetch = h0[`KOLO_H0_FETCH_LO];
  wire q_gen = h0[`KOLO_H0_GEN_LO];
  wire [47:0] q_addr = h1[KOLO_H1_ADDR_LO+:48];
  wire [7:0] q_tag = h1[KOLO_H1_TAG_LO+:8];
  wire [7:0] q_key = h1[KOLO_H1_KEY_LO+:8];
  wire q_put = q_op == `KOLO_OP_PUT;
  wire q_rsy = q_op == `KOLO_OP_RESYNC;
  wire q_get = q_op == `KOLO_OP_GET_REQ;
  wire q_at = (q_op >= `KOLO_OP_ADD && q_op <= `KOLO_OP_CSWAP) || q_op == `KOLO_OP_FETCH_AND ||
              q_op == `KOLO_OP_FETCH_OR;
  wire q_s4 = q_asize == 2'd2;
  wire q_misal = q_s4 ? q_addr[1:0] != 2'd0 : q_addr[2:0] != 3'd0;
  // (h1 is in the flit register from T_P on; the h0 checks hold from T_H1 on)
  wire mal_h0 = !(q_put || q_get || q_at || q_rsy) || h0[KOLO_H0_VNET] || h0[11:0] != node_id ||
                (q_rsy && q_len != 6'd1) ||
                (q_put && (q_len == 6'd0 || q_len > 6'd32)) ||
                (q_get && q_len != 6'd1) ||
                (q_at && (q_len != ((q_op == `KOLO_OP_CSWAP) ? 6'd2 : 6'd1) || q_asize[1] == 1'b0));
  wire malformed = mal_h0 || (q_at && q_misal);
  // the window of the request: read as h1 arrives, kept in c_*
  assign win_idx = (ts == T_H1) ? pk_flit[KOLO_H1_KEY_LO+:4] : q_key[3:0];
  assign rt_id = q_src;

  // ---- end-to-end records ---------------------------------------------------------------
  reg [EW-1:0] recm[0:NODES*256-1];
  reg [EW-1:0] rec_rd, lw_d;
  reg [NW+7:0] rd_a_q, lw_a;
  reg lw_v;
  reg [NW+8:0] clr;      // clearing entry clr after reset; done at NODES*256
  wire clearing = !clr[NW+8];
  wire [11:0] s_idx;
  wire s_ok;
  kolo_ni_nidx u_sidx (
      .clk(clk), .rst(rst), .id(q_src), .dim_m1(dim_m1), .idx(s_idx), .ok(s_ok)
  );
  wire s_in = s_ok && (s_idx >> NW) == 12'd0;  // index < NODES (a power of 2)
  // registered for the decisions in T_CHK (rep, a_chain; logic depth: the node index's two
  // multipliers then the request's decision did not fit in a cycle): h0 is loaded in T_IDLE
  // and T_CHK comes after T_H1 at the earliest, so s_in_q there is s_in of the request
  reg s_in_q;
  always @(posedge clk) s_in_q <= s_in;
  wire [7:0] tag_now = (ts == T_H1) ? pk_flit[KOLO_H1_TAG_LO+:8] : q_tag;
  wire [NW+7:0] rd_a = {s_idx[NW-1:0], tag_now};
  always @(posedge clk) begin
    rec_rd <= recm[rd_a];
    rd_a_q <= rd_a;
  end
  wire [EW-1:0] rec = (lw_v && lw_a == rd_a_q) ? lw_d : rec_rd;
  wire rec_valid = rec[EW-1];
  wire rec_gen = rec[EW-2];
  wire [1:0] rec_kind = rec[EW-3-:2];
  wire rec_s4 = rec[72];
  wire [7:0] rec_code = rec[71:64];
  wire [63:0] rec_val = rec[63:0];
  // a repeat of the request executed last for (source, tag)
  wire rep = cfg_en && !clearing && s_in_q && rec_valid && rec_gen == q_gen;

  // bytes the request touches
  wire [8:0] n_put = {q_len - 6'd1, 3'b000} + {6'd0, q_lastb} + 9'd1;
  wire [8:0] n_req = q_put ? n_put : q_get ? p0[8:0] : (q_s4 ? 9'd4 : 9'd8);
  wire get_bad = q_get && (p0[8:0] == 9'd0 || p0[8:0] > 9'd256);  // (bits 63:9 ignored)
  reg [64:0] c_wend;    // window BASE + LEN
  reg [63:0] c_base;
  reg [31:0] c_ctrl;
  reg [22:0] c_rs;
  reg c_rok, rt_have, rt_wait;
  wire [22:0] rs_now = rt_have ? c_rs : rt_entry[KOLO_RS_W-1:0];
  wire rok_now = rt_have ? c_rok : rt_ok;
  wire rt_ready = rt_have || rt_rvalid;
  // the route back to the requester: asked as h1 arrives
  always @(*) rt_req = (ts == T_H1) || (ts != T_IDLE && !rt_wait && !rt_have && !rt_rvalid);

  // window check (one cycle: the window's end is precomputed). The request's
  // end addr + n is registered one state before T_CHK (r_end_q: in T_H1 for
  // a PUT, from the flit h1 arriving; in T_P for GETs and atomics): a pipeline
  // stage, the add then the compares did not fit in T_CHK.
  reg [48:0] r_end_q;
  wire [48:0] r_end = r_end_q;
  wire [47:0] pk_addr = pk_flit[KOLO_H1_ADDR_LO+:48];
  wire [8:0] n_req_p = q_get ? pk_flit[8:0] : (q_s4 ? 9'd4 : 9'd8);  // in T_P
  wire w_key = c_ctrl[31] && c_ctrl[7:0] == q_key;
  wire w_bounds = {16'd0, q_addr} >= c_base && {16'd0, r_end} <= c_wend;
  wire w_rights = (q_put && c_ctrl[9]) || (q_get && c_ctrl[8]) || (q_at && c_ctrl[10]);
  wire [7:0] c_st = !w_key ? ST_KEY : !w_bounds ? ST_BOUNDS : !w_rights ? ST_RIGHTS : 8'd0;
  wire c_drop = malformed || get_bad || !rok_now;

  // response queue: ACKs of finished PUTs first, then the request side's pushes
  wire rqf_in_ready;
  wire rqf_valid;
  wire [QW-1:0] rqf_out;
  wire rqf_pop;

  // GET slots
  reg [GSLOTS-1:0] g_busy, g_ready, g_err;
  reg [4:0] g_free;     // lowest free slot (GSLOTS <= 32)
  reg g_any;
  integer i;
  always @(*) begin
    g_free = 5'd0;
    g_any = 1'b0;
    for (i = GSLOTS - 1; i >= 0; i = i - 1)
      if (!g_busy[i]) begin
        g_free = i[4:0];
        g_any = 1'b1;
      end
  end
  generate
    if (GSLOTS < 1 || GSLOTS > 32) begin : g_bad_gslots
      kolo_ni_tgt_PARAMETER_ERROR_GSLOTS_must_be_1_to_32 u_error ();
    end
  endgenerate

  // conflict: the request's bytes overlap the 8-byte word of an atomic in flight
  wire a_free, a_busy, a_conflict;   // (kolo_ni_atomic, below)
  // an atomic may follow the chain on its word (kolo_ni_atomic) unless it may be a repeat
  // (end-to-end on, a source with a record): a repeat must wait, as before, until the
  // original's response has left and written the record, or it would be executed twice
  wire a_chain = q_at && !(cfg_en && s_in_q);
  wire conflict = a_conflict;

  // PUT data path: payload flits packed into beats; the ACK waits in ack_*
  // until the last beat is taken by the DMA port
  reg [5:0] left;       // payload flits still to pop
  reg [1:0] acnt;
  reg [255:0] asm_, m_beat;
  reg m_bv, m_last;
  integer k;
  reg [47:0] m_addr;
  reg [8:0] m_len;
  reg ack_v, ack_ready;  // an ACK is pending; its last beat went
  reg [QW-1:0] ack_d;
  wire w_fire_m;         // a beat of ours went to the DMA write port
  wire beat_end = acnt == 2'd3 || left == 6'd1;
  wire chk = ts == T_CHK && rt_ready;
  wire rep_ans = chk && !c_drop && rep && !q_get && !q_rsy;   // answered from the record
  wire chk_put = chk && !c_drop && !rep_ans && c_st == 8'd0 && q_put;
  // A PUT starts only when the ACK register is free: once its DMA write has
  // begun (holding the write port), it must finish without waiting for the
  // response path (which may itself wait for the write port). A beat is
  // formed when the beat register is free (or frees up now).
  wire bv_free = !m_bv || w_fire_m;
  wire put_go = (ts == T_PUT || (chk_put && !conflict && !ack_v)) && left != 6'd0 &&
                (!beat_end || bv_free);
  wire put_pop = put_go && pk_valid;
  wire put_done = put_pop && left == 6'd1;   // the last payload flit goes now

  wire ack_push = ack_v && ack_ready && rqf_in_ready;
  // request side pushes (NAK, GET_RESP entry) when the ACK does not
  wire m_push_ok = rqf_in_ready && !ack_push;
  wire nak_go = chk && !c_drop && !rep_ans && !q_rsy && c_st != 8'd0 && m_push_ok;
  wire rep_go = rep_ans && m_push_ok;
  wire rsy_go = chk && !c_drop && q_rsy && m_push_ok;
  // reads wait for earlier PUT data still on its way to the DMA port
  wire puts_out = m_bv || ack_v;
  wire get_want = chk && !c_drop && c_st == 8'd0 && q_get && g_any && m_push_ok && !conflict &&
                  !puts_out;
  wire m_rq_ready;
  wire get_go = get_want && m_rq_ready;
  wire m_rq_valid = get_want;
  wire a_take = chk && !c_drop && !rep_ans && c_st == 8'd0 && q_at && a_free && !conflict && !puts_out;
  wire drop_go = chk && c_drop;
  wire [QW-1:0] m_push_d =
      rep_go ? {q_gen, rec_s4, rec_val, rec_kind, rec_kind == K_NAK ? {40'd0, rec_code} : q_addr, q_tag,
                q_src, rs_now, 5'd0, rec_s4 ? 9'd4 : 9'd8} :
      nak_go ? {q_gen, 1'b0, 64'd0, K_NAK, 40'd0, c_st, q_tag, q_src, rs_now, 5'd0, 9'd0} :
      rsy_go ? {q_gen, 1'b0, 64'd0, K_ACK, q_addr, q_tag, q_src, rs_now, 5'd0, 9'd0} :
               {q_gen, 1'b0, 64'd0, K_GRESP, q_addr, q_tag, q_src, rs_now, g_free, n_req};
  wire rqf_push = ack_push || nak_go || get_go || rep_go || rsy_go;
  wire [QW-1:0] rqf_in = ack_push ? ack_d : m_push_d;

  // request side pops
  wire pop_head = ts == T_IDLE && pk_valid;
  wire pop_h1 = ts == T_H1;
  wire pop_p = ts == T_P || ts == T_P1;
  wire pop_drain = ts == T_DRAIN;
  assign pk_ready = pop_head || pop_h1 || pop_p || pop_drain || put_pop;
  wire pk_fire = pk_ready && pk_valid;
  wire pk_tail = pk_flit[64];
  wire [63:0] p_next = (ts == T_H1) ? pk_flit[63:0] : h1;  // for the T_H1 decisions

  always @(posedge clk) begin
    if (rst) begin
      ts <= T_IDLE;
      rt_have <= 1'b0;
      rt_wait <= 1'b0;
      stat_bad <= 1'b0;
      stat_dup <= 1'b0;
      m_bv <= 1'b0;
      ack_v <= 1'b0;
      tail_seen <= 1'b0;
    end else begin
      stat_bad <= 1'b0;
      stat_dup <= rep_go || (rep && q_get && (get_go || nak_go));
      if (rt_req && rt_gnt) rt_wait <= 1'b1;
      if (rt_rvalid) begin
        rt_wait <= 1'b0;
        rt_have <= 1'b1;
        c_rs <= rt_entry[KOLO_RS_W-1:0];
        c_rok <= rt_ok;
      end
      if (pk_fire && pk_tail) tail_seen <= 1'b1;
      if (w_fire_m) begin
        m_bv <= 1'b0;
        if (m_last) ack_ready <= 1'b1;
      end
      if (ack_push) ack_v <= 1'b0;
      // packing PUT payload
      if (put_pop) begin
        for (k = 0; k < 4; k = k + 1)  // (lane by lane: constant indices)
          if (acnt == k[1:0]) asm_[k*64+:64] <= pk_flit[63:0];
        acnt <= acnt + 2'd1;
        left <= left - 6'd1;
        if (beat_end) begin
          for (k = 0; k < 4; k = k + 1)
            m_beat[k*64+:64] <= (acnt == k[1:0]) ? pk_flit[63:0] : asm_[k*64+:64];
          m_bv <= 1'b1;
          m_last <= left == 6'd1;
          m_addr <= q_addr;
          m_len <= n_req;
          acnt <= 2'd0;
        end
        if (left == 6'd1) begin
          ack_v <= 1'b1;
          ack_ready <= 1'b0;
          ack_d <= {q_gen, 1'b0, 64'd0, K_ACK, q_addr, q_tag, q_src, rs_now, 5'd0, 9'd0};
        end
      end
      case (ts)
        T_IDLE: if (pk_valid) begin
          tail_seen <= pk_tail;
          if (!pk_ok) begin
            stat_bad <= 1'b1;
            ts <= pk_tail ? T_IDLE : T_DRAIN;
          end else begin
            h0 <= pk_flit[63:0];
            ts <= T_H1;
          end
        end
        T_H1: begin
          h1 <= p_next;
          r_end_q <= {1'b0, pk_addr} + {40'd0, n_put};
          c_base <= win_base;
          c_wend <= win_end;
          c_ctrl <= win_ctrl;
          rt_have <= 1'b0;
          rt_wait <= rt_gnt;
          left <= q_len;
          acnt <= 2'd0;
          ts <= (!mal_h0 && (q_get || q_at)) ? T_P : T_CHK;
        end
        T_P: begin
          p0 <= pk_flit[63:0];
          r_end_q <= {1'b0, q_addr} + {40'd0, n_req_p};
          ts <= (q_op == `KOLO_OP_CSWAP) ? T_P1 : T_CHK;
        end
        T_P1: begin
          p1 <= pk_flit[63:0];
          ts <= T_CHK;
        end
        T_CHK: begin
          if (drop_go) begin
            stat_bad <= 1'b1;
            ts <= tail_seen ? T_IDLE : T_DRAIN;
          end else if (rep_go || nak_go || rsy_go) begin
            ts <= tail_seen ? T_IDLE : T_DRAIN;
          end else if (put_pop) begin
            ts <= put_done ? T_IDLE : T_PUT;
          end else if (get_go || a_take) begin
            ts <= T_IDLE;
          end
        end
        T_PUT: if (put_done) ts <= T_IDLE;
        T_DRAIN: if (pk_valid && pk_tail) ts <= T_IDLE;
        default: ts <= T_IDLE;
      endcase
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  wire [$clog2(RQ_DEPTH+1)-1:0] rqf_count;
  /* verilator lint_on UNUSEDSIGNAL */
  kolo_fifo_sync #(
      .WIDTH(QW),
      .DEPTH(RQ_DEPTH)
  ) u_rqf (
      .clk(clk),
      .rst(rst),
      .in_valid(rqf_push),
      .in_ready(rqf_in_ready),
      .in_data(rqf_in),
      .out_valid(rqf_valid),
      .out_ready(rqf_pop),
      .out_data(rqf_out),
      .count(rqf_count)
  );

  // ---- atomic unit: ATOMICS in flight, one per 8-byte word (kolo_ni_atomic) -------------------
  wire a_rq_valid, a_rq_ready;
  wire [47:0] a_rq_addr;
  wire [12:0] a_rq_len;
  wire [7:0] a_rq_id;
  wire a_data = rd_valid && rd_id[7:6] == 2'b11;
  wire a_wr_valid, w_fire_a;
  wire [47:0] a_wr_addr;
  wire [12:0] a_wr_len;
  wire [63:0] a_new;
  wire a_rv, a_resp_take;
  wire a_err, a_fetch, a_s4, a_gen;
  wire [47:0] a_addr;
  wire [63:0] a_old;
  wire [7:0] a_tag;
  wire [11:0] a_dst;
  wire [22:0] a_rs;
  wire [2:0] a_dbg;
  kolo_ni_atomic #(
      .SLOTS(ATOMICS)
  ) u_atomic (
      .clk(clk), .rst(rst),
      .free(a_free), .busy(a_busy), .q_lo({1'b0, q_addr}), .q_end(r_end), .q_atomic(a_chain),
      .conflict(a_conflict),
      .take(a_take), .t_addr(q_addr), .t_op(q_op), .t_s4(q_s4), .t_fetch(q_fetch), .t_opnd(p0),
      .t_cmp(p1), .t_tag(q_tag), .t_gen(q_gen), .t_dst(q_src), .t_rs(rs_now),
      .rq_valid(a_rq_valid), .rq_ready(a_rq_ready), .rq_addr(a_rq_addr), .rq_len(a_rq_len),
      .rq_id(a_rq_id),
      .rd_valid(a_data), .rd_data(rd_data[63:0]), .rd_slot(rd_id[5:0]), .rd_err(rd_err),
      .wr_valid(a_wr_valid), .wr_fire(w_fire_a), .wr_addr(a_wr_addr), .wr_len(a_wr_len),
      .wr_data(a_new),
      .resp_valid(a_rv), .resp_take(a_resp_take), .resp_err(a_err), .resp_fetch(a_fetch),
      .resp_s4(a_s4), .resp_addr(a_addr), .resp_old(a_old), .resp_tag(a_tag), .resp_gen(a_gen),
      .resp_dst(a_dst), .resp_rs(a_rs), .dbg(a_dbg)
  );

  // ---- DMA write port: request side (PUT) or atomic unit, one request at a time ---------------
  // The choice is held from the first cycle a request is offered (not only
  // once a beat is taken) to its last beat: the endpoint (kolo_pcie_dma_wr)
  // latches _addr/_len when it sees the offer and takes the first beat
  // later, and kolo_ni's write arbiter stays on this port meanwhile; an
  // atomic's write that replaced an offered PUT beat went out at the PUT's
  // address and length (8 PEs on kolo-sim --ni=rtl: atomics returning 0 or
  // stale values, PUT data lost).
  reg w_lock, w_own;   // w_own: 1 = atomic unit
  wire w_sel = w_lock ? w_own : a_wr_valid;
  assign wr_valid = w_sel ? a_wr_valid : m_bv;
  assign wr_addr = w_sel ? {16'd0, a_wr_addr} : {16'd0, m_addr};
  assign wr_len = w_sel ? a_wr_len : {4'd0, m_len};
  assign wr_data = w_sel ? {192'd0, a_new} : m_beat;
  assign wr_last = w_sel ? 1'b1 : m_last;
  wire w_fire = wr_valid && wr_ready;
  assign w_fire_a = w_fire && w_sel;
  assign w_fire_m = w_fire && !w_sel;
  always @(posedge clk) begin
    if (rst) begin
      w_lock <= 1'b0;
      w_own <= 1'b0;
    end else if (wr_valid) begin
      w_lock <= !(wr_ready && wr_last);
      w_own <= w_sel;
    end
  end

  // ---- DMA read requests: atomic unit first ----------------------------------------------------
  assign rq_valid = a_rq_valid || m_rq_valid;
  assign rq_addr = a_rq_valid ? {16'd0, a_rq_addr} : {16'd0, q_addr};
  assign rq_len = a_rq_valid ? a_rq_len : {4'd0, n_req};
  assign rq_id = a_rq_valid ? a_rq_id : {3'b100, g_free};
  assign a_rq_ready = rq_ready;
  assign m_rq_ready = rq_ready && !a_rq_valid;

  // ---- GET response buffers --------------------------------------------------------------------
  reg [255:0] gram[0:(1<<GW)*8-1];
  reg [2:0] gbeat;
  wire g_data = rd_valid && rd_id[7:6] == 2'b10;
  wire [GW-1:0] g_slot_in = rd_id[GW-1:0];
  always @(posedge clk) if (g_data) gram[{g_slot_in, gbeat}] <= rd_data;

  // ---- response sender ------------------------------------------------------------------------
  localparam G_IDLE = 2'd0, G_H0 = 2'd1, G_H1 = 2'd2, G_PL = 2'd3;
  reg [1:0] gs;
  reg [1:0] r_kind;
  reg [47:0] r_addr;
  reg [7:0] r_tag;
  reg [11:0] r_dst;
  reg [22:0] r_rs;
  reg [GW-1:0] r_slot;
  reg [8:0] r_n;
  reg [63:0] r_res;
  reg r_fromq;         // the response frees GET slot r_slot
  reg r_gen;
  reg [5:0] r_cnt;
  reg [1:0] r_fi;
  wire [GW-1:0] f_slot = rqf_out[9+:GW];
  wire [1:0] f_kind = rqf_out[106:105];
  wire f_wait = f_kind == K_GRESP && !g_ready[f_slot];
  wire f_gerr = f_kind == K_GRESP && g_err[f_slot];
  // with e2e on, an atomic response is taken once its node index is registered (a_iv: the
  // head was valid and not taken a cycle ago; timing, see the record write below)
  reg a_iv;
  assign a_resp_take = gs == G_IDLE && a_rv && (a_iv || !cfg_en);
  assign rqf_pop = gs == G_IDLE && !a_rv && rqf_valid && !f_wait;
  wire [8:0] r_nm1 = r_n - 9'd1;
  wire [5:0] r_len = (r_kind == K_GRESP) ? r_nm1[8:3] + 6'd1 : (r_kind == K_ARESP) ? 6'd1 : 6'd0;
  wire [3:0] r_op = (r_kind == K_ACK) ? `KOLO_OP_ACK : (r_kind == K_NAK) ? `KOLO_OP_NAK : `KOLO_OP_GET_RESP;
  wire [4:0] r_rsv = (r_kind == K_GRESP || r_kind == K_ARESP) ? {2'b00, r_nm1[2:0]} : 5'd0;
  wire [63:0] r_h0 = {r_gen, r_rsv[3:0], r_rs, 1'b0, r_len, 1'b1, r_op, node_id, r_dst};
  wire [63:0] r_h1 = {8'd0, r_tag, r_addr};
  reg [255:0] gram_q;
  reg [2:0] gra;
  wire r_last = r_cnt == r_len - 6'd1;
  assign s_valid = gs != G_IDLE;
  assign s_cls = 1'b1;
  wire [63:0] r_pl = (r_kind == K_ARESP) ? r_res : gram_q[r_fi*64+:64];
  assign s_flit = (gs == G_H0) ? {2'b10, r_h0} :
                  (gs == G_H1) ? {1'b0, r_len == 6'd0, r_h1} : {1'b0, r_last, r_pl};
  wire s_fire = s_valid && s_ready;
  assign stat_nak = gs == G_H0 && s_fire && r_kind == K_NAK;
  wire r_done = s_fire && ((gs == G_H1 && r_len == 6'd0) || (gs == G_PL && r_last));
  wire [2:0] gra_next = (gs == G_H0 && s_fire) ? 3'd0 :
                        (gs == G_PL && s_fire && r_fi == 2'd3) ? gra + 3'd1 : gra;
  always @(posedge clk) begin
    gram_q <= gram[{r_slot, gra_next}];
    gra <= gra_next;
  end

  always @(posedge clk) begin
    if (rst) begin
      gs <= G_IDLE;
      r_fromq <= 1'b0;
      a_iv <= 1'b0;
    end else begin
      a_iv <= a_rv && !a_resp_take;
      case (gs)
        G_IDLE: begin
          if (a_resp_take) begin
            r_fromq <= 1'b0;
            r_kind <= a_err ? K_NAK : a_fetch ? K_ARESP : K_ACK;
            r_addr <= a_err ? {40'd0, ST_RDMA} : a_addr;
            r_tag <= a_tag;
            r_dst <= a_dst;
            r_rs <= a_rs;
            r_n <= a_s4 ? 9'd4 : 9'd8;
            r_res <= a_old;
            r_gen <= a_gen;
            gs <= G_H0;
          end else if (rqf_pop) begin
            r_fromq <= f_kind == K_GRESP;
            r_kind <= f_gerr ? K_NAK : f_kind;
            r_addr <= f_gerr ? {40'd0, ST_RDMA} : rqf_out[104:57];
            r_tag <= rqf_out[56:49];
            r_dst <= rqf_out[48:37];
            r_rs <= rqf_out[36:14];
            r_slot <= f_slot;
            r_n <= rqf_out[8:0];
            r_res <= rqf_out[170:107];
            r_gen <= rqf_out[172];
            gs <= G_H0;
          end
        end
        G_H0: if (s_fire) gs <= G_H1;
        G_H1: if (s_fire) begin
          r_cnt <= 6'd0;
          r_fi <= 2'd0;
          gs <= (r_len == 6'd0) ? G_IDLE : G_PL;
        end
        G_PL: if (s_fire) begin
          r_cnt <= r_cnt + 6'd1;
          r_fi <= r_fi + 2'd1;
          if (r_last) gs <= G_IDLE;
        end
        default: gs <= G_IDLE;
      endcase
    end
  end

  // record write: as a response is taken by the sender (its final kind: a GET
  // whose read failed becomes a NAK). The atomic unit's response head (a_dst: two LUT RAM
  // reads) has its node index computed a cycle ahead (a_idx_q, a_in_q; the take waits for
  // it: a_iv), else its two products and the record's write enable made the NI's latest
  // path (kolo_ni_tgt's, 8 LUT levels in kolo_ni; docs/ni.md 10.1)
  wire [11:0] a_idx;
  wire a_iok;
  kolo_ni_nidx u_aidx (
      .clk(clk), .rst(rst), .id(a_dst), .dim_m1(dim_m1), .idx(a_idx), .ok(a_iok)
  );
  reg [NW-1:0] a_idx_q;
  reg a_in_q;
  always @(posedge clk) begin
    a_idx_q <= a_idx[NW-1:0];
    a_in_q <= a_iok && (a_idx >> NW) == 12'd0;
  end
  wire [11:0] q_idx;
  wire q_ok;
  kolo_ni_nidx u_widx (
      .clk(clk), .rst(rst), .id(rqf_out[48:37]), .dim_m1(dim_m1), .idx(q_idx), .ok(q_ok)
  );
  wire [NW-1:0] w_idx = a_resp_take ? a_idx_q : q_idx[NW-1:0];
  wire w_in = a_resp_take ? a_in_q : q_ok && (q_idx >> NW) == 12'd0;
  wire [1:0] w_kind = a_resp_take ? (a_err ? K_NAK : a_fetch ? K_ARESP : K_ACK) :
                      (f_gerr ? K_NAK : f_kind);
  wire [7:0] w_code = (a_resp_take || f_gerr) ? ST_RDMA : rqf_out[64:57];
  wire [EW-1:0] w_d = a_resp_take ? {1'b1, a_gen, w_kind, a_s4, w_code, a_old} :
                      {1'b1, rqf_out[172], w_kind, rqf_out[171], w_code, rqf_out[170:107]};
  wire [NW+7:0] w_a = {w_idx, a_resp_take ? a_tag : rqf_out[56:49]};
  wire w_we = (a_resp_take || rqf_pop) && cfg_en && !clearing && w_in;
  always @(posedge clk) begin
    if (clearing || w_we) recm[clearing ? clr[NW+7:0] : w_a] <= clearing ? {EW{1'b0}} : w_d;
    lw_a <= w_a;
    lw_d <= w_d;
  end
  always @(posedge clk) begin
    if (rst) begin
      clr <= {(NW + 9) {1'b0}};
      lw_v <= 1'b0;
    end else begin
      if (clearing) clr <= clr + {{(NW + 8) {1'b0}}, 1'b1};
      lw_v <= w_we;
    end
  end

  // slot bookkeeping: taken at the GET's read, filled by its data, freed when
  // its response (GET_RESP, or NAK after a failed read) has gone
  always @(posedge clk) begin
    if (rst) begin
      g_busy <= {GSLOTS{1'b0}};
      g_ready <= {GSLOTS{1'b0}};
      g_err <= {GSLOTS{1'b0}};
      gbeat <= 3'd0;
    end else begin
      if (get_go) begin
        g_busy[g_free[GW-1:0]] <= 1'b1;
        g_ready[g_free[GW-1:0]] <= 1'b0;
        g_err[g_free[GW-1:0]] <= 1'b0;
      end
      if (g_data) gbeat <= rd_last ? 3'd0 : gbeat + 3'd1;
      if (g_data && rd_last) begin
        g_ready[g_slot_in] <= 1'b1;
        g_err[g_slot_in] <= rd_err;
      end
      if (r_done && r_fromq) g_busy[r_slot] <= 1'b0;
    end
  end
  assign dbg = {17'd0, m_bv, ack_v, ack_ready, w_lock, a_busy, a_rv, rqf_valid, gs, a_dbg, ts};
  wire unused_bits = &{1'b0, p0[63:9], rd_id, rt_entry[31:23], rqf_out, pk_flit[65], c_ctrl[30:11],
                       s_idx, a_idx, q_idx, r_rsv[4]};
endmodule
`default_nettype wire
