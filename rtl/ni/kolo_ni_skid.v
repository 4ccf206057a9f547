`default_nettype none
// kolo_ni_skid - a pipeline register for a valid/ready stream: out_data comes
// straight from a flip-flop and in_ready = "skid register empty" is a
// flip-flop too, so neither side's logic runs into the other's. Full rate
// (one word per cycle) while out_ready stays high; one cycle of latency.
// When the output is held (out_valid && !out_ready), the one word accepted in
// that cycle waits in the skid register and in_ready drops.
module kolo_ni_skid #(
    parameter WIDTH = 8
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             in_valid,
    output wire             in_ready,
    input  wire [WIDTH-1:0] in_data,
    output reg              out_valid,
    input  wire             out_ready,
    output reg  [WIDTH-1:0] out_data
);
  reg s_valid;
  reg [WIDTH-1:0] s_data;
  assign in_ready = !s_valid;
  wire take = in_valid && !s_valid;

  always @(posedge clk) begin
    if (rst) begin
      out_valid <= 1'b0;
      s_valid <= 1'b0;
    end else if (out_ready || !out_valid) begin
      if (s_valid) begin
        out_valid <= 1'b1;
        s_valid <= 1'b0;
      end else begin
        out_valid <= in_valid;
      end
    end else if (take) begin
      s_valid <= 1'b1;
    end
  end

  always @(posedge clk) begin
    if (out_ready || !out_valid) out_data <= s_valid ? s_data : in_data;
    if (take && out_valid && !out_ready) s_data <= in_data;
  end
endmodule
`default_nettype wire
