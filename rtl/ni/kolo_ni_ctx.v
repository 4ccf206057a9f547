`default_nettype none
// kolo_ni_ctx - per-context state and counters of the NI's 16 contexts.
//
// Per context: enabled, error (queue stopped) with its first error code,
// operations without a response (OUTSTANDING 31:0), unacknowledged PUT
// packets (OUTSTANDING 63:32), and the completion queue accounting:
// producer index cq_pi (entries written), consumer index cq_ci (CQ_CI
// doorbell) and cq_free = CQ entries - (cq_pi - cq_ci) - reserved, where an
// entry is reserved for every item the send side takes (descriptor, PIO
// write, doorbell error) until the completion unit retires it. The send side
// takes an item only when room[c] (cq_free != 0), so the completion unit
// never waits for the host to release entries.
// All inputs are single-cycle events carrying a context number; several
// may hit one context in the same cycle. A CQ_CI write that would release
// more entries than were written is refused (ci_bad pulse, ERR_CSR).
module kolo_ni_ctx (
    input  wire          clk,
    input  wire          rst,
    // enable (queues restart empty), disable, errors
    input  wire          en_set,
    input  wire [3:0]    en_ctx,
    input  wire [3:0]    en_cq_log2,
    input  wire          dis_set,
    input  wire [3:0]    dis_ctx,
    input  wire          cfg_err,        // bad configuration: error, stays off
    input  wire [3:0]    cfg_err_ctx,
    input  wire          db_err,         // bad doorbell: error, queue stops
    input  wire [3:0]    db_err_ctx,
    input  wire [7:0]    db_err_code,
    input  wire          tx_err,         // descriptor fetch failed: error LOCAL_DMA, queue stops
    input  wire [3:0]    tx_err_ctx,
    // accounting
    input  wire          take,
    input  wire [3:0]    take_ctx,
    input  wire          ops_inc,
    input  wire [3:0]    ops_inc_ctx,
    input  wire          put_inc,
    input  wire [3:0]    put_inc_ctx,
    input  wire          put_dec,
    input  wire [3:0]    put_dec_ctx,
    input  wire          retire,
    input  wire [3:0]    retire_ctx,
    input  wire          retire_written,
    input  wire          retire_tagged,
    input  wire          ci_wr,
    input  wire [3:0]    ci_ctx,
    input  wire [15:0]   ci_value,
    output reg           ci_bad,
    // state
    output wire [15:0]   enabled,
    output wire [15:0]   run,            // enabled and not stopped
    output wire [15:0]   room,
    output wire [15:0]   ops_idle,
    // read ports
    input  wire [3:0]    rd_ctx,
    output wire [7:0]    rd_status,      // {code[7:0]} ; see rd_en/rd_err
    output wire          rd_en,
    output wire          rd_err,
    output wire [31:0]   rd_ops,
    output wire [31:0]   rd_puts,
    input  wire [3:0]    cq_ctx,
    output wire [15:0]   cq_pi_out
);
  `include "kolo_ni_regs.vh"
  reg [15:0] en_r, err_r;
  // flat vectors, 16 fields each (Yosys keeps arrays with resets as lists of
  // registers anyway, with a warning)
  reg [16*8-1:0] code_v;
  reg [16*9-1:0] ops_v;
  reg [16*24-1:0] puts_v;
  reg [16*16-1:0] cqpi_v;
  reg [16*16-1:0] cqci_v;
  reg [16*16-1:0] free_v;

  // CQ_CI writes: checked against the entries written, applied a cycle later
  reg ci_ok_q;
  reg [3:0] ci_ctx_q;
  reg [15:0] ci_val_q, ci_delta_q;
  wire [15:0] used = cqpi_v[ci_ctx*16+:16] - cqci_v[ci_ctx*16+:16];
  wire [15:0] delta = ci_value - cqci_v[ci_ctx*16+:16];
  always @(posedge clk) begin
    if (rst) begin
      ci_ok_q <= 1'b0;
      ci_bad <= 1'b0;
    end else begin
      ci_ok_q <= ci_wr && delta <= used && en_r[ci_ctx];
      ci_bad <= ci_wr && !(delta <= used && en_r[ci_ctx]);
    end
    ci_ctx_q <= ci_ctx;
    ci_val_q <= ci_value;
    ci_delta_q <= delta;
  end

  genvar c;
  generate
    for (c = 0; c < 16; c = c + 1) begin : g_ctx
      wire [3:0] me = c[3:0];
      wire h_en = en_set && en_ctx == me;
      wire h_dis = dis_set && dis_ctx == me;
      wire h_cfg = cfg_err && cfg_err_ctx == me;
      wire h_db = db_err && db_err_ctx == me;
      wire h_tx = tx_err && tx_err_ctx == me;
      wire h_take = take && take_ctx == me;
      wire h_oi = ops_inc && ops_inc_ctx == me;
      wire h_pi = put_inc && put_inc_ctx == me;
      wire h_pd = put_dec && put_dec_ctx == me;
      wire h_ret = retire && retire_ctx == me;
      wire h_ci = ci_ok_q && ci_ctx_q == me;
      wire [15:0] add = (h_ci ? ci_delta_q : 16'd0) + {15'd0, h_ret && !retire_written};
      always @(posedge clk) begin
        if (rst) begin
          en_r[c] <= 1'b0;
          err_r[c] <= 1'b0;
          code_v[c*8+:8] <= 8'd0;
          ops_v[c*9+:9] <= 9'd0;
          puts_v[c*24+:24] <= 24'd0;
          cqpi_v[c*16+:16] <= 16'd0;
          cqci_v[c*16+:16] <= 16'd0;
          free_v[c*16+:16] <= 16'd0;
        end else begin
          if (h_en) begin
            en_r[c] <= 1'b1;
            err_r[c] <= 1'b0;
            code_v[c*8+:8] <= 8'd0;
            cqpi_v[c*16+:16] <= 16'd0;
            cqci_v[c*16+:16] <= 16'd0;
            free_v[c*16+:16] <= 16'd1 << en_cq_log2;
          end else begin
            if (h_dis || h_cfg) en_r[c] <= 1'b0;
            if ((h_cfg || h_db || h_tx) && !err_r[c]) begin
              err_r[c] <= 1'b1;
              code_v[c*8+:8] <= h_cfg ? `KOLO_ST_BAD_CONFIG : h_db ? db_err_code : `KOLO_ST_LOCAL_DMA;
            end
            if (h_ret && retire_written) cqpi_v[c*16+:16] <= cqpi_v[c*16+:16] + 16'd1;
            if (h_ci) cqci_v[c*16+:16] <= ci_val_q;
            free_v[c*16+:16] <= free_v[c*16+:16] + add - {15'd0, h_take};
          end
          ops_v[c*9+:9] <= ops_v[c*9+:9] + {8'd0, h_oi} - {8'd0, h_ret && retire_tagged};
          puts_v[c*24+:24] <= puts_v[c*24+:24] + {23'd0, h_pi} - {23'd0, h_pd};
        end
      end
      assign room[c] = free_v[c*16+:16] != 16'd0;
      assign ops_idle[c] = ops_v[c*9+:9] == 9'd0;
`ifndef SYNTHESIS
`include "kolo_assert.vh"
      // no counter of the context underflows: free slots, operations, PUTs
      always @(posedge clk) if (!rst) `KOLO_ASSERT(!(h_take && free_v[c*16+:16] == 16'd0 && !h_ci && !h_ret));
      always @(posedge clk) if (!rst) `KOLO_ASSERT(!(h_ret && retire_tagged && ops_v[c*9+:9] == 9'd0 && !h_oi));
      always @(posedge clk) if (!rst) `KOLO_ASSERT(!(h_pd && puts_v[c*24+:24] == 24'd0 && !h_pi));
`endif
    end
  endgenerate

  assign enabled = en_r;
  assign run = en_r & ~err_r;
  assign rd_status = code_v[rd_ctx*8+:8];
  assign rd_en = en_r[rd_ctx];
  assign rd_err = err_r[rd_ctx];
  assign rd_ops = {23'd0, ops_v[rd_ctx*9+:9]};
  assign rd_puts = {8'd0, puts_v[rd_ctx*24+:24]};
  assign cq_pi_out = cqpi_v[cq_ctx*16+:16];
endmodule
`default_nettype wire
