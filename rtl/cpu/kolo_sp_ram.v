`default_nettype none
// kolo_sp_ram - a RAM of WORDS 32-bit words for kolo_sp (block RAM), loaded
// from INIT ($readmemh, 32-bit words from word 0; "" leaves it unloaded) at
// elaboration: the firmware image of the bitstream or simulation.
//
// Port A: read only (IMEM fetch). Port B: read and byte-lane write (the data
// side). Both synchronous: the word at a_addr/b_addr arrives in the cycle
// after the enable; without the enable the output holds. A write returns
// the old word (read first). Nothing is reset.
module kolo_sp_ram #(
    parameter WORDS = 16384,
    parameter INIT  = "",
    parameter AW    = $clog2(WORDS)
) (
    input  wire          clk,
    input  wire          a_en,
    input  wire [AW-1:0] a_addr,
    output reg  [31:0]   a_rdata,
    input  wire          b_en,
    input  wire [3:0]    b_we,
    input  wire [AW-1:0] b_addr,
    input  wire [31:0]   b_wdata,
    output reg  [31:0]   b_rdata
);
  generate
    if ((1 << AW) != WORDS) begin : g_bad_words
      WORDS_must_be_a_power_of_two_and_AW_its_log2 u_error ();
    end
  endgenerate

  reg [31:0] mem[0:WORDS-1];
  generate
    if (INIT != "") begin : g_init
      initial $readmemh(INIT, mem);
    end
  endgenerate

  always @(posedge clk) if (a_en) a_rdata <= mem[a_addr];

  integer i;
  always @(posedge clk)
    if (b_en) begin
      b_rdata <= mem[b_addr];
      for (i = 0; i < 4; i = i + 1) if (b_we[i]) mem[b_addr][8*i+:8] <= b_wdata[8*i+:8];
    end
endmodule
`default_nettype wire
