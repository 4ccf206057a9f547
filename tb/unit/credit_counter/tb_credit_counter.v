`default_nettype none
// tb_credit_counter - unit-test top: four independent kolo_credit_counter
// instances, (MAX, INIT) = (8, 8), (1, 0), (5, 2), (80, 80). Lane k uses bit k
// of inc/dec/available/error and bits [k*8+:8] of count.
module tb_credit_counter (
    input  wire        clk,
    input  wire        rst,
    input  wire [3:0]  inc,
    input  wire [3:0]  dec,
    output wire [31:0] count,
    output wire [3:0]  available,
    output wire [3:0]  error
);
  localparam [31:0] MAXS = {8'd80, 8'd5, 8'd1, 8'd8};
  localparam [31:0] INITS = {8'd80, 8'd2, 8'd0, 8'd8};
  genvar k;
  generate
    for (k = 0; k < 4; k = k + 1) begin : g_lane
      localparam integer MAX = {24'd0, MAXS[k*8+:8]};
      localparam integer INIT = {24'd0, INITS[k*8+:8]};
      localparam integer CW = $clog2(MAX + 1);
      wire [CW-1:0] c;
      kolo_credit_counter #(
          .MAX (MAX),
          .INIT(INIT)
      ) u_cc (
          .clk(clk),
          .rst(rst),
          .inc(inc[k]),
          .dec(dec[k]),
          .count(c),
          .available(available[k]),
          .error(error[k])
      );
      assign count[k*8+:8] = {{(8 - CW) {1'b0}}, c};
    end
  endgenerate
endmodule
`default_nettype wire
