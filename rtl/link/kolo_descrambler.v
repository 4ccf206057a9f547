`default_nettype none
// kolo_descrambler - self-synchronising descrambler for x^58 + x^39 + 1
// (IEEE 802.3 clause 49), 64 bits per cycle; the inverse of kolo_scrambler.
//
// Bit 0 of in_data is first in time. With s the received (scrambled) bits,
// output bit i is d_i = s_i ^ s_{i-39} ^ s_{i-58}. out_data is combinational
// from the state and in_data. The state holds the last 58 received bits,
// oldest in state[0] (state[k] = s_{n-58+k} when bit n is next); on a clock
// edge with en = 1 it takes in_data[63:6]. rst (synchronous, active high, over
// en) sets it to all ones. Whatever the state, the output is right once 58
// good bits have been received; a received bit error at stream position p
// corrupts exactly the output bits p, p+39 and p+58.
// Matches kolo_ref_descramble in tb/common/kolo_linkref.h.
module kolo_descrambler (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire [63:0] in_data,
    output wire [63:0] out_data
);
  reg [57:0] state;
  // x[k] = s_{n-58+k}: the state below this word's received bits (only
  // in_data[24:0] are ever 39 or 58 bits back from a bit of this word).
  wire [82:0] x = {in_data[24:0], state};

  assign out_data = in_data ^ x[82:19] ^ x[63:0];

  always @(posedge clk) begin
    if (rst) state <= {58{1'b1}};
    else if (en) state <= in_data[63:6];
  end
endmodule
`default_nettype wire
