`default_nettype none
// kolo_chip_np_credit - kolo_pcie_ep's non-posted credits (np_credit) from
// the core clock to the PCIe user clock (kolo_chip, PCIE_ASYNC = 1;
// docs/chip.md 3, crossing 4b).
//
// Every pulse is one credit the block adds up, so none may merge or get lost
// (kolo_sync_pulse would merge close pulses): the pulses are counted on the
// core side (pend) and cross one by one as tokens of a 1-bit
// kolo_fifo_async; each token read gives one m_credit pulse in
// pcie_clk's domain, up to one a cycle.
// A reset of the PCIe side alone (the block's user reset, long at power-up
// until link-up, or a hot reset) loses the tokens in flight, the block's
// count and the requests the reset drops from the TLP FIFO, while the core
// (and its NP queue) runs on. owed counts the credits the core has given
// and no request has used yet (a non-posted request the core takes,
// s_rx_take with s_rx_dw0 its header's DW0 bits 31:24); while
// rst_pcie_core is high pend is reloaded from owed, so that after the
// round the block gets back exactly the credits it lost.
// Resets: rst (core, synchronous to clk) clears everything; rst_pcie_core
// (clk) and rst_pcie (pcie_clk) are one kolo_reset_seq round. At most
// MAX_CREDITS credits are ever given and not used (the core's NP_DEPTH).
`include "kolo_assert.vh"
module kolo_chip_np_credit #(
    parameter MAX_CREDITS = 16,
    parameter BUG_NO_RELOAD = 0   // tests only: 1 = the PCIe reset loses the credits (a planted bug)
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       rst_pcie_core,
    input  wire       s_credit,      // kolo_pcie_ep np_credit
    input  wire       s_rx_take,     // the core takes the first beat of a TLP
    input  wire [7:0] s_rx_dw0,      // ... its header DW0 bits 31:24 (Fmt, Type)
    input  wire       pcie_clk,
    input  wire       rst_pcie,
    output wire       m_credit       // one pulse per credit (pcie_clk)
);
  localparam integer CW = $clog2(MAX_CREDITS + 1) + 1;
  localparam [CW-1:0] ONE = 1;
  // a non-posted request (as kolo_pcie_ep_rx classes them): no prefix, not a
  // completion, not a memory write, not a message
  wire is_cpl = s_rx_dw0[4:1] == 4'b0101;
  wire is_mwr = s_rx_dw0[4:0] == 5'd0 && s_rx_dw0[6];
  wire is_msg = s_rx_dw0[4:3] == 2'b10;
  wire unused_fmt0 = s_rx_dw0[5];
  reg  [CW-1:0] pend;   // credits not yet in the FIFO
  reg  [CW-1:0] owed;   // credits given and not used by a request
  wire used = s_rx_take && !s_rx_dw0[7] && !is_cpl && !is_mwr && !is_msg && owed != {CW{1'b0}};
  wire [CW-1:0] owed_next = owed + (s_credit ? ONE : {CW{1'b0}}) - (used ? ONE : {CW{1'b0}});
  wire tok_ready;
  wire tok_take = pend != {CW{1'b0}} && tok_ready && !rst_pcie_core;
  always @(posedge clk) begin
    if (rst) begin
      owed <= {CW{1'b0}};
      pend <= {CW{1'b0}};
    end else begin
      owed <= owed_next;
      if (rst_pcie_core && BUG_NO_RELOAD == 0) pend <= owed_next;
      else if (rst_pcie_core) pend <= {CW{1'b0}};
      else pend <= pend + (s_credit ? ONE : {CW{1'b0}}) - (tok_take ? ONE : {CW{1'b0}});
    end
  end
`ifndef SYNTHESIS
  // the core never gives more than MAX_CREDITS unused credits
  always @(posedge clk) if (!rst) `KOLO_ASSERT(!(s_credit && owed >= MAX_CREDITS[CW-1:0]));
`endif
  /* verilator lint_off PINCONNECTEMPTY */  // tokens carry no data
  kolo_fifo_async #(.WIDTH(1), .ADDR_W(2)) u_fifo (
      .wr_clk(clk), .wr_rst(rst_pcie_core),
      .in_valid(pend != {CW{1'b0}} && !rst_pcie_core), .in_ready(tok_ready), .in_data(1'b0),
      .rd_clk(pcie_clk), .rd_rst(rst_pcie),
      .out_valid(m_credit), .out_ready(1'b1), .out_data()
  );
  /* verilator lint_on PINCONNECTEMPTY */
endmodule
`default_nettype wire
