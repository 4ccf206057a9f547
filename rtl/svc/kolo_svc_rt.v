`default_nettype none
// kolo_svc_rt - the NI routing table of the service block, double-buffered:
// two banks of 4096 x 32-bit entries (kolo_svc_ram, block RAM), one active
// (read by the NI's lookups), one shadow (read and written over the bus).
//
// Both banks are addressed by node index i = x + X*(y + Y*z) as the bus and
// the C model address them; a lookup converts its node id {z,y,x} to the
// index with two 16-entry tables of X*y and X*Y*z (kept in registers from
// the straps, settled 40 cycles after them) and one adder, so a lookup in cycle t (rt_lk_valid, rt_lk_id)
// has its entry on rt_lk_entry in t+1 (0 for an id outside the torus).
// epoch_we (a bus write of RT_EPOCH) switches the banks in one clock edge:
// from the next cycle on rt_epoch is the new epoch, rt_switch pulses for
// one cycle and every lookup presented reads the new bank; a lookup
// presented before the edge was read wholly from the old one.
// After a switch the new shadow is made a copy of the new active bank, one
// entry per cycle over ENTRIES entries (copying is high for ENTRIES + 1
// cycles); the owner must not use sh_* or epoch_we while copying.
// Shadow access (sh_en, not while copying): sh_we writes sh_wdata at sh_idx;
// otherwise sh_rdata holds the shadow entry in the next cycle. Indexes at or
// above ENTRIES are plain storage: never copied, never looked up. rst does
// not clear the banks (block RAM): firmware fills the shadow before its
// first switch.
module kolo_svc_rt (
    input  wire         clk,
    input  wire         rst,
    input  wire [11:0]  dim_m1,
    input  wire         rt_lk_valid,
    input  wire [11:0]  rt_lk_id,
    output wire [31:0]  rt_lk_entry,
    output reg  [15:0]  rt_epoch,
    output reg          rt_switch,
    output reg          active,
    output reg  [31:0]  switches,
    output reg  [12:0]  entries,
    output wire         copying,
    input  wire         sh_en,
    input  wire         sh_we,
    input  wire [11:0]  sh_idx,
    input  wire [31:0]  sh_wdata,
    output wire [31:0]  sh_rdata,
    input  wire         epoch_we,
    input  wire [15:0]  epoch_data
);
  // ---- sizes and the id -> index tables ---------------------------------------------
  // Built by repeated addition, one register stage per step (no multiplier,
  // no long path): they settle within 40 cycles of the straps, which are
  // static (hold rst that long after power-up).
  wire [3:0] xm1 = dim_m1[3:0], ym1 = dim_m1[7:4], zm1 = dim_m1[11:8];
  wire [7:0] size_x = {4'd0, xm1} + 8'd1;
  reg [8:0] size_xy;            // X * Y
  reg [16*8-1:0] y_off;         // X * y at [8*y +: 8]
  reg [16*12-1:0] z_off;        // X * Y * z at [12*z +: 12]
  always @(posedge clk) begin
    y_off[7:0] <= 8'd0;
    z_off[11:0] <= 12'd0;
    size_xy <= {1'b0, y_off[8*ym1+:8]} + {1'b0, size_x};
    entries <= {1'b0, z_off[12*zm1+:12]} + {4'd0, size_xy};
  end
  genvar g;
  generate
    for (g = 1; g < 16; g = g + 1) begin : g_tab
      always @(posedge clk) begin
        y_off[8*g+:8] <= y_off[8*(g-1)+:8] + size_x;
        z_off[12*g+:12] <= z_off[12*(g-1)+:12] + {3'd0, size_xy};
      end
    end
  endgenerate

  // ---- lookup ------------------------------------------------------------------------------
  wire [3:0] lx = rt_lk_id[3:0], ly = rt_lk_id[7:4], lz = rt_lk_id[11:8];
  wire [11:0] lk_idx = {8'd0, lx} + {4'd0, y_off[8*ly+:8]} + z_off[12*lz+:12];
  wire lk_in = lx <= xm1 && ly <= ym1 && lz <= zm1;
  reg lk_in_q, lk_bank_q;
  wire [31:0] a_q0, a_q1;
  always @(posedge clk) begin
    if (rt_lk_valid) begin
      lk_in_q <= lk_in;
      lk_bank_q <= active;
    end
  end
  assign rt_lk_entry = !lk_in_q ? 32'd0 : lk_bank_q ? a_q1 : a_q0;

  // ---- switch and copy ---------------------------------------------------------------------
  reg cp_run, cp_wr;
  reg [11:0] cp_rd, cp_wr_idx;
  assign copying = cp_run || cp_wr;
  always @(posedge clk) begin
    if (rst) begin
      active <= 1'b0;
      rt_epoch <= 16'd0;
      rt_switch <= 1'b0;
      switches <= 32'd0;
      cp_run <= 1'b0;
      cp_wr <= 1'b0;
    end else begin
      rt_switch <= epoch_we;
      cp_wr <= cp_run;
      if (epoch_we) begin
        active <= !active;
        rt_epoch <= epoch_data;
        switches <= switches + 32'd1;
        cp_run <= 1'b1;
      end else if (cp_run && {1'b0, cp_rd} == entries - 13'd1) begin
        cp_run <= 1'b0;
      end
    end
  end
  always @(posedge clk) begin
    cp_rd <= epoch_we ? 12'd0 : cp_rd + 12'd1;
    cp_wr_idx <= cp_rd;
  end

  // ---- the banks: port A lookups, port B copy or bus ----------------------------------------
  reg sh_bank_q;
  always @(posedge clk) if (sh_en) sh_bank_q <= !active;
  wire [31:0] b_q0, b_q1;
  wire [31:0] copy_data = active ? b_q1 : b_q0;   // the active bank's word read by the copy
  assign sh_rdata = sh_bank_q ? b_q1 : b_q0;

  wire [1:0] b_en, b_we;
  wire [2*12-1:0] b_addr;
  wire [2*32-1:0] b_wdata;
  generate
    for (g = 0; g < 2; g = g + 1) begin : g_bank
      localparam [0:0] BANK = g;
      wire is_active = active == BANK;
      assign b_en[g] = is_active ? cp_run : (cp_wr || sh_en);
      assign b_we[g] = !is_active && (cp_wr || (sh_en && sh_we));
      assign b_addr[12*g+:12] = is_active ? cp_rd : cp_wr ? cp_wr_idx : sh_idx;
      assign b_wdata[32*g+:32] = cp_wr ? copy_data : sh_wdata;
    end
  endgenerate

  kolo_svc_ram #(
      .AW(12),
      .DW(32)
  ) u_bank0 (
      .clk(clk),
      .a_en(rt_lk_valid),
      .a_addr(lk_idx),
      .a_rdata(a_q0),
      .b_en(b_en[0]),
      .b_we(b_we[0]),
      .b_addr(b_addr[11:0]),
      .b_wdata(b_wdata[31:0]),
      .b_rdata(b_q0)
  );
  kolo_svc_ram #(
      .AW(12),
      .DW(32)
  ) u_bank1 (
      .clk(clk),
      .a_en(rt_lk_valid),
      .a_addr(lk_idx),
      .a_rdata(a_q1),
      .b_en(b_en[1]),
      .b_we(b_we[1]),
      .b_addr(b_addr[23:12]),
      .b_wdata(b_wdata[63:32]),
      .b_rdata(b_q1)
  );
endmodule
`default_nettype wire
