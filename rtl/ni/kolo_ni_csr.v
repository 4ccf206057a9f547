`default_nettype none
// kolo_ni_csr - the NI's host-visible registers (docs/ni.md section 2).
//
// MMIO writes (one beat per 64-byte chunk, byte strobes) and reads (one in
// flight) from kolo_pcie_ep's user side. BAR0: global registers, context
// configuration (16 x 64 bytes), windows (16 x 32 bytes), the routing table
// (through kolo_ni_route, by node index), doorbell pages. BAR2: PIO pages,
// forwarded whole to the send side through a 2-entry FIFO (pio_valid/ready).
// pio_next_* (a hint, no handshake): the PIO write that will enter the empty
// FIFO next, if any: the one in the execute stage, else the one offered on
// mmio_wr_* this cycle (not yet checked, maybe not even taken). The send
// engine schedules on it two cycles ahead of pio_valid and checks pio_valid
// when it takes the item (docs/ni.md, Benchmarks: PIO latency).
// Write pipeline: the beat is decoded into (offset, size, value) in one
// cycle and executed in the next, one write per cycle; mmio_wr_ready is low
// while a write waits (routing table writes take ~30 cycles, a PIO write
// waits for room in the FIFO).
// Refused writes count in ERR_CSR: strobes other than one aligned 4- or
// 8-byte access, unmapped offsets, read-only registers, configuration of an
// enabled context, a PIO write that is not one whole 64-byte chunk at a page
// start or whose context is not running; err_inc adds refusals counted
// elsewhere (bad doorbells, bad CQ_CI). Reads: 4 or 8 bytes, aligned; other
// sizes and BAR2 get a completer abort (mmio_rd_resp_err) and count.
// Read after write (docs/ni.md 6, "Ordering"): kolo_pcie_ep hands a read
// over only after every write chunk that reached the device before it was
// accepted here; a read is answered only once every write accepted before
// it (a cycle earlier or more) has been executed, so it sees them all.
// Writes accepted in its own cycle or later may or may not be seen (PCIe
// lets later posted writes pass a read). A routing table read, once its
// earlier writes are done, has the table port before later writes.
// Unmapped offsets read 0. Register values come from this module and the
// per-context state (st_*, ci_all).
// Enabling a context checks SIZES (SQ log2 1..15, CQ log2 SQ's..15) and the
// base alignment: a bad one raises cfg_err (the context stays off).
// Statistics counters (48 bits, read as 64) count the inc_* inputs.
// End-to-end reliability (docs/ni.md section 10): E2E_CTRL (0x50: bit 0
// enable, 11:8 retry budget, bit 16 write-1 table switch: e2e_switch
// pulses) and E2E_TIMEOUT (0x54, cycles, at least 64); its counters (32
// bits, read as 64 at 0x58..0x80) count inc_e2e.
// CYCLES (0x88, NI_VERSION 1.1): clock cycles since reset, 64 bits, free
// running; an 8-byte read takes it in one cycle (one sample), 4-byte reads
// of the halves are separate samples (docs/ni-regs.md: high, low, high).
// libkolo's waits bound a stall in it (docs/api.md, issue 18).
module kolo_ni_csr (
    input  wire          clk,
    input  wire          rst,
    input  wire [11:0]   svc_node_id,
    input  wire [11:0]   svc_dim_m1,
    // MMIO write
    input  wire          mmio_wr_valid,
    output wire          mmio_wr_ready,
    input  wire [1:0]    mmio_wr_bar,
    input  wire [31:0]   mmio_wr_addr,
    input  wire [511:0]  mmio_wr_data,
    input  wire [63:0]   mmio_wr_strb,
    // MMIO read
    input  wire          mmio_rd_valid,
    output wire          mmio_rd_ready,
    input  wire [1:0]    mmio_rd_bar,
    input  wire [31:0]   mmio_rd_addr,
    input  wire [3:0]    mmio_rd_len,
    output reg           mmio_rd_resp_valid,
    input  wire          mmio_rd_resp_ready,
    output reg  [63:0]   mmio_rd_resp_data,
    output reg           mmio_rd_resp_err,
    // context control
    output reg           en_set,
    output reg  [3:0]    en_ctx,
    output reg  [3:0]    en_cq_log2,
    output reg           dis_set,
    output reg  [3:0]    dis_ctx,
    output reg           cfg_err,
    output reg  [3:0]    cfg_err_ctx,
    input  wire [15:0]   ctx_enabled,
    input  wire [15:0]   ctx_run,
    output reg           db_sq,
    output reg           db_cq,
    output reg  [3:0]    db_ctx,
    output reg  [15:0]   db_value,
    // PIO
    output wire          pio_valid,
    input  wire          pio_ready,
    output wire [3:0]    pio_ctx,
    output wire [511:0]  pio_data,
    output wire          pio_next_valid,
    output wire [3:0]    pio_next_ctx,
    output wire          pio_next_fence,
    // configuration read ports
    output wire [16*4-1:0] sq_log2_all,
    output wire [16*4-1:0] cq_log2_all,
    input  wire [3:0]    sqc_ctx,
    output wire [63:0]   sqc_base,
    input  wire [3:0]    cqc_ctx,
    output wire [63:0]   cqc_base,
    output wire          cqc_msi,
    output wire [3:0]    cqc_vec,
    input  wire [3:0]    win_idx,
    output wire [63:0]   win_base,
    output wire [64:0]   win_end,      // BASE + LEN
    output wire [31:0]   win_ctrl,
    // routing table (kolo_ni_route MMIO port)
    output wire          rt_req,
    output wire          rt_we,
    output wire [11:0]   rt_idx,
    output reg  [31:0]   rt_wdata,
    input  wire          rt_done,
    input  wire [31:0]   rt_rdata,
    // per-context state for reads
    output wire [3:0]    st_ctx,
    input  wire [7:0]    st_code,
    input  wire          st_en,
    input  wire          st_err,
    input  wire [31:0]   st_ops,
    input  wire [31:0]   st_puts,
    input  wire [16*16-1:0] ci_all,
    // counters
    input  wire [1:0]    err_inc,
    input  wire          inc_tx,
    input  wire [1:0]    inc_rx,
    input  wire          inc_nak_sent,
    input  wire          inc_nak_rcvd,
    input  wire [1:0]    inc_bad,
    input  wire [1:0]    inc_dma_err,
    output wire [6*64-1:0] stats,      // tx, rx, nak_sent, nak_rcvd, bad, dma_err
    // end-to-end reliability
    output reg           e2e_en,
    output reg  [3:0]    e2e_retries,
    output reg  [31:0]   e2e_timeout,
    output reg           e2e_switch,
    input  wire [5:0]    inc_e2e       // retransmits, dup_requests, dup_responses, timeouts, unreachable, resyncs
);
  `include "kolo_ni_regs.vh"
  localparam [31:0] ID = `KOLO_NI_ID;
  localparam [31:0] VERSION = `KOLO_NI_VERSION;
  localparam [31:0] E2E_CTRL_RST = `KOLO_CSR_E2E_CTRL_RESET;

  // ---- configuration storage -------------------------------------------------
  reg [63:0] sq_base_m[0:15];
  reg [63:0] cq_base_m[0:15];
  reg [63:0] wbase_m[0:15];
  reg [63:0] wlen_m[0:15];
  reg [31:0] wctrl_m[0:15];
  reg [64:0] wend_m[0:15];     // BASE + LEN, kept for the target side's bounds check
  // per context (registers in g_cfg below): SIZES 4:0 and 12:8, reserved
  // bits of SIZES set (low and high word), CTRL msi and vector
  wire [16*5-1:0] sq_sz, cq_sz;
  wire [15:0] msi_en;
  wire [15:0] sz_rsv_lo, sz_rsv_hi;
  wire [16*4-1:0] msi_vec;
  genvar g;
  generate
    for (g = 0; g < 16; g = g + 1) begin : g_sz
      assign sq_log2_all[g*4+:4] = sq_sz[g*5+:4];
      assign cq_log2_all[g*4+:4] = cq_sz[g*5+:4];
    end
  endgenerate
  assign sqc_base = sq_base_m[sqc_ctx];
  assign cqc_base = cq_base_m[cqc_ctx];
  assign cqc_msi = msi_en[cqc_ctx];
  assign cqc_vec = msi_vec[cqc_ctx*4+:4];
  assign win_base = wbase_m[win_idx];
  assign win_ctrl = wctrl_m[win_idx];
  assign win_end = wend_m[win_idx];

  // ---- write stage 1: decode the beat ----------------------------------------
  wire [15:0] gfull, gempty;
  generate
    for (g = 0; g < 16; g = g + 1) begin : g_grp
      assign gfull[g] = &mmio_wr_strb[g*4+:4];
      assign gempty[g] = ~|mmio_wr_strb[g*4+:4];
    end
  endgenerate
  wire groups_ok = (gfull | gempty) == 16'hffff;
  wire one4 = (gfull != 16'd0) && ((gfull & (gfull - 16'd1)) == 16'd0);
  reg [3:0] lane4;
  integer k;
  always @(*) begin
    lane4 = 4'd0;
    for (k = 0; k < 16; k = k + 1) if (gfull[k]) lane4 = k[3:0];
  end
  // an 8-byte access: exactly groups 2j and 2j+1
  wire [15:0] pair_mask = 16'd3 << {lane4[3:1], 1'b0};
  wire is8 = groups_ok && !one4 && (gfull == pair_mask);
  wire is4 = groups_ok && one4;
  wire [63:0] val8 = mmio_wr_data[lane4[3:1]*64+:64];
  wire [31:0] val4 = mmio_wr_data[lane4*32+:32];

  reg w1_valid;
  reg [1:0] w1_bar;
  reg [31:0] w1_off;
  reg w1_ok;      // BAR0: one aligned 4- or 8-byte access
  reg w1_8;
  reg [63:0] w1_val;
  reg w1_pio_ok;  // BAR2: whole chunk at a page start
  reg [511:0] w1_data;
  wire w1_take = mmio_wr_valid && mmio_wr_ready;
  wire w1_done;   // the write in stage 2 is finished this cycle
  assign mmio_wr_ready = !w1_valid || w1_done;

  always @(posedge clk) begin
    if (w1_take) begin
      w1_bar <= mmio_wr_bar;
      w1_off <= mmio_wr_addr + (is8 ? {26'd0, lane4[3:1], 3'b000} : {26'd0, lane4, 2'b00});
      w1_ok <= is4 || is8;
      w1_8 <= is8;
      w1_val <= is8 ? val8 : {32'd0, val4};
      w1_pio_ok <= (mmio_wr_strb == {64{1'b1}}) && (mmio_wr_addr[11:0] == 12'd0) &&
                   (mmio_wr_addr[31:16] == 16'd0);
      w1_data <= mmio_wr_data;
    end
  end

  // ---- write stage 2: execute ----------------------------------------------------
  wire [31:0] o = w1_off;
  wire [3:0] oc = o[9:6];           // context of 0x1000 + 0x40c
  wire [3:0] ow = o[8:5];           // window of 0x2000 + 0x20w
  wire [3:0] od = o[15:12];         // doorbell page of 0x10000 + 0x1000c
  wire a_ctx = o[31:10] == 22'h4;   // 0x1000..0x13ff
  wire a_win = o[31:9] == 23'h10;   // 0x2000..0x21ff
  wire a_rt = o[31:14] == 18'h1;    // 0x4000..0x7fff
  wire a_db = o[31:16] == 16'h1;    // 0x10000..0x1ffff
  wire [2:0] cr = o[5:3];           // register within a context
  wire [1:0] wr_ = o[4:3];          // field within a window
  wire [8:0] dr = o[11:3];          // register within a doorbell page

  // merge a 4- or 8-byte write into a 64-bit register
  function automatic [63:0] merge(input [63:0] old, input [63:0] v, input is_8, input hi);
    merge = is_8 ? v : (hi ? {v[31:0], old[31:0]} : {old[63:32], v[31:0]});
  endfunction

  localparam S_IDLE = 3'd0, S_RT = 3'd1, S_RT2 = 3'd2;
  reg [2:0] ws;
  reg [31:0] err_csr;
  reg err_w;  // this write is refused
  wire [63:0] old_sq = sq_base_m[oc];
  wire [63:0] old_cq = cq_base_m[oc];
  wire [63:0] old_wb = wbase_m[ow];
  wire [63:0] old_wl = wlen_m[ow];
  wire [63:0] new_v_sq = merge(old_sq, w1_val, w1_8, o[2]);
  wire [63:0] new_v_cq = merge(old_cq, w1_val, w1_8, o[2]);
  wire [63:0] new_v_wb = merge(old_wb, w1_val, w1_8, o[2]);
  wire [63:0] new_v_wl = merge(old_wl, w1_val, w1_8, o[2]);
  // CTRL written: the low 32 bits (enable, msi, vector)
  wire ctrl_lo = w1_8 || !o[2];
  wire new_en = w1_val[0];
  wire [3:0] c_sq = sq_sz[oc*5+:4];
  wire [3:0] c_cq = cq_sz[oc*5+:4];
  wire cfg_good = !sq_sz[oc*5+4] && !cq_sz[oc*5+4] && c_sq != 4'd0 && c_cq >= c_sq &&
                  !sz_rsv_lo[oc] && !sz_rsv_hi[oc] &&
                  sq_base_m[oc][4:0] == 5'd0 && cq_base_m[oc][3:0] == 4'd0;

  reg rt_rd;      // the routing table port is reading for an MMIO read
  reg w_rt_req;
  reg [11:0] w_rt_idx;
  wire rd_wants_rt;  // a routing table read waits for the port (later writes wait for it)
  wire exec = w1_valid && ws == S_IDLE && !rt_rd && !rd_wants_rt;
  wire e0 = exec && w1_bar == 2'd0 && w1_ok;
  wire e_sq = e0 && a_ctx && cr == 3'd0;
  wire e_cq = e0 && a_ctx && cr == 3'd1;
  wire e_sz = e0 && a_ctx && cr == 3'd2;
  wire e_ctl = e0 && a_ctx && cr == 3'd3;
  wire e_wb = e0 && a_win && wr_ == 2'd0;
  wire e_wl = e0 && a_win && wr_ == 2'd1;
  wire e_wc = e0 && a_win && wr_ == 2'd2;
  wire e_rt = e0 && a_rt;
  wire e_dsq = e0 && a_db && dr == 9'd0;
  wire e_dcq = e0 && a_db && dr == 9'd1;
  wire e_e2e = e0 && {o[31:3], 3'd0} == `KOLO_CSR_E2E_CTRL;   // E2E_CTRL, E2E_TIMEOUT (+4)
  // enabled, counting a change made by the previous write (one cycle old)
  wire en_c = (ctx_enabled[oc] && !(dis_set && dis_ctx == oc)) || (en_set && en_ctx == oc);
  wire [3:0] pc = w1_off[15:12];
  wire run_p = (ctx_run[pc] && !(dis_set && dis_ctx == pc)) || (en_set && en_ctx == pc);

  always @(*) begin
    err_w = 1'b0;
    if (exec) begin
      if (w1_bar == 2'd2) err_w = !w1_pio_ok || !run_p;
      else if (w1_bar != 2'd0 || !w1_ok) err_w = 1'b1;
      else if ((e_sq || e_cq || e_sz) && en_c) err_w = 1'b1;
      else if (e_ctl && ctrl_lo && en_c && new_en) err_w = 1'b1;  // CTRL of an enabled context: disable only
      else if ((e_dsq || e_dcq) && w1_8) err_w = 1'b1;  // 8 bytes: the upper half is unmapped
      else if (!(e_sq || e_cq || e_sz || e_ctl || e_wb || e_wl || e_wc || e_rt || e_dsq || e_dcq || e_e2e))
        err_w = 1'b1;  // read-only or unmapped
    end
  end

  // PIO hand-off (below): a BAR2 write waits while the PIO FIFO is full
  wire pio_push = exec && w1_bar == 2'd2 && !err_w;
  wire pio_in_ready;
  wire pio_wait = pio_push && !pio_in_ready;

  // ---- per-context SIZES and CTRL fields ----------------------------------------------
  wire w_go = exec && !pio_wait;
  wire we_sz_lo = w_go && e_sz && !en_c && !o[2];
  wire we_sz_hi = w_go && e_sz && !en_c && (w1_8 || o[2]);
  wire we_ctl = w_go && e_ctl && ctrl_lo && !(en_c && new_en);
  generate
    for (g = 0; g < 16; g = g + 1) begin : g_cfg
      reg [4:0] sq, cq;
      reg rlo, rhi, me;
      reg [3:0] mv;
      wire hit = oc == g[3:0];
      always @(posedge clk) begin
        if (rst) begin
          sq <= 5'd0;
          cq <= 5'd0;
          rlo <= 1'b0;
          rhi <= 1'b0;
          me <= 1'b0;
          mv <= 4'd0;
        end else begin
          if (we_sz_lo && hit) begin
            sq <= w1_val[4:0];
            cq <= w1_val[12:8];
            rlo <= (w1_val[31:0] & ~32'h1f1f) != 32'd0;
          end
          if (we_sz_hi && hit) rhi <= w1_8 ? w1_val[63:32] != 32'd0 : w1_val[31:0] != 32'd0;
          if (we_ctl && hit) begin
            me <= w1_val[1];
            mv <= w1_val[19:16];
          end
        end
      end
      assign sq_sz[g*5+:5] = sq;
      assign cq_sz[g*5+:5] = cq;
      assign sz_rsv_lo[g] = rlo;
      assign sz_rsv_hi[g] = rhi;
      assign msi_en[g] = me;
      assign msi_vec[g*4+:4] = mv;
    end
  endgenerate

  // ---- PIO hand-off ------------------------------------------------------------------
  /* verilator lint_off UNUSEDSIGNAL */
  wire [1:0] pio_count;
  /* verilator lint_on UNUSEDSIGNAL */
  kolo_fifo_sync #(
      .WIDTH(516),
      .DEPTH(2)
  ) u_pio (
      .clk(clk),
      .rst(rst),
      .in_valid(pio_push && pio_in_ready),
      .in_ready(pio_in_ready),
      .in_data({pc, w1_data}),
      .out_valid(pio_valid),
      .out_ready(pio_ready),
      .out_data({pio_ctx, pio_data}),
      .count(pio_count)
  );
  // the hint: the execute stage's PIO write first (it is older), else the incoming one
  wire w1_pio = w1_valid && w1_bar == 2'd2;
  assign pio_next_valid = w1_pio || (mmio_wr_valid && mmio_wr_bar == 2'd2);
  assign pio_next_ctx = w1_pio ? pc : mmio_wr_addr[15:12];
  assign pio_next_fence = w1_pio ? w1_data[8 + 3] : mmio_wr_data[8 + 3];
  // stage 2 frees in its execution cycle, except for routing table writes
  // (the state machine frees it) and PIO writes waiting for room
  assign w1_done = (exec && !pio_wait && !e_rt) ||
                   (ws == S_RT && rt_done && !w1_8) || (ws == S_RT2 && w_rt_req && rt_done);

  always @(posedge clk) begin
    if (e_sq && !en_c) sq_base_m[oc] <= new_v_sq;
    if (e_cq && !en_c) cq_base_m[oc] <= new_v_cq;
    if (e_wb) wbase_m[ow] <= new_v_wb;
    if (e_wl) wlen_m[ow] <= new_v_wl;
    if (e_wb || e_wl)
      wend_m[ow] <= {1'b0, e_wb ? new_v_wb : old_wb} + {1'b0, e_wl ? new_v_wl : old_wl};
    if (e_wc && !o[2]) wctrl_m[ow] <= w1_val[31:0];
  end

  always @(posedge clk) begin
    if (rst) begin
      w1_valid <= 1'b0;
      ws <= S_IDLE;
      en_set <= 1'b0;
      dis_set <= 1'b0;
      cfg_err <= 1'b0;
      db_sq <= 1'b0;
      db_cq <= 1'b0;
      w_rt_req <= 1'b0;
    end else begin
      en_set <= 1'b0;
      dis_set <= 1'b0;
      cfg_err <= 1'b0;
      db_sq <= 1'b0;
      db_cq <= 1'b0;
      if (w1_take) w1_valid <= 1'b1;
      else if (w1_done) w1_valid <= 1'b0;
      case (ws)
        S_IDLE: if (exec && !pio_wait) begin
          if (e_ctl && ctrl_lo && !(en_c && new_en)) begin
            if (new_en && !en_c) begin
              if (cfg_good) en_set <= 1'b1;
              else cfg_err <= 1'b1;
            end
            if (!new_en && en_c) dis_set <= 1'b1;
          end
          if (e_dsq) db_sq <= 1'b1;
          if (e_dcq) db_cq <= 1'b1;
          if (e_rt) begin
            w_rt_req <= 1'b1;
            ws <= S_RT;
          end
        end
        S_RT: if (rt_done) begin
          w_rt_req <= 1'b0;
          ws <= w1_8 ? S_RT2 : S_IDLE;
        end
        S_RT2: begin
          // the second entry of an 8-byte routing table write
          if (!w_rt_req) w_rt_req <= 1'b1;
          else if (rt_done) begin
            w_rt_req <= 1'b0;
            ws <= S_IDLE;
          end
        end
        default: ws <= S_IDLE;
      endcase
    end
    en_ctx <= oc;
    en_cq_log2 <= c_cq;
    dis_ctx <= oc;
    cfg_err_ctx <= oc;
    db_ctx <= od;
    db_value <= w1_val[15:0];
    if (ws == S_IDLE) begin
      w_rt_idx <= o[13:2];
      rt_wdata <= w1_val[31:0];
    end else if (ws == S_RT && rt_done) begin
      w_rt_idx <= w_rt_idx + 12'd1;
      rt_wdata <= w1_val[63:32];
    end
  end

  // ---- reads -------------------------------------------------------------------------
  localparam R_IDLE = 3'd0, R_DEC = 3'd1, R_VAL = 3'd2, R_RT = 3'd3, R_RESP = 3'd4, R_RT2 = 3'd5;
  reg [2:0] rs;
  reg [31:0] ro;
  wire unused_o = &{1'b0, o[1:0], ro[1:0]};
  reg r_ok;
  reg r_8;
  reg r_err;      // counted in ERR_CSR
  reg r_wait;     // a write accepted before the read is still being executed
  reg [63:0] rv;  // the 64-bit word at ro & ~7
  assign mmio_rd_ready = rs == R_IDLE;
  assign rd_wants_rt = rs == R_RT && !rt_rd;
  wire [3:0] rc = ro[9:6];
  wire [3:0] rw = ro[8:5];
  wire [3:0] rd_ = ro[15:12];
  assign st_ctx = (ro[31:16] == 16'h1) ? rd_ : rc;
  wire [63:0] st_word = {32'd0, ci_all[st_ctx*16+:16], st_code, 6'd0, st_err, st_en};
  wire [63:0] out_word = {st_puts, st_ops};

  reg [47:0] s_tx, s_rx, s_nks, s_nkr, s_bad, s_dma;
  reg [63:0] cycles;      // CYCLES (below)
  reg [6*32-1:0] s_e2e;   // end-to-end counters (below)
  assign stats = {16'd0, s_dma, 16'd0, s_bad, 16'd0, s_nkr, 16'd0, s_nks, 16'd0, s_rx, 16'd0, s_tx};

  wire [63:0] r_sq = sq_base_m[rc];
  wire [63:0] r_cq = cq_base_m[rc];
  wire [63:0] r_wb = wbase_m[rw];
  wire [63:0] r_wl = wlen_m[rw];
  wire [31:0] r_wc = wctrl_m[rw];
  always @(*) begin
    rv = 64'd0;
    if (ro[31:12] == 20'h0) begin
      case ({20'd0, ro[11:3], 3'd0})   // the 8-byte word's offset (kolo_ni_regs.vh)
        `KOLO_CSR_ID: rv = {VERSION, ID};
        `KOLO_CSR_NODE_ID: rv = {20'd0, svc_dim_m1, 20'd0, svc_node_id};
        `KOLO_CSR_NUM_CTX: rv = {err_csr, `KOLO_CSR_NUM_CTX_RESET};
        `KOLO_CSR_STAT_TX_PKTS: rv = {16'd0, s_tx};
        `KOLO_CSR_STAT_RX_PKTS: rv = {16'd0, s_rx};
        `KOLO_CSR_STAT_NAK_SENT: rv = {16'd0, s_nks};
        `KOLO_CSR_STAT_NAK_RCVD: rv = {16'd0, s_nkr};
        `KOLO_CSR_STAT_BAD_PKTS: rv = {16'd0, s_bad};
        `KOLO_CSR_STAT_DMA_ERR: rv = {16'd0, s_dma};
        `KOLO_CSR_E2E_CTRL: rv = {e2e_timeout, 20'd0, e2e_retries, 7'd0, e2e_en};
        `KOLO_CSR_E2E_RETX: rv = {32'd0, s_e2e[0*32+:32]};
        `KOLO_CSR_E2E_DUP_REQ: rv = {32'd0, s_e2e[1*32+:32]};
        `KOLO_CSR_E2E_DUP_RESP: rv = {32'd0, s_e2e[2*32+:32]};
        `KOLO_CSR_E2E_TIMEOUTS: rv = {32'd0, s_e2e[3*32+:32]};
        `KOLO_CSR_E2E_UNREACH: rv = {32'd0, s_e2e[4*32+:32]};
        `KOLO_CSR_E2E_RESYNC: rv = {32'd0, s_e2e[5*32+:32]};
        `KOLO_CSR_CYCLES: rv = cycles;
        default: rv = 64'd0;
      endcase
    end else if (ro[31:10] == 22'h4) begin
      case ({26'd0, ro[5:3], 3'd0})
        `KOLO_CTX_SQ_BASE: rv = r_sq;
        `KOLO_CTX_CQ_BASE: rv = r_cq;
        `KOLO_CTX_SIZES: rv = {51'd0, cq_sz[rc*5+:5], 3'd0, sq_sz[rc*5+:5]};
        `KOLO_CTX_CTRL: rv = {44'd0, msi_vec[rc*4+:4], 14'd0, msi_en[rc], ctx_enabled[rc]};
        `KOLO_CTX_STATUS: rv = st_word;
        `KOLO_CTX_OUTSTANDING: rv = out_word;
        default: rv = 64'd0;
      endcase
    end else if (ro[31:9] == 23'h10) begin
      case ({27'd0, ro[4:3], 3'd0})
        `KOLO_WIN_BASE: rv = r_wb;
        `KOLO_WIN_LEN: rv = r_wl;
        `KOLO_WIN_CTRL: rv = {32'd0, r_wc};
        default: rv = 64'd0;
      endcase
    end else if (ro[31:16] == 16'h1) begin
      case ({20'd0, ro[11:3], 3'd0})
        `KOLO_DB_STATUS: rv = st_word;
        `KOLO_DB_OUTSTANDING: rv = out_word;
        default: rv = 64'd0;
      endcase
    end
  end
  // reads of the write-only doorbell registers (SQ_PI, CQ_CI) are counted;
  // unmapped offsets read 0 and are not
  wire r_wo = ro[31:16] == 16'h1 && ro[11:4] == 8'd0 && !ro[2];

  reg r_rt_req;
  assign rt_req = w_rt_req || r_rt_req;
  assign rt_we = w_rt_req;
  assign rt_idx = r_rt_req ? ro[13:2] : w_rt_idx;
  always @(posedge clk) begin
    if (rst) begin
      rs <= R_IDLE;
      mmio_rd_resp_valid <= 1'b0;
      rt_rd <= 1'b0;
      r_rt_req <= 1'b0;
      r_err <= 1'b0;
      r_wait <= 1'b0;
    end else begin
      r_err <= 1'b0;
      // the write in stage 2 when the read came is the last one before it
      if (w1_done) r_wait <= 1'b0;
      case (rs)
        R_IDLE: if (mmio_rd_valid) begin
          r_wait <= w1_valid && !w1_done;
          ro <= mmio_rd_addr;
          r_8 <= mmio_rd_len == 4'd8;
          r_ok <= mmio_rd_bar == 2'd0 &&
                  ((mmio_rd_len == 4'd4 && mmio_rd_addr[1:0] == 2'd0) ||
                   (mmio_rd_len == 4'd8 && mmio_rd_addr[2:0] == 3'd0));
          rs <= R_DEC;
        end
        R_DEC: if (!r_wait) begin
          if (!r_ok) begin
            mmio_rd_resp_valid <= 1'b1;
            mmio_rd_resp_err <= 1'b1;
            mmio_rd_resp_data <= 64'd0;
            r_err <= 1'b1;
            rs <= R_RESP;
          end else if (ro[31:14] == 18'h1) begin
            rs <= R_RT;
          end else begin
            rs <= R_VAL;
          end
        end
        R_VAL: begin
          mmio_rd_resp_valid <= 1'b1;
          mmio_rd_resp_err <= 1'b0;
          mmio_rd_resp_data <= r_8 ? rv : {32'd0, ro[2] ? rv[63:32] : rv[31:0]};
          r_err <= r_wo;
          rs <= R_RESP;
        end
        R_RT: begin
          // wait until the write side does not use the routing port (a later
          // write in stage 2 waits: rd_wants_rt holds it back)
          if (!rt_rd && ws == S_IDLE) begin
            rt_rd <= 1'b1;
            r_rt_req <= 1'b1;
          end else if (rt_rd && rt_done) begin
            r_rt_req <= 1'b0;
            mmio_rd_resp_data <= {32'd0, rt_rdata};
            if (r_8) begin
              // an 8-byte read: entries i and i + 1
              ro <= ro + 32'd4;
              r_8 <= 1'b0;
              rs <= R_RT2;
            end else begin
              rt_rd <= 1'b0;
              mmio_rd_resp_valid <= 1'b1;
              mmio_rd_resp_err <= 1'b0;
              rs <= R_RESP;
            end
          end
        end
        R_RT2: begin
          if (!r_rt_req && !rt_done) r_rt_req <= 1'b1;
          else if (r_rt_req && rt_done) begin
            r_rt_req <= 1'b0;
            rt_rd <= 1'b0;
            mmio_rd_resp_data[63:32] <= rt_rdata;
            mmio_rd_resp_valid <= 1'b1;
            mmio_rd_resp_err <= 1'b0;
            rs <= R_RESP;
          end
        end
        R_RESP: if (mmio_rd_resp_ready) begin
          mmio_rd_resp_valid <= 1'b0;
          rs <= R_IDLE;
        end
        default: rs <= R_IDLE;
      endcase
    end
  end

  // ---- assertion (simulation): a read is decoded only after every write
  // accepted before it was executed (counted apart from r_wait)
`ifndef SYNTHESIS
`include "kolo_assert.vh"
  integer sim_acc, sim_done, sim_need;
  always @(posedge clk) begin
    if (rst) begin
      sim_acc <= 0;
      sim_done <= 0;
      sim_need <= 0;
    end else begin
      if (w1_take) sim_acc <= sim_acc + 1;
      if (w1_done) sim_done <= sim_done + 1;
      if (rs == R_IDLE && mmio_rd_valid) sim_need <= sim_acc;
      if (rs == R_DEC && !r_wait) `KOLO_ASSERT(!(sim_done < sim_need));  // a write still pending
    end
  end
`endif

  // ---- end-to-end reliability ------------------------------------------------------------
  wire e2e_lo = w1_8 || !o[2];
  wire e2e_hi = w1_8 || o[2];
  wire [31:0] e2e_tv = w1_8 ? w1_val[63:32] : w1_val[31:0];
  reg [5:0] q_e2e;
  integer ei;
  always @(posedge clk) begin
    if (rst) begin
      e2e_en <= 1'b0;
      e2e_retries <= E2E_CTRL_RST[`KOLO_CSR_E2E_CTRL_RETRIES_HI:`KOLO_CSR_E2E_CTRL_RETRIES_LO];
      e2e_timeout <= `KOLO_CSR_E2E_TIMEOUT_RESET;
      e2e_switch <= 1'b0;
      s_e2e <= {6 * 32{1'b0}};
      q_e2e <= 6'd0;
    end else begin
      e2e_switch <= 1'b0;
      if (e_e2e && e2e_lo) begin
        e2e_en <= w1_val[0];
        e2e_retries <= w1_val[11:8];
        e2e_switch <= w1_val[16];
      end
      if (e_e2e && e2e_hi) e2e_timeout <= (e2e_tv < 32'd64) ? 32'd64 : e2e_tv;
      q_e2e <= inc_e2e;
      for (ei = 0; ei < 6; ei = ei + 1)
        s_e2e[ei*32+:32] <= s_e2e[ei*32+:32] + {31'd0, q_e2e[ei]};
    end
  end

  // ---- counters ----------------------------------------------------------------------
  // an 8-byte write outside the 8-byte registers is two 4-byte accesses, each refused
  wire region8 = (o[31:12] == 20'h0 && o[11:0] >= 12'h020 && o[11:0] < 12'h050) ||
                 (o[31:12] == 20'h0 && o[11:0] >= 12'h058 && o[11:0] < 12'h090) ||
                 (a_ctx && cr <= 3'd5) || (a_win && wr_ != 2'd3) ||
                 (a_db && (dr == 9'd2 || dr == 9'd3));
  wire err_two = err_w && w1_bar == 2'd0 && w1_ok && w1_8 && !region8 && !e_dsq && !e_dcq;
  // The count inputs pass a register first (one cycle later in the counters):
  // they come from handshakes deep in the other modules, the 48-bit adds
  // then start at a flip-flop.
  reg [1:0] q_err_inc, q_rx, q_bad, q_dma;
  reg q_tx, q_nks, q_nkr;
  wire [2:0] n_err = {1'b0, err_two, err_w && !err_two} + {2'b00, r_err} +
                     {1'b0, q_err_inc[1] & q_err_inc[0], q_err_inc[1] ^ q_err_inc[0]};
  always @(posedge clk) begin
    if (rst) begin
      q_err_inc <= 2'd0;
      q_tx <= 1'b0;
      q_rx <= 2'd0;
      q_nks <= 1'b0;
      q_nkr <= 1'b0;
      q_bad <= 2'd0;
      q_dma <= 2'd0;
    end else begin
      q_err_inc <= err_inc;
      q_tx <= inc_tx;
      q_rx <= inc_rx;
      q_nks <= inc_nak_sent;
      q_nkr <= inc_nak_rcvd;
      q_bad <= inc_bad;
      q_dma <= inc_dma_err;
    end
  end
  always @(posedge clk) begin
    if (rst) begin
      err_csr <= 32'd0;
      s_tx <= 48'd0;
      s_rx <= 48'd0;
      s_nks <= 48'd0;
      s_nkr <= 48'd0;
      s_bad <= 48'd0;
      s_dma <= 48'd0;
    end else begin
      err_csr <= err_csr + {29'd0, n_err};
      s_tx <= s_tx + {47'd0, q_tx};
      s_rx <= s_rx + {46'd0, q_rx[1] & q_rx[0], q_rx[1] ^ q_rx[0]};
      s_nks <= s_nks + {47'd0, q_nks};
      s_nkr <= s_nkr + {47'd0, q_nkr};
      s_bad <= s_bad + {46'd0, q_bad[1] & q_bad[0], q_bad[1] ^ q_bad[0]};
      s_dma <= s_dma + {46'd0, q_dma[1] & q_dma[0], q_dma[1] ^ q_dma[0]};
    end
  end

  // ---- CYCLES: the NI's clock, free running (device time for the host's waits)
  always @(posedge clk) begin
    if (rst) cycles <= 64'd0;
    else cycles <= cycles + 64'd1;
  end
endmodule
`default_nettype wire
