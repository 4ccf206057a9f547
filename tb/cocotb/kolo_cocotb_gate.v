`default_nettype none
// kolo_cocotb_gate - seeded back-pressure on one valid/ready stream of the
// cocotb PCIe tests (tb/cocotb): a beat passes from s_ to m_ only in cycles
// in which a 16-bit LFSR (seeded from seed and SALT) comes out at or below
// thr (0..255; 255 passes every cycle). m_valid = s_valid && open, s_ready =
// m_ready && open: the source keeps its beat until a cycle in which both
// open and m_ready are high. Data is not touched (the caller wires it).
module kolo_cocotb_gate #(
    parameter [15:0] SALT = 16'h1
) (
    input  wire        clk,
    input  wire        rst,
    input  wire [15:0] seed,
    input  wire [7:0]  thr,
    input  wire        s_valid,
    output wire        s_ready,
    output wire        m_valid,
    input  wire        m_ready
);
  reg [15:0] lfsr;
  wire open = (lfsr[7:0] ^ lfsr[15:8]) <= thr;
  assign m_valid = s_valid && open;
  assign s_ready = m_ready && open;
  always @(posedge clk) begin
    if (rst) lfsr <= (seed ^ SALT) | 16'h1;
    else lfsr <= {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
  end
endmodule
`default_nettype wire
