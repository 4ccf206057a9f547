`default_nettype none
// kolo_ni_rsp - the NI's response side: responses to this node's own
// requests (vnet 1: ACK, NAK, GET_RESP), matched to their operation by tag.
//
// Each response (and each local error from kolo_ni_txq: a PUT packet whose
// payload read failed, counted as a response with KOLO_ST_LOCAL_DMA) counts
// one packet of its operation in the tag table's dynamic entry {result,
// status, count}; the status keeps the first error. GET_RESP data of a GET
// is DMA-written at laddr + (addr - raddr) of the operation; the old value
// of a fetching atomic is kept as the result. When count reaches the
// operation's packet count, a completion event goes to kolo_ni_cq (with
// `write` if the descriptor asked for COMPLETE or the status is an error),
// the dynamic entry is cleared and the tag freed. PUT responses decrement
// the context's unacknowledged PUT packets (put_dec).
// A response that does not fit its tag (tag not in use, source not the
// operation's destination, op or length not matching the operation, GET data
// outside the operation's buffer, NAK without a code) is dropped and counted
// (stat_bad); host memory is not touched.
// One response at a time, an ACK or NAK every two cycles (header pops
// overlap the update); the table writes are combinational so that the next
// response sees them. The GET_RESP data write is accepted by the DMA port
// before the completion event is raised, so the entry never overtakes the
// data. This side never waits for the request side (deadlock rule).
// A GET_RESP of a GET has its buffer bounds checked over two more cycles
// (R_G1, R_G2: pipeline stages, the subtraction and the comparison are each
// too long to follow a table read in one cycle).
// End-to-end reliability (cfg_en, kolo_ni_e2e): a response must also match
// the tag's packet in flight (e2e_pend) and its generation bit (e2e_gen,
// header flit 0 bit 63); one that does not is a duplicate (a copy of a
// retransmitted request was answered too, or the packet was given up) and
// is dropped and counted in stat_dup, not in stat_bad. Local errors carry
// their status (le_status: KOLO_ST_LOCAL_DMA from kolo_ni_txq,
// KOLO_ST_TIMEOUT / KOLO_ST_BAD_DST for packets kolo_ni_e2e gave up).
// RESYNC (e2e_rsy: the tag's packet in flight is the RESYNC kolo_ni_tx sent
// before the operation's first packet, docs/ni.md 10.1): its ACK counts no
// packet and touches no entry: ans without done wakes the operation (its
// first packet goes next); a RESYNC given up (local error) completes the
// operation with that status at once (none of its packets went: no put_dec).
// ans/ans_tag/ans_done: a packet of the tag was counted (done: its operation
// completed and the tag is free; kolo_ni_e2e decides when it goes back).
module kolo_ni_rsp (
    input  wire          clk,
    input  wire          rst,
    input  wire          cfg_en,
    input  wire          pk_valid,
    input  wire [65:0]   pk_flit,
    input  wire          pk_ok,
    output wire          pk_ready,
    input  wire          le_valid,
    input  wire [7:0]    le_tag,
    input  wire [7:0]    le_status,
    output wire          le_ready,
    input  wire          e2e_pend,
    input  wire          e2e_gen,
    input  wire          e2e_rsy,
    output wire          ans,
    output wire [7:0]    ans_tag,
    output wire          ans_done,
    output reg           stat_dup,
    // tag table
    output wire [7:0]    rd_tag,
    input  wire [203:0]  st,
    input  wire [94:0]   dy,
    input  wire          busy,
    output wire          dy_we,
    output wire [7:0]    dy_wtag,
    output wire [94:0]   dy_wdata,
    output wire          tag_free,
    output wire [7:0]    free_tag,
    // completion events
    output reg           ev_valid,
    input  wire          ev_ready,
    output reg  [101:0]  ev_data,
    output wire          put_dec,
    output wire [3:0]    put_dec_ctx,
    // DMA writes
    output wire          wr_valid,
    input  wire          wr_ready,
    output wire [63:0]   wr_addr,
    output wire [12:0]   wr_len,
    output wire [255:0]  wr_data,
    output wire          wr_last,
    output reg           stat_bad,
    output reg           stat_nak,
    output wire [7:0]    dbg
);
  `include "kolo_defs.vh"
  `include "kolo_ni_regs.vh"

  localparam R_IDLE = 4'd0, R_H1 = 4'd1, R_CHK = 4'd2, R_DW = 4'd3, R_RES = 4'd4, R_UPD = 4'd5,
             R_G1 = 4'd6, R_DRAIN = 4'd7, R_G2 = 4'd8;
  reg [3:0] rs;
  reg [63:0] h0, h1;
  reg local_;
  reg [7:0] le_st;
  reg [7:0] tagq;
  // static entry fields
  wire [3:0] s_ctx = st[3:0];
  wire [15:0] s_index = st[19:4];
  wire [3:0] s_dop = st[23:20];
  wire s_complete = st[24];
  wire s_size32 = st[25];
  wire [11:0] s_dst = st[37:26];
  wire [63:0] s_laddr = st[101:38];
  wire [47:0] s_raddr = st[149:102];
  wire [30:0] s_len = st[180:150];
  wire [22:0] s_npkts_m1 = st[203:181];  // packets of the operation - 1
  // dynamic entry
  wire [22:0] d_count = dy[22:0];
  wire [7:0] d_status = dy[30:23];
  wire [63:0] d_result = dy[94:31];
  // response fields
  wire [3:0] r_op = h0[KOLO_H0_OP_LO+:4];
  wire [5:0] r_len = h0[KOLO_H0_LEN_LO+:6];
  wire [2:0] r_lastb = h0[`KOLO_H0_LASTB_HI:`KOLO_H0_LASTB_LO];
  wire [11:0] r_src = h0[KOLO_H0_SRC_LO+:12];
  wire [47:0] r_addr = h1[KOLO_H1_ADDR_LO+:48];
  wire is_ack = r_op == `KOLO_OP_ACK, is_nak = r_op == `KOLO_OP_NAK, is_gresp = r_op == `KOLO_OP_GET_RESP;
  wire [7:0] dop = {4'd0, s_dop};   // descriptor op codes are 8 bits, all below 16
  wire dop_fetch = dop >= `KOLO_D_FETCH_ADD && dop <= `KOLO_D_FETCH_OR;
  wire dop_nofetch = dop == `KOLO_D_ADD || dop == `KOLO_D_XOR || dop == `KOLO_D_AND || dop == `KOLO_D_OR;
  wire [8:0] g_bytes = {r_len - 6'd1, 3'b000} + {6'd0, r_lastb} + 9'd1;
  // GET data bounds (g_off + g_bytes <= len), in R_G1 and R_G2 from registered copies
  reg [47:0] q_raddr, q_goff;
  reg [30:0] q_len;
  reg [63:0] q_laddr;
  reg [31:0] q_lenmb;   // len - g_bytes (negative: no room)
  wire g_fits = q_goff[47:31] == 17'd0 && !q_lenmb[31] && q_goff[30:0] <= q_lenmb[30:0];
  wire g_ok = r_len != 6'd0 && r_len <= 6'd32;  // (the bounds follow in R_G2)
  // (with e2e, a response that matches no packet in flight is a duplicate)
  wire r_gen = h0[`KOLO_H0_GEN_LO];
  wire r_e2e = cfg_en ? (e2e_pend && r_gen == e2e_gen) : !r_gen;
  wire r_dup = cfg_en && !local_ && !(busy && e2e_pend && r_src == s_dst && r_gen == e2e_gen);
  wire r_rsy = cfg_en && e2e_rsy;   // the tag's packet is a RESYNC: only an ACK answers it
  wire r_match = busy && r_src == s_dst && r_e2e;
  wire r_good = local_ ? busy :
                r_rsy ? (r_match && is_ack && r_len == 6'd0) :
                r_match &&
                ((is_ack && r_len == 6'd0 && (dop == `KOLO_D_PUT || dop_nofetch)) ||
                 (is_nak && r_len == 6'd0 && r_addr[7:0] != 8'd0) ||
                 (is_gresp && dop == `KOLO_D_GET && g_ok) ||
                 (is_gresp && dop_fetch && r_len == 6'd1 && r_lastb == (s_size32 ? 3'd3 : 3'd7)));
  wire [7:0] r_status = local_ ? le_st : is_nak ? r_addr[7:0] : 8'd0;

  reg [7:0] c_status;
  reg [63:0] c_result;
  reg got_res;
  reg tail_seen;

  // GET_RESP data: flits packed into beats for the DMA write
  reg [5:0] left;
  reg [1:0] acnt;
  reg [255:0] asm_, m_beat;
  reg m_bv, m_last;
  integer k;
  reg [63:0] w_addr;
  reg [8:0] w_len;
  wire beat_end = acnt == 2'd3 || left == 6'd1;
  wire dw_pop = rs == R_DW && left != 6'd0 && (!beat_end || !m_bv);
  assign wr_valid = m_bv;
  assign wr_addr = w_addr;
  assign wr_len = {4'd0, w_len};
  assign wr_data = m_beat;
  assign wr_last = m_last;
  wire w_fire = m_bv && wr_ready;

  wire [22:0] n_count = d_count + 23'd1;
  wire [7:0] cur_status = (rs == R_CHK) ? r_status : c_status;
  wire [7:0] n_status = (d_status != 8'd0) ? d_status : cur_status;
  wire [63:0] n_result = got_res ? c_result : d_result;
  wire done = r_rsy ? local_ : d_count == s_npkts_m1;
  wire ev_free = !ev_valid || ev_ready;
  // the packet counts now: in R_CHK for responses without data, in R_UPD after the data
  wire simple = local_ || is_ack || is_nak;
  wire upd = ((rs == R_CHK && r_good && simple) || rs == R_UPD) && (!done || ev_free);
  assign dy_we = upd && !(r_rsy && !done);
  assign dy_wtag = tagq;
  assign dy_wdata = done ? 95'd0 : {n_result, n_status, n_count};
  assign tag_free = upd && done;
  assign ans = upd;
  assign ans_tag = tagq;
  assign ans_done = done;
  assign free_tag = tagq;
  assign put_dec = upd && dop == `KOLO_D_PUT && !r_rsy;
  assign put_dec_ctx = s_ctx;
  // after an update, the next response's first flit is taken at once
  wire chain = upd && !le_valid && pk_valid && pk_ok;

  assign le_ready = rs == R_IDLE && le_valid;
  wire take_pk = rs == R_IDLE && !le_valid && pk_valid;
  assign pk_ready = take_pk || chain || rs == R_H1 || rs == R_RES || rs == R_DRAIN || dw_pop;
  wire pk_fire = pk_ready && pk_valid;
  wire pk_tail = pk_flit[64];
  // the tables are read every cycle: address the tag being processed
  assign rd_tag = (rs == R_IDLE) ? le_tag : (rs == R_H1) ? pk_flit[KOLO_H1_TAG_LO+:8] : tagq;

  always @(posedge clk) begin
    if (rst) begin
      rs <= R_IDLE;
      ev_valid <= 1'b0;
      stat_bad <= 1'b0;
      stat_nak <= 1'b0;
      stat_dup <= 1'b0;
      m_bv <= 1'b0;
      local_ <= 1'b0;
      tail_seen <= 1'b0;
      got_res <= 1'b0;
    end else begin
      stat_bad <= 1'b0;
      stat_nak <= 1'b0;
      stat_dup <= 1'b0;
      if (w_fire) m_bv <= 1'b0;
      if (ev_valid && ev_ready) ev_valid <= 1'b0;
      if (pk_fire && pk_tail) tail_seen <= 1'b1;
      if (upd) begin
        got_res <= 1'b0;
        stat_nak <= rs == R_CHK && is_nak && !local_;
        if (done) begin
          ev_valid <= 1'b1;
          ev_data <= {s_complete || n_status != 8'd0, 1'b1, s_ctx, s_index, n_status,
                      4'd0, s_dop, n_result};
        end
        if (chain) begin
          local_ <= 1'b0;
          tail_seen <= pk_tail;
          h0 <= pk_flit[63:0];
          rs <= R_H1;
        end else rs <= R_IDLE;
      end
      case (rs)
        R_IDLE: begin
          got_res <= 1'b0;
          if (le_valid) begin
            local_ <= 1'b1;
            le_st <= le_status;
            tagq <= le_tag;
            tail_seen <= 1'b1;
            rs <= R_CHK;
          end else if (pk_valid) begin
            local_ <= 1'b0;
            tail_seen <= pk_tail;
            if (!pk_ok) begin
              stat_bad <= 1'b1;
              rs <= pk_tail ? R_IDLE : R_DRAIN;
            end else begin
              h0 <= pk_flit[63:0];
              rs <= R_H1;
            end
          end
        end
        R_H1: begin
          h1 <= pk_flit[63:0];
          tagq <= pk_flit[KOLO_H1_TAG_LO+:8];
          rs <= R_CHK;
        end
        R_CHK: begin
          c_status <= r_status;
          if (!r_good) begin
            stat_bad <= !r_dup;
            stat_dup <= r_dup;
            rs <= tail_seen ? R_IDLE : R_DRAIN;
          end else begin
            if (!local_ && is_gresp && dop == `KOLO_D_GET) begin
              q_raddr <= s_raddr;
              q_len <= s_len;
              q_laddr <= s_laddr;
              rs <= R_G1;
            end else if (!local_ && is_gresp) begin
              rs <= R_RES;
            end
            // (responses without data: updated by `upd`, which moves on)
          end
        end
        R_G1: begin
          q_goff <= r_addr - q_raddr;
          q_lenmb <= {1'b0, q_len} - {23'd0, g_bytes};
          rs <= R_G2;
        end
        R_G2: begin
          if (!g_fits) begin
            stat_bad <= 1'b1;
            rs <= tail_seen ? R_IDLE : R_DRAIN;
          end else begin
            left <= r_len;
            acnt <= 2'd0;
            w_addr <= q_laddr + {16'd0, q_goff};
            w_len <= g_bytes;
            rs <= R_DW;
          end
        end
        R_DW: begin
          if (dw_pop && pk_valid) begin
            for (k = 0; k < 4; k = k + 1)  // (lane by lane: constant indices)
              if (acnt == k[1:0]) asm_[k*64+:64] <= pk_flit[63:0];
            acnt <= acnt + 2'd1;
            left <= left - 6'd1;
            if (beat_end) begin
              for (k = 0; k < 4; k = k + 1)
                m_beat[k*64+:64] <= (acnt == k[1:0]) ? pk_flit[63:0] : asm_[k*64+:64];
              m_bv <= 1'b1;
              m_last <= left == 6'd1;
              acnt <= 2'd0;
            end
          end
          if (left == 6'd0 && (!m_bv || w_fire)) rs <= R_UPD;
        end
        R_RES: begin
          c_result <= s_size32 ? {32'd0, pk_flit[31:0]} : pk_flit[63:0];
          got_res <= 1'b1;
          rs <= R_UPD;
        end
        R_DRAIN: if (pk_valid && pk_tail) rs <= R_IDLE;
        default: ;
      endcase
    end
  end
  assign dbg = {m_bv, ev_valid, local_, 1'd0, rs};
  wire unused_bits = &{1'b0, pk_flit[65], h1[63:48], h0[62], h0[58:35], h0[28],
                       h0[11:0]};
endmodule
`default_nettype wire
