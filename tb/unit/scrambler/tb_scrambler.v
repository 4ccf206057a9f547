`default_nettype none
// tb_scrambler - unit-test top: a kolo_scrambler and a kolo_descrambler with
// separate resets, enables and data, so that the harness can connect them
// (d_in = s_out), inject bit errors, slip words and desynchronise them.
module tb_scrambler (
    input  wire        clk,
    input  wire        s_rst,
    input  wire        s_en,
    input  wire [63:0] s_in,
    output wire [63:0] s_out,
    input  wire        d_rst,
    input  wire        d_en,
    input  wire [63:0] d_in,
    output wire [63:0] d_out
);
  kolo_scrambler u_scr (
      .clk(clk),
      .rst(s_rst),
      .en(s_en),
      .in_data(s_in),
      .out_data(s_out)
  );
  kolo_descrambler u_dscr (
      .clk(clk),
      .rst(d_rst),
      .en(d_en),
      .in_data(d_in),
      .out_data(d_out)
  );
endmodule
`default_nettype wire
