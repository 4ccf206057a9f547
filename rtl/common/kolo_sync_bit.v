`default_nettype none
// kolo_sync_bit - level synchroniser: WIDTH independent bits from another
// clock domain (or from no clock: straps, buttons) into clk's domain through
// a chain of STAGES flip-flops each.
//
// out follows in STAGES rising edges of clk later (one more edge when in
// changes close to an edge). Each bit crosses on its own: bits that change
// together may arrive one edge apart, so a multi-bit value that must stay
// consistent needs a Gray code (one bit changes at a time, as
// kolo_fifo_async's pointers), a handshake, or kolo_fifo_async. A pulse
// shorter than two periods of clk may be missed: cross events as toggles
// (kolo_sync_pulse). No reset: the chain flushes itself after STAGES edges,
// and the domain's reset covers that time (kolo_reset_sync holds a reset for
// at least as many edges).
// Timing: the path into the first stage is a false path (or set_max_delay
// -datapath_only of one clk period); the stages carry ASYNC_REG.
module kolo_sync_bit #(
    parameter WIDTH  = 1,
    parameter STAGES = 2   // >= 2
) (
    input  wire             clk,
    input  wire [WIDTH-1:0] in,    // asynchronous to clk
    output wire [WIDTH-1:0] out
);
  generate
    if (STAGES < 2 || WIDTH < 1) begin : g_bad_params
      kolo_sync_bit_PARAMETER_ERROR_STAGES_at_least_2_WIDTH_at_least_1 u_error ();
    end
  endgenerate

  // stage s at [s*WIDTH +: WIDTH]; stage 0 takes in
  (* ASYNC_REG = "TRUE" *) reg [WIDTH*STAGES-1:0] chain;
  always @(posedge clk) chain <= {chain[WIDTH*(STAGES-1)-1:0], in};
  assign out = chain[WIDTH*(STAGES-1)+:WIDTH];
endmodule
`default_nettype wire
