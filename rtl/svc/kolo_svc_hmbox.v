`default_nettype none
// kolo_svc_hmbox - the host mailbox of the service block (HMBOX in
// rtl/regs/kolo_svc_regs.toml): 2^AW words of 32 bits of plain storage that
// the service processor and the host both reach over the block's bus
// (kolo_svc: the host's writes gated by SYS_HOST_ACCESS.WRITE_EN there). It
// is not banked and nothing but the bus touches it: a routing-table switch
// leaves it alone. The firmware keeps its host-message area in it
// (rtl/regs/kolo_fw_msg.toml).
//
// One port, synchronous (a single block RAM or LUT RAM): an access in cycle
// t (en; we writes wdata at idx) has the word's old value on rdata in t+1;
// rdata holds it until the next access. No valid/ready: the owner (kolo_svc,
// one bus access at a time) presents at most one access per cycle.
// Reset (synchronous, active high): rst clears the words, not at once (a
// RAM has no reset) but one per cycle. clearing is high from the clock edge
// that samples rst; after rst falls the block writes 0 to word 0, 1, ...,
// 2^AW - 1, one per cycle, and clearing falls at the edge that writes the
// last: 2^AW cycles after rst, every word reads 0 until written. The owner
// must not access the RAM (en) while clearing: kolo_svc holds a bus access
// to the mailbox until it is low. Before the first rst the contents are
// whatever the RAM powered up with.
module kolo_svc_hmbox #(
    parameter AW = 6
) (
    input  wire          clk,
    input  wire          rst,
    output wire          clearing,
    input  wire          en,
    input  wire          we,
    input  wire [AW-1:0] idx,
    input  wire [31:0]   wdata,
    output reg  [31:0]   rdata
);
  reg [31:0] mem[0:(1<<AW)-1];

  // the clear: clr_run from rst until the last word is written
  reg clr_run;
  reg [AW-1:0] clr_idx;
  assign clearing = clr_run;
  always @(posedge clk) begin
    if (rst) begin
      clr_run <= 1'b1;
      clr_idx <= {AW{1'b0}};
    end else if (clr_run) begin
      clr_idx <= clr_idx + {{(AW - 1) {1'b0}}, 1'b1};
      if (clr_idx == {AW{1'b1}}) clr_run <= 1'b0;
    end
  end

  // one address for the clear and the bus (never both: en is low while clearing)
  wire [AW-1:0] addr = clr_run ? clr_idx : idx;
  always @(posedge clk) begin
    if (clr_run || (en && we)) mem[addr] <= clr_run ? 32'd0 : wdata;
    if (en) rdata <= mem[addr];
  end
endmodule
`default_nettype wire
