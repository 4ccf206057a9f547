`default_nettype none
// kolo_axil_single - a single-access AXI4-Lite master: one 32-bit read or
// write on the bus at a time. The common core of kolo's small register
// masters (kolo_sp_axil: the service processor's data bus; kolo_node_mmio:
// the host's BAR0 window; kolo_uart_regs: the UART bridge on the ECP5
// board), which add their own front ends (timeout, windows, abandon).
//
// Handshake: s_valid/s_ready takes one access (s_write, s_addr, s_wdata,
// s_wstrb); s_ready = !busy, so a new access is taken only when the last
// one's response has come. busy is high from the cycle after the take until
// the cycle of the response beat (included).
// Bus: a write offers AW and W together, a read AR, from the cycle after the
// take; each valid is held, with its payload, until its ready (AXI forbids
// withdrawing a valid). BREADY and RREADY are always 1. The response beat of
// the access (B for a write, R for a read) gives a one-cycle pulse on m_done
// in the cycle of the beat, with m_done_write (which kind), m_done_err
// (BRESP/RRESP not OKAY) and m_done_rdata (RDATA, from the bus: only valid
// with m_done). A B or R beat while no access of its kind is out is a slave
// error: it is taken (the readies are 1) and ignored.
// Latency: the address phase one cycle after the take; m_done in the
// response beat's own cycle (no register).
// Reset: rst synchronous, active high: nothing out, every valid low. The
// slave must be reset with the master (a response to an access from before
// the reset would be taken for nothing or, after a new take, for the new one).
// formal/axil_single proves the bus rules and one response per access
// against any legal slave (`make test-formal-axil_single`).
module kolo_axil_single #(
    parameter ADDR_W = 15
) (
    input  wire              clk,
    input  wire              rst,
    // one access
    input  wire              s_valid,
    output wire              s_ready,
    input  wire              s_write,
    input  wire [ADDR_W-1:0] s_addr,
    input  wire [31:0]       s_wdata,
    input  wire [3:0]        s_wstrb,
    output wire              busy,
    // its response
    output wire              m_done,
    output wire              m_done_write,
    output wire              m_done_err,
    output wire [31:0]       m_done_rdata,
    // AXI4-Lite master
    output reg               m_axil_awvalid,
    input  wire              m_axil_awready,
    output reg  [ADDR_W-1:0] m_axil_awaddr,
    output reg               m_axil_wvalid,
    input  wire              m_axil_wready,
    output reg  [31:0]       m_axil_wdata,
    output reg  [3:0]        m_axil_wstrb,
    input  wire              m_axil_bvalid,
    output wire              m_axil_bready,
    input  wire [1:0]        m_axil_bresp,
    output reg               m_axil_arvalid,
    input  wire              m_axil_arready,
    output reg  [ADDR_W-1:0] m_axil_araddr,
    input  wire              m_axil_rvalid,
    output wire              m_axil_rready,
    input  wire [31:0]       m_axil_rdata,
    input  wire [1:0]        m_axil_rresp
);
  generate
    if (ADDR_W < 1 || ADDR_W > 32) begin : g_bad
      kolo_axil_single_PARAMETER_ERROR_ADDR_W_1_to_32 u_error ();
    end
  endgenerate

  reg out;        // an access is on the bus (taken, its response not yet)
  reg out_write;  // it is a write
  wire take = s_valid && !out;
  wire b_beat = out && out_write && m_axil_bvalid;
  wire r_beat = out && !out_write && m_axil_rvalid;

  assign s_ready = !out;
  assign busy = out;
  assign m_done = b_beat || r_beat;
  assign m_done_write = out_write;
  assign m_done_err = out_write ? m_axil_bresp != 2'b00 : m_axil_rresp != 2'b00;
  assign m_done_rdata = m_axil_rdata;
  assign m_axil_bready = 1'b1;
  assign m_axil_rready = 1'b1;

  always @(posedge clk) begin
    if (rst) begin
      out <= 1'b0;
      out_write <= 1'b0;
      m_axil_awvalid <= 1'b0;
      m_axil_wvalid <= 1'b0;
      m_axil_arvalid <= 1'b0;
    end else begin
      if (m_axil_awvalid && m_axil_awready) m_axil_awvalid <= 1'b0;
      if (m_axil_wvalid && m_axil_wready) m_axil_wvalid <= 1'b0;
      if (m_axil_arvalid && m_axil_arready) m_axil_arvalid <= 1'b0;
      if (m_done) out <= 1'b0;
      if (take) begin
        out <= 1'b1;
        out_write <= s_write;
        m_axil_awvalid <= s_write;
        m_axil_wvalid <= s_write;
        m_axil_arvalid <= !s_write;
      end
    end
    if (take) begin
      m_axil_awaddr <= s_addr;
      m_axil_araddr <= s_addr;
      m_axil_wdata <= s_wdata;
      m_axil_wstrb <= s_wstrb;
    end
  end

`ifdef FORMAL
  // Every property is sampled at the clock edge (a testbench may change the
  // inputs between edges). The slave is free but legal: B only after the write's AW and W were both
  // taken, R only after the read's AR, one response per access (a response
  // owed is held until taken: the readies are 1, so it is taken at once).
  reg f_rst_seen = 1'b0;
  always @(posedge clk) if (rst) f_rst_seen <= 1'b1;
  reg f_aw_done, f_w_done, f_ar_done;  // the address/data handshakes of the access out
  always @(posedge clk) begin
    if (rst || take) begin
      f_aw_done <= 1'b0;
      f_w_done <= 1'b0;
      f_ar_done <= 1'b0;
    end else begin
      if (m_axil_awvalid && m_axil_awready) f_aw_done <= 1'b1;
      if (m_axil_wvalid && m_axil_wready) f_w_done <= 1'b1;
      if (m_axil_arvalid && m_axil_arready) f_ar_done <= 1'b1;
    end
  end
  always @(posedge clk) begin
    if (f_rst_seen && !rst) begin
      if (!(out && out_write && f_aw_done && f_w_done)) assume (!m_axil_bvalid);
      if (!(out && !out_write && f_ar_done)) assume (!m_axil_rvalid);
    end
  end
  // the valids and payloads held until taken; the access's kind and payload
  // follow the take
  reg f_past = 1'b0;
  reg f_aw_q, f_w_q, f_ar_q, f_awr_q, f_wr_q, f_arr_q, f_take_q, f_wr_kind_q, f_rst_q, f_done_q;
  reg [ADDR_W-1:0] f_addr_q, f_awaddr_q, f_araddr_q;
  reg [31:0] f_wdata_q, f_wdata_bus_q;
  reg [3:0] f_wstrb_q, f_wstrb_bus_q;
  always @(posedge clk) begin
    f_past <= 1'b1;
    f_rst_q <= rst;
    f_aw_q <= m_axil_awvalid;
    f_w_q <= m_axil_wvalid;
    f_ar_q <= m_axil_arvalid;
    f_awr_q <= m_axil_awready;
    f_wr_q <= m_axil_wready;
    f_arr_q <= m_axil_arready;
    f_take_q <= take;
    f_done_q <= m_done;
    f_wr_kind_q <= s_write;
    f_addr_q <= s_addr;
    f_wdata_q <= s_wdata;
    f_wstrb_q <= s_wstrb;
    f_awaddr_q <= m_axil_awaddr;
    f_araddr_q <= m_axil_araddr;
    f_wdata_bus_q <= m_axil_wdata;
    f_wstrb_bus_q <= m_axil_wstrb;
  end
  always @(posedge clk)
    if (f_past && f_rst_seen && !rst && !f_rst_q) begin
      // a valid not taken stays, with its payload
      if (f_aw_q && !f_awr_q) assert (m_axil_awvalid && m_axil_awaddr == f_awaddr_q);
      if (f_w_q && !f_wr_q) assert (m_axil_wvalid && m_axil_wdata == f_wdata_bus_q && m_axil_wstrb == f_wstrb_bus_q);
      if (f_ar_q && !f_arr_q) assert (m_axil_arvalid && m_axil_araddr == f_araddr_q);
      // the response ends the access: the master is free for the next
      if (f_done_q) assert (!out);
      // a take puts exactly its access on the bus
      if (f_take_q) begin
        assert (out && out_write == f_wr_kind_q);
        assert (m_axil_awvalid == f_wr_kind_q && m_axil_wvalid == f_wr_kind_q && m_axil_arvalid == !f_wr_kind_q);
        if (f_wr_kind_q) begin
          assert (m_axil_awaddr == f_addr_q && m_axil_wdata == f_wdata_q && m_axil_wstrb == f_wstrb_q);
        end else begin
          assert (m_axil_araddr == f_addr_q);
        end
      end
    end
  always @(posedge clk)
    if (f_rst_seen && !rst) begin
      // nothing on the bus without an access out, and only of its kind
      if (m_axil_awvalid || m_axil_wvalid) assert (out && out_write);
      if (m_axil_arvalid) assert (out && !out_write);
      assert (!(m_axil_awvalid && f_aw_done) && !(m_axil_wvalid && f_w_done) && !(m_axil_arvalid && f_ar_done));
      // the access out is on the bus until its address phase is over
      if (out && out_write) assert (m_axil_awvalid || f_aw_done);
      if (out && out_write) assert (m_axil_wvalid || f_w_done);
      if (out && !out_write) assert (m_axil_arvalid || f_ar_done);
      if (out && out_write) assert (!f_ar_done);
      if (out && !out_write) assert (!f_aw_done && !f_w_done);
      assert (s_ready == !out && busy == out);
      // a response is the access's own
      if (m_done) assert (out && (out_write ? m_axil_bvalid : m_axil_rvalid));
    end
  always @(posedge clk) begin
    if (f_rst_seen && !rst) begin
      cover (m_done && m_done_write);
      cover (m_done && !m_done_write && m_done_err);
    end
  end
`endif
endmodule
`default_nettype wire
