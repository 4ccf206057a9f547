`default_nettype none
// kolo_ni_e2e - end-to-end reliability of the NI's own requests
// (docs/ni.md section 10): per tag the packet in flight, its timer, its
// retransmissions and the generation bit; quarantine of tags whose packet
// was sent more than once.
//
// With cfg_en, every packet the send engine pushes into kolo_ni_txq
// (push, not push_rtx) becomes the tag's outstanding packet: pend[tag] is
// set until the response side counts its response (ans), the packet is kept
// in a block RAM record (both header flits, and either the small payload
// beat or, for a PUT read from host memory, its host address: a
// retransmission reads the payload again by DMA), and its header gets the
// generation bit push_gen, which alternates per (destination, tag) for
// destinations with node index < NODES (gen table, NODES x 256 bits).
// Packets to nodes beyond NODES carry generation 0 and have no timer.
// The send engine keeps one packet per tag in flight (stop-and-wait per
// operation, kolo_ni_tx), so a tag names one packet.
// Timers: a 16-bit time in units of 64 cycles; the scanner visits one tag
// per cycle (every tag each 256 cycles). A packet without a response for
// the timeout (or, around a table switch, timeout / 8: see expired below)
// is looked up in the routing table (lk_*, port 2 of kolo_ni_route): with a
// valid route it goes back to the send engine (rt_*, valid/ready; the data
// stays until rt_done) with the current route state, up to cfg_retries
// times; an invalid route only restarts the timer (the route may come back). When the budget is spent
// the packet is given up (gu_*, valid/ready, to the response side as a
// local error with KOLO_ST_TIMEOUT or KOLO_ST_BAD_DST).
// A tag that was sent again (or given up) is held when its response comes:
// if that completed the operation the tag goes back to the pool (free) only
// after 2 x timeout (quarantine: no copy of its packets is still in the
// network when the tag and generation come round again); otherwise the
// operation's next packet waits as long (hold, then wake). Without a
// retransmission, free and wake follow the response at once (free is
// combinational from ans, as before this module existed).
// Resynchronisation after a reload (docs/ni.md 10.1): the generation
// table gen_t and the table known (1 bit per (destination, tag): the
// target's record is known to hold the generation gen_t says) are LUT RAMs
// without reset: a reset keeps both (generations go on), a bitstream load
// sets both to 0 (known 0: unknown; the FPGA's RAMs start at 0). The send
// engine asks push_known for the packet it is about to push (push_dst,
// push_tag; registered for timing: the table is read for push_dst and
// la_tag, the tag the send engine will push with in the next cycle, and
// push_known is that read one cycle later; the send engine keeps push_dst
// and the tag over the two cycles, and known only changes from 0 to 1 on a
// RESYNC's ACK, well before the engine pushes on that tag again): with
// cfg_en, a destination < NODES and known 0, it pushes a
// RESYNC packet first (push_rsy: op KOLO_OP_RESYNC, the next generation;
// it is kept, timed, sent again and quarantined like any request) and the
// operation's packet only after its answer. The RESYNC's ACK (ans, not
// done, of a tag whose packet is a RESYNC: rsy_m) sets known of its
// (destination, tag) (the destination index kept per tag in didx_m); the
// target's record then holds the RESYNC's generation and the operation's
// packet, with the other one, is new there. The wake that follows the ACK
// (at once, or after a hold if the RESYNC was sent again) carries wake_rsy:
// the send engine resumes the operation it parked on the tag. A RESYNC given up leaves known
// 0 (the response side completes the operation with the error).
// Counters: inc_retx, inc_timeout, inc_unreach (the scanner's decisions) and
// inc_resync (a RESYNC pushed, not its retransmissions), one-cycle pulses.
// rd_tag -> rd_pend, rd_gen, rd_rsy: registered lookups for the response side.
// After reset the per-tag LUT RAMs are cleared for 256 cycles (as the tag
// pool fills, kolo_ni_tags).
module kolo_ni_e2e #(
    parameter NODES = 16      // node indices with a generation table and a target record (2..4096, power of 2)
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [11:0]   dim_m1,
    input  wire          cfg_en,
    input  wire [31:0]   cfg_timeout,
    input  wire [3:0]    cfg_retries,
    input  wire          cfg_switch,     // the routing table was switched (pulse)
    // pushes of the send engine
    input  wire          push,
    input  wire          push_rtx,
    input  wire          push_rsy,       // the push is a RESYNC (push_known was 0)
    input  wire [7:0]    push_tag,
    input  wire [11:0]   push_dst,
    input  wire [63:0]   push_h0,
    input  wire [63:0]   push_h1,
    input  wire [3:0]    push_nbeats,
    input  wire          push_dma,
    input  wire [255:0]  push_beat,
    input  wire [63:0]   push_laddr,
    output wire          push_gen,
    output wire          push_known,     // (push_dst, push_tag) needs no RESYNC (from la_tag, a cycle before)
    input  wire [7:0]    la_tag,         // the tag of the next cycle's push (push_known's lookup)
    input  wire [7:0]    chk_tag,
    output wire          chk_pend,
    // retransmissions
    output wire          rt_valid,
    input  wire          rt_ready,
    output wire [7:0]    rt_tag,
    output wire [63:0]   rt_h0,
    output wire [63:0]   rt_h1,
    output wire [3:0]    rt_nbeats,
    output wire          rt_dma,
    output wire [255:0]  rt_beat,
    input  wire          rt_done,        // the send engine is done with it (rt_* held until then)
    // routing table lookups
    output wire          lk_req,
    output wire [11:0]   lk_id,
    input  wire          lk_gnt,
    input  wire          lk_rvalid,
    input  wire [31:0]   lk_entry,
    input  wire          lk_ok,
    // response side
    input  wire [7:0]    rd_tag,
    output reg           rd_pend,
    output reg           rd_gen,
    output reg           rd_rsy,         // the tag's packet is a RESYNC
    input  wire          ans,
    input  wire [7:0]    ans_tag,
    input  wire          ans_done,
    output wire          gu_valid,
    input  wire          gu_ready,
    output wire [7:0]    gu_tag,
    output wire [7:0]    gu_status,
    // tag pool, send engine
    output wire          free,
    output wire [7:0]    free_tag,
    output reg           wake,
    output reg  [7:0]    wake_tag,
    output reg           wake_rsy,       // the tag's packet was a RESYNC (its operation is parked: resume it)
    // counters
    output reg           inc_retx,
    output reg           inc_timeout,
    output reg           inc_unreach,
    output reg           inc_resync
);
  `include "kolo_ni_regs.vh"
  localparam NW = $clog2(NODES);
  localparam RW = 64 + 64 + 4 + 1 + 256;
  generate
    if (NODES < 2 || NODES > 4096 || (1 << NW) != NODES) begin : g_bad_nodes
      kolo_ni_e2e_PARAMETER_ERROR_NODES_must_be_a_power_of_2_from_2_to_4096 u_error ();
    end
  endgenerate

  // ---- time: units of 64 cycles ------------------------------------------------------
  reg [5:0] pre;
  reg [15:0] now_c;
  always @(posedge clk) begin
    if (rst) begin
      pre <= 6'd0;
      now_c <= 16'd0;
    end else begin
      pre <= pre + 6'd1;
      if (pre == 6'd63) now_c <= now_c + 16'd1;
    end
  end
  // timeouts beyond 2^20 cycles are cut there (ages are compared mod 2^16 units)
  wire big = cfg_timeout[31:20] != 12'd0;
  wire [15:0] tc = big ? 16'h3fff : {2'd0, cfg_timeout[19:6]};
  wire [15:0] t8c = big ? 16'h07ff : {5'd0, cfg_timeout[19:9]};
  wire [15:0] t2c = {tc[14:0], 1'b0};

  // ---- per-tag state -----------------------------------------------------------------
  // pend (set by pushes, cleared by responses in the same cycle) in flip-flops;
  // the rest in LUT RAMs, each written from one place at a time (the scanner
  // and the decisions wait for pushes and responses): {tmr, retries},
  // {hold, quar, hold start}, rtxd, the generation, the sending time
  reg [255:0] pend;
  reg [4:0] tr_m[0:255];     // {timer runs, retries}
  reg [17:0] hq_m[0:255];    // {hold, quar, time}
  reg rtxd_m[0:255];
  reg cgen_m[0:255];
  reg [15:0] sent_at[0:255];
  // the LUT RAMs are cleared for 256 cycles after reset (hold, quar, rtxd)
  reg [8:0] ini;
  wire initing = !ini[8];
  // no reset, no initial value but the bitstream's 0 (docs/ni.md 10.1)
  reg gen_t[0:NODES*256-1];
  reg known_t[0:NODES*256-1];
  // its bitstream value, 0 (unknown), stated: without it Yosys takes the undefined initial
  // contents of a memory only ever written with 1 for 1 and removes the table
  integer ki;
  initial for (ki = 0; ki < NODES * 256; ki = ki + 1) known_t[ki] = 1'b0;
  reg rsy_m[0:255];
  reg [NW-1:0] didx_m[0:255];
  reg [RW-1:0] rec[0:255];
  reg [RW-1:0] rec_q;

  // ---- pushes: generation bit ------------------------------------------------------------
  wire [11:0] p_idx;
  wire p_ok;
  kolo_ni_nidx u_pidx (
      .clk(clk), .rst(rst), .id(push_dst), .dim_m1(dim_m1), .idx(p_idx), .ok(p_ok)
  );
  wire p_in = p_ok && (p_idx >> NW) == 12'd0;  // index < NODES (a power of 2)
  wire [NW+7:0] g_addr = {p_idx[NW-1:0], push_tag};
  assign push_gen = cfg_en && p_in && !gen_t[g_addr];
  // registered (timing: the node index, the table read and the send engine's push decision
  // do not fit in one cycle): the lookup of (push_dst, la_tag), for the next cycle's push
  reg k_q;
  always @(posedge clk) k_q <= !p_in || known_t[{p_idx[NW-1:0], la_tag}];
  assign push_known = !cfg_en || k_q;
  wire p_orig = push && !push_rtx && cfg_en;
  // a RESYNC's ACK: its (destination, tag) is known from now on
  wire a_rsy = rsy_m[ans_tag];
  wire [NW-1:0] a_didx = didx_m[ans_tag];
  wire k_set = ans && !ans_done && a_rsy;
  // written by every original push, with e2e on or off (push_rsy is 0 when off): a response
  // of a tag pushed with e2e off must not read a RESYNC flag left by the tag's last use with
  // e2e on (a RESYNC given up), nor an undefined one (no reset: X in Icarus), as wake_rsy
  // would resume a dead parked operation (the PCIe cocotb failures of 9c181c7: docs/ni.md 10.1)
  always @(posedge clk) if (push && !push_rtx) rsy_m[push_tag] <= push_rsy;
  always @(posedge clk) if (p_orig) didx_m[push_tag] <= p_idx[NW-1:0];
  always @(posedge clk) if (k_set) known_t[{a_didx, ans_tag}] <= 1'b1;
  always @(posedge clk) begin
    if (p_orig && p_in) gen_t[g_addr] <= push_gen;
    if (p_orig) rec[push_tag] <= {push_h0, push_h1, push_nbeats, push_dma, push_dma ? {192'd0, push_laddr} : push_beat};
  end
  assign chk_pend = pend[chk_tag];
  always @(posedge clk) begin
    rd_pend <= pend[rd_tag];
    rd_gen <= cgen_m[rd_tag];
    rd_rsy <= rsy_m[rd_tag];
    if (p_orig) cgen_m[push_tag] <= push_gen;
  end

  // ---- scanner and retransmission decisions -------------------------------------------------
  localparam S_SCAN = 3'd0, S_REC = 3'd1, S_LK = 3'd2, S_LKW = 3'd3, S_DEC = 3'd4, S_RT = 3'd5,
             S_GU = 3'd6, S_TX = 3'd7;
  reg [2:0] ss;
  reg [7:0] sp, cur;
  reg [22:0] lk_rs;
  reg lk_v;
  reg sw_on;
  reg [15:0] sw_at;
  // the tag being scanned
  wire [15:0] s_sent = sent_at[sp];
  wire [15:0] s_age = now_c - s_sent;
  wire [15:0] s_after = s_sent - sw_at;    // sent at or after the switch: small
  wire [15:0] s_before = sw_at - s_sent;   // sent before the switch: 1..age
  wire [15:0] sw_age = now_c - sw_at;
  // due: the timeout; after a table switch, packets sent before it are due
  // timeout/8 after it, packets sent within timeout/8 after it timeout/8
  // after their sending (their responses may take old paths)
  wire expired = s_age > tc ||
                 (sw_on && s_after < t8c && s_age > t8c) ||
                 (sw_on && s_before != 16'd0 && s_before <= s_age && sw_age > t8c);
  wire [17:0] s_hq_w = hq_m[sp];
  wire [4:0] s_tr = tr_m[sp];
  wire s_quar = s_hq_w[16];
  wire s_hq = s_hq_w[17] || s_quar;
  wire s_hq_exp = s_hq && (now_c - s_hq_w[15:0]) > t2c;
  wire s_due = cfg_en && pend[sp] && s_tr[4] && expired;
  wire a_rtxd = rtxd_m[ans_tag];
  wire ans_free = ans && ans_done && !a_rtxd;
  wire ans_wake = ans && !ans_done && !a_rtxd;
  wire ans_hq = ans && a_rtxd;
  wire in_scan = ss == S_SCAN && !initing;
  // a release waits for a cycle without a response (one write port, one free, one wake)
  wire sc_free = in_scan && s_hq_exp && s_quar && !ans;
  wire sc_wake = in_scan && s_hq_exp && !s_quar && !ans;
  wire sc_stall = initing || (in_scan && s_hq_exp && !sc_free && !sc_wake);
  assign free = ans_free || sc_free;
  assign free_tag = ans_free ? ans_tag : sp;

  wire [4:0] c_tr = tr_m[cur];
  wire [3:0] c_retries = c_tr[3:0];
  wire c_live = pend[cur] && c_tr[4];
  wire c_full = c_retries >= cfg_retries;
  wire in_dec = ss == S_DEC;
  // unreachable, budget left: the timer restarts (needs the write port: not during a push)
  wire dec_wait = in_dec && c_live && !c_full && !lk_v && !push;
  wire rt_go = ss == S_RT && pend[cur] && rt_ready;
  wire gu_go = gu_valid && gu_ready;
  wire again = dec_wait || rt_go;  // retries + 1, timer restarts
  assign rt_valid = ss == S_RT && pend[cur];
  assign rt_tag = cur;
  assign rt_h0 = {rec_q[RW-1-:5], lk_rs, rec_q[RW-29:RW-64]};
  assign rt_h1 = rec_q[RW-65:RW-128];
  assign rt_nbeats = rec_q[260:257];
  assign rt_dma = rec_q[256];
  assign rt_beat = rec_q[255:0];
  assign gu_valid = ss == S_GU && pend[cur] && !push;  // (its timer stops: the write port)
  assign gu_tag = cur;
  assign gu_status = lk_v ? `KOLO_ST_TIMEOUT : `KOLO_ST_BAD_DST;
  assign lk_req = ss == S_LK;
  assign lk_id = rec_q[RW-53:RW-64];

  // timers and retry counts: one write port (a push, or a decision when no push)
  wire t_we = push || again;
  wire [7:0] t_wa = push ? push_tag : cur;
  always @(posedge clk) begin
    if (t_we) sent_at[t_wa] <= now_c;
    if (p_orig) tr_m[push_tag] <= {p_in, 4'd0};
    else if (again) tr_m[cur] <= {1'b1, c_retries + 4'd1};
    else if (gu_go) tr_m[cur] <= {1'b0, c_retries};
    // hold / quarantine: from the response; cleared by the scanner (not in a response's cycle)
    if (initing || ans_hq || sc_free || sc_wake)
      hq_m[initing ? ini[7:0] : ans_hq ? ans_tag : sp] <= ans_hq ? {!ans_done, ans_done, now_c} : 18'd0;
    // sent again or given up: set by the decisions, cleared by the scanner
    if (initing || again || gu_go || sc_free || sc_wake)
      rtxd_m[initing ? ini[7:0] : (sc_free || sc_wake) ? sp : cur] <= !initing && (again || gu_go);
    rec_q <= rec[cur];
  end

  always @(posedge clk) begin
    if (rst) begin
      ss <= S_SCAN;
      sp <= 8'd0;
      cur <= 8'd0;
      sw_on <= 1'b0;
      sw_at <= 16'd0;
      lk_v <= 1'b0;
      wake <= 1'b0;
      inc_retx <= 1'b0;
      inc_timeout <= 1'b0;
      inc_unreach <= 1'b0;
      inc_resync <= 1'b0;
      pend <= 256'd0;
      ini <= 9'd0;
    end else begin
      if (initing) ini <= ini + 9'd1;
      wake <= ans_wake || sc_wake;
      wake_tag <= ans_wake ? ans_tag : sp;
      wake_rsy <= ans_wake ? a_rsy : rsy_m[sp];
      inc_retx <= rt_go;
      inc_timeout <= gu_go && lk_v;
      inc_unreach <= gu_go && !lk_v;
      inc_resync <= p_orig && push_rsy;
      if (cfg_switch) begin
        sw_on <= 1'b1;
        sw_at <= now_c;
      end else if (sw_on && sw_age > t2c) sw_on <= 1'b0;
      // one-hot set and clear (push and response never meet on one tag)
      pend <= (pend | ({255'd0, p_orig} << push_tag)) & ~({255'd0, ans} << ans_tag);
      case (ss)
        S_SCAN: if (!sc_stall) begin
          sp <= sp + 8'd1;
          if (!s_hq_exp && s_due) begin
            cur <= sp;
            ss <= S_REC;
          end
        end
        S_REC: ss <= S_LK;
        S_LK: if (lk_gnt) ss <= S_LKW;
        S_LKW: if (lk_rvalid) begin
          lk_rs <= lk_entry[22:0];
          lk_v <= lk_ok;
          ss <= S_DEC;
        end
        S_DEC: begin
          if (!c_live) ss <= S_SCAN;
          else if (c_full) ss <= S_GU;
          else if (lk_v) ss <= S_RT;
          else if (dec_wait) ss <= S_SCAN;
        end
        S_RT: if (!pend[cur]) ss <= S_SCAN;
        else if (rt_ready) ss <= S_TX;
        S_TX: if (rt_done) ss <= S_SCAN;
        S_GU: if (!pend[cur] || gu_go) ss <= S_SCAN;
        default: ss <= S_SCAN;
      endcase
    end
  end
  wire unused_lk = &{1'b0, lk_entry[31:23], p_idx, cfg_timeout[5:0], rec_q[RW-6:RW-28], s_tr[3:0]};
`ifndef SYNTHESIS
`include "kolo_assert.vh"
  // an original packet is never pushed on a tag that has one in flight
  always @(posedge clk) if (!rst) `KOLO_ASSERT(!(p_orig && pend[push_tag]));
`endif
endmodule
`default_nettype wire
