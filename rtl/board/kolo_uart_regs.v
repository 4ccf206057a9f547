`default_nettype none
// kolo_uart_regs - turns the UART bridge's 32-bit register accesses
// (kolo_uart_host m_req_* / s_rsp_*) into 32-bit AXI4-Lite accesses on a
// kolo_chip's register port (h_axil_*, HOST_IF = 1: the service block's host
// port), for a board without PCIe and without an NI (the ECP5 board).
//
// Addresses are BAR0 offsets, as the host uses them over PCIe: the service
// registers' window HOST_BASE .. HOST_BASE + 2^ADDR_W - 1 (0x8000..0xffff,
// kolo_svc_regs.toml) becomes AXI address addr - HOST_BASE. An access
// outside the window (the NI's registers and windows over PCIe: there is no
// NI here) is not sent: it is answered with an error the cycle after it is
// taken (the host sees status ERROR, as it sees an unsupported request over
// PCIe).
// A read is answered with the R beat: RRESP OKAY is a good read, any other
// an error. A write (WSTRB 1111) is answered with the B beat: BRESP OKAY is
// done, any other an error (the service block refuses a host write while
// SYS_HOST_ACCESS.WRITE_EN is 0 and counts it in SYS_HOST_REFUSED; a bad
// address or a read-only register counts in SYS_BAD_ACCESS). Unlike a
// posted PCIe write, the host learns that its write was refused.
// An access the bridge gave up on (s_req_abandon, its timeout) still runs to
// its AXI response, which is then dropped with a pulse on drop (the
// bridge's TLP_DROPS) instead of answered.
// Handshakes: s_req valid/ready, one access at a time: s_req_ready is low
// from the request taken until its answer has left on m_rsp (a one-cycle
// pulse, no back-pressure: the bridge always takes it). AXI: AW and W
// offered together, each held until taken; BREADY and RREADY always 1.
// Latency: AW+W or AR one cycle after the request is taken; the answer one
// cycle after the B or R beat.
// The bus side is the common single-access master kolo_axil_single.
// Reset: rst synchronous, active high: nothing outstanding. The
// chip's register port must be reset with it (the board resets both with
// chip_rst), so no AXI response of an access from before the reset comes.
module kolo_uart_regs #(
    parameter [31:0] HOST_BASE = 32'h8000,  // the service window's BAR0 offset (aligned to its size)
    parameter ADDR_W = 15,                  // log2 of the window's size in bytes
    parameter BUG = 0                       // tests only, a planted bug: 1 no window check (addresses alias)
) (
    input  wire              clk,
    input  wire              rst,
    // accesses (kolo_uart_host)
    input  wire              s_req_valid,
    output wire              s_req_ready,
    input  wire              s_req_write,
    input  wire [31:0]       s_req_addr,     // byte offset in BAR0, 4-byte aligned
    input  wire [31:0]       s_req_wdata,
    input  wire [7:0]        s_req_tag,
    input  wire              s_req_abandon,  // the bridge gave up on the pending access (its timeout)
    output reg               m_rsp_valid,
    output reg               m_rsp_err,
    output reg  [31:0]       m_rsp_data,
    output reg  [7:0]        m_rsp_tag,
    output reg               drop,           // an abandoned access's answer, dropped
    // the chip's register port (AXI4-Lite master)
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
  localparam [31:0] WIN_MASK = ~((32'd1 << ADDR_W) - 32'd1);
  generate
    if (ADDR_W < 2 || ADDR_W > 31 || (HOST_BASE & ~WIN_MASK) != 32'd0) begin : g_bad
      kolo_uart_regs_PARAMETER_ERROR_HOST_BASE_aligned_to_2_pow_ADDR_W u_error ();
    end
  endgenerate

  wire      busy;        // an AXI access is out (until its B or R beat)
  wire      resp;        // its B or R beat
  wire      resp_write;
  wire      resp_err;
  wire [31:0] resp_rdata;
  reg       abandoned;   // the bridge gave up on it: its answer is dropped
  reg [7:0] tag;
  assign s_req_ready = !busy && !m_rsp_valid;
  wire take = s_req_valid && s_req_ready;
  wire in_window = (s_req_addr & WIN_MASK) == HOST_BASE || BUG == 1;

  /* verilator lint_off PINCONNECTEMPTY */  // s_req_ready already waits for !busy
  kolo_axil_single #(
      .ADDR_W(ADDR_W)
  ) u_axil (
      .clk           (clk),
      .rst           (rst),
      .s_valid       (take && in_window),
      .s_ready       (),
      .s_write       (s_req_write),
      .s_addr        (s_req_addr[ADDR_W-1:0]),
      .s_wdata       (s_req_wdata),
      .s_wstrb       (4'b1111),
      .busy          (busy),
      .m_done        (resp),
      .m_done_write  (resp_write),
      .m_done_err    (resp_err),
      .m_done_rdata  (resp_rdata),
      .m_axil_awvalid(m_axil_awvalid),
      .m_axil_awready(m_axil_awready),
      .m_axil_awaddr (m_axil_awaddr),
      .m_axil_wvalid (m_axil_wvalid),
      .m_axil_wready (m_axil_wready),
      .m_axil_wdata  (m_axil_wdata),
      .m_axil_wstrb  (m_axil_wstrb),
      .m_axil_bvalid (m_axil_bvalid),
      .m_axil_bready (m_axil_bready),
      .m_axil_bresp  (m_axil_bresp),
      .m_axil_arvalid(m_axil_arvalid),
      .m_axil_arready(m_axil_arready),
      .m_axil_araddr (m_axil_araddr),
      .m_axil_rvalid (m_axil_rvalid),
      .m_axil_rready (m_axil_rready),
      .m_axil_rdata  (m_axil_rdata),
      .m_axil_rresp  (m_axil_rresp)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  always @(posedge clk) begin
    m_rsp_valid <= 1'b0;
    drop <= 1'b0;
    if (rst) begin
      abandoned <= 1'b0;
      tag <= 8'd0;
      m_rsp_err <= 1'b0;
      m_rsp_data <= 32'd0;
      m_rsp_tag <= 8'd0;
    end else begin
      if (take) begin
        tag <= s_req_tag;
        abandoned <= 1'b0;
        if (!in_window) begin
          // not in the window: answered at once with an error
          m_rsp_valid <= 1'b1;
          m_rsp_err <= 1'b1;
          m_rsp_data <= 32'd0;
          m_rsp_tag <= s_req_tag;
        end
      end
      if (s_req_abandon && busy) abandoned <= 1'b1;
      if (resp) begin
        if (abandoned || s_req_abandon) begin
          drop <= 1'b1;
        end else begin
          m_rsp_valid <= 1'b1;
          m_rsp_err <= resp_err;
          m_rsp_data <= resp_write ? 32'd0 : resp_rdata;
          m_rsp_tag <= tag;
        end
      end
    end
  end
endmodule
`default_nettype wire
