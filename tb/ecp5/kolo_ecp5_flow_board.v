`default_nettype none
// kolo_ecp5_flow_board - a tiny board top for the test of scripts/ecp5_flow.py
// in context (--lpf, --bit): a 24-bit counter on the ECP5 Evaluation Board's
// 12 MHz clock, its top 8 bits on the LEDs. Exactly 24 flip-flops, 9 pins.
module kolo_ecp5_flow_board (
    input  wire       clk12,
    output wire [7:0] led_n
);
  reg [23:0] count = 24'd0;
  always @(posedge clk12) count <= count + 24'd1;
  assign led_n = ~count[23:16];
endmodule
`default_nettype wire
