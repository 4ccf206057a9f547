`default_nettype none
// kolo_uart_tlp - turns the UART bridge's 32-bit register accesses
// (kolo_uart_host m_req_* / s_rsp_*) into TLPs on a kolo_chip's PCIe TLP
// streams (docs/ni.md 6: header DW0..3 in hdr[127:0], DW0 in bits 31:0,
// payload DW0 in data[31:0], dw_en), playing the host's root complex for a
// board without PCIe.
//
// A read becomes a 1-DW memory read (MRd, 3-DW header, first BE 1111, tag =
// s_req_tag, requester id REQ_ID) of BAR0 + addr; its completion (Cpl or
// CplD with that tag) answers it: status SC with one DW of data is a good
// read, any other status (UR, CA, CRS) an error. A write becomes a 1-DW
// memory write (MWr); it is posted, so it is answered (no error) as soon as
// the chip took the TLP. BAR0 is BAR0_BASE (a 32-bit address; the board
// gives the chip the same value as cfg_bar0).
// Every other TLP the chip sends (DMA reads and writes, MSIs: there is no
// host memory behind a UART) and completions with a tag nobody waits for
// (an access the bridge gave up on: s_req_abandon ends the wait for it) are
// taken and dropped, one tlp_drop pulse per TLP. So the chip's streams
// never stall on the bridge, and a read the chip never answers does not
// block the next one.
// Handshakes: s_req valid/ready (one access at a time: s_req_ready is low
// while one is out, and until its answer leaves on m_rsp, which has no
// back-pressure: the bridge always takes it); TLP streams valid/ready.
// Latency: the request TLP one cycle after the request is taken.
// Reset: rst synchronous, active high: nothing outstanding.
module kolo_uart_tlp #(
    parameter [31:0] BAR0_BASE = 32'h8000_0000,
    parameter [15:0] REQ_ID    = 16'h0000      // the "root complex": bus 0, device 0, function 0
) (
    input  wire         clk,
    input  wire         rst,
    // accesses (kolo_uart_host)
    input  wire         s_req_valid,
    output wire         s_req_ready,
    input  wire         s_req_write,
    input  wire [31:0]  s_req_addr,     // byte offset in BAR0, 4-byte aligned
    input  wire [31:0]  s_req_wdata,
    input  wire [7:0]   s_req_tag,
    input  wire         s_req_abandon,  // the bridge gave up on the pending read (its timeout)
    output reg          m_rsp_valid,
    output reg          m_rsp_err,
    output reg  [31:0]  m_rsp_data,
    output reg  [7:0]   m_rsp_tag,
    output reg          tlp_drop,
    // TLPs to the chip (the chip's rx_tlp_*)
    output reg          m_tlp_valid,
    input  wire         m_tlp_ready,
    output reg  [127:0] m_tlp_hdr,
    output reg  [255:0] m_tlp_data,
    output wire         m_tlp_sop,
    output wire         m_tlp_eop,
    output reg  [7:0]   m_tlp_dw_en,
    // TLPs from the chip (the chip's tx_tlp_*)
    input  wire         s_tlp_valid,
    output wire         s_tlp_ready,
    input  wire [127:0] s_tlp_hdr,
    input  wire [255:0] s_tlp_data,
    input  wire         s_tlp_sop,
    input  wire         s_tlp_eop,
    input  wire [7:0]   s_tlp_dw_en
);
  // ---- requests --------------------------------------------------------------------------
  reg        pending;     // a read waits for its completion
  reg [7:0]  pend_tag;
  assign s_req_ready = !m_tlp_valid && !pending && !m_rsp_valid;
  assign m_tlp_sop = 1'b1;  // every request TLP is one beat
  assign m_tlp_eop = 1'b1;
  wire [31:0] addr = BAR0_BASE + s_req_addr;
  always @(posedge clk) begin
    if (rst) begin
      m_tlp_valid <= 1'b0;
      m_tlp_hdr <= 128'd0;
      m_tlp_data <= 256'd0;
      m_tlp_dw_en <= 8'd0;
    end else if (m_tlp_valid) begin
      if (m_tlp_ready) m_tlp_valid <= 1'b0;
    end else if (s_req_valid && s_req_ready) begin
      m_tlp_valid <= 1'b1;
      // DW0: Fmt (3-DW, with data for a write), Type 00000 (memory), Length 1
      m_tlp_hdr[31:0] <= {s_req_write ? 3'b010 : 3'b000, 5'b00000, 14'd0, 10'd1};
      // DW1: requester id, tag, last BE 0000 (1 DW), first BE 1111
      m_tlp_hdr[63:32] <= {REQ_ID, s_req_tag, 4'b0000, 4'b1111};
      m_tlp_hdr[95:64] <= {addr[31:2], 2'b00};
      m_tlp_hdr[127:96] <= 32'd0;
      m_tlp_data <= {224'd0, s_req_wdata};
      m_tlp_dw_en <= s_req_write ? 8'b0000_0001 : 8'd0;
    end
  end

  // ---- TLPs from the chip ------------------------------------------------------------------
  // All taken at once. A completion starts on its sop beat: Fmt/Type in DW0,
  // status in DW1 15:13, tag in DW2 15:8, the data DW in payload DW0.
  assign s_tlp_ready = 1'b1;
  wire [31:0] dw0 = s_tlp_hdr[31:0];
  wire [31:0] dw1 = s_tlp_hdr[63:32];
  wire [31:0] dw2 = s_tlp_hdr[95:64];
  wire is_cpl = dw0[28:24] == 5'b01010;          // Cpl / CplD (not the locked ones)
  wire has_data = dw0[30];
  wire [2:0] cpl_status = dw1[15:13];
  wire [7:0] cpl_tag = dw2[15:8];
  wire head = s_tlp_valid && s_tlp_sop;
  wire ours = head && is_cpl && pending && cpl_tag == pend_tag;
  always @(posedge clk) begin
    m_rsp_valid <= 1'b0;
    tlp_drop <= 1'b0;
    if (rst) begin
      pending <= 1'b0;
      pend_tag <= 8'd0;
      m_rsp_err <= 1'b0;
      m_rsp_data <= 32'd0;
      m_rsp_tag <= 8'd0;
    end else begin
      if (s_req_valid && s_req_ready) begin
        pend_tag <= s_req_tag;
        if (s_req_write) begin
          // posted: answered once the TLP is out (m_tlp_valid falls); marked here
          m_rsp_tag <= s_req_tag;
        end else begin
          pending <= 1'b1;
        end
      end
      if (m_tlp_valid && m_tlp_ready && m_tlp_dw_en[0]) begin
        m_rsp_valid <= 1'b1;
        m_rsp_err <= 1'b0;
        m_rsp_data <= 32'd0;
      end
      if (s_req_abandon) pending <= 1'b0;
      if (ours) begin
        pending <= 1'b0;
        m_rsp_valid <= 1'b1;
        m_rsp_tag <= cpl_tag;
        m_rsp_err <= cpl_status != 3'b000 || !has_data || s_tlp_dw_en[0] == 1'b0;
        m_rsp_data <= s_tlp_data[31:0];
      end else if (head) begin
        tlp_drop <= 1'b1;
      end
    end
  end
  wire unused = &{1'b0, dw0[23:0], dw0[31], dw0[29], dw1[31:16], dw1[12:0], dw2[31:16], dw2[7:0],
                  s_tlp_hdr[127:96], s_tlp_data[255:32], s_tlp_dw_en[7:1], s_tlp_eop, addr[1:0]};
endmodule
`default_nettype wire
