`default_nettype none
// kolo_pcie_shim_npfc - non-posted flow control for the shims whose block
// delivers requests and completions on one stream (7-series rx_np_ok,
// Avalon-ST rx_st_mask; docs/pcie-shims.md 1).
//
// The core (kolo_pcie_ep np_credit) pulses once per non-posted request it
// can queue. This counts those credits, takes one for every non-posted
// request the block hands over (take with the TLP's header DW0: not a
// completion, not a memory write, not a message: the DW's Fmt and Type
// bits 31:24), and says np_ok while more
// than SLACK credits are left. np_ok is registered and counts this cycle's
// take and credit; a block that may still deliver up to SLACK non-posted
// requests after np_ok falls then never overruns the core's queue (so a
// request waiting for the completer never holds back the writes and
// completions behind it in the stream). A non-posted request without a
// credit (the block sent more than its allowance) fails the simulation.
// Timing: np_ok depends on registers only.
module kolo_pcie_shim_npfc #(
    parameter SLACK = 4,        // requests the block may still send once np_ok is low
    parameter MAX_CREDITS = 64  // the core's NP_DEPTH or more
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        credit,  // kolo_pcie_ep np_credit
    input  wire        take,    // a TLP starts at the block's interface, taken
    input  wire [7:0]  take_dw0,  // bits 31:24 of the TLP's header DW0 (Fmt, Type)
    output reg         np_ok
);
  localparam integer CW = $clog2(MAX_CREDITS + 2);
  generate
    if (SLACK < 0 || SLACK + 1 >= MAX_CREDITS) begin : g_bad
      kolo_pcie_shim_npfc_PARAMETER_ERROR_SLACK_needs_more_credits u_bad ();
    end
  endgenerate
  localparam [CW-1:0] SLACK_C = SLACK[CW-1:0];
  wire [1:0] fmt = take_dw0[7:6];   // Fmt bits 2:1 (prefix, with data)
  wire [4:0] typ = take_dw0[4:0];
  wire unused_fmt0 = take_dw0[5];
  wire is_cpl = typ[4:1] == 4'b0101;
  wire is_mwr = typ == 5'b00000 && fmt[0];
  wire is_msg = typ[4:3] == 2'b10;
  wire np = take && !fmt[1] && !is_cpl && !is_mwr && !is_msg;
  reg [CW-1:0] cnt;
  wire [CW-1:0] cnt_next = cnt + {{(CW-1){1'b0}}, credit} - {{(CW-1){1'b0}}, np && cnt != {CW{1'b0}}};
  always @(posedge clk) begin
    if (rst) begin
      cnt <= {CW{1'b0}};
      np_ok <= 1'b0;
    end else begin
      cnt <= cnt_next;
      np_ok <= cnt_next > SLACK_C;
    end
  end
`ifndef SYNTHESIS
`include "kolo_assert.vh"
  // a non-posted request beyond the block's allowance
  always @(posedge clk) if (!rst) `KOLO_ASSERT(!(np && cnt == {CW{1'b0}}));
`endif
endmodule
`default_nettype wire
