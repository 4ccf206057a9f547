`default_nettype none
// kolo_sync_word - a multi-bit value that changes seldom (configuration: PCIe
// BARs, straps) from one clock domain into another, always whole.
//
// The source side compares in with the value it last sent; when they differ
// and no transfer is in flight it latches in into a holding register and
// flips a request toggle. The toggle crosses through kolo_sync_bit; when the
// destination sees it flip it copies the holding register (stable for the
// whole transfer, so no bit of it is caught changing) into out, and its
// acknowledge toggle crosses back. out is therefore always a value that in
// had, never a mixture; a change that is undone before it is sent is never
// seen; the last value of in always arrives, about 3 dst_clk + 3 src_clk
// edges after it stopped changing (twice that if a transfer was in flight).
// Resets (synchronous, active high): src_rst and dst_rst, asserted together
// in the sense of kolo_reset_seq; after them out is RESET_VALUE and the
// current value of in is sent at once if it differs.
// Timing: the holding register -> out path is a multi-cycle path (it is
// stable while it is read); set_max_delay -datapath_only of one dst_clk period
// covers it, as the toggles' first synchroniser stages.
module kolo_sync_word #(
    parameter WIDTH = 32,
    parameter [WIDTH-1:0] RESET_VALUE = {WIDTH{1'b0}}
) (
    input  wire             src_clk,
    input  wire             src_rst,
    input  wire [WIDTH-1:0] in,
    input  wire             dst_clk,
    input  wire             dst_rst,
    output reg  [WIDTH-1:0] out
);
  // ---- source ---------------------------------------------------------------------
  reg [WIDTH-1:0] hold;     // the value being (or last) sent
  reg             req;      // flips once per transfer
  wire            ack_src;  // the destination's acknowledge, in src_clk's domain
  wire            idle = (req == ack_src);
  always @(posedge src_clk) begin
    if (src_rst) begin
      hold <= RESET_VALUE;
      req  <= 1'b0;
    end else if (idle && in != hold) begin
      hold <= in;
      req  <= !req;
    end
  end

  // ---- destination ---------------------------------------------------------------
  wire req_dst;
  reg  ack;
  kolo_sync_bit #(.WIDTH(1), .STAGES(2)) u_req_sync (
      .clk(dst_clk),
      .in (req),
      .out(req_dst)
  );
  always @(posedge dst_clk) begin
    if (dst_rst) begin
      out <= RESET_VALUE;
      ack <= 1'b0;
    end else if (req_dst != ack) begin
      out <= hold;
      ack <= req_dst;
    end
  end
  kolo_sync_bit #(.WIDTH(1), .STAGES(2)) u_ack_sync (
      .clk(src_clk),
      .in (ack),
      .out(ack_src)
  );
endmodule
`default_nettype wire
