`default_nettype none
// kolo_scrambler - self-synchronising scrambler x^58 + x^39 + 1 (IEEE 802.3
// clause 49), 64 bits per cycle.
//
// Bit 0 of in_data is first in time. Scrambled bit i of the stream is
//   s_i = d_i ^ s_{i-39} ^ s_{i-58}.
// out_data is combinational from the state and in_data. The state holds the
// last 58 scrambled bits, oldest in state[0], most recent in state[57] (so
// state[k] = s_{n-58+k} when bit n is next); on a clock edge with en = 1 it
// takes out_data[63:6]. rst (synchronous, active high, over en) sets the
// state to all ones. Matches kolo_ref_scramble in tb/common/kolo_linkref.h.
module kolo_scrambler (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire [63:0] in_data,
    output wire [63:0] out_data
);
  reg [57:0] state;
  // x[k] = s_{n-58+k}: x[57:0] the state, x[121:58] this word's output.
  reg [121:0] x;
  integer i;

  always @* begin
    x = {64'd0, state};
    for (i = 0; i < 64; i = i + 1) x[58+i] = in_data[i] ^ x[19+i] ^ x[i];
  end

  assign out_data = x[121:58];

  always @(posedge clk) begin
    if (rst) state <= {58{1'b1}};
    else if (en) state <= out_data[63:6];
  end
endmodule
`default_nettype wire
