`default_nettype none
// kolo_ni_cq - completion queue writer of the NI (docs/ni.md section 4).
//
// Completion events come from two sources (ev_*[0] send side: refused
// descriptors, NOPs, doorbell errors; ev_*[1] response side: operations
// whose last response arrived), valid/ready, taken round robin. An event is
// {write, tagged, ctx, index, status, op, result}: with `write` the 16-byte
// entry {result, phase, op, status, index} at CQ_BASE + 16 * (cq_pi mod CQ
// entries), phase = 1 on the first lap, is DMA-written as two 8-byte writes,
// the result (+8) first, then the word with the phase bit (+0): one 16-byte
// write lands in address order, phase before result (docs/ni.md section 8);
// then the event retires (retire pulse to kolo_ni_ctx: cq_pi + 1 if written,
// the reservation released, OUTSTANDING - 1 if tagged). Retiring only after
// the entry write was accepted keeps every entry in host memory before a
// FENCE that waited on it lets a later operation start. Room in the CQ was
// reserved when the item was taken, so the writer never waits for CQ_CI.
// A disabled context's entries are not written (its queue was dropped).
// MSI: a written entry of a context with CTRL.msi sets its vector pending;
// pending vectors go out on msi_* one at a time (so interrupts coalesce).
module kolo_ni_cq (
    input  wire          clk,
    input  wire          rst,
    input  wire [1:0]    ev_valid,
    output wire [1:0]    ev_ready,
    input  wire [2*102-1:0] ev_data,  // {write, tagged, ctx[3:0], index[15:0], status[7:0], op[7:0], result[63:0]}
    output wire [3:0]    cfg_ctx,
    input  wire [63:0]   cfg_base,
    input  wire [3:0]    cfg_log2,
    input  wire          cfg_msi,
    input  wire [3:0]    cfg_vec,
    input  wire [15:0]   cq_pi,
    input  wire [15:0]   enabled,      // entries of disabled contexts are dropped
    output reg           retire,
    output reg  [3:0]    retire_ctx,
    output reg           retire_written,
    output reg           retire_tagged,
    output reg           wr_valid,
    input  wire          wr_ready,
    output reg  [63:0]   wr_addr,
    output wire [12:0]   wr_len,
    output reg  [255:0]  wr_data,
    output wire          wr_last,
    output wire          msi_valid,
    input  wire          msi_ready,
    output wire [4:0]    msi_vector,
    output wire [3:0]    dbg
);
  localparam C_IDLE = 2'd0, C_CALC = 2'd1, C_WR = 2'd2, C_WR_RES = 2'd3;
  reg [1:0] cs;
  reg [101:0] ev;
  reg [63:0] word0;  // {31'b0, phase, op, status, index}, written after the result
  wire [1:0] grant;
  kolo_arb_rr #(
      .N(2)
  ) u_arb (
      .clk(clk),
      .rst(rst),
      .req(cs == C_IDLE ? ev_valid : 2'b00),
      .advance(1'b1),
      .grant(grant)
  );
  assign ev_ready = grant;
  wire [101:0] in_ev = grant[1] ? ev_data[102+:102] : ev_data[0+:102];
  wire in_write = in_ev[101] && enabled[in_ev[99:96]];
  wire e_write = ev[101] && enabled[ev[99:96]];
  wire e_tagged = ev[100];
  wire [3:0] e_ctx = ev[99:96];
  assign cfg_ctx = e_ctx;
  wire [15:0] mask = (16'd1 << cfg_log2) - 16'd1;
  wire [15:0] pos = cq_pi & mask;
  wire phase = !cq_pi[cfg_log2];
  assign wr_len = 13'd8;
  assign wr_last = 1'b1;

  // The lowest pending vector goes out. Its clear uses the one-hot pick
  // (msi_oh: bit i is pending and no lower one is), not the encoded number,
  // so the priority pick is not followed by a 16-way decode (logic depth).
  reg [15:0] msi_pend;
  reg [15:0] msi_oh;
  reg [3:0] msi_sel;
  reg msi_lower;  // a vector below i is pending
  integer i;
  always @(*) begin
    msi_lower = 1'b0;
    for (i = 0; i < 16; i = i + 1) begin
      msi_oh[i] = msi_pend[i] && !msi_lower;
      msi_lower = msi_lower || msi_pend[i];
    end
    msi_sel = 4'd0;
    for (i = 0; i < 16; i = i + 1) if (msi_oh[i]) msi_sel = msi_sel | i[3:0];
  end
  assign msi_valid = msi_pend != 16'd0;
  assign msi_vector = {1'b0, msi_sel};

  always @(posedge clk) begin
    if (rst) begin
      cs <= C_IDLE;
      wr_valid <= 1'b0;
      retire <= 1'b0;
      msi_pend <= 16'd0;
    end else begin
      retire <= 1'b0;
      if (msi_ready) msi_pend <= msi_pend & ~msi_oh;
      case (cs)
        C_IDLE: if (grant != 2'b00) begin
          ev <= in_ev;
          if (in_write) cs <= C_CALC;
          else begin
            // nothing to write: retire at once
            retire <= 1'b1;
            retire_ctx <= in_ev[99:96];
            retire_written <= 1'b0;
            retire_tagged <= in_ev[100];
          end
        end
        C_CALC: begin
          wr_addr <= cfg_base + {44'd0, pos, 4'd8};
          wr_data <= {192'd0, ev[63:0]};
          word0 <= {31'd0, phase, ev[71:64], ev[79:72], ev[95:80]};
          if (e_write) begin
            wr_valid <= 1'b1;
            cs <= C_WR_RES;
          end else begin
            retire <= 1'b1;
            retire_ctx <= e_ctx;
            retire_written <= 1'b0;
            retire_tagged <= e_tagged;
            cs <= C_IDLE;
          end
        end
        C_WR_RES: if (wr_ready) begin
          wr_addr <= wr_addr - 64'd8;
          wr_data <= {192'd0, word0};
          cs <= C_WR;
        end
        C_WR: if (wr_ready) begin
          wr_valid <= 1'b0;
          retire <= 1'b1;
          retire_ctx <= e_ctx;
          retire_written <= 1'b1;
          retire_tagged <= e_tagged;
          if (cfg_msi) msi_pend[cfg_vec] <= 1'b1;
          cs <= C_IDLE;
        end
        default: cs <= C_IDLE;
      endcase
    end
  end
  assign dbg = {wr_valid, ev_valid != 2'b00, cs};
endmodule
`default_nettype wire
