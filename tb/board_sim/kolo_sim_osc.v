`default_nettype none
// kolo_sim_osc - a free-running oscillator for the board-level simulation
// (timing controls, Verilator --timing): low until START_PS, then toggling
// every HALF_PS picoseconds. Not for synthesis.
module kolo_sim_osc #(
    parameter HALF_PS  = 2500,
    parameter START_PS = 0
) (
    output reg clk
);
  initial begin
    clk = 1'b0;
    if (START_PS > 0) #(START_PS);
    forever #(HALF_PS) clk = !clk;
  end
endmodule
`default_nettype wire
