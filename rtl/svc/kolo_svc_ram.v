`default_nettype none
// kolo_svc_ram - one bank of the service block's routing table: a block RAM
// of 2^AW words with a read-only port A and a read/write port B, both
// synchronous (the data of an access in cycle t is on *_rdata in t+1;
// port B reads the old word when it writes). Port A reads only when a_en.
module kolo_svc_ram #(
    parameter AW = 12,
    parameter DW = 32
) (
    input  wire          clk,
    input  wire          a_en,
    input  wire [AW-1:0] a_addr,
    output reg  [DW-1:0] a_rdata,
    input  wire          b_en,
    input  wire          b_we,
    input  wire [AW-1:0] b_addr,
    input  wire [DW-1:0] b_wdata,
    output reg  [DW-1:0] b_rdata
);
  reg [DW-1:0] mem[0:(1<<AW)-1];

  always @(posedge clk) if (a_en) a_rdata <= mem[a_addr];

  always @(posedge clk) begin
    if (b_en) begin
      if (b_we) mem[b_addr] <= b_wdata;
      b_rdata <= mem[b_addr];
    end
  end
endmodule
`default_nettype wire
