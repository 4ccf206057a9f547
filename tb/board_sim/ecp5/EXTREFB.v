`default_nettype none
// EXTREFB (simulation model) - the ECP5 DCU's dedicated reference clock
// input buffer, for the board-level simulation (tb/board_sim, docs/boards.md
// "Board-level simulation"): REFCLKO follows REFCLKP. Not for synthesis:
// the real primitive comes from the vendor's cell library.
module EXTREFB #(
    parameter REFCK_PWDNB     = "0b1",
    parameter REFCK_RTERM     = "0b1",
    parameter REFCK_DCBIAS_EN = "0b0"
) (
    input  wire REFCLKP,
    input  wire REFCLKN,
    output wire REFCLKO
);
  assign REFCLKO = REFCK_PWDNB == "0b1" ? REFCLKP : 1'b0;
  wire unused = REFCLKN;
endmodule
`default_nettype wire
