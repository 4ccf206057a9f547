`default_nettype none
// kolo_ram_sdp - simple dual-port RAM: one write port, one read port, one
// clock, written so that synthesis infers block RAM (RAMB18/36 on 7-series,
// DP16KD on ECP5, M10K on Cyclone V).
//
// DEPTH = 2**AW words of WIDTH bits. No reset: the contents are undefined
// until written.
// Write: when we, wdata is stored at waddr at the clock edge.
// Read: when re, rdata shows the word at raddr from the next cycle on (one
// cycle of latency, the block RAM's output latch) and keeps it while re is
// low. A read of the address written in the same cycle returns the old word
// (read-first); callers that need the new word must not read it in that cycle.
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
endmodule
`default_nettype wire
