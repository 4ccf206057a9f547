`default_nettype none
// IBUFDS_GTE2 (simulation model) - a 7-series transceiver reference clock
// input buffer, behavioural, for the board-level simulation (tb/board_sim,
// docs/boards.md "Board-level simulation"): O follows I while CEB is low;
// ODIV2 is not modelled (held low: no kolo board uses it). Not for
// synthesis.
module IBUFDS_GTE2 #(
    parameter CLKCM_CFG    = "TRUE",
    parameter CLKRCV_TRST  = "TRUE",
    parameter CLKSWING_CFG = 2'b11
) (
    input  wire I,
    input  wire IB,
    input  wire CEB,
    output wire O,
    output wire ODIV2
);
  assign O = I && !CEB;
  assign ODIV2 = 1'b0;
  wire unused = &{1'b0, IB};
endmodule
`default_nettype wire
