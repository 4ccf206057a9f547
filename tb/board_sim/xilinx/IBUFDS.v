`default_nettype none
// IBUFDS (simulation model) - a 7-series differential input buffer,
// behavioural, for the board-level simulation (tb/board_sim,
// docs/boards.md "Board-level simulation"): O follows I (the harness
// drives IB as its complement; the model does not look at it). Not for
// synthesis.
module IBUFDS #(
    parameter DIFF_TERM    = "FALSE",
    parameter IBUF_LOW_PWR = "TRUE",
    parameter IOSTANDARD   = "DEFAULT"
) (
    input  wire I,
    input  wire IB,
    output wire O
);
  assign O = I;
  wire unused = &{1'b0, IB};
endmodule
`default_nettype wire
