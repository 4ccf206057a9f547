`default_nettype none
// BUFG (simulation model) - a 7-series global clock buffer, behavioural,
// for the board-level simulation (tb/board_sim, docs/boards.md
// "Board-level simulation"): O follows I. Not for synthesis.
module BUFG (
    input  wire I,
    output wire O
);
  assign O = I;
endmodule
`default_nettype wire
