`default_nettype none
// kolo_axil_cdc - an AXI4-Lite link between two clock domains: a master on
// s_clk's side (s_axil_*), a slave on m_clk's side (m_axil_*).
//
// Each of the five channels (AW, W, B, AR, R) crosses through its own
// kolo_fifo_async of 2**ADDR_W entries, so every AXI4-Lite rule holds on both
// sides unchanged: a channel's valid/ready handshake on one side becomes a
// FIFO write, and the FIFO's head is offered (valid held, payload stable)
// until the other side takes it. Several accesses may be in flight (up to
// the FIFO depth per channel); their order is kept per channel, as AXI4-Lite
// requires. No protection bits. Latency: about 3 cycles of the receiving
// clock per crossing (kolo_fifo_async), one crossing each way per access.
// Resets: s_rst and m_rst (synchronous, active high) must be asserted in one
// round of kolo_reset_seq (kolo_fifo_async's rule): an access in flight is
// lost then, so reset the master and the slave with them.
module kolo_axil_cdc #(
    parameter ADDR_W = 15,
    parameter FIFO_ADDR_W = 2
) (
    input  wire              s_clk,
    input  wire              s_rst,
    input  wire              s_axil_awvalid,
    output wire              s_axil_awready,
    input  wire [ADDR_W-1:0] s_axil_awaddr,
    input  wire              s_axil_wvalid,
    output wire              s_axil_wready,
    input  wire [31:0]       s_axil_wdata,
    input  wire [3:0]        s_axil_wstrb,
    output wire              s_axil_bvalid,
    input  wire              s_axil_bready,
    output wire [1:0]        s_axil_bresp,
    input  wire              s_axil_arvalid,
    output wire              s_axil_arready,
    input  wire [ADDR_W-1:0] s_axil_araddr,
    output wire              s_axil_rvalid,
    input  wire              s_axil_rready,
    output wire [31:0]       s_axil_rdata,
    output wire [1:0]        s_axil_rresp,
    input  wire              m_clk,
    input  wire              m_rst,
    output wire              m_axil_awvalid,
    input  wire              m_axil_awready,
    output wire [ADDR_W-1:0] m_axil_awaddr,
    output wire              m_axil_wvalid,
    input  wire              m_axil_wready,
    output wire [31:0]       m_axil_wdata,
    output wire [3:0]        m_axil_wstrb,
    input  wire              m_axil_bvalid,
    output wire              m_axil_bready,
    input  wire [1:0]        m_axil_bresp,
    output wire              m_axil_arvalid,
    input  wire              m_axil_arready,
    output wire [ADDR_W-1:0] m_axil_araddr,
    input  wire              m_axil_rvalid,
    output wire              m_axil_rready,
    input  wire [31:0]       m_axil_rdata,
    input  wire [1:0]        m_axil_rresp
);
  kolo_fifo_async #(.WIDTH(ADDR_W), .ADDR_W(FIFO_ADDR_W)) u_aw (
      .wr_clk(s_clk), .wr_rst(s_rst),
      .in_valid(s_axil_awvalid), .in_ready(s_axil_awready), .in_data(s_axil_awaddr),
      .rd_clk(m_clk), .rd_rst(m_rst),
      .out_valid(m_axil_awvalid), .out_ready(m_axil_awready), .out_data(m_axil_awaddr)
  );
  kolo_fifo_async #(.WIDTH(36), .ADDR_W(FIFO_ADDR_W)) u_w (
      .wr_clk(s_clk), .wr_rst(s_rst),
      .in_valid(s_axil_wvalid), .in_ready(s_axil_wready), .in_data({s_axil_wstrb, s_axil_wdata}),
      .rd_clk(m_clk), .rd_rst(m_rst),
      .out_valid(m_axil_wvalid), .out_ready(m_axil_wready), .out_data({m_axil_wstrb, m_axil_wdata})
  );
  kolo_fifo_async #(.WIDTH(2), .ADDR_W(FIFO_ADDR_W)) u_b (
      .wr_clk(m_clk), .wr_rst(m_rst),
      .in_valid(m_axil_bvalid), .in_ready(m_axil_bready), .in_data(m_axil_bresp),
      .rd_clk(s_clk), .rd_rst(s_rst),
      .out_valid(s_axil_bvalid), .out_ready(s_axil_bready), .out_data(s_axil_bresp)
  );
  kolo_fifo_async #(.WIDTH(ADDR_W), .ADDR_W(FIFO_ADDR_W)) u_ar (
      .wr_clk(s_clk), .wr_rst(s_rst),
      .in_valid(s_axil_arvalid), .in_ready(s_axil_arready), .in_data(s_axil_araddr),
      .rd_clk(m_clk), .rd_rst(m_rst),
      .out_valid(m_axil_arvalid), .out_ready(m_axil_arready), .out_data(m_axil_araddr)
  );
  kolo_fifo_async #(.WIDTH(34), .ADDR_W(FIFO_ADDR_W)) u_r (
      .wr_clk(m_clk), .wr_rst(m_rst),
      .in_valid(m_axil_rvalid), .in_ready(m_axil_rready), .in_data({m_axil_rresp, m_axil_rdata}),
      .rd_clk(s_clk), .rd_rst(s_rst),
      .out_valid(s_axil_rvalid), .out_ready(s_axil_rready), .out_data({s_axil_rresp, s_axil_rdata})
  );
endmodule
`default_nettype wire
