`default_nettype none
// kolo_sync_pulse - one-cycle event pulses from one clock domain to another,
// as toggles.
//
// Each cycle of src_clk with src_pulse high flips a toggle register; the
// toggle crosses through kolo_sync_bit and every change seen in dst_clk's
// domain gives one dst_pulse cycle, 3 to 4 dst_clk edges after the source
// edge. Events closer together than about two dst_clk periods plus one
// src_clk period merge into one (a counter of events must be kept on the
// source side if every one matters); events never appear from nothing.
// Resets (synchronous, active high): src_rst clears the toggle, dst_rst the
// edge detector. They must be asserted together in the sense of
// kolo_reset_seq (both domains reset in one round): otherwise a reset of
// one side alone is seen as one extra event, or hides one.
module kolo_sync_pulse #(
    parameter STAGES = 2
) (
    input  wire src_clk,
    input  wire src_rst,
    input  wire src_pulse,
    input  wire dst_clk,
    input  wire dst_rst,
    output reg  dst_pulse
);
  reg src_toggle;
  always @(posedge src_clk) begin
    if (src_rst) src_toggle <= 1'b0;
    else if (src_pulse) src_toggle <= !src_toggle;
  end

  wire dst_toggle;
  kolo_sync_bit #(.WIDTH(1), .STAGES(STAGES)) u_sync (
      .clk(dst_clk),
      .in (src_toggle),
      .out(dst_toggle)
  );

  reg dst_seen;
  always @(posedge dst_clk) begin
    if (dst_rst) begin
      dst_seen  <= 1'b0;
      dst_pulse <= 1'b0;
    end else begin
      dst_seen  <= dst_toggle;
      dst_pulse <= dst_toggle ^ dst_seen;
    end
  end
endmodule
`default_nettype wire
