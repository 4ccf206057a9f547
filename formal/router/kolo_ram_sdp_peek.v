`default_nettype none
// kolo_ram_sdp (formal model, proof 2: input.sby task ram) - the module of
// rtl/common/kolo_ram_sdp.v unchanged (the same memory, write and registered
// read-first read) plus an observer for per-word invariants, the two lines
// before endmodule: peek is the word at peek_addr, an address chosen freely
// once (anyconst), read combinationally (and peek2 likewise, the framing
// proof's second word). The harness reads them through
// `connect -set` after `flatten`; a property proved for an arbitrary
// peek_addr holds for every word. make test-formal-router-input checks that
// the module minus those lines equals the RTL's.
module kolo_ram_sdp #(
    parameter WIDTH = 72,
    parameter AW    = 9
) (
    input  wire             clk,
    input  wire             we,
    input  wire [AW-1:0]    waddr,
    input  wire [WIDTH-1:0] wdata,
    input  wire             re,
    input  wire [AW-1:0]    raddr,
    output reg  [WIDTH-1:0] rdata
);
  reg [WIDTH-1:0] mem[0:(1<<AW)-1];

  always @(posedge clk) begin
    if (we) mem[waddr] <= wdata;
  end

  always @(posedge clk) begin
    if (re) rdata <= mem[raddr];
  end

  (* anyconst, keep *) reg [AW-1:0] peek_addr;
  (* keep *) wire [WIDTH-1:0] peek = mem[peek_addr];
  (* anyconst, keep *) reg [AW-1:0] peek2_addr;  // a second observed word
  (* keep *) wire [WIDTH-1:0] peek2 = mem[peek2_addr];
endmodule
`default_nettype wire
